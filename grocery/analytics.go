package grocery

import "slices"

// The analytics of the integration plan (REST /b2b/...) live in one file
// per family, each a Service method taking an input struct and returning a
// result type that carries a Basis:
//
//	geography.go   geographic prices, regional comparison
//	benchmark.go   competitive benchmark
//	brands.go      brand insights
//	basket.go      basket
//	current.go     the read of the current offers the four above share
//	compare.go     a banner's current price of a barcode (market.Add,
//	               market.Offers.Read; the brief's basket takes the
//	               brief's week, not 14 days), and the one
//	               comparison of a banner with the market
//	category.go    category report
//	promos.go      promotion calendar, new on shelf
//	signals.go     signals
//	brief.go       executive brief (JSON; brief_html.go the printable page)
//
// They read the reference-store panel only: a product missing from a
// result was not observed in the panel, which is no proof it is not sold.

// Comparison names how an analytics result compared prices.
const (
	// CompareSameBarcode compares the shelf prices of one barcode.
	CompareSameBarcode = "same_barcode"
	// CompareUnitPrice compares prices per unit of size ("per 100 g",
	// "per 100 mL", "per unit") across products of different sizes.
	CompareUnitPrice = "unit_price"
)

// Basis says what an analytics result rests on, so that its reader can
// judge it: which part of the reference-store panel, over which days, and
// how prices were compared.
type Basis struct {
	Provinces    []string `json:"provinces"`      // province codes covered, sorted; empty, never null
	Banners      []string `json:"banners"`        // banner slugs covered, sorted; empty, never null
	From         *Date    `json:"from"`           // first observation day used, or null when none was
	To           *Date    `json:"to"`             // last observation day used, or null when none was
	Stores       int      `json:"stores"`         // reference stores whose observations were used
	Observations int      `json:"observations"`   // store-day observations used
	Comparison   string   `json:"comparison"`     // CompareSameBarcode or CompareUnitPrice
	Note         string   `json:"note,omitempty"` // what the numbers do not show, e.g. why a result is empty
}

func newBasis(province string, comparison string) Basis {
	return Basis{Provinces: []string{province}, Banners: []string{}, Comparison: comparison}
}

// setDates sets b's first and last day used.
func (b *Basis) setDates(lo, hi int32) {
	if lo <= hi {
		f, t := Date(lo), Date(hi)
		b.From, b.To = &f, &t
	}
}

// sortedKeys returns the keys of m (provinces, banners, GTINs,
// categories...), sorted; empty, never nil.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// priceLookback is how many days before a day the aggregates look back:
// the lowest price of the 30 days before a series' last day
// (storage.Shelf.Min30) and the prices charged in the 30 days before a
// promotion (storage.Promo.Charged and Before).
const priceLookback = 30
