package grocery

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/grocerydata/grocery/storage"
)

// TestVerify: the demo file is consistent; an aggregate that differs from
// the observations, and an offer whose product is gone, are reported by
// name, and Verify changes nothing.
func TestVerify(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := DemoCopy(t)
	asOf, _ := ParseDate("2026-11-19")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Verify(ctx); err != nil {
		t.Fatalf("Verify of a fresh demo file: %v", err)
	}
	if err := s.Verify(ctx); err != nil { // the first must have changed nothing
		t.Fatalf("Verify again: %v", err)
	}

	// One observation too many in a category day.
	var key storage.CatDayKey
	if err := s.db.View(func(tx *storage.Tx) error {
		return tx.CatDays("ON", "Dairy & Eggs", "no-frills", 0, int32(asOf), storage.CatCounts, func(k *storage.CatDayKey, _ *storage.CatDay) error {
			key = *k
			return storage.ErrStop
		})
	}); err != nil {
		t.Fatal(err)
	}
	if key.Day == 0 {
		t.Fatal("no ON Dairy & Eggs category day in the demo")
	}
	extra := []storage.CatObs{{Store: 1, Price: 12345}}
	if err := s.db.Update(func(tx *storage.Tx) error { return tx.UpdateCatDay(&key, &storage.CatDayChange{Add: extra}) }); err != nil {
		t.Fatal(err)
	}
	err = s.Verify(ctx)
	errCode(t, err, ECONFLICT)
	t.Logf("an extra observation: %v", err)
	if err := s.db.Update(func(tx *storage.Tx) error { return tx.UpdateCatDay(&key, &storage.CatDayChange{Remove: extra}) }); err != nil {
		t.Fatal(err)
	}
	if err := s.Verify(ctx); err != nil {
		t.Fatalf("Verify after taking it out again: %v", err)
	}

	// An offer naming a product that is not there.
	if err := s.db.Update(func(tx *storage.Tx) error {
		return tx.PutOffer("ON", "00000000000017", &storage.Offer{Banner: "no-frills", SKU: "nope", Price: 100, Regular: 100})
	}); err != nil {
		t.Fatal(err)
	}
	err = s.Verify(ctx)
	errCode(t, err, ECONFLICT)
	t.Logf("a dangling offer: %v", err)
}

// metroStores are two Metro stores in Toronto.
const metroStores = "store_id,banner,province,name,city,postal_code,latitude,longitude\n" +
	"met-a,metro,ON,Metro A,Toronto,M5V 1A1,43.60,-79.40\nmet-b,metro,ON,Metro B,Toronto,M5V 1A2,43.61,-79.40\n"

// openStores opens a new data file holding the stores of a CSV file.
func openStores(t *testing.T, stores string) *Service {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "g.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	mustImport(t, s, "stores.csv", stores, nil)
	return s
}

