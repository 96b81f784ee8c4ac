package grocery

import "github.com/grocerydata/grocery/grocery/internal/pricestat"

// Currency is the currency of every price the service reports.
const Currency = "CAD"

// Product is a product identified by its barcode, as the catalogue knows it.
type Product struct {
	UPC      string `json:"upc"`          // barcode as printed: 12 or 13 digits (14 for a true GTIN-14)
	GTIN     string `json:"gtin"`         // the same barcode as a GTIN-14
	Name     string `json:"name"`         // product name without the brand, e.g. "2% Partly Skimmed Milk"
	Brand    string `json:"brand"`        // e.g. "Natrel"
	Size     string `json:"size"`         // e.g. "2 L", "675 g", "12 x 355 mL"
	Category string `json:"category"`     // aisle category, e.g. "Dairy & Eggs"
	Type     string `json:"product_type"` // the kind of product below the category, e.g. "skim milk"; "" when the catalogue has none
}

// Offer is the current price of a product under one banner in one province:
// the summary of the latest observations of one banner SKU across the
// province's reference stores.
type Offer struct {
	Banner         string `json:"banner"`
	BannerName     string `json:"banner_name"`
	ExternalSKU    string `json:"external_sku"`     // the banner's own SKU: the key of price_history
	Price          Cents  `json:"price"`            // most common shelf price in force among the stores
	RegularPrice   Cents  `json:"regular_price"`    // most common regular (non-promotional) price in force
	OnPromo        bool   `json:"on_promo"`         // Price is a promotional price
	PromoEnds      *Date  `json:"promo_ends"`       // last day of the promotion, or null
	PromoEnded     *Date  `json:"promo_ended"`      // when not on promotion: the stated end of a promotion the stores last carried, which ended before today; or null
	MinPrice       Cents  `json:"min_price"`        // lowest price in force among the stores
	MaxPrice       Cents  `json:"max_price"`        // highest price in force among the stores
	UnitPrice      *Cents `json:"unit_price"`       // Price per UnitPriceBasis, or null when the size has no unit
	UnitPriceBasis string `json:"unit_price_basis"` // "per 100 g", "per 100 mL", "per unit", or ""
	StoreCount     int    `json:"store_count"`      // reference stores in the province whose price is in force
	ObservedAt     Date   `json:"observed_at"`      // latest observation date
	// Low30d is the banner SKU's lowest price in force over the 30 days
	// before today (today left out), or null when it had none then.
	Low30d *Cents `json:"low_30d"`
	// TypicalPrice is its most common regular price in force over the 60
	// days up to today (each day with a price in force counted once, the
	// lower on a tie).
	TypicalPrice Cents `json:"typical_price"`
	// Verdict is the first of these that holds: VerdictLowest (Low30d is
	// not null, Price is at or below it and below TypicalPrice),
	// VerdictPromotion (OnPromo), VerdictAbove (Price above
	// TypicalPrice), VerdictUsual.
	Verdict string `json:"verdict"`
}

// The verdicts of a price (Offer.Verdict, PriceVerdict.Verdict).
const (
	VerdictLowest    = pricestat.VerdictLowest    // "lowest_in_30_days"
	VerdictPromotion = pricestat.VerdictPromotion // "on_promotion"
	VerdictUsual     = pricestat.VerdictUsual     // "usual_price"
	VerdictAbove     = pricestat.VerdictAbove     // "above_usual"
)

// LookupResult is the answer of LookupProduct.
type LookupResult struct {
	Product  Product `json:"product"`
	Province string  `json:"province"`
	Offers   []Offer `json:"offers"` // cheapest first; empty, never null, when not carried in the province
	Total    int     `json:"total"`  // current offers in the province before the limit: more than len(Offers) when cut
	Currency string  `json:"currency"`
}

// MaxSearchOffers is the most offers a search shows per product: the
// cheapest banner SKU in the entry itself, the next ones in its Offers.
// LookupProduct lists them all.
const MaxSearchOffers = 5

