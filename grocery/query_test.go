package grocery_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/grocerydata/grocery/grocery"
)

func datePtr(tb testing.TB, s string) *grocery.Date {
	d := day(tb, s)
	return &d
}

func centsPtr(c grocery.Cents) *grocery.Cents { return &c }

func TestLookupProduct(t *testing.T) {
	s := MustFixture(t)
	ctx := context.Background()

	t.Run("OK", func(t *testing.T) {
		got, err := s.LookupProduct(ctx, grocery.LookupInput{UPC: upcMilk, Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		want := &grocery.LookupResult{
			Product:  grocery.Product{UPC: upcMilk, GTIN: "00" + upcMilk, Name: "2% Partly Skimmed Milk", Brand: "Natrel", Size: "2 L", Category: "Dairy & Eggs"},
			Province: "ON",
			Offers: []grocery.Offer{
				// Cheapest first. 4.79 per 2 L is 0.2395 per 100 mL.
				{Banner: "no-frills", BannerName: "No Frills", ExternalSKU: "21000001_EA", Price: 479, RegularPrice: 479,
					MinPrice: 479, MaxPrice: 479, UnitPrice: centsPtr(24), UnitPriceBasis: "per 100 mL", StoreCount: 1, ObservedAt: day(t, asOf),
					// First seen today: no 30-day low; the typical price is today's.
					TypicalPrice: 479, Verdict: grocery.VerdictUsual},
				// Latest per store within 14 days: 4.99, 4.99 (promo), 6.29
				// (lob-on-3, from 11-12). The metro offer is stale.
				{Banner: "loblaws", BannerName: "Loblaws", ExternalSKU: "21000001_EA", Price: 499, RegularPrice: 599, OnPromo: true,
					PromoEnds: datePtr(t, "2026-11-25"), MinPrice: 499, MaxPrice: 629, UnitPrice: centsPtr(25), UnitPriceBasis: "per 100 mL",
					StoreCount: 3, ObservedAt: day(t, asOf),
					// In force at 5.99 every day from 10-29 to 11-18 (see
					// TestPriceHistory): 4.99 is below the low and the
					// typical price.
					Low30d: centsPtr(599), TypicalPrice: 599, Verdict: grocery.VerdictLowest},
			},
			Total:    2, // the two current offers; Metro's is stale
			Currency: "CAD",
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("lookup mismatch (-want +got):\n%s", diff)
		}
	})
	t.Run("OKProvinceName", func(t *testing.T) {
		for _, p := range []string{"Québec", "quebec", "qc", " QC "} {
			got, err := s.LookupProduct(ctx, grocery.LookupInput{UPC: "0-68000-00015-4", Province: p})
			if err != nil {
				t.Fatal(err)
			}
			if got.Province != "QC" || len(got.Offers) != 1 || got.Offers[0].Banner != "maxi" {
				t.Fatalf("province %q: got %s with %+v, want QC with one maxi offer", p, got.Province, got.Offers)
			}
		}
	})
	t.Run("OKLimit", func(t *testing.T) {
		got, err := s.LookupProduct(ctx, grocery.LookupInput{UPC: upcMilk, Province: "ON", Limit: grocery.Some(1)})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Offers) != 1 || got.Offers[0].Banner != "no-frills" {
			t.Fatalf("got %+v, want only the cheapest offer", got.Offers)
		}
		// The list was cut: Total still counts No Frills and Loblaws.
		if got.Total != 2 {
			t.Fatalf("total: got %d, want 2", got.Total)
		}
	})
	t.Run("OKNotCarried", func(t *testing.T) {
		for _, upc := range []string{upcIce, upcYogurt, upcSyrup} {
			got, err := s.LookupProduct(ctx, grocery.LookupInput{UPC: upc, Province: "ON"})
			if err != nil {
				t.Fatal(err)
			}
			if got.Offers == nil || len(got.Offers) != 0 || got.Total != 0 {
				t.Fatalf("%s: got offers %#v, total %d; want an empty, non-nil list, total 0", upc, got.Offers, got.Total)
			}
			if got.Product.UPC != upc {
				t.Fatalf("got product %q, want %q", got.Product.UPC, upc)
			}
		}
	})
	t.Run("OKTieGoesToLowerPrice", func(t *testing.T) {
		got, err := s.LookupProduct(ctx, grocery.LookupInput{UPC: upcIce, Province: "QC"})
		if err != nil {
			t.Fatal(err)
		}
		if o := got.Offers; len(o) != 1 || o[0].Price != 649 || o[0].MinPrice != 649 || o[0].MaxPrice != 699 || o[0].StoreCount != 2 {
			t.Fatalf("got %+v, want price 6.49 (6.49 and 6.99 tie), min 6.49, max 6.99, 2 stores", o)
		}
	})

	for _, tc := range []struct {
		name, upc, province string
		limit               int
		code, msg           string
	}{
		{"ErrNotFound", upcUnknown, "ON", 0, grocery.ENOTFOUND, "not in the catalogue"},
		{"ErrCheckDigit", "068000000155", "ON", 0, grocery.EINVALIDARGUMENT, "check digit should be 4"},
		{"ErrLength", "12345", "ON", 0, grocery.EINVALIDARGUMENT, "8, 12, 13 or 14 digits"},
		{"ErrLetters", "06800000015A", "ON", 0, grocery.EINVALIDARGUMENT, "not a barcode"},
		{"ErrEmptyUPC", "", "ON", 0, grocery.EINVALIDARGUMENT, "upc is required"},
		{"ErrProvince", upcMilk, "Ontari", 0, grocery.EINVALIDARGUMENT, "AB BC MB NB NL NS NT NU ON PE QC SK YT"},
		{"ErrNoProvince", upcMilk, "", 0, grocery.EINVALIDARGUMENT, "province is required"},
		{"ErrLimitHigh", upcMilk, "ON", 501, grocery.EINVALIDARGUMENT, "want 1 to 500"},
		{"ErrLimitNegative", upcMilk, "ON", -1, grocery.EINVALIDARGUMENT, "want 1 to 500"},
		{"ErrRestricted", "212345678909", "ON", 0, grocery.EINVALIDARGUMENT, "restricted-circulation"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.LookupProduct(ctx, grocery.LookupInput{UPC: tc.upc, Province: tc.province, Limit: given(tc.limit)})
			errCode(t, err, tc.code)
			if !strings.Contains(grocery.ErrorMessage(err), tc.msg) {
				t.Fatalf("message: got %q, want it to contain %q", grocery.ErrorMessage(err), tc.msg)
			}
		})
	}
}

