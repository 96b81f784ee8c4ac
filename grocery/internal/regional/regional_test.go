package regional

import (
	"math"
	"testing"

	"github.com/grocerydata/grocery/grocery/internal/market"
)

// TestCompute works a geography by hand (prices in cents, weights in
// thousands):
//
//	province  weight  banner A      banner B
//	P1        1       g1 200 (180)  g1 300 (300)
//	P2        3       g1 400 (360)
//	P3        2       (nothing)
//
// National prices of the pairs, weighted by population: (A, g1) shelf
// (1·200 + 3·400)/4 = 350, regular (1·180 + 3·360)/4 = 315, in 2
// provinces; (B, g1) priced in P1 only, compared nowhere. P1's indexes
// rest on its one pair compared: shelf 100 × 200/350 = 57.142857...,
// regular 100 × 180/315 = 57.142857...; P2's shelf 100 × 400/350 =
// 114.285714..., regular 100 × 360/315 = 114.285714.... Stores: A has 2
// in P1 and 1 in P2, B 5 in P1, so P1 rests on 2 of its 7. As one
// barcode: P1's price is the median of 200 and 300, 250; P2's 400; the
// national price (1·250 + 3·400)/4 = 362.5. P3, unpriced, is left out.
//
// The prices are added by barcode (Add), and again as the barcode at
// place 1 of a selection of 3 (AddAt): the same figures.
func TestCompute(t *testing.T) {
	t.Parallel()
	for _, byPlace := range []bool{false, true} {
		geo := New(true, 0)
		add := func(gp *Province, ps []market.Price, obs int) { geo.Add(gp, "g1", ps, obs) }
		if byPlace {
			geo = New(true, 3)
			add = func(gp *Province, ps []market.Price, obs int) { geo.AddAt(gp, 1, ps, obs) }
		}
		testCompute(t, geo, add)
	}
}

func testCompute(t *testing.T, geo *Geography, add func(gp *Province, ps []market.Price, obs int)) {
	p1, p2 := geo.Start("P1", 1), geo.Start("P2", 3)
	geo.Start("P3", 2)
	add(p1, []market.Price{{Banner: "A", Price: 200, Regular: 180}, {Banner: "B", Price: 300, Regular: 300}}, 4)
	add(p2, []market.Price{{Banner: "A", Price: 400, Regular: 360}}, 1)
	stores := map[[2]string]int{{"P1", "A"}: 2, {"P1", "B"}: 5, {"P2", "A"}: 1}
	if err := geo.Compute(func(p, b string) (int, error) { return stores[[2]string{p, b}], nil }); err != nil {
		t.Fatal(err)
	}
	if len(geo.Provinces) != 2 || geo.Provinces[0] != p1 || geo.Provinces[1] != p2 {
		t.Fatalf("provinces %v: want P1 and P2", geo.Provinces)
	}
	near := func(got, want float64) bool { return math.Abs(got-want) < 1e-9 }
	for _, c := range []struct {
		gp                                 *Province
		shelf, regular, price, lo, hi, sum float64
		n, obs, all, stores                int
	}{
		{p1, 100 * 200.0 / 350, 100 * 180.0 / 315, 250, 200, 300, 500, 2, 4, 7, 2},
		{p2, 100 * 400.0 / 350, 100 * 360.0 / 315, 400, 400, 400, 400, 1, 1, 1, 1},
	} {
		gp := c.gp
		if !near(gp.ShelfIndex, c.shelf) || !near(gp.Index, c.regular) || gp.Price != c.price || gp.Lo != c.lo || gp.Hi != c.hi ||
			gp.Sum != c.sum || gp.N != c.n || gp.Obs != c.obs || gp.AllStores != c.all || gp.Stores != c.stores ||
			gp.Compared != 1 || gp.Banners != 1 || gp.Products != 1 {
			t.Errorf("%s: got %+v; want shelf %.6f regular %.6f price %v lo %v hi %v sum %v n %d obs %d stores %d of %d, 1 pair, banner and product",
				gp.Code, *gp, c.shelf, c.regular, c.price, c.lo, c.hi, c.sum, c.n, c.obs, c.stores, c.all)
		}
	}
	if geo.Price != 362.5 || geo.Pairs() != 2 || geo.Barcodes() != 1 || geo.BannerCount() != 2 {
		t.Errorf("national: price %v, %d pairs, %d barcodes, %d banners; want 362.5, 2, 1, 2", geo.Price, geo.Pairs(), geo.Barcodes(), geo.BannerCount())
	}
}

// TestComputeNoPairShared: a province whose pairs no other province
// prices compares nothing: no index.
// So too for a selection, whose barcodes at places 0 and 2 are two
// barcodes.
func TestComputeNoPairShared(t *testing.T) {
	t.Parallel()
	geo := New(false, 0)
	p1, p2 := geo.Start("P1", 1), geo.Start("P2", 1)
	geo.Add(p1, "g1", []market.Price{{Banner: "A", Price: 100, Regular: 100}}, 1)
	geo.Add(p2, "g2", []market.Price{{Banner: "A", Price: 100, Regular: 100}}, 1)
	testNoPairShared(t, geo)
	geo = New(false, 3)
	p1, p2 = geo.Start("P1", 1), geo.Start("P2", 1)
	geo.AddAt(p1, 0, []market.Price{{Banner: "A", Price: 100, Regular: 100}}, 1)
	geo.AddAt(p2, 2, []market.Price{{Banner: "A", Price: 100, Regular: 100}}, 1)
	testNoPairShared(t, geo)
}

func testNoPairShared(t *testing.T, geo *Geography) {
	if geo.Barcodes() != 2 {
		t.Errorf("%d barcodes, want 2", geo.Barcodes())
	}
	if err := geo.Compute(func(string, string) (int, error) { return 1, nil }); err != nil {
		t.Fatal(err)
	}
	for _, gp := range geo.Provinces {
		if gp.Compared != 0 || gp.Index != 0 || gp.ShelfIndex != 0 || gp.Stores != 0 || gp.AllStores != 1 {
			t.Errorf("%s: %+v; want nothing compared, 1 store of the banner pricing", gp.Code, *gp)
		}
	}
}