// SearchProduct is one product a search found, with its current prices
// in the searched province: a catalogue entry (the product's facts and
// its cheapest banner SKU's price), then how many banner SKUs price it and
// the next cheapest of them.
type SearchProduct struct {
	UPC   string `json:"upc"`
	Name  string `json:"name"`
	Brand string `json:"brand"`
	Size  string `json:"size"`
	// The cheapest banner SKU (then by banner and SKU): its banner, its
	// price in force and regular price, and its latest observation day.
	Banner       string `json:"banner"`
	BannerName   string `json:"banner_name"`
	ExternalSKU  string `json:"external_sku"`
	Price        Cents  `json:"price"`
	RegularPrice Cents  `json:"regular_price"`
	OnPromo      bool   `json:"on_promo"`
	ObservedAt   Date   `json:"observed_at"`
	// OfferCount counts the banner SKUs with a current price in the
	// province, the cheapest included: more than 1 + len(Offers) when the
	// list was cut.
	OfferCount int `json:"offer_count"`
	// Offers are the next cheapest, at most MaxSearchOffers - 1, cheapest
	// first (then by banner and SKU); empty, never null, when the product
	// has one.
	Offers []SearchOffer `json:"offers"`
}

// Shown returns the offers the entry shows, cheapest first: its own
// banner SKU's, then Offers.
func (p *SearchProduct) Shown() []SearchOffer {
	first := SearchOffer{Banner: p.Banner, ExternalSKU: p.ExternalSKU, Price: p.Price}
	if p.OnPromo {
		first.RegularPrice, first.OnPromo = p.RegularPrice, true
	}
	return append([]SearchOffer{first}, p.Offers...)
}

// SearchOffer is a product's current price under one banner SKU, as a
// search shows it: what an offer of LookupProduct says, shortened. Its
// JSON leaves out regular_price and on_promo when the price is not a
// promotion (the regular price is then the price).
type SearchOffer struct {
	Banner       string `json:"banner"`
	ExternalSKU  string `json:"external_sku"`
	Price        Cents  `json:"price"`
	RegularPrice Cents  `json:"regular_price,omitempty"` // set only when OnPromo
	OnPromo      bool   `json:"on_promo,omitempty"`
}

// SearchResult is the answer of SearchProducts.
type SearchResult struct {
	Query    string `json:"query"`
	Province string `json:"province"`
	// Results holds the matching products of the page, best match first.
	// It is empty, never null, when nothing matched.
	Results []SearchProduct `json:"results"`
	// Total is the exact number of matching products with a current price
	// in the province, before the offset and limit.
	Total int `json:"total"`
	// NextOffset is the Offset of the next page, 0 (and left out of the
	// JSON) on the last page.
	NextOffset int `json:"next_offset,omitempty"`
	// Hint, when nothing matched a query of more than one word or with a
	// size, says why: how many products each word finds alone, or that
	// the words find products but none of the size.
	Hint     string `json:"hint,omitempty"`
	Currency string `json:"currency"`
}

// PricePoint is one day of a price series: the spread of observed shelf
// prices across the reference stores that were observed that day.
type PricePoint struct {
	Date       Date  `json:"date"`
	Min        Cents `json:"min"`
	Median     Cents `json:"median"`
	Max        Cents `json:"max"`
	StoreCount int   `json:"store_count"`
}

// PriceStats summarises a series.
//
// Min, Max, Latest and ChangePct follow the daily medians (each point's
// median, exact, rounded to the cent when written): the lowest and the
// highest of them, the last, and the change of the last against the
// first, (latest / first - 1) × 100 to 0.1. StoreMin and StoreMax are the
// store-level extremes: the lowest and highest price any reference store
// showed in the window. The OpenAPI document (restserver/openapi.json)
// and the MCP tool's output schema say the same.
type PriceStats struct {
	Min       Cents   `json:"min"`        // lowest daily median
	Max       Cents   `json:"max"`        // highest daily median
	Latest    Cents   `json:"latest"`     // median of the last point
	ChangePct float64 `json:"change_pct"` // latest vs first point's median, in percent to 0.1
	StoreMin  Cents   `json:"store_min"`  // lowest store price in the window
	StoreMax  Cents   `json:"store_max"`  // highest store price in the window
}