func TestSearchProducts(t *testing.T) {
	s := MustFixture(t)
	ctx := context.Background()
	type entry struct{ UPC, Banner string }
	search := func(t *testing.T, q, prov string, limit int) ([]entry, int) {
		t.Helper()
		res, err := s.SearchProducts(ctx, grocery.SearchInput{Query: q, Province: prov, Limit: given(limit)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Results == nil || res.Currency != "CAD" || res.Query != q {
			t.Fatalf("got %+v, want non-nil results, CAD, the query echoed", res)
		}
		out := []entry{}
		for _, r := range res.Results {
			if r.OfferCount != 1+len(r.Offers) {
				t.Fatalf("%s: offer_count %d, %d offers; want all offers of the fixture", r.UPC, r.OfferCount, 1+len(r.Offers))
			}
			for _, o := range r.Shown() {
				out = append(out, entry{r.UPC, o.Banner})
			}
		}
		return out, res.Total
	}
	for _, tc := range []struct {
		name, query, province string
		limit                 int
		want                  []entry
		total                 int // matching products with a current price
	}{
		// Chocolate Milk has fewer words than 2% Partly Skimmed Milk:
		// the closer match ranks first. Within a product, cheapest first.
		{"OK", "milk", "ON", 0, []entry{{upcChoc, "loblaws"}, {upcMilk, "no-frills"}, {upcMilk, "loblaws"}}, 2},
		// The limit counts products: two products are all three entries.
		{"OKLimit", "milk", "ON", 2, []entry{{upcChoc, "loblaws"}, {upcMilk, "no-frills"}, {upcMilk, "loblaws"}}, 2},
		// One product of two: the total says the list was cut.
		{"OKLimitCut", "milk", "ON", 1, []entry{{upcChoc, "loblaws"}}, 2},
		{"OKBrand", "NATREL", "ON", 0, []entry{{upcChoc, "loblaws"}, {upcMilk, "no-frills"}, {upcMilk, "loblaws"}}, 2},
		{"OKEveryWord", "partly milk", "ON", 0, []entry{{upcMilk, "no-frills"}, {upcMilk, "loblaws"}}, 1},
		{"OKExactBeatsPrefix", "chocolate mil", "ON", 0, []entry{{upcChoc, "loblaws"}}, 1},
		{"OKAccents", "creme glacee", "QC", 0, []entry{{upcIce, "maxi"}}, 1},
		{"OKAccentsInQuery", "CRÈME", "QC", 0, []entry{{upcIce, "maxi"}}, 1},
		{"OKPrefix", "glac", "QC", 0, []entry{{upcIce, "maxi"}}, 1},
		{"OKApostrophe", "chapman's", "QC", 0, []entry{{upcIce, "maxi"}}, 1},
		{"OKProvinceScoped", "creme", "ON", 0, []entry{}, 0},
		{"OKStaleNotListed", "yogurt", "ON", 0, []entry{}, 0},
		{"OKNeverObserved", "maple syrup", "ON", 0, []entry{}, 0},
		{"OKNoMatch", "milk oikos", "ON", 0, []entry{}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, total := search(t, tc.query, tc.province, tc.limit)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("search %q in %s (-want +got):\n%s", tc.query, tc.province, diff)
			}
			if total != tc.total {
				t.Fatalf("search %q in %s: total %d, want %d", tc.query, tc.province, total, tc.total)
			}
		})
	}
	t.Run("OKFields", func(t *testing.T) {
		res, err := s.SearchProducts(ctx, grocery.SearchInput{Query: "partly", Province: "ON", Limit: grocery.Some(1)})
		if err != nil {
			t.Fatal(err)
		}
		// One product, a catalogue entry of its facts and its cheapest
		// banner SKU, then the next one; the regular price there only where
		// it differs.
		want := []grocery.SearchProduct{{
			UPC: upcMilk, Name: "2% Partly Skimmed Milk", Brand: "Natrel", Size: "2 L",
			Banner: "no-frills", BannerName: "No Frills", ExternalSKU: "21000001_EA", Price: 479, RegularPrice: 479,
			ObservedAt: day(t, "2026-11-19"), OfferCount: 2,
			Offers: []grocery.SearchOffer{
				{Banner: "loblaws", ExternalSKU: "21000001_EA", Price: 499, RegularPrice: 599, OnPromo: true},
			},
		}}
		if diff := cmp.Diff(want, res.Results); diff != "" {
			t.Fatalf("entry mismatch (-want +got):\n%s", diff)
		}
		const wantJSON = `[{"upc":"` + upcMilk + `","name":"2% Partly Skimmed Milk","brand":"Natrel","size":"2 L",` +
			`"banner":"no-frills","banner_name":"No Frills","external_sku":"21000001_EA","price":4.79,"regular_price":4.79,` +
			`"on_promo":false,"observed_at":"2026-11-19","offer_count":2,"offers":[` +
			`{"banner":"loblaws","external_sku":"21000001_EA","price":4.99,"regular_price":5.99,"on_promo":true}]}]`
		if b, _ := json.Marshal(res); !strings.Contains(string(b), `"results":`+wantJSON+`,"total":1,"currency":"CAD"`) {
			t.Fatalf("JSON: got %s, want results %s and no next_offset", b, wantJSON)
		}
	})
	for _, tc := range []struct{ name, query, province, msg string }{
		{"ErrEmptyQuery", " ,. ", "ON", "query is required"},
		{"ErrProvince", "milk", "Canada", "want one of AB"},
		{"ErrTooManyWords", "j b c d e f g h i", "ON", "at most 8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.SearchProducts(ctx, grocery.SearchInput{Query: tc.query, Province: tc.province})
			errCode(t, err, grocery.EINVALIDARGUMENT)
			if !strings.Contains(grocery.ErrorMessage(err), tc.msg) {
				t.Fatalf("message: got %q, want it to contain %q", grocery.ErrorMessage(err), tc.msg)
			}
		})
	}
}

