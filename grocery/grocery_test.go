package grocery_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/grocerydata/grocery/grocery"
)

// MustOpen opens a new data file in a temporary directory, closed when the
// test ends.
func MustOpen(tb testing.TB) *grocery.Service {
	tb.Helper()
	s, err := grocery.Open(filepath.Join(tb.TempDir(), "grocery.db"), nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// Fixture barcodes and dates. The numbers in the tests below follow from
// the observations in fixtureBatch; each is worked out there.
const (
	upcMilk    = "068000000154" // carried in ON (loblaws, no-frills; metro stale) and QC (maxi)
	upcIce     = "055742110326" // carried in QC only
	upcYogurt  = "062910415008" // last observed in ON 35 days before as-of: stale
	upcSyrup   = "075401234569" // in the catalogue, never observed
	upcChoc    = "060383000028" // carried in ON at one loblaws store
	upcUnknown = "060383000011" // valid check digit, not in the catalogue
	asOf       = "2026-11-19"   // a Thursday: the fixture's latest observation
)

func day(tb testing.TB, s string) grocery.Date {
	tb.Helper()
	d, err := grocery.ParseDate(s)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

func gtin(tb testing.TB, s string) grocery.GTIN {
	tb.Helper()
	g, err := grocery.ParseGTIN(s)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

func fixtureBatch(tb testing.TB) *grocery.Batch {
	tb.Helper()
	st := func(id, banner, prov, city, postal string, active bool) grocery.Store {
		return grocery.Store{ID: id, Banner: banner, Province: prov, Name: id, City: city, PostalCode: postal,
			Latitude: 45, Longitude: -75, Active: active}
	}
	b := &grocery.Batch{
		Stores: []grocery.Store{
			st("lob-on-1", "loblaws", "ON", "Toronto", "M5V 2T6", true),
			st("lob-on-2", "loblaws", "ON", "Toronto", "M4C 1B5", true),
			st("lob-on-3", "loblaws", "ON", "Ottawa", "K1P 5J2", true),
			st("nf-on-1", "no-frills", "ON", "Hamilton", "L8P 4R5", true),
			st("met-on-1", "metro", "ON", "Toronto", "M6G 2A1", false),
			st("maxi-qc-1", "maxi", "QC", "Montréal", "H2X 1Y4", true),
			st("maxi-qc-2", "maxi", "QC", "Québec", "G1R 4P5", true),
		},
		Products: []grocery.CatalogueItem{
			{GTIN: gtin(tb, upcMilk), Name: "2% Partly Skimmed Milk", Brand: "Natrel", Size: "2 L", Category: "Dairy & Eggs"},
			{GTIN: gtin(tb, upcIce), Name: "Crème glacée vanille", Brand: "Chapman's", Size: "2 L", Category: "Frozen"},
			{GTIN: gtin(tb, upcYogurt), Name: "Greek Yogurt Plain", Brand: "Oikos", Size: "650 g", Category: "Dairy & Eggs"},
			{GTIN: gtin(tb, upcSyrup), Name: "Maple Syrup", Brand: "Canadian Heritage", Size: "540 mL", Category: "Pantry"},
			{GTIN: gtin(tb, upcChoc), Name: "Chocolate Milk", Brand: "Natrel", Size: "1 L", Category: "Dairy & Eggs"},
		},
		Links: []grocery.SKULink{
			{Banner: "loblaws", ExternalSKU: "21000001_EA", GTIN: gtin(tb, upcMilk)},
			{Banner: "no-frills", ExternalSKU: "21000001_EA", GTIN: gtin(tb, upcMilk)},
			{Banner: "metro", ExternalSKU: "MET0001", GTIN: gtin(tb, upcMilk)},
			{Banner: "maxi", ExternalSKU: "21000001_EA", GTIN: gtin(tb, upcMilk)},
			{Banner: "maxi", ExternalSKU: "21000009_EA", GTIN: gtin(tb, upcIce)},
			{Banner: "loblaws", ExternalSKU: "21000005_EA", GTIN: gtin(tb, upcYogurt)},
			{Banner: "loblaws", ExternalSKU: "21000002_EA", GTIN: gtin(tb, upcChoc)},
		},
	}
	obs := func(date, store, banner, sku string, price, regular grocery.Cents, promoEnds string) {
		o := grocery.Observation{Date: day(tb, date), StoreID: store, Banner: banner, ExternalSKU: sku, Price: price, RegularPrice: regular}
		if promoEnds != "" {
			o.PromoEnds = day(tb, promoEnds)
		}
		b.Observations = append(b.Observations, o)
	}
	// Milk at Loblaws ON. 10-29: two stores, median (599+650)/2 rounded
	// up = 625. 11-05 and 11-12: [599 599 629], median 599. 11-19: a
	// promotion at two stores, 4.99 (regular 5.99) until Wednesday 11-25.
	obs("2026-10-29", "lob-on-1", "loblaws", "21000001_EA", 599, 599, "")
	obs("2026-10-29", "lob-on-2", "loblaws", "21000001_EA", 650, 650, "")
	for _, d := range []string{"2026-11-05", "2026-11-12"} {
		obs(d, "lob-on-1", "loblaws", "21000001_EA", 599, 599, "")
		obs(d, "lob-on-2", "loblaws", "21000001_EA", 599, 599, "")
		obs(d, "lob-on-3", "loblaws", "21000001_EA", 629, 629, "")
	}
	obs("2026-11-19", "lob-on-1", "loblaws", "21000001_EA", 499, 599, "2026-11-25")
	obs("2026-11-19", "lob-on-2", "loblaws", "21000001_EA", 499, 599, "2026-11-25")
	obs("2026-11-19", "nf-on-1", "no-frills", "21000001_EA", 479, 479, "")
	obs("2026-10-01", "met-on-1", "metro", "MET0001", 619, 619, "") // closed store: stale offer
	obs("2026-11-19", "maxi-qc-1", "maxi", "21000001_EA", 549, 549, "")
	obs("2026-11-19", "maxi-qc-2", "maxi", "21000001_EA", 549, 549, "")
	obs("2026-11-19", "maxi-qc-1", "maxi", "21000009_EA", 699, 699, "")
	obs("2026-11-19", "maxi-qc-2", "maxi", "21000009_EA", 649, 649, "")
	obs("2026-10-15", "lob-on-1", "loblaws", "21000005_EA", 549, 549, "")
	obs("2026-11-19", "lob-on-1", "loblaws", "21000002_EA", 349, 349, "")
	return b
}

// MustFixture opens a new data file holding the fixture, with the clock
// set to the fixture's as-of date.
func MustFixture(tb testing.TB) *grocery.Service {
	tb.Helper()
	now := func() time.Time { return time.Date(2026, 11, 19, 15, 0, 0, 0, time.UTC) }
	s, err := grocery.Open(filepath.Join(tb.TempDir(), "grocery.db"), &grocery.Options{Now: now})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	if _, err := grocery.WriteBatch(context.Background(), s, fixtureBatch(tb)); err != nil {
		tb.Fatal(err)
	}
	return s
}

// errCode fails the test unless err has the wanted code.
func errCode(tb testing.TB, err error, want string) {
	tb.Helper()
	if got := grocery.ErrorCode(err); got != want {
		tb.Fatalf("error code: got %q (%v), want %q", got, err, want)
	}
}
