package grocery_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// Types with the results' fields and tags but none of their methods:
// encoding/json encodes them by reflection.
type (
	plainLookup  grocery.LookupResult
	plainSearch  grocery.SearchResult
	plainHistory grocery.HistoryResult
	plainStores  grocery.StoresResult
	plainPrice   grocery.StorePrice
	// plainPrices lists plainPrice: a []grocery.StorePrice would encode
	// its elements through their own MarshalJSON.
	plainPrices struct {
		Results []plainPrice `json:"results"`
		Total   int          `json:"total"`
		Limit   int          `json:"limit"`
		Offset  int          `json:"offset"`
	}
)

// TestAppendJSONMatchesReflection holds the hand-written encoders to
// encoding/json's output (SetEscapeHTML(false)) for the same fields and
// tags, byte for byte, on real results: promotions, nulls, empty lists,
// accents, '&' and apostrophes.
func TestAppendJSONMatchesReflection(t *testing.T) {
	s := MustFixture(t)
	ctx := context.Background()
	// AppendJSON's own bytes: json.Marshal of a Marshaler would re-escape
	// its output and hide a difference.
	check := func(name string, fast interface{ AppendJSON([]byte) []byte }, slow any) {
		t.Helper()
		a := fast.AppendJSON(nil)
		if !json.Valid(a) {
			t.Fatalf("%s: AppendJSON wrote invalid JSON: %s", name, a)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(slow); err != nil {
			t.Fatal(err)
		}
		b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		if !bytes.Equal(a, b) {
			t.Fatalf("%s:\nAppendJSON %s\nreflection %s", name, a, b)
		}
	}
	for _, in := range []grocery.LookupInput{{UPC: upcMilk, Province: "ON"}, {UPC: upcIce, Province: "QC"}, {UPC: upcSyrup, Province: "ON"}} {
		r, err := s.LookupProduct(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		check("lookup "+in.UPC, r, (*plainLookup)(r))
	}
	for _, q := range []string{"milk", "crème", "nothing"} {
		r, err := s.SearchProducts(ctx, grocery.SearchInput{Query: q, Province: "QC"})
		if err != nil {
			t.Fatal(err)
		}
		r.Query = q + ` <&> "quoted" \ ` + "\u2028\t\x01" // every escape
		check("search "+q, r, (*plainSearch)(r))
	}
	for _, in := range []grocery.HistoryInput{{SKU: "21000001_EA", Banner: "loblaws", Province: "ON"}, {SKU: "21000001_EA", Banner: "loblaws", Province: "BC"}} {
		r, err := s.PriceHistory(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		check("history "+in.Province, r, (*plainHistory)(r))
		r.UPC, r.Name = "", ""
		check("history without product", r, (*plainHistory)(r))
		if r.Stats != nil {
			for _, f := range []float64{0, -0.5, 1e-7, 123456.78, 2.5e21} {
				r.Stats.ChangePct = f
				check("history stats", r, (*plainHistory)(r))
			}
		}
	}
	r, err := s.ListReferenceStores(ctx, grocery.StoresInput{Limit: grocery.Some(50)})
	if err != nil {
		t.Fatal(err)
	}
	r.Stores[0].Name = "Maxi & Cie <Saint-Hubert> l'Île"
	check("stores", r, (*plainStores)(r))
	check("nil lists", &grocery.StoresResult{}, &plainStores{})

	for _, in := range []grocery.StorePricesInput{{Banner: "loblaws", Store: "lob-on-1"}, {Banner: "maxi", Store: "maxi-qc-1"}, {Banner: "loblaws", Store: "lob-on-1", Query: "nothing"}} {
		r, err := s.StorePrices(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if in.Query == "" && len(r.Results) == 0 {
			t.Fatalf("no prices at %s", in.Store)
		}
		plain := plainPrices{Results: []plainPrice{}, Total: r.Total, Limit: r.Limit, Offset: r.Offset}
		for i := range r.Results {
			p := &r.Results[i]
			check("price "+p.ExternalSKU, p, (*plainPrice)(p))
			plain.Results = append(plain.Results, plainPrice(*p))
		}
		check("prices at "+in.Store, r, &plain)
	}
	p, err := s.StorePrice(ctx, grocery.StorePriceInput{Banner: "loblaws", Store: "lob-on-1", SKU: "21000001_EA"})
	if err != nil {
		t.Fatal(err)
	}
	if p.PromoEnds == nil {
		t.Fatal("want a promotion's end in the fixture")
	}
	check("price on promotion", p, (*plainPrice)(p))
	p.UPC, p.Name, p.ExternalSKU = "", "", `A&W <root> "beer" \ `+"\u2029\x1f"
	check("unlinked price", p, (*plainPrice)(p))
	check("nil prices", &grocery.StorePricesResult{}, &plainPrices{})
}

func BenchmarkAppendJSON(b *testing.B) {
	s := MustFixture(b)
	r, err := s.LookupProduct(context.Background(), grocery.LookupInput{UPC: upcMilk, Province: "ON"})
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 4096)
	b.ReportAllocs()
	for b.Loop() {
		buf = r.AppendJSON(buf[:0])
	}
}