// TestSearchProductsTotal checks the count of the products past the page:
// a stale match is not counted, a current one is, and a page of one
// product holds all of that product's banner entries.
func TestSearchProductsTotal(t *testing.T) {
	s := MustFixture(t)
	ctx := context.Background()
	const (
		upcOikos   = "062910415015" // "Yogurt", Oikos: two words, the closest match
		upcVanilla = "062910415022" // "Greek Yogurt Vanilla", Oikos
	)
	b := &grocery.Batch{
		Products: []grocery.CatalogueItem{
			{GTIN: gtin(t, upcOikos), Name: "Yogurt", Brand: "Oikos", Size: "650 g", Category: "Dairy & Eggs"},
			{GTIN: gtin(t, upcVanilla), Name: "Greek Yogurt Vanilla", Brand: "Oikos", Size: "650 g", Category: "Dairy & Eggs"},
		},
		Links: []grocery.SKULink{
			{Banner: "loblaws", ExternalSKU: "21000011_EA", GTIN: gtin(t, upcOikos)},
			{Banner: "no-frills", ExternalSKU: "21000011_EA", GTIN: gtin(t, upcOikos)},
			{Banner: "loblaws", ExternalSKU: "21000012_EA", GTIN: gtin(t, upcVanilla)},
		},
		Observations: []grocery.Observation{
			{Date: day(t, asOf), StoreID: "lob-on-1", Banner: "loblaws", ExternalSKU: "21000011_EA", Price: 599, RegularPrice: 599},
			{Date: day(t, asOf), StoreID: "nf-on-1", Banner: "no-frills", ExternalSKU: "21000011_EA", Price: 549, RegularPrice: 549},
			{Date: day(t, asOf), StoreID: "lob-on-2", Banner: "loblaws", ExternalSKU: "21000012_EA", Price: 649, RegularPrice: 649},
		},
	}
	// Before the write, only the fixture's Greek Yogurt Plain matches,
	// last observed 35 days ago: nothing counts. The write's new offer
	// days must reach the next search.
	before, err := s.SearchProducts(ctx, grocery.SearchInput{Query: "oikos", Province: "ON", Limit: grocery.Some(10)})
	if err != nil {
		t.Fatal(err)
	}
	if before.Total != 0 || len(before.Results) != 0 {
		t.Fatalf("before the write: got total %d and %d results, want 0 and 0", before.Total, len(before.Results))
	}
	if _, err := grocery.WriteBatch(ctx, s, b); err != nil {
		t.Fatal(err)
	}
	type entry struct{ UPC, Banner string }
	for _, tc := range []struct {
		name  string
		limit int
		want  []entry
		total int
	}{
		// "oikos" matches three products: Yogurt (2 words), Greek Yogurt
		// Vanilla and the fixture's Greek Yogurt Plain (4 words each). The
		// plain one was last observed 35 days ago: not counted.
		{"OKOneProduct", 1, []entry{{upcOikos, "no-frills"}, {upcOikos, "loblaws"}}, 2},
		{"OKAll", 10, []entry{{upcOikos, "no-frills"}, {upcOikos, "loblaws"}, {upcVanilla, "loblaws"}}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := s.SearchProducts(ctx, grocery.SearchInput{Query: "oikos", Province: "ON", Limit: grocery.Some(tc.limit)})
			if err != nil {
				t.Fatal(err)
			}
			got := []entry{}
			for _, r := range res.Results {
				for _, o := range r.Shown() {
					got = append(got, entry{r.UPC, o.Banner})
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("results (-want +got):\n%s", diff)
			}
			if res.Total != tc.total {
				t.Fatalf("total: got %d, want %d", res.Total, tc.total)
			}
		})
	}
}

