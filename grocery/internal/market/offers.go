package market

import (
	"slices"
	"sort"

	"github.com/grocerydata/grocery/storage"
)

// BannerOffer is one banner's prices of one barcode in the province, from
// the offers of its SKUs of it: its current price is the lowest current
// price in force of its SKUs (storage.Offer.Price), its regular price the
// lowest current regular price.
type BannerOffer struct {
	Banner   string
	SKU      string // the current SKU with the lowest daily price
	P, R     uint32 // lowest current price and regular price in force, half-cents
	Stores   uint32 // SKU's store count
	Observed int32  // SKU's latest day
	Current  bool   // a SKU has a current daily price
	// Last is the latest day any SKU of the banner observed the barcode,
	// LastSKU that SKU and LastP its offer's price (in force that day,
	// or on the data set's latest day while current).
	Last    int32
	LastSKU string
	LastP   uint32
}

// Price is o's current price as a Price, in cents.
func (o *BannerOffer) Price() Price {
	return Price{Banner: o.Banner, Price: float64(o.P) / 2, Regular: float64(o.R) / 2}
}

// OnPromo reports whether the banner's current price is a promotion.
func (o *BannerOffer) OnPromo() bool { return o.P < o.R }

// Group is a barcode's banners (one BannerOffer each, in banner order):
// Offers.List[Lo:Hi]. It holds every banner with a current price, and the
// own banner when it priced the barcode at any time.
type Group struct {
	GTIN   string
	Lo, Hi int
}

// Offers is a province's offers per barcode and banner, kept from one
// read to the next so that a read does not grow its slices again.
type Offers struct {
	Groups []Group       // barcodes by barcode order
	List   []BannerOffer // the groups' banners
	buf    []BannerOffer
}

// Reset empties o, letting go of what it points to.
func (o *Offers) Reset() {
	clear(o.Groups)
	clear(o.List)
	clear(o.buf)
	o.Groups, o.List, o.buf = o.Groups[:0], o.List[:0], o.buf[:0]
}

// Read reads the province's offers: per barcode, each banner's current
// prices (of the offers observed after day after) and, for the own
// banner, the latest day it priced the barcode. An offer carries its
// SKU's price in force (on the data set's latest day, or on its latest
// observation day, ObservedAt, when no store's price is in force any
// more); offers are kept when a SKU leaves the shelf, so the own banner's
// stale offers tell what it priced before.
// The offers come by barcode, banner and SKU, so a barcode's offers are
// read one after another. The barcodes skip refuses are left out.
// Read adds to o: Reset it first (or use a zero Offers) for a read of
// its own. It returns storage's error reading the offers, if any.
func (o *Offers) Read(tx *storage.Tx, province, own string, after int32, skip func(gtin string) bool) error {
	skipped := ""
	return tx.OffersIn(province, func(gtin string, of *storage.Offer) error {
		isCurrent := of.ObservedAt > after
		if !isCurrent && of.Banner != own {
			return nil
		}
		if gtin == skipped {
			return nil
		}
		n := len(o.Groups)
		if n == 0 || o.Groups[n-1].GTIN != gtin {
			if skip(gtin) {
				skipped = gtin
				return nil
			}
			if len(o.Groups) == cap(o.Groups) {
				o.Groups = slices.Grow(o.Groups, len(o.Groups)+64) // doubled: see Shelves.Read
			}
			o.Groups = append(o.Groups, Group{GTIN: gtin, Lo: len(o.List), Hi: len(o.List)})
			n++
		}
		g := &o.Groups[n-1]
		var e *BannerOffer
		if g.Hi > g.Lo && o.List[g.Hi-1].Banner == of.Banner {
			e = &o.List[g.Hi-1]
		} else {
			if len(o.List) == cap(o.List) {
				o.List = slices.Grow(o.List, len(o.List)+64)
			}
			o.List = append(o.List, BannerOffer{Banner: of.Banner})
			g.Hi = len(o.List)
			e = &o.List[g.Hi-1]
		}
		if of.ObservedAt > e.Last || (of.ObservedAt == e.Last && 2*of.Price < e.LastP) {
			e.Last, e.LastSKU, e.LastP = of.ObservedAt, of.SKU, 2*of.Price
		}
		if isCurrent {
			if !e.Current || 2*of.Price < e.P || (2*of.Price == e.P && of.SKU < e.SKU) {
				e.SKU, e.P, e.Stores, e.Observed = of.SKU, 2*of.Price, of.StoreCount, of.ObservedAt
			}
			if !e.Current || 2*of.Regular < e.R {
				e.R = 2 * of.Regular
			}
			e.Current = true
		}
		return nil
	})
}

