package importrow

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grocerydata/grocery/internal/fault"
	"github.com/grocerydata/grocery/internal/rowwrite"
)

// derived is an offers-like export: its own column is offer_id.
var derived = []Derived{{Name: "offers", Signature: []string{"offer_id"}}}

func TestOpen(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		kind     *Kind
		err      string
	}{
		{"Stores", "Store_ID, banner,province,name,city,postal_code,latitude,longitude\n", Stores, ""},
		{"ObservationsSemicolon", "date;store_id;banner;external_sku;price\n", Observations, ""},
		{"ObservationsJSONL", `{"date":"2026-01-02","store_id":"a","banner":"b","external_sku":"1","price":"2"}` + "\n", Observations, ""},
		{"ErrEmpty", " \n", nil, "f.csv: the file is empty: want a header row of stores (store_id, banner, province, name, city, postal_code, latitude, longitude[, active, banner_name, observations_30d, source]) or observations (date, store_id, banner, external_sku, price[, regular_price, promo_ends, upc, name, brand, size, category, name_fr, product_type, province, on_promo, currency, source])"},
		{"ErrBinary", "date\x00\x01", nil, "f.csv: not a CSV, JSON Lines, JSON, XLSX or Parquet file: it holds binary data"},
		{"ErrDerived", "offer_id,date,price\n", nil, "f.csv:1: header: columns offer_id are those of an export of dataset offers, which cannot be imported: offers are computed from the stores and observations, so export and import datasets stores and observations instead"},
		{"ErrUnrecognised", "store_id,banner\n", nil, "f.csv:1: header: columns store_id, banner are not recognised: want stores ("},
		{"ErrTwice", "date,store_id,banner,external_sku,price,price\n", nil, `f.csv:1: header: column "price" appears twice (columns 5 and 6)`},
		{"ErrNoName", "date,store_id,,banner,external_sku,price\n", nil, "f.csv:1: header: column 3 has no name: an observations file has columns date, store_id, banner, external_sku, price[, "},
		{"ErrMissingUnknown", "date,store_id,banner,sku,price\n", nil, `f.csv:1: header: missing column external_sku; unknown column "sku" for an observations file: want date, store_id, banner, external_sku, price[, `},
		{"ErrJSONNoObject", "[\n]\n", nil, "f.csv: the file holds no JSON object: want one object per line with the fields of stores ("},
		{"ErrJSONHeader", `{"store_id":"a","sku":"1"}` + "\n", nil, "f.csv:1: header: columns sku, store_id are not recognised"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f, err := Open("f.csv", strings.NewReader(tc.in), nil, derived, nil)
			if tc.err != "" {
				var fe *fault.Error
				if !errors.As(err, &fe) || fe.Kind != fault.Invalid || !strings.HasPrefix(fe.Message, tc.err) {
					t.Fatalf("got error %v, want an Invalid fault starting %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if f.Kind != tc.kind {
				t.Errorf("got kind %s, want %s", f.Kind.Name, tc.kind.Name)
			}
		})
	}
}