func TestPriceHistory(t *testing.T) {
	s := MustFixture(t)
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		got, err := s.PriceHistory(ctx, grocery.HistoryInput{SKU: "21000001_EA", Banner: "Loblaws", Province: "ontario"})
		if err != nil {
			t.Fatal(err)
		}
		want := &grocery.HistoryResult{
			SKU: "21000001_EA", Banner: "loblaws", Province: "ON", Period: 30,
			From: day(t, "2026-10-21"), To: day(t, asOf), UPC: upcMilk, Name: "2% Partly Skimmed Milk",
			Points: []grocery.PricePoint{
				{Date: day(t, "2026-10-29"), Min: 599, Median: 625, Max: 650, StoreCount: 2},
				{Date: day(t, "2026-11-05"), Min: 599, Median: 599, Max: 629, StoreCount: 3},
				{Date: day(t, "2026-11-12"), Min: 599, Median: 599, Max: 629, StoreCount: 3},
				{Date: day(t, "2026-11-19"), Min: 499, Median: 499, Max: 499, StoreCount: 2},
			},
			// The stats follow the daily medians: 10-29's is the mean of
			// 5.99 and 6.50, 6.245 exactly (written 6.25), the highest;
			// 11-19's 4.99 the lowest and the latest. Change: 4.99 /
			// 6.245 - 1 = -20.096 % -> -20.1. The stores' extremes apart:
			// 4.99 and 6.50.
			Stats: &grocery.PriceStats{Min: 499, Max: 625, Latest: 499, ChangePct: -20.1, StoreMin: 499, StoreMax: 650},
			// As the offer's.
			Verdict:  &grocery.PriceVerdict{Price: 499, Low30d: centsPtr(599), TypicalPrice: 599, Verdict: grocery.VerdictLowest},
			Currency: "CAD",
		}
		// In force: nothing before 10-29; from 10-29 lob-on-1 5.99 and
		// lob-on-2 6.50, tied: the lower, 5.99 (regular likewise), 2
		// stores; from 11-05 three stores at 5.99, 5.99, 6.29: 5.99; on
		// 11-19 the promotion at two stores (4.99, regular 5.99) with
		// lob-on-3's 6.29 of 11-12 carried forward: 4.99 on promotion,
		// regular 5.99, 3 stores.
		for d := day(t, "2026-10-29"); d <= day(t, "2026-11-18"); d++ {
			stores := 3
			if d < day(t, "2026-11-05") {
				stores = 2
			}
			want.InForce = append(want.InForce, grocery.DayInForce{Date: d, Price: 599, RegularPrice: 599, StoreCount: stores})
		}
		want.InForce = append(want.InForce, grocery.DayInForce{Date: day(t, "2026-11-19"), Price: 499, RegularPrice: 599, OnPromo: true, StoreCount: 3})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("history mismatch (-want +got):\n%s", diff)
		}
	})
	t.Run("OKPeriod", func(t *testing.T) {
		got, err := s.PriceHistory(ctx, grocery.HistoryInput{SKU: "21000001_EA", Banner: "loblaws", Province: "ON", Period: "7d"})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Points) != 1 || got.From != day(t, "2026-11-13") || got.Period.String() != "7d" {
			t.Fatalf("got %d points from %s (%s), want 1 from 2026-11-13 (7d)", len(got.Points), got.From, got.Period)
		}
	})
	t.Run("OKProvinceScoped", func(t *testing.T) {
		// Maxi's SKU has the same text as Loblaws'; the QC series holds
		// only QC stores.
		got, err := s.PriceHistory(ctx, grocery.HistoryInput{SKU: "21000001_EA", Banner: "maxi", Province: "QC"})
		if err != nil {
			t.Fatal(err)
		}
		want := []grocery.PricePoint{{Date: day(t, asOf), Min: 549, Median: 549, Max: 549, StoreCount: 2}}
		if diff := cmp.Diff(want, got.Points); diff != "" {
			t.Fatalf("points (-want +got):\n%s", diff)
		}
	})
	t.Run("OKEmptyInOtherProvince", func(t *testing.T) {
		got, err := s.PriceHistory(ctx, grocery.HistoryInput{SKU: "21000001_EA", Banner: "loblaws", Province: "BC"})
		if err != nil {
			t.Fatal(err)
		}
		if got.Points == nil || len(got.Points) != 0 || got.Stats != nil {
			t.Fatalf("got points %#v stats %+v, want an empty list and no stats", got.Points, got.Stats)
		}
	})
	for _, tc := range []struct {
		name string
		in   grocery.HistoryInput
		code string
		msg  string
	}{
		{"ErrBarcodeAsSKU", grocery.HistoryInput{SKU: upcMilk, Banner: "loblaws", Province: "ON"}, grocery.ENOTFOUND, "is a barcode, not an external_sku"},
		{"ErrUnknownSKU", grocery.HistoryInput{SKU: "nope", Banner: "loblaws", Province: "ON"}, grocery.ENOTFOUND, "; take the external_sku of an offer or a search hit from LookupProduct or SearchProducts"},
		{"ErrOtherBannersSKU", grocery.HistoryInput{SKU: "MET0001", Banner: "loblaws", Province: "ON"}, grocery.ENOTFOUND, "no external_sku"},
		{"ErrNoSKU", grocery.HistoryInput{Banner: "loblaws", Province: "ON"}, grocery.EINVALIDARGUMENT, "sku is required"},
		{"ErrBanner", grocery.HistoryInput{SKU: "x", Banner: "Loblaw's Great", Province: "ON"}, grocery.EINVALIDARGUMENT, "no-frills"},
		{"ErrPeriod", grocery.HistoryInput{SKU: "x", Banner: "loblaws", Province: "ON", Period: "31d"}, grocery.EINVALIDARGUMENT, "7d, 14d, 30d, 90d, 180d, 365d"},
		{"ErrProvince", grocery.HistoryInput{SKU: "x", Banner: "loblaws", Province: "XX"}, grocery.EINVALIDARGUMENT, "want one of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.PriceHistory(ctx, tc.in)
			errCode(t, err, tc.code)
			if !strings.Contains(grocery.ErrorMessage(err), tc.msg) {
				t.Fatalf("message: got %q, want it to contain %q", grocery.ErrorMessage(err), tc.msg)
			}
		})
	}
}

