package grocery

import (
	"math"
	"slices"
	"testing"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/storage"
)

// TestMatchedSKUsOrder: SKUs first read on later days, sorting before
// or between those read already, are filed by name, and the price
// relatives are those of each SKU's mean daily prices, added in SKU
// order.
func TestMatchedSKUsOrder(t *testing.T) {
	t.Parallel()
	// Numbers in the order the SKUs were first written, not by name.
	names := []string{"m", "c", "x", "a", "e"}
	var m matchedSKUs
	m.addDay([]storage.SKUNum{{Num: 1, Price: 100, Regular: 100}, {Num: 0, Price: 200, Regular: 220}}, names[:2], previousPeriod)
	m.addDay([]storage.SKUNum{{Num: 3, Price: 50, Regular: 50}, {Num: 1, Price: 300, Regular: 300}, {Num: 0, Price: 240, Regular: 240}, {Num: 2, Price: 9, Regular: 9}}, names[:4], previousPeriod)
	m.addDay([]storage.SKUNum{{Num: 3, Price: 60, Regular: 50}, {Num: 1, Price: 400, Regular: 400}, {Num: 4, Price: 70, Regular: 70}, {Num: 0, Price: 110, Regular: 220}}, names, currentPeriod)
	var got []string
	for _, s := range m.skus {
		got = append(got, names[s.num])
	}
	if want := []string{"a", "c", "e", "m", "x"}; !slices.Equal(got, want) {
		t.Fatalf("SKUs filed: got %v, want %v", got, want)
	}
	var shelf, regular pricestat.Geomean
	if n := m.addRatios(&shelf, &regular); n != 3 {
		t.Fatalf("matched: got %d, want 3 (a, c, m)", n)
	}
	// a: 60/50; c: 400/((100+300)/2); m: 110/((200+240)/2), the logs in SKU order.
	want := math.Exp((math.Log(60.0/50) + math.Log(400.0/200) + math.Log(110.0/220)) / 3)
	if got := shelf.Mean(); got != want {
		t.Errorf("shelf geomean: got %v, want %v", got, want)
	}
	wantReg := math.Exp((math.Log(50.0/50) + math.Log(400.0/200) + math.Log(220.0/230)) / 3)
	if got := regular.Mean(); got != wantReg {
		t.Errorf("regular geomean: got %v, want %v", got, wantReg)
	}
}