// read opens in and reads its rows, returning each row's line and
// fields (or its message when bad) as text.
func read(t *testing.T, in string, cols ...int) []string {
	t.Helper()
	f, err := Open("f.csv", strings.NewReader(in), nil, derived, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got []string
	err = f.Read(context.Background(), func(r *Row) *Problem {
		var fields []string
		for _, c := range cols {
			fields = append(fields, r.Get(c))
		}
		got = append(got, f.At(r.Line)+" "+strings.Join(fields, "|"))
		return nil
	}, func(line int, p *Problem) error {
		got = append(got, f.Message(line, p))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if f.Rows() != len(got) {
		t.Errorf("got Rows %d, want %d", f.Rows(), len(got))
	}
	return got
}

func TestRead(t *testing.T) {
	t.Parallel()
	t.Run("CSV", func(t *testing.T) {
		t.Parallel()
		got := read(t, "price,external_sku,date,banner,store_id,upc\n 4.99 ,s1,2026-01-02,b,st,\n1,2\n5,s2,2026-01-03,b,st,0\n",
			ObsDate, ObsSKU, ObsPrice, ObsUPC, ObsName)
		want := []string{
			"f.csv:2 2026-01-02|s1|4.99||",
			"f.csv:3: the row has 2 fields: want 6 like the header",
			"f.csv:4 2026-01-03|s2|5|0|",
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("rows (-want +got):\n%s", diff)
		}
	})
	t.Run("JSONL", func(t *testing.T) {
		t.Parallel()
		got := read(t, `{"date":"2026-01-02","store_id":"st","banner":"b","external_sku":"s1","price":4.99}`+"\n"+
			`{"date":"2026-01-02","store_id":"st","banner":"b","external_sku":"s1","price":5,"colour":"red"}`+"\n"+
			`{"date":"2026-01-02","store_id":"st","banner":"b","external_sku":"s1","price":{}}`+"\n"+
			`{"date":"2026-01-03","store_id":"st","banner":"b","external_sku":"s2","price":5,"name":"Tea"}`+"\n",
			ObsDate, ObsSKU, ObsPrice, ObsName)
		want := []string{
			"f.csv:1 2026-01-02|s1|4.99|",
			"f.csv:2: colour: unknown field for an observations file: want " + Observations.Describe(),
			"f.csv:3: price: is a JSON object: want a string or a number",
			"f.csv:4 2026-01-03|s2|5|Tea",
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("rows (-want +got):\n%s", diff)
		}
	})
}

func TestReadStops(t *testing.T) {
	t.Parallel()
	in := "date,store_id,banner,external_sku,price\n" + strings.Repeat("2026-01-02,st,b,s,1\n", 2*ctxEvery)
	open := func() *File {
		f, err := Open("f.csv", strings.NewReader(in), nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	ok := func(*Row) *Problem { return nil }
	noBad := func(line int, p *Problem) error { t.Fatalf("bad row %d: %s", line, p.Reason); return nil }

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f := open()
	if err := f.Read(ctx, ok, noBad); !errors.Is(err, context.Canceled) || f.Rows() != ctxEvery {
		t.Errorf("cancelled: got %v after %d rows, want %v after %d", err, f.Rows(), context.Canceled, ctxEvery)
	}

	fatal := errors.New("disk full")
	f = open()
	if err := f.Read(context.Background(), func(r *Row) *Problem {
		return &Problem{Reason: fatal.Error(), Fatal: fatal}
	}, noBad); err != fatal || f.Rows() != 1 {
		t.Errorf("fatal: got %v after %d rows, want %v after 1", err, f.Rows(), fatal)
	}

	stop := errors.New("stop")
	f = open()
	if err := f.Read(context.Background(), func(r *Row) *Problem {
		return Badf("price", "bad")
	}, func(line int, p *Problem) error {
		if got, want := f.Message(line, p), "f.csv:2: price: bad"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
		return stop
	}); err != stop {
		t.Errorf("bad: got %v, want %v", err, stop)
	}
}

func TestDecimal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		header, in, want string
	}{
		{"date;store_id;banner;external_sku;price", "4,99", "4.99"},
		{"date\tstore_id\tbanner\texternal_sku\tprice", "4,99", "4.99"},
		{"date;store_id;banner;external_sku;price", "1,000.5", "1,000.5"},
		{"date,store_id,banner,external_sku,price", "4,99", "4,99"},
	} {
		f, err := Open("f.csv", strings.NewReader(tc.header+"\n"), nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Decimal(tc.in); got != tc.want {
			t.Errorf("%q in a file with header %q: got %q, want %q", tc.in, tc.header, got, tc.want)
		}
		f.Close()
	}
}

func TestFieldChecks(t *testing.T) {
	t.Parallel()
	reason := func(p *Problem) string {
		if p == nil {
			return ""
		}
		return p.Field + ": " + p.Reason
	}
	for _, tc := range []struct {
		name string
		got  *Problem
		want string
	}{
		{"ID", CheckID("store_id", "ON-1"), ""},
		{"ErrIDEmpty", CheckID("store_id", ""), "store_id: is required"},
		{"ErrIDLong", CheckID("store_id", strings.Repeat("x", 65)), `store_id: "` + strings.Repeat("x", 65) + `" is 65 bytes long: want at most 64 (an accented letter takes 2)`},
		{"ErrIDControl", CheckID("external_sku", "a\tb"), `external_sku: "a\tb" contains a control character`},
		{"TextEmpty", CheckText("brand", ""), ""},
		{"ErrTextLong", CheckText("brand", strings.Repeat("x", MaxTextLen+1)), "brand: is 201 bytes long: want at most 200 (an accented letter takes 2)"},
		// 101 é are 101 characters but 202 bytes: the message counts what it limits.
		{"ErrTextLongAccents", CheckText("name", strings.Repeat("é", 101)), "name: is 202 bytes long: want at most 200 (an accented letter takes 2)"},
		{"ErrTextUTF8", CheckText("name", "caf\xe9"), `name: "caf\xe9" is not valid UTF-8`},
		{"ErrRequireText", RequireText("city", ""), "city: is required"},
	} {
		if got := reason(tc.got); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}

	for _, tc := range []struct {
		in   string
		want float64
		err  string
	}{
		{"43.6532", 43.6532, ""},
		{"", 0, "latitude: is required: want decimal degrees"},
		{"NaN", 0, `latitude: "NaN" is not a number: want decimal degrees, e.g. 43.6532`},
		{"91", 0, "latitude: 91 is out of range: want -90 to 90 degrees"},
		{"12.5", 0, "latitude: 12.5 is outside Canada: want 41 to 84 degrees"},
	} {
		v, p := Coordinate("latitude", tc.in, 90, 41, 84)
		if got := reason(p); got != tc.err || v != tc.want {
			t.Errorf("Coordinate(%q): got %v, %q, want %v, %q", tc.in, v, got, tc.want, tc.err)
		}
	}

	for _, tc := range []struct {
		in        string
		def, want bool
		err       string
	}{
		{"", true, true, ""},
		{"", false, false, ""},
		{"Yes", false, true, ""},
		{"0", true, false, ""},
		{"maybe", true, false, `active: "maybe" is not a yes/no value: want true, false, 1, 0, yes or no (default true)`},
	} {
		v, p := Flag("active", tc.in, tc.def)
		if got := reason(p); got != tc.err || v != tc.want {
			t.Errorf("Flag(%q, %t): got %t, %q, want %t, %q", tc.in, tc.def, v, got, tc.want, tc.err)
		}
	}
}

func TestNames(t *testing.T) {
	t.Parallel()
	var n Names
	if _, ok := n.Num("sku-1"); ok {
		t.Fatal("got a number in an empty Names, want none")
	}
	a := n.Add("sku-1")
	b := n.Number("sku-2")
	if again := n.Number("sku-1"); again != a {
		t.Errorf("got %d for sku-1 again, want %d", again, a)
	}
	if got, want := []any{a, b, n.Name(a), n.Name(b), n.Len()}, []any{int32(0), int32(1), "sku-1", "sku-2", 2}; !cmp.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestExportOnly(t *testing.T) {
	t.Parallel()
	cols := []rowwrite.Column{{Name: "offer_id"}, {Name: "store_id"}, {Name: "price"}, {Name: "observations_30d"}, {Name: "savings"}}
	if got, want := ExportOnly(cols), []string{"offer_id", "savings"}; !cmp.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
