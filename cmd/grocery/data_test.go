package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/xuri/excelize/v2"
)

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestImport(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "import.db")
	stores := writeFile(t, dir, "stores.csv", strings.Join([]string{
		"store_id,banner,province,name,city,postal_code,latitude,longitude,active",
		"on-lob-1,loblaws,ON,Loblaws Queens Quay,Toronto,M5J 2R6,43.6410,-79.3760,true",
		"on-nf-1,No Frills,Ontario,No Frills Dundas,Toronto,m6j1w3,43.65,-79.42,yes",
	}, "\n")+"\n")
	prices := writeFile(t, dir, "prices.csv", strings.Join([]string{
		"date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category",
		"2026-11-18,on-lob-1,loblaws,20001,4.49,4.99,2026-11-25,06680000015,2% Milk,Natrel,2 L,Dairy & Eggs",
		"2026-11-18,on-nf-1,no-frills,20001,4.79,,,066800000152,,,,",
		"2026-11-17,on-lob-1,loblaws,20001,4.99,,,,,,,",
	}, "\n")+"\n")
	bad := writeFile(t, dir, "bad.csv", strings.Join([]string{
		"date,store_id,banner,external_sku,price",
		"2026-11-18,on-lob-1,loblaws,30001,3.99",
		"2026-11-18,on-lob-1,loblaws,30002,3.999",
		"2026-11-18,on-lob-1,metro,30003,3.99",
	}, "\n")+"\n")

	r := cli(t, nil, "import", "--db", db, stores, prices)
	ok(t, r)
	want := stores + ": stores csv, 2 rows read: 2 new, 0 updated, 0 unchanged, 0 skipped\n" +
		prices + ": observations csv, 3 rows read: 3 new, 0 updated, 0 unchanged, 0 skipped\n"
	if r.stdout != want {
		t.Errorf("stdout:\n got %q\nwant %q", r.stdout, want)
	}

	// The same files again change nothing.
	r = cli(t, nil, "import", "--db", db, stores, prices)
	ok(t, r)
	want = stores + ": stores csv, 2 rows read: 0 new, 0 updated, 2 unchanged, 0 skipped\n" +
		prices + ": observations csv, 3 rows read: 0 new, 0 updated, 3 unchanged, 0 skipped\n"
	if r.stdout != want {
		t.Errorf("stdout:\n got %q\nwant %q", r.stdout, want)
	}

	// The imported rows answer queries.
	r = cli(t, nil, "lookup", "066800000152", "--province", "ON", "--db", db, "--json")
	ok(t, r)
	var got grocery.LookupResult
	decode(t, r.stdout, &got)
	if got.Product.Name != "2% Milk" || len(got.Offers) != 2 {
		t.Errorf("lookup after import: got %+v", got)
	}

	// A bad file stops at its first bad row; the files before it stay.
	r = cli(t, nil, "import", "--db", db, stores, bad, prices)
	if r.code != exitInvalid {
		t.Errorf("exit: got %d, want %d", r.code, exitInvalid)
	}
	if want := stores + ": stores csv, 2 rows read: 0 new, 0 updated, 2 unchanged, 0 skipped\n"; r.stdout != want {
		t.Errorf("stdout:\n got %q\nwant %q", r.stdout, want)
	}
	wantErr := "grocery: " + bad + `:3: price: "3.999" is not a dollar amount: want digits with at most two decimals, e.g. 4.99; nothing of ` +
		bad + " was imported; " + stores + " stays imported\n"
	if r.stderr != wantErr {
		t.Errorf("stderr:\n got %q\nwant %q", r.stderr, wantErr)
	}

	// With --skip-invalid the bad rows are reported and skipped.
	r = cli(t, nil, "import", "--db", db, "--skip-invalid", bad)
	if r.code != 0 {
		t.Fatalf("exit: got %d (%s), want 0", r.code, r.stderr)
	}
	if want := bad + ": observations csv, 3 rows read: 1 new, 0 updated, 0 unchanged, 2 skipped\n"; r.stdout != want {
		t.Errorf("stdout:\n got %q\nwant %q", r.stdout, want)
	}
	wantErr = bad + `:3: price: "3.999" is not a dollar amount: want digits with at most two decimals, e.g. 4.99` + "\n" +
		bad + `:4: banner: metro is not the banner of store "on-lob-1": it is loblaws` + "\n"
	if r.stderr != wantErr {
		t.Errorf("stderr:\n got %q\nwant %q", r.stderr, wantErr)
	}

	// A directory is not an input file.
	r = cli(t, nil, "import", "--db", db, dir)
	if want := "grocery: " + dir + " is a directory: want a CSV, JSON Lines, JSON, XLSX or Parquet file\n"; r.code != exitInvalid || r.stderr != want {
		t.Errorf("import of a directory: got exit %d, stderr %q; want %d, %q", r.code, r.stderr, exitInvalid, want)
	}

	// A missing file fails before anything is imported.
	r = cli(t, nil, "import", "--db", filepath.Join(dir, "new.db"), stores, filepath.Join(dir, "nope.csv"))
	if want := "grocery: no file " + filepath.Join(dir, "nope.csv") + "\n"; r.code != exitInvalid || r.stdout != "" || r.stderr != want {
		t.Errorf("missing file: got exit %d, stdout %q, stderr %q; want exit %d (invalid input)", r.code, r.stdout, r.stderr, exitInvalid)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.db")); err == nil {
		t.Errorf("a failed import created the data file")
	}
}

