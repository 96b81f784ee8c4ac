package market

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/storage"
)

// openStore opens a store in a test's temporary directory and writes
// what put writes in one transaction.
func openStore(t *testing.T, put func(tx *storage.Tx) error) *storage.DB {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "s.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Update(put); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestOffersRead: with own banner "a" and current meaning observed after
// day 10, a barcode's banners are:
//   - a, whose offers are all stale (days 5 and 7): kept, not current,
//     its last price the day-7 SKU's (a2, 3.50);
//   - b, three current SKUs: b1 and b2 at 4.00 (the lower SKU, b1,
//     wins: its stores and day), b3 at 4.20 with the lowest regular
//     price, 4.20 (taken though b3 is not the SKU of the price);
//   - c: its offers observed on days 9 and 10, not after day 10, are
//     dropped (not the own banner);
//   - d, one current SKU.
//
// Barcode ...2 is refused by skip and barcode ...3, with only c's
// stale offer, has no banner: neither has a group.
func TestOffersRead(t *testing.T) {
	t.Parallel()
	const g1, g2, g3 = "00000000000001", "00000000000002", "00000000000003"
	put := []struct {
		gtin string
		o    storage.Offer
	}{
		{g1, storage.Offer{Banner: "a", SKU: "a1", ObservedAt: 5, Price: 300, Regular: 300, StoreCount: 1}},
		{g1, storage.Offer{Banner: "a", SKU: "a2", ObservedAt: 7, Price: 350, Regular: 400, StoreCount: 2}},
		{g1, storage.Offer{Banner: "b", SKU: "b1", ObservedAt: 12, Price: 400, Regular: 500, StoreCount: 3}},
		{g1, storage.Offer{Banner: "b", SKU: "b2", ObservedAt: 11, Price: 400, Regular: 480, StoreCount: 2}},
		{g1, storage.Offer{Banner: "b", SKU: "b3", ObservedAt: 12, Price: 420, Regular: 420, StoreCount: 1}},
		{g1, storage.Offer{Banner: "c", SKU: "c1", ObservedAt: 9, Price: 250, Regular: 250, StoreCount: 1}},
		{g1, storage.Offer{Banner: "c", SKU: "c2", ObservedAt: 10, Price: 250, Regular: 250, StoreCount: 1}},
		{g1, storage.Offer{Banner: "d", SKU: "d1", ObservedAt: 11, Price: 450, Regular: 500, StoreCount: 4}},
		{g2, storage.Offer{Banner: "b", SKU: "b9", ObservedAt: 12, Price: 50, Regular: 50, StoreCount: 1}},
		{g3, storage.Offer{Banner: "c", SKU: "c3", ObservedAt: 3, Price: 50, Regular: 50, StoreCount: 1}},
	}
	db := openStore(t, func(tx *storage.Tx) error {
		for _, p := range put {
			if err := tx.PutOffer("ON", p.gtin, &p.o); err != nil {
				return err
			}
		}
		return nil
	})
	wantGroups := []Group{{GTIN: g1, Lo: 0, Hi: 3}}
	wantList := []BannerOffer{
		{Banner: "a", Last: 7, LastSKU: "a2", LastP: 700},
		{Banner: "b", SKU: "b1", P: 800, R: 840, Stores: 3, Observed: 12, Current: true, Last: 12, LastSKU: "b1", LastP: 800},
		{Banner: "d", SKU: "d1", P: 900, R: 1000, Stores: 4, Observed: 11, Current: true, Last: 11, LastSKU: "d1", LastP: 900},
	}
	var o Offers
	for read := range 2 { // the second read after Reset reads the same
		o.Reset()
		err := db.View(func(tx *storage.Tx) error {
			return o.Read(tx, "ON", "a", 10, func(gtin string) bool { return gtin == g2 })
		})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantGroups, o.Groups); diff != "" {
			t.Errorf("read %d: groups (-want +got):\n%s", read, diff)
		}
		if diff := cmp.Diff(wantList, o.List); diff != "" {
			t.Errorf("read %d: banners (-want +got):\n%s", read, diff)
		}
	}
	if len(o.Groups) != 1 {
		t.Fatalf("got %d groups, want 1", len(o.Groups))
	}
	if got, want := o.List[1].Price(), (Price{Banner: "b", Price: 400, Regular: 420}); got != want { // half-cents 800 and 840
		t.Errorf("b's price: got %v, want %v", got, want)
	}

	// OwnAndOthers: the own banner whether current or not, and the other
	// banners with a current price.
	own, others := o.OwnAndOthers(0, "a")
	if own != &o.List[0] {
		t.Errorf("own of a: got %v, want a's stale offer", own)
	}
	if got, want := banners(others), []string{"b", "d"}; !cmp.Equal(got, want) {
		t.Errorf("others of a: got %v, want %v", got, want)
	}
	own, others = o.OwnAndOthers(0, "b")
	if own != &o.List[1] {
		t.Errorf("own of b: got %v, want b's offer", own)
	}
	if got, want := banners(others), []string{"d"}; !cmp.Equal(got, want) { // a is not current
		t.Errorf("others of b: got %v, want %v", got, want)
	}
	own, others = o.OwnAndOthers(0, "z")
	if got, want := banners(others), []string{"b", "d"}; own != nil || !cmp.Equal(got, want) {
		t.Errorf("of z: got own %v, others %v; want none and %v", own, got, want)
	}
}

func banners(offers []BannerOffer) []string {
	var out []string
	for _, o := range offers {
		out = append(out, o.Banner)
	}
	return out
}