// HistoryResult is the answer of PriceHistory.
type HistoryResult struct {
	SKU      string       `json:"sku"`
	Banner   string       `json:"banner"`
	Province string       `json:"province"`
	Period   Period       `json:"period"`
	From     Date         `json:"from"`
	To       Date         `json:"to"`
	UPC      string       `json:"upc,omitempty"`  // the product the SKU is linked to, if any
	Name     string       `json:"name,omitempty"` // its name
	Points   []PricePoint `json:"points"`         // oldest first; empty, never null, when nothing was observed
	Stats    *PriceStats  `json:"stats"`          // null when Points is empty
	// InForce is the banner's price in force on each day of the window
	// (as its offer would have been that day), oldest first: every day
	// on which a store's price is in force, observed or carried forward.
	InForce []DayInForce `json:"in_force"`
	// Verdict judges the price in force on To as an offer's verdict does
	// (Offer.Low30d, TypicalPrice and Verdict, over the 30 and 60 days up
	// to To whatever the period); null when no price is in force on To.
	Verdict  *PriceVerdict `json:"verdict"`
	Currency string        `json:"currency"`
}

// PriceVerdict is the verdict of a banner SKU's price in force on a day:
// the figures and the rule of Offer's Low30d, TypicalPrice and Verdict.
type PriceVerdict struct {
	Price        Cents  `json:"price"`
	Low30d       *Cents `json:"low_30d"`
	TypicalPrice Cents  `json:"typical_price"`
	Verdict      string `json:"verdict"`
}

// DayInForce is a banner SKU's price in force on one day: over the
// province's reference stores whose latest observation on or before the
// day is less than 14 days old (a promotion past its stated end at its
// regular price), the most common price, the lower on a tie, and likewise
// the regular price.
type DayInForce struct {
	Date         Date  `json:"date"`
	Price        Cents `json:"price"`
	RegularPrice Cents `json:"regular_price"`
	OnPromo      bool  `json:"on_promo"`
	StoreCount   int   `json:"store_count"`
}

// Store is a reference store: an active store of the collection panel.
type Store struct {
	ID              string  `json:"store_id"`
	Banner          string  `json:"banner"`
	BannerName      string  `json:"banner_name"`
	Province        string  `json:"province"`
	Name            string  `json:"name"`
	City            string  `json:"city"`
	PostalCode      string  `json:"postal_code"`
	Latitude        float64 `json:"latitude"`
	Longitude       float64 `json:"longitude"`
	Active          bool    `json:"-"`
	Observations30d int     `json:"observations_30d"` // observations in the 30 days up to the data set's latest date
	// Source names the feed the store's prices come from (SourceDemo,
	// SourceImport, "hammer", "openprices"): the source of each of its
	// observations, written in the exports of stores and observations.
	// In an import "" keeps a stored store's source and gives a new one
	// SourceImport.
	Source string `json:"-"`
}

// StoresResult is the answer of ListReferenceStores.
type StoresResult struct {
	Stores []Store `json:"stores"` // empty, never null
	Total  int     `json:"total"`  // active stores matching the filters, before the limit
	// NextOffset is the Offset of the next page, 0 (and left out of the
	// JSON) on the last page.
	NextOffset int `json:"next_offset,omitempty"`
}

// Observation is one observed shelf price of one banner SKU at one store on
// one day: the unit of price collection and of import.
type Observation struct {
	Date         Date
	StoreID      string
	Banner       string // slug; must be the store's banner
	ExternalSKU  string
	Price        Cents // shelf price paid that day
	RegularPrice Cents // regular price; equal to Price (or 0) when not on promotion
	PromoEnds    Date  // last day of the promotion, or 0
}

// SKULink records that a banner's SKU is sold under a barcode.
type SKULink struct {
	Banner      string
	ExternalSKU string
	GTIN        GTIN
}

// CatalogueItem is a product record to write: its barcode and its facts.
type CatalogueItem struct {
	GTIN     GTIN
	Name     string // the English name
	NameFr   string // the French name, "" when not known
	Brand    string
	Size     string
	Category string
	Type     string // the product type below the category ("skim milk"), "" when not known
}