func TestDemo(t *testing.T) {
	t.Parallel() // builds a data file of its own
	db := filepath.Join(t.TempDir(), "my demo.db")
	r := cli(t, nil, "demo", "--db", db, "--as-of", demoAsOf)
	ok(t, r)
	sum := demoSummary // the same scale, date and seed: the same data
	s := sum.Samples
	lines := strings.Split(r.stdout, "\n")
	if want := "Built the small demo data set in " + db + ", as of " + demoAsOf + ": " + count(sum.Stores) + " stores, " +
		count(sum.Products) + " products, " + count(sum.Observations) + " observations"; !strings.HasPrefix(lines[0], want) {
		t.Errorf("summary:\n got %q\nwant %q...", lines[0], want)
	}
	q := " --province " + s.Province + " --db '" + db + "'"
	for _, w := range []string{
		"grocery lookup " + s.CarriedUPC + q,
		"grocery lookup " + s.NotCarriedUPC + q,
		"grocery history " + s.SKU + " --banner " + s.Banner + " --province " + s.Province + " --period 90d --db '" + db + "'",
		"grocery stores" + q,
	} {
		if !strings.Contains(r.stdout, "  "+w+" ") {
			t.Errorf("output lacks %q:\n%s", w, r.stdout)
		}
	}

	// The sample commands run as printed.
	r2 := cli(t, nil, "lookup", s.CarriedUPC, "--province", s.Province, "--db", db, "--json")
	ok(t, r2)
	var got grocery.LookupResult
	decode(t, r2.stdout, &got)
	if len(got.Offers) == 0 {
		t.Errorf("the carried sample has no offers")
	}

	r = cli(t, nil, "demo", "--db", db, "--as-of", demoAsOf)
	if want := "grocery: data file " + db + " already exists: pass --force to replace it\n"; r.code != exitInvalid || r.stderr != want {
		t.Errorf("second demo: got exit %d, stderr %q; want %d, %q", r.code, r.stderr, exitInvalid, want)
	}
	r = cli(t, nil, "demo", "--db", db, "--as-of", "2026-11-31")
	if want := "grocery: --as-of \"2026-11-31\" is not a date: want YYYY-MM-DD\n"; r.code != exitInvalid || r.stderr != want {
		t.Errorf("bad --as-of: got exit %d, stderr %q; want %d, %q", r.code, r.stderr, exitInvalid, want)
	}
	// A file a server holds is never replaced under it: one line, exit 4.
	held, err := grocery.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	r = cli(t, nil, "demo", "--db", db, "--as-of", demoAsOf, "--force")
	held.Close()
	if want := "grocery: data file " + db + " is in use by another process (a running server?): stop it before replacing the file\n"; r.code != exitUnavailable || r.stderr != want || r.stdout != "" {
		t.Errorf("demo --force on a held file: got exit %d, stdout %q, stderr %q; want %d, %q", r.code, r.stdout, r.stderr, exitUnavailable, want)
	}
	missing := filepath.Join(t.TempDir(), "no-such-dir", "x.db")
	r = cli(t, nil, "demo", "--db", missing)
	if want := "grocery: cannot build the demo data in " + missing + ": the directory " + filepath.Dir(missing) + " does not exist\n"; r.code != exitInvalid || r.stderr != want {
		t.Errorf("demo in a missing directory: got exit %d, stderr %q; want %d, %q", r.code, r.stderr, exitInvalid, want)
	}
	r = cli(t, nil, "demo", "--db", db, "--scale", "huge", "--force")
	if r.code != exitInvalid || !strings.HasPrefix(r.stderr, `grocery: scale "huge" is unknown`) {
		t.Errorf("bad --scale: got exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestReadWhileRead checks that a query works while another process holds
// the data file for reading.
func TestReadWhileRead(t *testing.T) {
	svc := openDemo(t)
	if _, err := svc.ListReferenceStores(context.Background(), grocery.StoresInput{}); err != nil {
		t.Fatal(err)
	}
	ok(t, cli(t, nil, "stores", "--json"))
}

func TestImport_XLSX(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "import.db")
	stores := writeFile(t, dir, "stores.csv", strings.Join([]string{
		"store_id;banner;province;name;city;postal_code;latitude;longitude",
		"on-lob-1;loblaws;ON;Loblaws Queens Quay;Toronto;M5J 2R6;43,6410;-79,3760",
	}, "\n")+"\n")
	f := excelize.NewFile()
	for i, row := range [][]any{
		{"date", "store_id", "banner", "external_sku", "price", "upc", "name"},
		{"2026-11-18", "on-lob-1", "loblaws", 20001, 4.49, 67000378089, "Orange Juice"},
	} {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Sheet1", cell, &row); err != nil {
			t.Fatal(err)
		}
	}
	prices := filepath.Join(dir, "prices.xlsx")
	if err := f.SaveAs(prices); err != nil {
		t.Fatal(err)
	}
	f.Close()

	r := cli(t, nil, "import", "--db", db, stores, prices)
	ok(t, r)
	want := stores + ": stores csv, 1 row read: 1 new, 0 updated, 0 unchanged, 0 skipped\n" +
		prices + ": observations xlsx, 1 row read: 1 new, 0 updated, 0 unchanged, 0 skipped\n"
	if r.stdout != want {
		t.Errorf("stdout:\n got %q\nwant %q", r.stdout, want)
	}
	r = cli(t, nil, "lookup", "--db", db, "067000378089", "--province", "ON")
	ok(t, r)
	if !strings.Contains(r.stdout, "Orange Juice") {
		t.Errorf("lookup 067000378089: got %q, want Orange Juice", r.stdout)
	}
}
