package grocery

import (
	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/grocery/internal/search"
	"github.com/grocerydata/grocery/storage"
)

// A banner SKU sold under no barcode (a Project Hammer product whose upc
// is not a GTIN, an observation row without a upc) is a product of its
// own: its banner's name, brand, size and category are kept on the SKU
// (storage.SKU) and its words are indexed under it in the provinces where
// it has prices, so that searches find it; a lookup by barcode cannot. It
// has no offer record (offers are kept by barcode): its current price is
// computed when a search shows it, by the offers' rule, from its stores'
// observations of the freshness window.

// unlinked reads the search entries of banner SKUs sold under no
// barcode, reusing its buffers.
type unlinked struct {
	sku    storage.SKU
	follow pricestat.Follow
}

// entry returns the search entry of a banner SKU sold under no barcode in
// a province on asOf, the data set's latest day: found is false when the
// SKU is linked to a barcode since (its product answers), when q names a
// size it is not of, or when it has no current price. Only the count is
// wanted without full (the entry is then empty).
func (u *unlinked) entry(tx *storage.Tx, province, banner, sku string, q *search.Query, asOf int32, full bool) (e SearchProduct, found bool, err error) {
	known, err := tx.SKU(banner, sku, &u.sku)
	if err != nil || !known || u.sku.GTIN != "" {
		return e, false, err
	}
	if q != nil && q.HasSize() && !q.SizeMatches(u.sku.Size) {
		return e, false, nil
	}
	current := asOf - freshDays
	newest := int32(-1)
	scan := storage.SeriesScan{From: current + 1, To: asOf, NewestFirst: !full, SummaryOnly: !full}
	u.follow.Reset()
	err = tx.Series(banner, sku, province, scan, func(d *storage.Day) error {
		newest = max(newest, d.Date)
		if !full {
			return storage.ErrStop
		}
		for _, en := range d.Entries {
			u.follow.Observe(en.Store, pricestat.StoreObs{Date: d.Date, Price: en.Price, Regular: en.Regular, PromoEnd: en.PromoEnd})
		}
		return nil
	})
	if err != nil || newest < 0 {
		return e, false, err
	}
	if !full {
		return e, true, nil
	}
	bp, ok := u.follow.On(asOf, freshDays)
	if !ok {
		return e, false, nil
	}
	e = SearchProduct{Name: u.sku.Name, Brand: u.sku.Brand, Size: u.sku.Size, Banner: banner, BannerName: bannerName(banner),
		ExternalSKU: sku, Price: Cents(bp.Price), RegularPrice: Cents(bp.Regular), OnPromo: bp.Price < bp.Regular,
		ObservedAt: Date(newest), OfferCount: 1, Offers: []SearchOffer{}}
	return e, true, nil
}

// unlinkedStores counts the stores among a province's that have a current
// price of a banner SKU sold under no barcode (newer than current); 0
// when the SKU is linked to a barcode since (its product answers).
func unlinkedStores(tx *storage.Tx, stores []search.Store, banner, sku string, current int32) (int, error) {
	var rec storage.SKU
	if known, err := tx.SKU(banner, sku, &rec); err != nil || !known || rec.GTIN != "" {
		return 0, err
	}
	n := 0
	var l storage.Latest
	for i := range stores {
		if stores[i].Banner != banner {
			continue
		}
		found, err := tx.Latest(stores[i].ID, sku, &l)
		if err != nil {
			return 0, err
		}
		if found && l.Date > current {
			n++
		}
	}
	return n, nil
}

// unlinkedProduct reads the facts of a banner SKU sold under no barcode
// as a product without a GTIN.
func unlinkedProduct(tx *storage.Tx, banner, sku string, p *storage.Product) error {
	var rec storage.SKU
	_, err := tx.SKU(banner, sku, &rec)
	*p = storage.Product{Name: rec.Name, Brand: rec.Brand, Size: rec.Size, Category: rec.Category}
	return err
}
