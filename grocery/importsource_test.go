package grocery_test

import (
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/publicdata"
	"github.com/parquet-go/parquet-go"
)

func sourceFiles(names ...string) []grocery.SourceFile {
	var out []grocery.SourceFile
	for _, n := range names {
		path := filepath.Join("..", "publicdata", "testdata", n)
		out = append(out, grocery.SourceFile{Name: n, Open: func() (io.ReadCloser, error) { return os.Open(path) }})
	}
	return out
}

// TestImportSourceHammer imports the Project Hammer fixtures, the two CSV
// files or the SQLite file holding the same rows, and asks every query of
// them: the imported data answers as the demo's does.
func TestImportSourceHammer(t *testing.T) {
	for _, names := range [][]string{{"hammer-4-product.csv", "hammer-4-raw.csv"}, {"hammer.sqlite"}} {
		t.Run(strings.Join(names, "+"), func(t *testing.T) { testImportSourceHammer(t, names) })
	}
}

func testImportSourceHammer(t *testing.T, names []string) {
	ctx := context.Background()
	s := MustOpen(t)
	rep, err := s.ImportSource(ctx, "hammer", sourceFiles(names...), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stores.New != 6 || rep.Stores.Skipped != 0 {
		t.Errorf("stores: got %d new, %d skipped (%v), want 6, 0", rep.Stores.New, rep.Stores.Skipped, rep.Stores.Problems)
	}
	if rep.Observations.New != 12 || rep.Observations.Skipped != 0 {
		t.Errorf("observations: got %d new, %d skipped (%v), want 12, 0", rep.Observations.New, rep.Observations.Skipped, rep.Observations.Problems)
	}
	if len(rep.Summary.Gaps) != 1 || rep.Summary.Attribution == "" {
		t.Errorf("summary: got gaps %v, attribution %q, want one gap and an attribution", rep.Summary.Gaps, rep.Summary.Attribution)
	}

	t.Run("Lookup", func(t *testing.T) {
		res, err := s.LookupProduct(ctx, grocery.LookupInput{UPC: "066800000152", Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Product.Name != "2% Milk" || len(res.Offers) != 1 || res.Offers[0].Banner != "voila" {
			t.Errorf("got %+v, want 2%% Milk offered by voila", res)
		}
	})
	// Project Hammer gives no category: asking for one says so, rather
	// than listing none.
	t.Run("NoCategories", func(t *testing.T) {
		_, err := s.GeographicPrices(ctx, grocery.GeoPricesInput{Category: "Dairy & Eggs"})
		if grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT || !strings.Contains(grocery.ErrorMessage(err), "have no category") {
			t.Errorf("got %v, want invalid_argument saying the catalogue's products have no category", err)
		}
	})
	t.Run("Search", func(t *testing.T) {
		res, err := s.SearchProducts(ctx, grocery.SearchInput{Query: "jasmine rice", Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != 1 || res.Results[0].Banner != "t-and-t" {
			t.Errorf("got %+v, want the T&T rice", res)
		}
	})
	t.Run("SearchSKUOnly", func(t *testing.T) {
		// Products without a valid barcode are found by their names, each
		// under its banner SKU, with the price in force of its store.
		res, err := s.SearchProducts(ctx, grocery.SearchInput{Query: "wonder bread", Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		want := []grocery.SearchProduct{
			{Name: "White Bread", Brand: "Wonder", Size: "675 g", Banner: "loblaws", BannerName: "Loblaws", ExternalSKU: "L3003",
				Price: 299, RegularPrice: 349, OnPromo: true, ObservedAt: mustDate(t, "2025-08-21"), OfferCount: 1, Offers: []grocery.SearchOffer{}},
			{Name: "White Bread", Brand: "Wonder", Size: "675 g", Banner: "no-frills", BannerName: "No Frills", ExternalSKU: "NF4004",
				Price: 279, RegularPrice: 279, ObservedAt: mustDate(t, "2025-08-21"), OfferCount: 1, Offers: []grocery.SearchOffer{}},
		}
		if diff := cmp.Diff(want, res.Results); diff != "" || res.Total != 2 {
			t.Errorf("total %d, want 2; results (-want +got):\n%s", res.Total, diff)
		}
		// A size keeps the products of that size; the French-speaking
		// reader gets the banner's name, the only one there is.
		res, err = s.SearchProducts(ctx, grocery.SearchInput{Query: "kimchi 1kg", Province: "ON", Lang: "fr"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != 1 || res.Results[0].ExternalSKU != "hammer-7" || res.Results[0].UPC != "" || res.Results[0].Name != `Kimchi, "Mat" cut` {
			t.Errorf("got %+v, want Galleria's kimchi by its SKU hammer-7, without a upc", res)
		}
		res, err = s.SearchProducts(ctx, grocery.SearchInput{Query: "kimchi 2kg", Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != 0 || !strings.Contains(res.Hint, "none of them of size") {
			t.Errorf("got %d results, hint %q, want none and a hint on the size", res.Total, res.Hint)
		}
		// Nothing in another province.
		if res, err = s.SearchProducts(ctx, grocery.SearchInput{Query: "wonder bread", Province: "QC"}); err != nil || res.Total != 0 {
			t.Errorf("QC: got %+v, %v, want nothing", res, err)
		}
	})
	t.Run("HistorySKUOnly", func(t *testing.T) {
		// A product without a valid barcode is found by its vendor SKU.
		res, err := s.PriceHistory(ctx, grocery.HistoryInput{SKU: "L3003", Banner: "loblaws", Province: "ON", Period: "90d"})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Points) != 2 || res.UPC != "" {
			t.Errorf("got %d points, upc %q, want 2 points and no upc", len(res.Points), res.UPC)
		}
	})
	t.Run("HistoryPromo", func(t *testing.T) {
		res, err := s.PriceHistory(ctx, grocery.HistoryInput{SKU: "TT2002", Banner: "t-and-t", Province: "ON", Period: "90d"})
		if err != nil {
			t.Fatal(err)
		}
		last := res.Points[len(res.Points)-1]
		if last.Median != 1999 || res.Points[0].Median != 2199 {
			t.Errorf("got %+v, want 21.99 then 19.99 (on promotion)", res.Points)
		}
	})
	t.Run("Again", func(t *testing.T) {
		rep, err := s.ImportSource(ctx, "hammer", sourceFiles(names...), nil)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Observations.New != 0 || rep.Observations.Unchanged != 12 {
			t.Errorf("got %d new, %d unchanged, want 0, 12", rep.Observations.New, rep.Observations.Unchanged)
		}
	})
	t.Run("BriefCredits", func(t *testing.T) {
		b, err := s.ExecutiveBrief(ctx, grocery.BriefInput{Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Sources) != 1 || b.Sources[0] != publicdata.HammerAttribution {
			t.Errorf("got sources %q, want Project Hammer's credit", b.Sources)
		}
	})
	t.Run("StatCanBeside", func(t *testing.T) {
		// An answer kept before the import (the REST interface keeps the
		// analytics' answers per data version) is not served after it.
		before := s.DataVersion()
		if _, err := grocery.Cached(ctx, s, "GeographicPrices", s.GeographicPrices, grocery.GeoPricesInput{UPC: "066800000152"}); err != nil {
			t.Fatal(err)
		}
		rep, err := s.ImportSource(ctx, "statcan", sourceFiles("18100245.csv"), nil)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Benchmarks != 4 {
			t.Errorf("got %d benchmark points, want 4 (%+v)", rep.Benchmarks, rep.Summary.NotMapped)
		}
		if s.DataVersion() == before {
			t.Errorf("DataVersion %d after the StatCan import: want it moved on", before)
		}
		geo, err := grocery.Cached(ctx, s, "GeographicPrices", s.GeographicPrices, grocery.GeoPricesInput{UPC: "066800000152"})
		if err != nil {
			t.Fatal(err)
		}
		if len(geo.Provinces) != 1 || geo.Provinces[0].Province != "ON" {
			t.Errorf("got provinces %+v, want ON", geo.Provinces)
		}
		want := []grocery.GeoBenchmark{
			{Series: grocery.BenchmarkSeriesName, Province: "CA", Product: "Milk, 4 litres", Month: "2025-06", Price: 641},
			{Series: grocery.BenchmarkSeriesName, Province: "ON", Product: "Milk, 4 litres", Month: "2025-08", Price: 639},
		}
		if len(geo.Benchmarks) != 2 || geo.Benchmarks[0] != want[0] || geo.Benchmarks[1] != want[1] || geo.BenchmarkNote != grocery.BenchmarkCaveat {
			t.Errorf("got %+v (%q), want %+v with the caveat", geo.Benchmarks, geo.BenchmarkNote, want)
		}
		// The category report shows the province's series of a category
		// whose words StatCan's product names.
		obs := "date,store_id,banner,external_sku,price,upc,name,category\n2025-08-21,hammer-save-on-foods,save-on-foods,SOF5005,1.69,6291041500213,Bananas,Bananas\n"
		if _, err := s.Import(ctx, "bananas.csv", strings.NewReader(obs), nil); err != nil {
			t.Fatal(err)
		}
		cat, err := s.CategoryReport(ctx, grocery.CategoryReportInput{Province: "BC"})
		if err != nil {
			t.Fatal(err)
		}
		wantCat := []grocery.GeoBenchmark{{Series: grocery.BenchmarkSeriesName, Province: "BC", Product: "Bananas, per kilogram", Month: "2025-08", Price: 179}}
		if diff := cmp.Diff(wantCat, cat.Benchmarks); diff != "" || cat.BenchmarkNote != grocery.BenchmarkCaveat {
			t.Errorf("category report benchmarks (-want +got):\n%s", diff)
		}
	})
}

var writeFixtures = flag.Bool("write-fixtures", false, "write publicdata/testdata/openprices.parquet again")

// openPricesRow is a row of the Open Prices Parquet dump (the columns
// ConvertSource reads, typed as the dump types them).
type openPricesRow struct {
	Type        string   `parquet:"type,dict"`
	Code        *string  `parquet:"product_code,optional"`
	ProductName *string  `parquet:"product_name,optional"`
	Category    *string  `parquet:"category_tag,optional"`
	Price       float64  `parquet:"price"`
	Discounted  bool     `parquet:"price_is_discounted"`
	Without     *float64 `parquet:"price_without_discount,optional"`
	Currency    string   `parquet:"currency,dict"`
	Date        int32    `parquet:"date,date"`
	OSMID       int64    `parquet:"location_osm_id"`
	OSMType     string   `parquet:"location_osm_type,dict"`
	Display     string   `parquet:"location_osm_display_name"`
	City        *string  `parquet:"location_osm_address_city,optional"`
	Postcode    *string  `parquet:"location_osm_address_postcode,optional"`
	CountryCode string   `parquet:"location_osm_address_country_code,dict"`
	Lat         float64  `parquet:"location_osm_lat"`
	Lon         float64  `parquet:"location_osm_lon"`
}

func writeOpenPricesFixture(t *testing.T, path string) {
	s := func(v string) *string { return &v }
	f := func(v float64) *float64 { return &v }
	d := func(v string) int32 { tm, _ := time.Parse(time.DateOnly, v); return int32(tm.Unix() / 86400) }
	rows := []openPricesRow{
		{Type: "PRODUCT", Code: s("066800000152"), ProductName: s("2% Milk 4 L"), Price: 6.29, Currency: "CAD", Date: d("2025-08-20"), OSMID: 101, OSMType: "NODE",
			Display: "No Frills, 25 Photography Drive, North York, Toronto, Ontario, M6M 0A1, Canada", City: s("Toronto"), Postcode: s("M6M 0A1"), CountryCode: "CA", Lat: 43.6905, Lon: -79.4860},
		{Type: "PRODUCT", Code: s("7540123456788"), ProductName: s("Jasmine Rice 8 kg"), Price: 4.99, Discounted: true, Without: f(5.99), Currency: "CAD", Date: d("2025-08-21"), OSMID: 202, OSMType: "WAY",
			Display: "Walmart Supercentre, 3585 Grandview Highway, Vancouver, British Columbia, V5M 2G7, Canada", City: s("Vancouver"), Postcode: s("V5M 2G7"), CountryCode: "CA", Lat: 49.2582, Lon: -123.0270},
		{Type: "CATEGORY", Category: s("en:apples"), Price: 3.99, Currency: "CAD", Date: d("2025-08-21"), OSMID: 101, OSMType: "NODE",
			Display: "No Frills, 25 Photography Drive, North York, Toronto, Ontario, M6M 0A1, Canada", City: s("Toronto"), Postcode: s("M6M 0A1"), CountryCode: "CA", Lat: 43.6905, Lon: -79.4860},
		{Type: "PRODUCT", Code: s("3017620422003"), Price: 3.49, Currency: "EUR", Date: d("2025-08-21"), OSMID: 303, OSMType: "NODE",
			Display: "Carrefour, Paris, France", CountryCode: "FR", Lat: 48.85, Lon: 2.35},
		{Type: "PRODUCT", Code: s("066800000152"), Price: 4.99, Currency: "USD", Date: d("2025-08-21"), OSMID: 404, OSMType: "NODE",
			Display: "Walmart, Ottawa", CountryCode: "CA", Lat: 45.42, Lon: -75.69},
		{Type: "PRODUCT", Code: s("066800000152"), Price: 6.99, Currency: "CAD", Date: d("2025-08-21"), OSMID: 505, OSMType: "NODE",
			Display: "Joe's Corner Store, Halifax", Postcode: s("B3H 1A1"), CountryCode: "CA", Lat: 44.64, Lon: -63.57},
		{Type: "PRODUCT", Code: s("1234"), Price: 1.99, Currency: "CAD", Date: d("2025-08-21"), OSMID: 101, OSMType: "NODE",
			Display: "No Frills, 25 Photography Drive, North York, Toronto, Ontario, M6M 0A1, Canada", City: s("Toronto"), Postcode: s("M6M 0A1"), CountryCode: "CA", Lat: 43.6905, Lon: -79.4860},
		{Type: "PRODUCT", Code: s("066800000152"), Price: 6.49, Currency: "CAD", Date: d("2025-08-21"), OSMID: 606, OSMType: "NODE",
			Display: "Loblaws, Toronto", CountryCode: "CA", Lat: 43.65, Lon: -79.38},
	}
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[openPricesRow](out, parquet.Compression(&parquet.Zstd))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestImportSourceOpenPrices imports the Open Prices fixture: Canadian
// prices in CAD with a barcode at a shop of a known banner, the rest
// reported by reason.
func TestImportSourceOpenPrices(t *testing.T) {
	if *writeFixtures {
		writeOpenPricesFixture(t, filepath.Join("..", "publicdata", "testdata", "openprices.parquet"))
	}
	ctx := context.Background()
	s := MustOpen(t)
	rep, err := s.ImportSource(ctx, "openprices", sourceFiles("openprices.parquet"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stores.New != 2 || rep.Observations.New != 2 || rep.Observations.Skipped != 0 {
		t.Errorf("got %d stores new, %d observations new, %d skipped (%v), want 2, 2, 0", rep.Stores.New, rep.Observations.New, rep.Observations.Skipped, rep.Observations.Problems)
	}
	got := map[string]int{}
	for _, r := range rep.Summary.NotMapped {
		got[r.Reason] = r.Count
	}
	want := map[string]int{
		"a raw-category price without a barcode (en:apples)": 1,
		"not in Canada":           1,
		"not in Canadian dollars": 1,
		"the store's brand is not a banner the service knows": 1,
		"product_code is not a valid GTIN":                    1,
		"the store has no Canadian postal code in location_osm_address_postcode (the province comes from it, not from the coordinates)": 1,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("not mapped (-want +got):\n%s", diff)
	}
	res, err := s.LookupProduct(ctx, grocery.LookupInput{UPC: "7540123456788", Province: "BC"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Offers) != 1 || res.Offers[0].Banner != "walmart" {
		t.Errorf("got %+v, want the Walmart offer in BC", res.Offers)
	}
}

func TestStoreSource(t *testing.T) {
	for _, tc := range []struct{ id, want string }{
		{"hammer-voila", "hammer"}, {"openprices-node-101", "openprices"}, {"lob-on-001", "import"}, {"hammerfest", "import"},
	} {
		if got := grocery.StoreSource(tc.id); got != tc.want {
			t.Errorf("StoreSource(%q): got %q, want %q", tc.id, got, tc.want)
		}
	}
}

func mustDate(t *testing.T, s string) grocery.Date {
	t.Helper()
	d, err := grocery.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