func TestListReferenceStores(t *testing.T) {
	s := MustFixture(t)
	ctx := context.Background()
	type row struct {
		ID  string
		Obs int
	}
	list := func(t *testing.T, in grocery.StoresInput) ([]row, int) {
		t.Helper()
		res, err := s.ListReferenceStores(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		out := []row{}
		for _, st := range res.Stores {
			out = append(out, row{st.ID, st.Observations30d})
		}
		return out, res.Total
	}
	for _, tc := range []struct {
		name  string
		in    grocery.StoresInput
		want  []row
		total int
	}{
		// Observations from 2026-10-21 to 2026-11-19; the 10-15 yogurt is
		// older. The closed metro store is never listed.
		{"OKProvince", grocery.StoresInput{Province: "ON"}, []row{{"lob-on-1", 5}, {"lob-on-2", 4}, {"lob-on-3", 2}, {"nf-on-1", 1}}, 4},
		{"OKLimit", grocery.StoresInput{Province: "on", Limit: grocery.Some(2)}, []row{{"lob-on-1", 5}, {"lob-on-2", 4}}, 4},
		{"OKBanner", grocery.StoresInput{Banner: "No Frills"}, []row{{"nf-on-1", 1}}, 1},
		{"OKBoth", grocery.StoresInput{Province: "QC", Banner: "maxi"}, []row{{"maxi-qc-1", 2}, {"maxi-qc-2", 2}}, 2},
		{"OKAll", grocery.StoresInput{Limit: grocery.Some(50)}, []row{{"lob-on-1", 5}, {"lob-on-2", 4}, {"lob-on-3", 2}, {"nf-on-1", 1}, {"maxi-qc-1", 2}, {"maxi-qc-2", 2}}, 6},
		{"OKNone", grocery.StoresInput{Province: "NU"}, []row{}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, total := list(t, tc.in)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("stores (-want +got):\n%s", diff)
			}
			if total != tc.total {
				t.Fatalf("total: got %d, want %d", total, tc.total)
			}
		})
	}
	t.Run("OKFields", func(t *testing.T) {
		res, err := s.ListReferenceStores(ctx, grocery.StoresInput{Province: "QC", Limit: grocery.Some(1)})
		if err != nil {
			t.Fatal(err)
		}
		want := grocery.Store{ID: "maxi-qc-1", Banner: "maxi", BannerName: "Maxi", Province: "QC", Name: "maxi-qc-1", City: "Montréal",
			PostalCode: "H2X 1Y4", Latitude: 45, Longitude: -75, Active: true, Observations30d: 2}
		if diff := cmp.Diff(want, res.Stores[0]); diff != "" {
			t.Fatalf("store (-want +got):\n%s", diff)
		}
	})
	for _, tc := range []struct {
		name string
		in   grocery.StoresInput
		msg  string
	}{
		{"ErrProvince", grocery.StoresInput{Province: "Ontari"}, "want one of"},
		{"ErrBanner", grocery.StoresInput{Banner: "costcoo"}, "banner \"costcoo\" is unknown"},
		{"ErrLimit", grocery.StoresInput{Limit: grocery.Some(501)}, "want 1 to 500"},
		{"ErrNear", grocery.StoresInput{Near: "XYZ"}, `near "XYZ": want the form A1A 1A1`},
		{"ErrNearProvince", grocery.StoresInput{Near: "M5V 1A1", Province: "QC"}, "near M5V 1A1 is in ON, not QC: give one or the other"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.ListReferenceStores(ctx, tc.in)
			errCode(t, err, grocery.EINVALIDARGUMENT)
			if !strings.Contains(grocery.ErrorMessage(err), tc.msg) {
				t.Fatalf("message: got %q, want it to contain %q", grocery.ErrorMessage(err), tc.msg)
			}
		})
	}
}

