package grocery_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
)

func TestBrandInsights(t *testing.T) {
	svc := openSnap(t, geoStores, brandObs())
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		// Promotions over 30 days (2026-10-21 to 11-19), from the SKUs'
		// daily prices: loblaws L1 3 days (11-18 on promotion: 1 − 5/6 =
		// 16.667% off) and L2 1 day (11-19: 1 − 3/4 = 25% off): 2 of 4
		// SKU-days, 50.0%, depth (16.667 + 25) / 2 = 20.833 → 20.8.
		// no-frills N1: 2 days, 11-10 on promotion (20% off): 50.0%, 20.0.
		// Basis: the brand's and its peers' current prices (L1, L2, N1,
		// G3, M3, S4, C5, K6, G7: 9; NN8 is not current), 3 stores.
		got, err := svc.BrandInsights(ctx, grocery.BrandInput{Brand: "LACTANTIA"})
		if err != nil {
			t.Fatal(err)
		}
		want := &grocery.BrandResult{
			Brand: "Lactantia", Catalogue: 2, Categories: []string{"Spreads"},
			Period: grocery.Period(30), From: *snapDay("2026-10-21"), To: *snapDay("2026-11-19"),
			Rows: []grocery.BrandRow{
				{Province: "ON", Banner: "loblaws", BannerName: "Loblaws", Products: 2, Stores: 2, Index: fptr(114.3), ProductsWithoutPeers: 1,
					SKUDays: 4, PromoDays: 2, PromoShare: fptr(50), PromoDepth: fptr(20.8)},
				{Province: "ON", Banner: "no-frills", BannerName: "No Frills", Products: 1, Stores: 1, Index: fptr(95.2),
					SKUDays: 2, PromoDays: 1, PromoShare: fptr(50), PromoDepth: fptr(20)},
			},
			Basis: grocery.Basis{Provinces: []string{"ON"}, Banners: []string{"loblaws", "metro", "no-frills"},
				From: snapDay("2026-11-19"), To: snapDay("2026-11-19"), Stores: 4, Observations: 9, Comparison: grocery.CompareUnitPrice,
				Note: "the index compares unit prices with products of other brands of the same category, product type and unit basis, 1.5 times the size at most either way, " +
					"over the products with at least 3 such peers; promotions are the SKUs' daily prices from 2026-10-21 to 2026-11-19; the basis covers the peers' prices too"},
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("(-want +got)\n%s", d)
		}
	})
	t.Run("OKPeriod", func(t *testing.T) {
		// 90 days (from 2026-08-22) take L2's 10-01 too (1 − 2/4 = 50%
		// off): loblaws 3 of 5 SKU-days, 60.0%, depth (16.667 + 25 + 50) /
		// 3 = 30.556 → 30.6.
		got, err := svc.BrandInsights(ctx, grocery.BrandInput{Brand: "Lactantia", Province: "on", Period: "90d"})
		if err != nil {
			t.Fatal(err)
		}
		r := got.Rows[0]
		if got.Period != 90 || got.From != *snapDay("2026-08-22") || r.Banner != "loblaws" || r.SKUDays != 5 || r.PromoDays != 3 ||
			*r.PromoShare != 60 || *r.PromoDepth != 30.6 {
			t.Errorf("got %+v, row %+v", got, r)
		}
	})
	t.Run("OKNoPromotion", func(t *testing.T) {
		// Gay Lea: 500 g at loblaws and metro, 250 g at loblaws. The
		// 500 g's peers: Lactantia 500 g (1.20 at loblaws, 1.00 at
		// no-frills), Selection 400 g (1.00), Compliments 750 g (1.20):
		// median of 1.00, 1.00, 1.20, 1.20 = 1.10; loblaws 1.00 / 1.10 =
		// 90.9, metro 1.10 / 1.10 = 100.0. No day on promotion: share 0,
		// depth null.
		got, err := svc.BrandInsights(ctx, grocery.BrandInput{Brand: "gay lea", Period: "7d"})
		if err != nil {
			t.Fatal(err)
		}
		want := []grocery.BrandRow{
			{Province: "ON", Banner: "loblaws", BannerName: "Loblaws", Products: 2, Stores: 2, Index: fptr(90.9), ProductsWithoutPeers: 1, SKUDays: 2, PromoShare: fptr(0)},
			{Province: "ON", Banner: "metro", BannerName: "Metro", Products: 1, Stores: 1, Index: fptr(100), SKUDays: 1, PromoShare: fptr(0)},
		}
		if d := cmp.Diff(want, got.Rows); d != "" {
			t.Errorf("(-want +got)\n%s", d)
		}
	})
	t.Run("OKElsewhere", func(t *testing.T) {
		got, err := svc.BrandInsights(ctx, grocery.BrandInput{Brand: "Lactantia", Province: "QC"})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Rows) != 0 || !strings.Contains(got.Basis.Note, "not proof it is not sold") {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("Errors", func(t *testing.T) {
		_, err := svc.BrandInsights(ctx, grocery.BrandInput{})
		wantCode(t, err, grocery.EINVALIDARGUMENT, "brand is required")
		_, err = svc.BrandInsights(ctx, grocery.BrandInput{Brand: "Nobody"})
		wantCode(t, err, grocery.EINVALIDARGUMENT, `brand "Nobody" matches no product`)
		_, err = svc.BrandInsights(ctx, grocery.BrandInput{Brand: "Lactantia", Province: "XX"})
		wantCode(t, err, grocery.EINVALIDARGUMENT, "XX")
		_, err = svc.BrandInsights(ctx, grocery.BrandInput{Brand: "Lactantia", Period: "2d"})
		wantCode(t, err, grocery.EINVALIDARGUMENT, "period")
	})
}