// storedShelf reads a series' shelf record as stored.
func storedShelf(t *testing.T, s *Service, province, banner, sku string) storage.Shelf {
	t.Helper()
	var shelf storage.Shelf
	if err := s.db.View(func(tx *storage.Tx) error {
		found, err := tx.Shelf(province, banner, sku, &shelf)
		if err == nil && !found {
			t.Errorf("no shelf record for %s %s in %s", banner, sku, province)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return shelf
}

func errCode(tb testing.TB, err error, want string) {
	tb.Helper()
	if got := ErrorCode(err); got != want {
		tb.Fatalf("error %v: code %q, want %q", err, got, want)
	}
}

// TestShelfAfterCorrection: a second file correcting days after a series'
// regular-price change keeps that change on the shelf record, as a
// recomputation from every observation finds it. The writer read the day
// before its window with math.MinInt32 as the lower bound, which storage
// sorted after every day: the change was lost (the crash check found it).
func TestShelfAfterCorrection(t *testing.T) {
	ctx := context.Background()
	s := openStores(t, metroStores)
	const head = "date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category\n"
	row := func(date, store, price, regular, ends string) string {
		return date + "," + store + ",metro,M1," + price + "," + regular + "," + ends + ",068000000154,2% Milk,Natrel,2 L,Dairy & Eggs\n"
	}
	// Regular 4.79 until 08-16, 4.97 from 08-20 (the change), a promotion
	// from 09-17; then 4.97 again.
	first := head
	for _, d := range []string{"2026-08-09", "2026-08-16"} {
		first += row(d, "met-a", "4.79", "4.79", "") + row(d, "met-b", "4.79", "4.79", "")
	}
	for _, d := range []string{"2026-08-20", "2026-09-10"} {
		first += row(d, "met-a", "4.97", "4.97", "") + row(d, "met-b", "4.97", "4.97", "")
	}
	for _, d := range []string{"2026-09-17", "2026-09-24"} {
		first += row(d, "met-a", "3.88", "4.97", "2026-09-30") + row(d, "met-b", "3.88", "4.97", "2026-09-30")
	}
	first += row("2026-10-01", "met-a", "4.97", "4.97", "") + row("2026-10-01", "met-b", "4.97", "4.97", "")
	mustImport(t, s, "first.csv", first, nil)
	// A correction inside the promotion: met-b's 09-24 price.
	mustImport(t, s, "second.csv", head+row("2026-09-24", "met-b", "3.99", "4.97", "2026-09-30"), nil)

	shelf := storedShelf(t, s, "ON", "metro", "M1")
	if since, _ := ParseDate("2026-08-20"); shelf.RegularSince != int32(since) || shelf.PrevRegular != 479 {
		t.Errorf("regular since %s from %d, want since 2026-08-20 from 479", Date(shelf.RegularSince), shelf.PrevRegular)
	}
	if err := s.Verify(ctx); err != nil {
		t.Errorf("Verify: %v", err)
	}
}

// TestRegroupAfterProductChange: a product's category and size, and a
// SKU's barcode, changed by a later import move the days already counted
// to the category days (and unit prices) they now belong to, so Verify,
// which recounts every category day from the observations, finds the
// file consistent, and the category report counts the product under its
// new category.
func TestRegroupAfterProductChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Open(DemoCopy(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := s.LookupProduct(ctx, LookupInput{UPC: "067000378089", Province: "ON"})
	if err != nil || len(res.Offers) < 2 {
		t.Fatalf("lookup: %+v, %v", res, err)
	}
	o, o2 := res.Offers[0], res.Offers[1]
	st, err := s.ListReferenceStores(ctx, StoresInput{Province: "ON", Banner: string(o.Banner)})
	if err != nil || len(st.Stores) == 0 {
		t.Fatalf("stores of %s: %+v, %v", o.Banner, st, err)
	}
	// Another Beverages product's SKU, to be linked to a Snacks barcode.
	var other SearchProduct
	sr, err := s.SearchProducts(ctx, SearchInput{Query: "chips", Province: "ON"})
	if err != nil || len(sr.Results) == 0 {
		t.Fatalf("search chips: %+v, %v", sr, err)
	}
	other = sr.Results[0]
	snacks := func() CategoryStats {
		t.Helper()
		rep, err := s.CategoryReport(ctx, CategoryReportInput{Province: "ON", Category: "Snacks", Banner: string(o.Banner)})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Categories) != 1 {
			return CategoryStats{}
		}
		return rep.Categories[0]
	}
	before := snacks()
	day := o.ObservedAt.String()
	mustImport(t, s, "recat.csv", "date,store_id,banner,external_sku,price,upc,name,size,category\n"+
		day+","+st.Stores[0].ID+","+string(o.Banner)+","+o.ExternalSKU+","+o.Price.String()+",067000378089,Orange Juice No Pulp,1.75 L,Snacks\n", nil)
	if err := s.Verify(ctx); err != nil {
		t.Fatalf("Verify after a change of category and size: %v", err)
	}
	// o2's SKU now names the chips' barcode: its days move to that
	// product's category.
	st2, err := s.ListReferenceStores(ctx, StoresInput{Province: "ON", Banner: string(o2.Banner)})
	if err != nil || len(st2.Stores) == 0 {
		t.Fatalf("stores of %s: %+v, %v", o2.Banner, st2, err)
	}
	mustImport(t, s, "relink.csv", "date,store_id,banner,external_sku,price,upc\n"+
		o2.ObservedAt.String()+","+st2.Stores[0].ID+","+string(o2.Banner)+","+o2.ExternalSKU+","+o2.Price.String()+","+other.UPC+"\n", nil)
	if err := s.Verify(ctx); err != nil {
		t.Fatalf("Verify after a SKU's barcode changed: %v", err)
	}
	if after := snacks(); after.Products != before.Products+1 {
		t.Fatalf("Snacks at %s: %d products, want %d and the orange juice", o.Banner, after.Products, before.Products+1)
	}
}

// TestShelfRegularChangeBeforeRead: a day appended to a series derives
// its promotion events from the 30 days before it, and takes the regular
// price they start from from the observation day just before them. Here
// the regular price went from 5.00 to 6.00 on 06-12; the day appended,
// 07-22, reads from 06-22, and the day before that is 06-20, at 6.00: no
// change in the days read, so the change stays on 06-12 from 5.00. (The
// days held before 06-22 go back to 05-11, for the offer's 73 days:
// taking the first of them, 06-01 at 5.00, would put a change on 06-28.)
// Then a day 80 days later, 10-10 at 6.50, when no day is held before
// its 30 days (nor in the offer's 73): the day before them is read back,
// 07-22 at 6.00, and the change is the new day's, from 6.00.
func TestShelfRegularChangeBeforeRead(t *testing.T) {
	ctx := context.Background()
	s := openStores(t, metroStores)
	const head = "date,store_id,banner,external_sku,price,regular_price,upc,name,brand,size,category\n"
	row := func(date, price string) string {
		return date + ",met-a,metro,M1," + price + "," + price + ",068000000154,2% Milk,Natrel,2 L,Dairy & Eggs\n"
	}
	first := head
	for _, d := range []string{"2026-06-01", "2026-06-05", "2026-06-10"} {
		first += row(d, "5.00")
	}
	for _, d := range []string{"2026-06-12", "2026-06-20", "2026-06-28", "2026-07-06", "2026-07-14", "2026-07-21"} {
		first += row(d, "6.00")
	}
	mustImport(t, s, "first.csv", first, nil)
	check := func(when, since string, from uint32) {
		t.Helper()
		got := storedShelf(t, s, "ON", "metro", "M1")
		if day, _ := ParseDate(since); got.RegularSince != int32(day) || got.PrevRegular != from {
			t.Errorf("%s: regular since %s from %d, want since %s from %d", when, Date(got.RegularSince), got.PrevRegular, since, from)
		}
	}
	check("first file", "2026-06-12", 500)
	mustImport(t, s, "next.csv", head+row("2026-07-22", "6.00"), nil)
	check("a day appended", "2026-06-12", 500)
	mustImport(t, s, "gap.csv", head+row("2026-10-10", "6.50"), nil)
	check("a day after 80 days", "2026-10-10", 600)
	if err := s.Verify(ctx); err != nil {
		t.Errorf("Verify: %v", err)
	}
}