// OwnAndOthers splits a barcode's banners (o.Groups[g]) into the own
// banner's (nil when it never priced the barcode; possibly not current)
// and the other banners with a current price; the others are valid until
// the next call.
func (o *Offers) OwnAndOthers(g int, own string) (*BannerOffer, []BannerOffer) {
	var mine *BannerOffer
	others := o.buf[:0]
	defer func() { o.buf = others[:0] }()
	list := o.List[o.Groups[g].Lo:o.Groups[g].Hi]
	for i := range list {
		switch {
		case list[i].Banner == own:
			mine = &list[i]
		case list[i].Current:
			others = append(others, list[i])
		}
	}
	return mine, others
}

// Shelves is a province's shelf records, by banner and SKU, kept from one
// read to the next like Offers.
type Shelves struct {
	List   []storage.Shelf
	ranges []bannerRange // of List, by banner
}

// bannerRange is where a banner's records are in Shelves.List.
type bannerRange struct {
	banner string
	lo, hi int
}

// Reset empties s, letting go of what it points to.
func (s *Shelves) Reset() {
	clear(s.List)
	clear(s.ranges)
	s.List, s.ranges = s.List[:0], s.ranges[:0]
}

// Read reads the province's shelf records that keep takes. It adds to
// s: Reset it first (or use a zero Shelves) for a read of its own. It
// returns storage's error reading the records, if any.
func (s *Shelves) Read(tx *storage.Tx, province string, keep func(sh *storage.Shelf) bool) error {
	return tx.ShelfIn(province, "", func(sh *storage.Shelf) error {
		if keep(sh) {
			if n := len(s.ranges); n == 0 || s.ranges[n-1].banner != sh.Banner {
				s.ranges = append(s.ranges, bannerRange{banner: sh.Banner, lo: len(s.List)})
			}
			// A province's records are tens of thousands, which append
			// grows a quarter at a time: about five times their size
			// allocated and copied on a first read. Doubling allocates
			// about twice their size.
			if len(s.List) == cap(s.List) {
				s.List = slices.Grow(s.List, len(s.List)+64)
			}
			s.List = append(s.List, *sh)
			s.ranges[len(s.ranges)-1].hi = len(s.List)
		}
		return nil
	})
}

// Banner returns a banner's shelf records, by SKU; nil when none.
func (s *Shelves) Banner(banner string) []storage.Shelf {
	for _, r := range s.ranges {
		if r.banner == banner {
			return s.List[r.lo:r.hi]
		}
	}
	return nil
}

// Find returns a banner SKU's shelf record, nil when none.
func (s *Shelves) Find(banner, sku string) *storage.Shelf { return FindSKU(s.Banner(banner), sku) }

// FindSKU returns the record of sku among one banner's shelf records (as
// Shelves.Banner gives them, by SKU), nil when none: a search of many
// SKUs of one banner finds its records once.
func FindSKU(shelves []storage.Shelf, sku string) *storage.Shelf {
	i := sort.Search(len(shelves), func(i int) bool { return shelves[i].SKU >= sku })
	if i < len(shelves) && shelves[i].SKU == sku {
		return &shelves[i]
	}
	return nil
}