func TestWriteBatch(t *testing.T) {
	ctx := context.Background()
	t.Run("OKIdempotent", func(t *testing.T) {
		s := MustFixture(t)
		b := fixtureBatch(t)
		st, err := grocery.WriteBatch(ctx, s, b)
		if err != nil {
			t.Fatal(err)
		}
		want := grocery.BatchStats{StoresUnchanged: len(b.Stores), ObsUnchanged: len(b.Observations)}
		if diff := cmp.Diff(want, st, cmpopts.IgnoreUnexported(grocery.BatchStats{})); diff != "" {
			t.Fatalf("rewrite (-want +got):\n%s", diff)
		}
	})
	t.Run("OKUpdate", func(t *testing.T) {
		s := MustFixture(t)
		upd := &grocery.Batch{Observations: []grocery.Observation{
			{Date: day(t, asOf), StoreID: "nf-on-1", Banner: "no-frills", ExternalSKU: "21000001_EA", Price: 459, RegularPrice: 459},
			{Date: day(t, asOf), StoreID: "lob-on-3", Banner: "loblaws", ExternalSKU: "21000001_EA", Price: 499, RegularPrice: 599, PromoEnds: day(t, "2026-11-25")},
		}}
		st, err := grocery.WriteBatch(ctx, s, upd)
		if err != nil {
			t.Fatal(err)
		}
		if st.ObsUpdated != 1 || st.ObsNew != 1 {
			t.Fatalf("got %+v, want 1 updated, 1 new", st)
		}
		res, err := s.LookupProduct(ctx, grocery.LookupInput{UPC: upcMilk, Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		if o := res.Offers; o[0].Price != 459 || o[1].StoreCount != 3 || o[1].MaxPrice != 499 {
			t.Fatalf("got %+v, want no-frills at 4.59 and loblaws' three stores all at 4.99", o)
		}
	})
	t.Run("ErrUnknownStoreWritesNothing", func(t *testing.T) {
		s := MustFixture(t)
		bad := &grocery.Batch{
			Stores: []grocery.Store{{ID: "new-1", Banner: "metro", Province: "QC", Name: "x", City: "Laval", PostalCode: "H7N 1A1", Latitude: 45, Longitude: -73, Active: true}},
			Observations: []grocery.Observation{
				{Date: day(t, "2026-11-20"), StoreID: "nf-on-1", Banner: "no-frills", ExternalSKU: "21000001_EA", Price: 1, RegularPrice: 1},
				{Date: day(t, "2026-11-20"), StoreID: "nowhere", Banner: "no-frills", ExternalSKU: "21000001_EA", Price: 1, RegularPrice: 1},
			},
		}
		_, err := grocery.WriteBatch(ctx, s, bad)
		errCode(t, err, grocery.EINVALIDARGUMENT)
		if !strings.Contains(err.Error(), `"nowhere"`) {
			t.Fatalf("got %v, want it to name the store", err)
		}
		stores, _ := s.ListReferenceStores(ctx, grocery.StoresInput{Province: "QC"})
		hist, _ := s.PriceHistory(ctx, grocery.HistoryInput{SKU: "21000001_EA", Banner: "no-frills", Province: "ON"})
		if stores.Total != 2 || hist.To != day(t, asOf) || len(hist.Points) != 1 {
			t.Fatalf("after a failed batch: %d QC stores, history to %s with %d points; want 2, %s, 1 (nothing written)", stores.Total, hist.To, len(hist.Points), asOf)
		}
	})
	t.Run("ErrWrongBanner", func(t *testing.T) {
		s := MustFixture(t)
		_, err := grocery.WriteBatch(ctx, s, &grocery.Batch{Observations: []grocery.Observation{
			{Date: day(t, asOf), StoreID: "nf-on-1", Banner: "loblaws", ExternalSKU: "x", Price: 1, RegularPrice: 1}}})
		errCode(t, err, grocery.EINVALIDARGUMENT)
	})
	t.Run("OKRenameReindexes", func(t *testing.T) {
		s := MustFixture(t)
		_, err := grocery.WriteBatch(ctx, s, &grocery.Batch{UpdateNames: true, Products: []grocery.CatalogueItem{
			{GTIN: gtin(t, upcChoc), Name: "Cocoa Drink", Brand: "Natrel", Size: "1 L", Category: "Dairy & Eggs"}}})
		if err != nil {
			t.Fatal(err)
		}
		for q, want := range map[string]int{"chocolate": 0, "cocoa": 1} {
			res, err := s.SearchProducts(ctx, grocery.SearchInput{Query: q, Province: "ON"})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Results) != want {
				t.Fatalf("search %q after rename: got %d results, want %d", q, len(res.Results), want)
			}
		}
	})
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "grocery.db")
	t.Run("ErrMissingReadOnly", func(t *testing.T) {
		_, err := grocery.Open(filepath.Join(dir, "missing.db"), &grocery.Options{ReadOnly: true})
		errCode(t, err, grocery.ENOTFOUND)
	})
	t.Run("ErrNotDataFile", func(t *testing.T) {
		junk := filepath.Join(dir, "junk.db")
		if err := os.WriteFile(junk, []byte(strings.Repeat("not a database ", 500)), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := grocery.Open(junk, nil)
		errCode(t, err, grocery.EINVALIDARGUMENT)
	})
	t.Run("ErrLocked", func(t *testing.T) {
		s, err := grocery.Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		// bbolt's lock is per open file description, so a second open in
		// this process contends like another process would.
		_, err = grocery.Open(path, &grocery.Options{LockTimeout: 200 * time.Millisecond})
		errCode(t, err, grocery.ECONFLICT)
		// The message says what to do about it.
		for _, want := range []string{"in use by another process", "stop it", "open another file", "demo data file of your own", "ask the running server over REST or MCP"} {
			if !strings.Contains(grocery.ErrorMessage(err), want) {
				t.Errorf("got %q, want it to say %q", grocery.ErrorMessage(err), want)
			}
		}
	})
}

// A price feed may name a barcode before the catalogue has its facts: the
// product is known (with empty facts) and its offers show; when its name
// arrives, search finds it.
func TestBarcodeBeforeFacts(t *testing.T) {
	s := MustFixture(t)
	ctx := context.Background()
	const upc = "060383000035"
	_, err := grocery.WriteBatch(ctx, s, &grocery.Batch{
		Links:        []grocery.SKULink{{Banner: "no-frills", ExternalSKU: "21000003_EA", GTIN: gtin(t, upc)}},
		Observations: []grocery.Observation{{Date: day(t, asOf), StoreID: "nf-on-1", Banner: "no-frills", ExternalSKU: "21000003_EA", Price: 299, RegularPrice: 299}},
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.LookupProduct(ctx, grocery.LookupInput{UPC: upc, Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Product.Name != "" || len(res.Offers) != 1 || res.Offers[0].Price != 299 {
		t.Fatalf("got %+v with offers %+v, want a nameless product with one offer at 2.99", res.Product, res.Offers)
	}
	_, err = grocery.WriteBatch(ctx, s, &grocery.Batch{Products: []grocery.CatalogueItem{
		{GTIN: gtin(t, upc), Name: "Peanut Butter Smooth", Brand: "Kraft", Size: "1 kg", Category: "Pantry"}}})
	if err != nil {
		t.Fatal(err)
	}
	found, err := s.SearchProducts(ctx, grocery.SearchInput{Query: "peanut butter", Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	if len(found.Results) != 1 || found.Results[0].UPC != upc {
		t.Fatalf("search after naming: got %+v, want the product", found.Results)
	}
}

// given is the limit n of a table of cases, where 0 is "no limit given".
func given(n int) grocery.Opt[int] {
	if n == 0 {
		return grocery.Opt[int]{}
	}
	return grocery.Some(n)
}
