package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// putOffers writes an offer of each gtin, banner and day of offers in
// province, in one transaction, with what the offer's index check asks
// for: its product, its SKU and its observation.
func putOffers(t *testing.T, db *DB, province string, offers []testOffer) {
	t.Helper()
	err := db.Update(func(tx *Tx) error {
		for _, o := range offers {
			sku := "s" + o.gtin
			if err := tx.PutProduct(&Product{GTIN: o.gtin, Name: "p"}); err != nil {
				return err
			}
			if err := tx.PutSKU(&SKU{Banner: o.banner, SKU: sku, GTIN: o.gtin}); err != nil {
				return err
			}
			if err := tx.PutDay(o.banner, sku, province, &Day{Date: o.day, Min: 100, Median: 100, Max: 100, Count: 1, Entries: []Entry{{Store: 1, Price: 100, Regular: 100}}}); err != nil {
				return err
			}
			price := max(o.price, 100)
			if err := tx.PutOffer(province, o.gtin, &Offer{Banner: o.banner, SKU: sku, Price: price, Regular: price + 20, StoreCount: o.stores, ObservedAt: o.day}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// testOffer is an offer putOffers writes: its price is 100 unless set,
// its regular price 20 more.
type testOffer struct {
	gtin, banner  string
	day           int32
	price, stores uint32
}

func gtinN(n int) string { return fmt.Sprintf("%014d", n) }

// newest looks gtins up in d in the order given and returns their days,
// -1 for none.
func newest(d *OfferPrices, gtins []string) []int32 {
	var got []int32
	for _, g := range gtins {
		day, ok := d.Newest([]byte(g))
		if !ok {
			day = -1
		}
		got = append(got, day)
	}
	return got
}

// entries lists province's offer prices, one "gtin banner price/regular
// stores@day" an offer, in their order.
func entries(tx *Tx, province string) ([]string, error) {
	op, err := tx.OfferPrices(province)
	if err != nil {
		return nil, err
	}
	var out []string
	for p := range op.Products() {
		first, end, err := op.Offers(p)
		if err != nil {
			return nil, err
		}
		for i := first; i < end; i++ {
			var e PriceEntry
			banner, err := op.Entry(i, &e)
			if err != nil {
				return nil, err
			}
			out = append(out, fmt.Sprintf("%s %s %d/%d %d@%d", op.Product(p)[12:], banner, e.Price, e.Regular, e.StoreCount, e.ObservedAt))
		}
	}
	return out, nil
}

// TestOfferPrices: a province's offer prices are its offers' barcodes,
// banners, prices, store counts and days, in the offers' order, and a
// product's newest day is the greatest ObservedAt of its offers over its
// banners, as the last committed write left them: after puts, a delete,
// every offer of a province deleted, and a write rolled back.
func TestOfferPrices(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	putOffers(t, db, "ON", []testOffer{{gtinN(1), "metro", 100, 250, 3}, {gtinN(1), "loblaws", 105, 199, 2}, {gtinN(3), "metro", 90, 0, 0}})
	putOffers(t, db, "QC", []testOffer{{gtinN(2), "metro", 50, 0, 1}})
	check := func(step, province string, gtins []string, want []int32, wantEntries ...string) {
		t.Helper()
		err := db.View(func(tx *Tx) error {
			d, err := tx.OfferPrices(province)
			if err != nil {
				return err
			}
			if got := newest(&d, gtins); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: %s newest days of %v: got %v, want %v", step, province, gtins, got, want)
			}
			got, err := entries(tx, province)
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", wantEntries) {
				t.Errorf("%s: %s offer prices:\n got %q\nwant %q", step, province, got, wantEntries)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	all := []string{gtinN(0), gtinN(1), gtinN(2), gtinN(3), gtinN(4)}
	check("puts", "ON", all, []int32{-1, 105, -1, 90, -1}, "01 loblaws 199/219 2@105", "01 metro 250/270 3@100", "03 metro 100/120 0@90")
	check("puts", "QC", all, []int32{-1, -1, 50, -1, -1}, "02 metro 100/120 1@50")
	check("puts", "NB", all, []int32{-1, -1, -1, -1, -1})

	err := db.Update(func(tx *Tx) error { return tx.DeleteOffer("ON", gtinN(1), "loblaws", "s"+gtinN(1)) })
	if err != nil {
		t.Fatal(err)
	}
	check("a delete", "ON", all, []int32{-1, 100, -1, 90, -1}, "01 metro 250/270 3@100", "03 metro 100/120 0@90")

	err = db.Update(func(tx *Tx) error {
		if err := tx.PutOffer("ON", gtinN(4), &Offer{Banner: "metro", SKU: "x", ObservedAt: 200}); err != nil {
			return err
		}
		return errors.New("rolled back")
	})
	if err == nil {
		t.Fatal("the failing write committed")
	}
	check("a write rolled back", "ON", all, []int32{-1, 100, -1, 90, -1}, "01 metro 250/270 3@100", "03 metro 100/120 0@90")

	err = db.Update(func(tx *Tx) error {
		if err := tx.DeleteOffer("ON", gtinN(1), "metro", "s"+gtinN(1)); err != nil {
			return err
		}
		return tx.DeleteOffer("ON", gtinN(3), "metro", "s"+gtinN(3))
	})
	if err != nil {
		t.Fatal(err)
	}
	check("every offer deleted", "ON", all, []int32{-1, -1, -1, -1, -1})
	err = db.View(func(tx *Tx) error {
		if v := tx.offerPrices().Get([]byte("ON")); v != nil {
			t.Errorf("a province without offers keeps a record of %d bytes", len(v))
		}
		return tx.CheckIndexes()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestOfferPricesLookups: Seek finds every product, and of none between
// them the next one, and Newest the newest day, whatever the order of
// the lookups: ascending with gaps (galloped), descending, shuffled and
// repeated (searched).
func TestOfferPricesLookups(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	var offers []testOffer
	want := map[string]int32{}
	for i := 0; i < 600; i += 2 { // the even GTINs have offers, the odd ones none
		day := int32(20000 + i%37)
		offers = append(offers, testOffer{gtinN(i), "metro", day, 0, 0})
		if i%3 == 0 {
			offers = append(offers, testOffer{gtinN(i), "sobeys", day + 5, 0, 0})
			day += 5
		}
		want[gtinN(i)] = day
	}
	// The first product not below GTIN n: the even ones below it, 300
	// past the last.
	wantSeek := func(n int) int { return min((n+1)/2, 300) }
	putOffers(t, db, "ON", offers)
	orders := map[string][]string{}
	for i := 0; i < 601; i++ {
		orders["ascending"] = append(orders["ascending"], gtinN(i))
		orders["descending"] = append(orders["descending"], gtinN(600-i))
		if i%97 == 0 {
			orders["far apart"] = append(orders["far apart"], gtinN(i))
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	orders["shuffled, repeated"] = append(append([]string{}, orders["ascending"]...), orders["ascending"][:50]...)
	r.Shuffle(len(orders["shuffled, repeated"]), func(i, j int) {
		s := orders["shuffled, repeated"]
		s[i], s[j] = s[j], s[i]
	})
	orders["past the last"] = []string{gtinN(598), gtinN(599), gtinN(700), gtinN(2)}
	err := db.View(func(tx *Tx) error {
		for name, gtins := range orders {
			d, err := tx.OfferPrices("ON")
			if err != nil {
				return err
			}
			if d.Products() != 300 {
				t.Errorf("Products: %d, want 300", d.Products())
			}
			for i, g := range gtins {
				n, _ := strconv.Atoi(g)
				if got := d.Seek([]byte(g)); got != wantSeek(n) {
					t.Errorf("%s: seek %d, %s: got %d, want %d", name, i, g, got, wantSeek(n))
				}
			}
			for i, day := range newest(&d, gtins) {
				w, ok := want[gtins[i]]
				if !ok {
					w = -1
				}
				if day != w {
					t.Errorf("%s: lookup %d, %s: got %d, want %d", name, i, gtins[i], day, w)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestUpgradeOfferPrices: a version 14 file has offer days and no offer
// prices, a version 13 file neither, a version 15 file its offer prices
// laid out with a barcode an offer (one of them of a province without
// offers). A read-only open refuses them, saying
// to open them once for writing; a writable open writes the offer
// prices, they check, and the offer days are gone.
func TestUpgradeOfferPrices(t *testing.T) {
	t.Parallel()
	for _, version := range []int{13, 14, 15} {
		t.Run(fmt.Sprint(version), func(t *testing.T) { testUpgradeOfferPrices(t, version) })
	}
}

func testUpgradeOfferPrices(t *testing.T, version int) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	putOffers(t, db, "ON", []testOffer{{gtinN(1), "metro", 100, 0, 0}, {gtinN(1), "loblaws", 105, 0, 0}})
	putOffers(t, db, "BC", []testOffer{{gtinN(7), "metro", 60, 0, 0}})
	gone := bucketOfferPrices // what the old version has not
	err = db.Update(func(tx *Tx) error {
		switch version {
		case 14:
			b, err := tx.tx.CreateBucket(bucketOfferDays)
			if err != nil {
				return err
			}
			return b.Put([]byte("ON"), binary.BigEndian.AppendUint32([]byte(gtinN(1)), 105))
		case 15:
			// Version 15's layout: 32 bytes an offer, its barcode in
			// each.
			gone = nil
			v := append(binary.BigEndian.AppendUint16(nil, 1), "\x05metro"...)
			v = append(append(v, gtinN(7)...), 0, 0)
			for _, x := range []uint32{100, 120, 0, 60} {
				v = binary.BigEndian.AppendUint32(v, x)
			}
			if err := tx.offerPrices().Put([]byte("BC"), v); err != nil {
				return err
			}
			// And one of a province without offers, left from before.
			return tx.offerPrices().Put([]byte("QC"), v)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	asVersion(t, db, path, version, gone)
	db, err = Open(path, Options{})
	if err != nil {
		t.Fatalf("writable open of a version %d file: %v", version, err)
	}
	defer db.Close()
	err = db.View(func(tx *Tx) error {
		if err := tx.checkOfferPrices(); err != nil {
			return err
		}
		if tx.tx.Bucket(bucketOfferDays) != nil {
			t.Error("the offer days are kept after the upgrade")
		}
		on, err := entries(tx, "ON")
		if err != nil {
			return err
		}
		bc, err := entries(tx, "BC")
		if want := `["01 loblaws 100/120 0@105" "01 metro 100/120 0@100"] ["07 metro 100/120 0@60"]`; fmt.Sprintf("%q %q", on, bc) != want {
			t.Errorf("offer prices after the upgrade: ON, BC: %q %q, want %s", on, bc, want)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// priceRecord returns an offer prices record of banners, products made
// with priceProduct and offers made with priceOffer.
func priceRecord(banners []string, products, offers [][]byte) []byte {
	v := binary.BigEndian.AppendUint16(nil, uint16(len(banners)))
	for _, b := range banners {
		v = append(append(v, byte(len(b))), b...)
	}
	v = binary.BigEndian.AppendUint32(v, uint32(len(products)))
	for _, e := range append(products, offers...) {
		v = append(v, e...)
	}
	return v
}

func priceProduct(gtin string, newest int32, end uint32) []byte {
	return binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32([]byte(gtin), uint32(newest)), end)
}

func priceOffer(banner uint16, price, regular, stores uint32, day int32) []byte {
	e := binary.BigEndian.AppendUint16(nil, banner)
	for _, x := range []uint32{price, regular, stores, uint32(day)} {
		e = binary.BigEndian.AppendUint32(e, x)
	}
	return e
}

// TestCheckOfferPrices: CheckIndexes finds offer prices that differ from
// their offers (an offer, a product's newest day, the products, the
// banners), those of a province without offers, and a province's missing
// record. Read, a record of a length no products and offers make, naming
// a banner it does not list, or whose products' ends do not rise within
// its offers is corrupt.
func TestCheckOfferPrices(t *testing.T) {
	t.Parallel()
	banners := []string{"loblaws", "metro"}
	product := [][]byte{priceProduct(gtinN(1), 105, 2)}
	loblaws, metro := priceOffer(0, 100, 120, 0, 105), priceOffer(1, 100, 120, 0, 100)
	ok := priceRecord(banners, product, [][]byte{loblaws, metro})
	for _, tc := range []struct {
		name   string
		break_ func(tx *Tx) error
		want   string
	}{
		{"stale price", func(tx *Tx) error {
			return tx.offerPrices().Put([]byte("ON"), priceRecord(banners, product, [][]byte{loblaws, priceOffer(1, 99, 120, 0, 100)}))
		}, `offerprices of "ON" differ from its offers: at offer 2 of the 2 its offers give`},
		{"stale newest day", func(tx *Tx) error {
			return tx.offerPrices().Put([]byte("ON"), priceRecord(banners, [][]byte{priceProduct(gtinN(1), 100, 2)}, [][]byte{loblaws, metro}))
		}, `offerprices of "ON" differ from its offers: at product 1 of the 1 its offers give`},
		{"a product too many", func(tx *Tx) error {
			return tx.offerPrices().Put([]byte("ON"), priceRecord(banners, [][]byte{priceProduct(gtinN(0), 1, 1), priceProduct(gtinN(1), 105, 3)},
				[][]byte{metro, loblaws, metro}))
		}, `offerprices of "ON" differ from its offers: in the count of products (its offers give 1)`},
		{"banners", func(tx *Tx) error {
			return tx.offerPrices().Put([]byte("ON"), priceRecord([]string{"metro", "loblaws"}, product,
				[][]byte{priceOffer(1, 100, 120, 0, 105), priceOffer(0, 100, 120, 0, 100)}))
		}, `offerprices of "ON" differ from its offers: banners "\x05metro\aloblaws", its offers give "\aloblaws\x05metro"`},
		{"orphan", func(tx *Tx) error { return tx.offerPrices().Put([]byte("QC"), ok) }, `offerprices of "QC" differ from its offers: a record, and no offers`},
		{"missing", func(tx *Tx) error { return tx.offerPrices().Delete([]byte("ON")) }, `offerprices of "ON" differ from its offers: no record, its offers give 1 product`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := tempDB(t)
			putOffers(t, db, "ON", []testOffer{{gtinN(1), "metro", 100, 0, 0}, {gtinN(1), "loblaws", 105, 0, 0}})
			err := db.View(func(tx *Tx) error { return tx.CheckIndexes() })
			if err != nil {
				t.Fatalf("before: %v", err)
			}
			// The record made by hand as its offers give it, put
			// again: unchanged.
			err = db.Update(func(tx *Tx) error {
				if err := tx.offerPrices().Put([]byte("ON"), ok); err != nil {
					return err
				}
				return tx.CheckIndexes()
			})
			if err != nil {
				t.Fatalf("the record made by hand: %v", err)
			}
			wantInconsistent(t, db, tc.break_, tc.want)
		})
	}
	// Read, each is corrupt; checked against the province's offers, each
	// differs from them.
	db := tempDB(t)
	putOffers(t, db, "ON", []testOffer{{gtinN(1), "metro", 100, 0, 0}, {gtinN(1), "loblaws", 105, 0, 0}})
	for name, rec := range map[string][]byte{
		"a record of 1 byte":        {0},
		"an offer cut short":        ok[:len(ok)-1],
		"banner 2 of a list of 2":   priceRecord(banners, product, [][]byte{loblaws, priceOffer(2, 100, 120, 0, 100)}),
		"a banner's name cut short": ok[:5],
		"2 products, 1 given":       priceRecord(banners, [][]byte{product[0], priceProduct(gtinN(2), 1, 2)}, nil),
		// 44 bytes of products in 28: 16 bytes short, which a count of
		// bytes wrapped around below 0 would take for a whole number of
		// offers.
		"2 products in 28 bytes":   append(priceRecord(banners, [][]byte{product[0], priceProduct(gtinN(2), 1, 2)}, nil)[:2+8+6+4+22], 1, 2, 3, 4, 5, 6),
		"an end past the offers":   priceRecord(banners, [][]byte{priceProduct(gtinN(1), 105, 3)}, [][]byte{loblaws, metro}),
		"a product without offers": priceRecord(banners, [][]byte{priceProduct(gtinN(0), 1, 0), priceProduct(gtinN(1), 105, 2)}, [][]byte{loblaws, metro}),
	} {
		err := db.Update(func(tx *Tx) error {
			if err := tx.offerPrices().Put([]byte("ON"), rec); err != nil {
				return err
			}
			_, err := entries(tx, "ON")
			return err
		})
		if !errors.Is(err, errCorrupt) {
			t.Errorf("%s: got %v, want errCorrupt", name, err)
		}
		wantInconsistent(t, db, func(tx *Tx) error { return tx.offerPrices().Put([]byte("ON"), rec) }, `offerprices of "ON" differ from its offers: `)
	}
}

// BenchmarkOfferPricesNewest looks up 600 of 20,000 products of four
// offers each (a search's matches against a province of the national
// set, every product under four banners) in ascending order, as a
// search's token runs mostly give them, and shuffled.
func BenchmarkOfferPricesNewest(b *testing.B) {
	var products, offers [][]byte
	for i := 0; i < 20000; i++ { // four banners' offers a product
		products = append(products, priceProduct(gtinN(i*3), 20000, uint32(4*i+4)))
		for banner := range uint16(4) {
			offers = append(offers, priceOffer(banner, 100, 120, 1, 20000))
		}
	}
	rec := priceRecord([]string{"a", "b", "c", "d"}, products, offers)
	var asc [][]byte
	for i := 0; i < 600; i++ {
		asc = append(asc, []byte(gtinN(i*100)))
	}
	shuffled := append([][]byte{}, asc...)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, c := range []struct {
		name  string
		gtins [][]byte
	}{{"ascending", asc}, {"shuffled", shuffled}} {
		b.Run(c.name, func(b *testing.B) {
			found := 0
			for b.Loop() {
				d := OfferPrices{products: rec[2+4*2+4 : 2+4*2+4+20000*priceProductLen]}
				for _, g := range c.gtins {
					if _, ok := d.Newest(g); ok {
						found++
					}
				}
			}
			if found == 0 {
				b.Fatal("found none")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(c.gtins)), "ns/lookup")
		})
	}
}

// TestOfferPricesWrites: the offer prices follow every way offers are written:
// TryUpdate; a write transaction reads its own writes; ClearOffers clears
// every province's record, and offers put again after it make theirs
// anew.
func TestOfferPricesWrites(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ran, err := db.TryUpdate(func(tx *Tx) error {
		if err := tx.PutOffer("ON", gtinN(1), &Offer{Banner: "metro", SKU: "a", ObservedAt: 100}); err != nil {
			return err
		}
		return tx.PutOffer("QC", gtinN(2), &Offer{Banner: "metro", SKU: "b", ObservedAt: 50})
	})
	if err != nil || !ran {
		t.Fatalf("TryUpdate: ran %v, %v", ran, err)
	}
	err = db.Update(func(tx *Tx) error {
		on, err := tx.OfferPrices("ON")
		if err != nil {
			return err
		}
		if got := newest(&on, []string{gtinN(1)}); got[0] != 100 {
			t.Errorf("after TryUpdate: ON %v, want [100]", got)
		}
		if err := tx.PutOffer("ON", gtinN(1), &Offer{Banner: "loblaws", SKU: "c", ObservedAt: 200}); err != nil {
			return err
		}
		if on, err = tx.OfferPrices("ON"); err != nil {
			return err
		}
		if got := newest(&on, []string{gtinN(1)}); got[0] != 200 {
			t.Errorf("in the write that put day 200: ON %v, want [200]", got)
		}
		if err := tx.ClearOffers(); err != nil {
			return err
		}
		return tx.PutOffer("QC", gtinN(3), &Offer{Banner: "metro", SKU: "d", ObservedAt: 70})
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.View(func(tx *Tx) error {
		if v := tx.offerPrices().Get([]byte("ON")); v != nil {
			t.Errorf("ON keeps a record of %d bytes after ClearOffers", len(v))
		}
		qc, err := tx.OfferPrices("QC")
		if err != nil {
			return err
		}
		if got := newest(&qc, []string{gtinN(2), gtinN(3)}); fmt.Sprint(got) != "[-1 70]" {
			t.Errorf("QC after ClearOffers and a put: %v, want [-1 70]", got)
		}
		return tx.checkOfferPrices()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestPutOfferLongBanner: an offer under a banner of more than 255 bytes,
// which the offer prices could not name, is refused and writes nothing;
// one of 255 is kept.
func TestPutOfferLongBanner(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	long := strings.Repeat("b", 256)
	err := db.Update(func(tx *Tx) error { return tx.PutOffer("ON", gtinN(1), &Offer{Banner: long, SKU: "s", ObservedAt: 1}) })
	if err == nil || !strings.Contains(err.Error(), "is 256 bytes, over 255") {
		t.Errorf("a banner of 256 bytes: got %v, want it refused", err)
	}
	err = db.Update(func(tx *Tx) error {
		return tx.PutOffer("ON", gtinN(2), &Offer{Banner: long[:255], SKU: "s", Price: 100, StoreCount: 1, ObservedAt: 1})
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.View(func(tx *Tx) error {
		got, err := entries(tx, "ON")
		if want := "02 " + long[:255] + " 100/0 1@1"; len(got) != 1 || got[0] != want {
			t.Errorf("offer prices: got %q, want [%q]", got, want)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
