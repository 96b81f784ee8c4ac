package grocery

// The analytics of the integration plan (REST /b2b/...) live in one file
// per family, each a Service method taking an input struct and returning a
// result type that carries a Basis:
//
//	geography.go           geographic prices, regional comparison
//	benchmark.go           competitive benchmark
//	brands.go              brand insights
//	analytics_snapshot.go  basket; the read of the current offers they share
//	compare.go             a banner's current price of a barcode, and the
//	                       one comparison of a banner with the market
//	analytics_period.go    category report, promotion calendar, new on shelf
//	signals.go             signals
//	brief.go               executive brief (JSON; brief_html.go the printable page)
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
