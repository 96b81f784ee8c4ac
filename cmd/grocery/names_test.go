package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A second file naming a barcode otherwise keeps the first name and says
// so; --update-names replaces it, also through a running server's socket;
// --lang fr shows the French name.
func TestImport_Names(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "names.db")
	stores := writeFile(t, dir, "stores.csv", strings.Join([]string{
		"store_id,banner,province,name,city,postal_code,latitude,longitude",
		"on-lob-1,loblaws,ON,Loblaws Queens Quay,Toronto,M5J 2R6,43.6410,-79.3760",
		"qc-iga-1,iga,QC,IGA Plateau,Montréal,H2T 1S4,45.52,-73.58",
	}, "\n")+"\n")
	on := writeFile(t, dir, "on.csv", "date,store_id,banner,external_sku,price,upc,name,brand,size\n"+
		"2026-11-18,on-lob-1,loblaws,21001,4.49,066800000152,Newcomer Oat Milk,Earth's Own,1.75 L\n")
	qc := writeFile(t, dir, "qc.csv", "date,store_id,banner,external_sku,price,upc,name,brand,size\n"+
		"2026-11-18,qc-iga-1,iga,IGA-881,4.79,066800000152,Lait d'avoine,Earth's Own,1.75 L\n")
	qcFr := writeFile(t, dir, "qc-fr.csv", "date,store_id,banner,external_sku,price,upc,name_fr,brand,size\n"+
		"2026-11-18,qc-iga-1,iga,IGA-881,4.79,066800000152,Lait d'avoine,Earth's Own,1.75 L\n")

	ok(t, cli(t, nil, "import", "--db", db, stores, on))
	r := cli(t, nil, "import", "--db", db, qc)
	if r.code != 0 {
		t.Fatalf("import %s: exit %d, stderr %q", qc, r.code, r.stderr)
	}
	want := qc + ": names kept for 1 product the file names otherwise (a French name goes in name_fr; --update-names replaces names)\n"
	if !strings.HasSuffix(r.stdout, want) {
		t.Errorf("stdout: got %q, want it to end %q", r.stdout, want)
	}
	if want := qc + `:2: name: "Lait d'avoine" differs from "Newcomer Oat Milk"`; !strings.HasPrefix(r.stderr, want) {
		t.Errorf("stderr: got %q, want it to start %q", r.stderr, want)
	}
	name := func(lang string) string {
		t.Helper()
		r := cli(t, nil, "lookup", "066800000152", "--province", "ON", "--db", db, "--lang", lang)
		ok(t, r)
		return strings.SplitN(r.stdout, "\n", 2)[0]
	}
	if got := name("en"); !strings.Contains(got, "Newcomer Oat Milk") {
		t.Errorf("lookup after the Quebec file: got %q, want the English name kept", got)
	}
	if got := name("fr"); !strings.Contains(got, "Newcomer Oat Milk") {
		t.Errorf("lookup --lang fr without a French name: got %q, want the English name", got)
	}
	ok(t, cli(t, nil, "import", "--db", db, qcFr))
	if got := name("fr"); !strings.Contains(got, "Lait d'avoine") {
		t.Errorf("lookup --lang fr after name_fr: got %q, want the French name", got)
	}
	if r := cli(t, nil, "search", "avoine", "--province", "ON", "--db", db, "--lang", "fr"); r.code != 0 || !strings.Contains(r.stdout, "Lait d'avoine") {
		t.Errorf("search avoine --lang fr: got exit %d, %q; want the French name", r.code, r.stdout)
	}
	if r := cli(t, nil, "lookup", "066800000152", "--province", "ON", "--db", db, "--lang", "de"); r.code != 3 || !strings.Contains(r.stderr, `lang "de" is not supported: want en (English, the default) or fr (French)`) {
		t.Errorf("--lang de: got exit %d, stderr %q; want 3 and the languages", r.code, r.stderr)
	}

	// Through a server holding the file, --update-names renames.
	serveAdmin(t, db)
	r = cli(t, nil, "import", "--db", db, "--update-names", qc)
	ok(t, r)
	if strings.Contains(r.stdout, "names kept") {
		t.Errorf("stdout with --update-names: got %q, want no name kept", r.stdout)
	}
	if got := name("en"); !strings.Contains(got, "Lait d'avoine") {
		t.Errorf("lookup after --update-names: got %q, want the new name", got)
	}
}