// TestShelvesFind: a banner SKU's shelf record, by banner then SKU, of
// the records Read keeps.
func TestShelvesFind(t *testing.T) {
	t.Parallel()
	db := openStore(t, func(tx *storage.Tx) error {
		for _, sh := range []storage.Shelf{
			{Banner: "a", SKU: "1", First: 1, Last: 1, LastPrice: 101},
			{Banner: "a", SKU: "3", First: 1, Last: 1, LastPrice: 103},
			{Banner: "b", SKU: "2", First: 1, Last: 1, LastPrice: 202},
			{Banner: "b", SKU: "4", First: 1, Last: 1, LastPrice: 204}, // not kept
			{Banner: "c", SKU: "1", First: 1, Last: 1, LastPrice: 301},
		} {
			if err := tx.PutShelf("ON", &sh); err != nil {
				return err
			}
		}
		return nil
	})
	var s Shelves
	err := db.View(func(tx *storage.Tx) error {
		return s.Read(tx, "ON", func(sh *storage.Shelf) bool { return sh.LastPrice != 204 })
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		banner, sku string
		want        uint32 // LastPrice, 0 for no record
	}{{"a", "1", 101}, {"a", "3", 103}, {"b", "2", 202}, {"c", "1", 301}, {"a", "2", 0}, {"b", "4", 0}, {"d", "1", 0}} {
		got := s.Find(tc.banner, tc.sku)
		if (tc.want == 0) != (got == nil) || got != nil && got.LastPrice != tc.want {
			t.Errorf("Find(%s, %s): got %+v, want last price %d", tc.banner, tc.sku, got, tc.want)
		}
	}
}

// TestScanAndSeekEach: with current meaning observed after day 10 by
// some store, Scan and SeekEach fold a barcode's current offers into its
// banner prices, each banner's the lowest price and, apart, the lowest
// regular price of its SKUs, with the store-level prices behind them:
//   - ...1: a1 (2.80, regular 3.30, 1 store) and a2 (3.00, 3.20, 2) give
//     a 2.80 and 3.20; b1 (3.10, 3 stores) gives b 3.10; 6 stores;
//   - ...2: only a stale offer (day 5): no call;
//   - ...3: c 1.50, 1 store (Scan's skip refuses it);
//   - ...4: a 0.90, regular 1.00, 4 stores; c4 has no store: not current.
//
// SeekEach, asked for ...1 to ...5, says each barcode's place in the
// list. use sees only the fields the offer prices keep: no SKU, no
// minimum, no daily price.
func TestScanAndSeekEach(t *testing.T) {
	t.Parallel()
	const g1, g2, g3, g4, g5 = "00000000000001", "00000000000002", "00000000000003", "00000000000004", "00000000000005"
	put := []struct {
		gtin string
		o    storage.Offer
	}{
		{g1, storage.Offer{Banner: "a", SKU: "a1", ObservedAt: 11, Price: 280, Regular: 330, StoreCount: 1, Min: 1}},
		{g1, storage.Offer{Banner: "a", SKU: "a2", ObservedAt: 12, Price: 300, Regular: 320, StoreCount: 2, Min: 1}},
		{g1, storage.Offer{Banner: "b", SKU: "b1", ObservedAt: 12, Price: 310, Regular: 310, StoreCount: 3, Min: 1}},
		{g2, storage.Offer{Banner: "b", SKU: "b2", ObservedAt: 5, Price: 100, Regular: 100, StoreCount: 1, Min: 1}},
		{g3, storage.Offer{Banner: "c", SKU: "c1", ObservedAt: 12, Price: 150, Regular: 150, StoreCount: 1, Min: 1}},
		{g4, storage.Offer{Banner: "a", SKU: "a4", ObservedAt: 12, Price: 90, Regular: 100, StoreCount: 4, Min: 1,
			Daily: storage.DayPrice{Day: 12, Price: 90, Regular: 100}}},
		{g4, storage.Offer{Banner: "c", SKU: "c4", ObservedAt: 11, Price: 95, Regular: 95, Min: 1}},
	}
	db := openStore(t, func(tx *storage.Tx) error {
		for _, p := range put {
			if err := tx.PutOffer("ON", p.gtin, &p.o); err != nil {
				return err
			}
		}
		return nil
	})
	use := func(g string, o *storage.Offer) bool {
		if o.SKU != "" || o.Min != 0 || o.Daily != (storage.DayPrice{}) {
			t.Errorf("%s: use sees %+v, more than the offer prices keep", g, *o)
		}
		return o.ObservedAt > 10 && o.StoreCount > 0
	}
	type call struct {
		At     int
		GTIN   string
		Prices []Price
		Stores int
	}
	p1 := []Price{{"a", 280, 320}, {"b", 310, 310}}
	p3, p4 := []Price{{"c", 150, 150}}, []Price{{"a", 90, 100}}
	var scanned, sought []call
	err := db.View(func(tx *storage.Tx) error {
		err := Scan(tx, "ON", func(g string) bool { return g == g3 }, use, func(g string, ps []Price, n int) error {
			scanned = append(scanned, call{-1, g, slices.Clone(ps), n})
			return nil
		})
		if err != nil {
			return err
		}
		return SeekEach(tx, "ON", []string{g1, g2, g3, g4, g5}, nil, use, func(at int, g string, ps []Price, n int) error {
			sought = append(sought, call{at, g, slices.Clone(ps), n})
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]call{{-1, g1, p1, 6}, {-1, g4, p4, 4}}, scanned); diff != "" {
		t.Errorf("Scan (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]call{{0, g1, p1, 6}, {2, g3, p3, 1}, {3, g4, p4, 4}}, sought); diff != "" {
		t.Errorf("SeekEach (-want +got):\n%s", diff)
	}
}
