package grocery

import (
	"context"
	"maps"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/storage"
)

func TestFlyerWeekOf(t *testing.T) {
	for _, tc := range []struct{ day, from, to string }{
		{"2026-11-19", "2026-11-19", "2026-11-25"}, // a Thursday starts its week
		{"2026-11-18", "2026-11-12", "2026-11-18"}, // a Wednesday ends it
		{"2026-11-24", "2026-11-19", "2026-11-25"}, // a Tuesday
		{"2026-01-01", "2026-01-01", "2026-01-07"}, // 2026 began on a Thursday
	} {
		from, to := flyerWeekOf(int32(day(tc.day)))
		if Date(from) != day(tc.from) || Date(to) != day(tc.to) {
			t.Errorf("flyer week of %s: got %s to %s, want %s to %s", tc.day, Date(from), Date(to), tc.from, tc.to)
		}
	}
}

// TestOneFlyerWeek: the competitive benchmark and the brief's basket
// compare every banner on the same flyer week. The latest day, Thursday
// 11-19, starts a flyer week in which only Loblaws was visited (its new
// flyer: milk 3.50 on promotion until 11-25); No Frills and Metro, priced
// in the week before (11-12 to 11-18), are not yet priced in it, so both
// answers compare the week 11-12 to 11-18, in which Loblaws' milk was
// 5.00 (11-16), No Frills' 4.00 (11-17) and Metro's 4.50 (11-18).
//
//	Loblaws:   5.00 / median(4.00, 4.50) = 5.00 / 4.25 = 1.17647 -> 117.6
//	No Frills: 4.00 / median(5.00, 4.50) = 4.00 / 4.75 = 0.84211 -> 84.2
//	Metro:     4.50 / median(5.00, 4.00) = 4.50 / 4.50 = 1       -> 100.0
//
// Regular prices equal the shelf prices in that week. Comparing the
// prices in force on 11-19 put Loblaws at 3.50 / 4.25 = 82.4, its new
// flyer against the others' old week.
func TestOneFlyerWeek(t *testing.T) {
	t.Parallel()
	svc, err := Open(filepath.Join(t.TempDir(), "w.db"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	mustImport(t, svc, "stores.csv", briefStores, nil)
	mustImport(t, svc, "obs.csv", `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-11-16,lob-a,loblaws,L1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-17,nf-b,no-frills,N1,4.00,4.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-18,met-c,metro,M1,4.50,4.50,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,lob-a,loblaws,L1,3.50,5.00,2026-11-25,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
`, nil)
	ctx := context.Background()
	from, to := day("2026-11-12"), day("2026-11-18")

	bench, err := svc.CompetitiveBenchmark(ctx, BenchmarkInput{Banner: "loblaws", Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	if bench.WeekFrom != from || bench.WeekTo != to || bench.Basket != BasketOwnItems {
		t.Errorf("benchmark: got week %s to %s, basket %q; want %s to %s, %q", bench.WeekFrom, bench.WeekTo, bench.Basket, from, to, BasketOwnItems)
	}
	if bench.Index == nil || *bench.Index != 117.6 || *bench.RegularIndex != 117.6 || bench.Items != 1 || bench.Total != 500 || bench.MarketCost != 425 {
		t.Errorf("benchmark: got index %v, regular %v, items %d, total %s, market %s; want 117.6, 117.6, 1, 5.00, 4.25",
			fmtPtr(bench.Index), fmtPtr(bench.RegularIndex), bench.Items, bench.Total, bench.MarketCost)
	}
	if bench.Basis.From == nil || *bench.Basis.From != day("2026-11-16") || *bench.Basis.To != day("2026-11-18") {
		t.Errorf("benchmark basis: got %v to %v, want the days of the weekly prices, 2026-11-16 to 2026-11-18", bench.Basis.From, bench.Basis.To)
	}

	brief, err := svc.ExecutiveBrief(ctx, BriefInput{Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	want := BriefBasket{Basket: BasketShared, WeekFrom: from, WeekTo: to, Items: 1, MinItems: 20, Banners: []BasketCost{
		{Banner: "no-frills", BannerName: "No Frills", Total: 400, MarketCost: 475, Items: 1, Index: 84.2, RegularIndex: 84.2},
		{Banner: "metro", BannerName: "Metro", Total: 450, MarketCost: 450, Items: 1, Index: 100, RegularIndex: 100},
		{Banner: "loblaws", BannerName: "Loblaws", Total: 500, MarketCost: 425, Items: 1, Index: 117.6, RegularIndex: 117.6},
	}}
	if diff := cmp.Diff(want, brief.Basket); diff != "" {
		t.Errorf("brief basket (-want +got):\n%s", diff)
	}
}

func fmtPtr(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

// TestWeeklyPricesKeptWithTheOffers: the weekly prices the offers keep
// (storage.Offer.Daily and WeekBefore, which the comparisons read) are
// those of the category days, where a banner SKU's weekly price is its
// daily price on its last day with one in the week: for every province
// of the demo set, in the flyer week of its latest day and the week
// before, every offer's weekly price, and the week's banners and
// store-level prices, the same both ways.
func TestWeeklyPricesKeptWithTheOffers(t *testing.T) {
	t.Parallel()
	checkWeeklyPrices(t, DemoCopy(t))
}

// checkWeeklyPrices checks the weekly prices of the offers of the file at
// path against its category days (TestWeeklyPricesKeptWithTheOffers).
func checkWeeklyPrices(t *testing.T, path string) {
	t.Helper()
	db, err := storage.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	priced := 0
	err = db.View(func(tx *storage.Tx) error {
		asOf := tx.AsOf()
		for _, p := range Provinces() {
			chosen, err := readFlyerWeek(tx, p.Code, asOf)
			if err != nil {
				return err
			}
			cur, _ := flyerWeekOf(asOf)
			for _, from := range []int32{cur, cur - 7} {
				// The category days' weekly prices, by banner and SKU.
				type bannerSKU struct{ banner, sku string }
				want := map[bannerSKU]storage.DayPrice{}
				banners, obs := map[string]bool{}, 0
				err := tx.CatDays(p.Code, "", "", from, from+6, storage.CatSKUs, func(k *storage.CatDayKey, c *storage.CatDay) error {
					if len(c.SKUs) > 0 {
						banners[k.Banner] = true
						obs += int(c.Count)
					}
					for _, sd := range c.SKUs {
						if w := want[bannerSKU{k.Banner, sd.SKU}]; k.Day >= w.Day {
							want[bannerSKU{k.Banner, sd.SKU}] = storage.DayPrice{Day: k.Day, Price: sd.Price, Regular: sd.Regular}
						}
					}
					return nil
				})
				if err != nil {
					return err
				}
				w := &weekPrices{province: p.Code, from: from, to: from + 6}
				err = tx.OffersIn(p.Code, func(g string, o *storage.Offer) error {
					got, ok := w.price(o)
					if wantDP, wantOK := want[bannerSKU{o.Banner, o.SKU}]; got != wantDP || ok != wantOK {
						t.Errorf("%s week of %s, %s %s (%s): offer gives %+v (%v), category days %+v (%v)", p.Code, Date(from), o.Banner, o.SKU, g, got, ok, wantDP, wantOK)
					} else if ok {
						priced++
					}
					return nil
				})
				if err != nil {
					return err
				}
				if chosen.from == from && (!maps.Equal(chosen.banners, banners) || chosen.obs != obs) {
					t.Errorf("%s week of %s: banners %v, %d prices; the category days' SKUs give %v, %d", p.Code, Date(from), chosen.banners, chosen.obs, banners, obs)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if priced == 0 {
		t.Fatal("no offer has a weekly price")
	}
}

// TestActiveStoreCounts: the counts of one scan of a province's stores
// (storage.Tx.ActiveStoreCounts, which the snapshot's activeStores reads)
// are CountActiveStores' of each banner, in every province of the demo.
func TestActiveStoreCounts(t *testing.T) {
	t.Parallel()
	svc, err := Open(DemoCopy(t), &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	err = svc.db.View(func(tx *storage.Tx) error {
		total := 0
		for _, p := range Provinces() {
			got := map[string]int{}
			if err := tx.ActiveStoreCounts(p.Code, func(b string, n int) error { got[b] = n; total += n; return nil }); err != nil {
				return err
			}
			for _, b := range Banners() {
				want, err := tx.CountActiveStores(p.Code, b.Slug)
				if err != nil {
					return err
				}
				if got[b.Slug] != want {
					t.Errorf("%s %s: %d active stores in one scan, CountActiveStores %d", p.Code, b.Slug, got[b.Slug], want)
				}
			}
		}
		if n, err := tx.CountActiveStores("", ""); err != nil || n != total {
			t.Errorf("the provinces' counts add up to %d, CountActiveStores of all %d (%v)", total, n, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
