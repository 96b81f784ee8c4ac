package pricestat

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/storage"
)

// TestSKUSince works a SKU's days by hand (half-cents): day 20 at 500
// regular 500, looking back 3 days to a regular of 520; day 21 at 450 on
// promotion, under its 30 days' low of 480, a store's own cut (Fell): a
// low; day 23 at 450 again under 470 but no store fell: not a low; day 24
// at 440 under 470, not fell: not a low; day 25 at 460 regular 460 (a new
// regular run), under 470 and fell, but above the low of day 21; day 26
// at 450 regular 460, under 455 and fell: ties day 21's price, the latest
// wins.
func TestSKUSince(t *testing.T) {
	days := []struct {
		day int32
		d   storage.SKUNum
	}{
		{20, storage.SKUNum{Price: 500, Regular: 500, Lookback: storage.Lookback{Low: 480, PrevGap: 3, PrevRegular: 520}}},
		{21, storage.SKUNum{Price: 450, Regular: 500, Lookback: storage.Lookback{Low: 480, Fell: true}}},
		{23, storage.SKUNum{Price: 450, Regular: 500, Lookback: storage.Lookback{Low: 470}}},
		{24, storage.SKUNum{Price: 440, Regular: 500, Lookback: storage.Lookback{Low: 470}}},
		{25, storage.SKUNum{Price: 460, Regular: 460, Lookback: storage.Lookback{Low: 470, Fell: true}}},
		{26, storage.SKUNum{Price: 450, Regular: 460, Lookback: storage.Lookback{Low: 455, Fell: true}}},
	}
	var s SKUSince
	for i := range days {
		s.Add(days[i].day, &days[i].d)
	}
	want := SKUSince{Seen: true, First: 20, Last: 26, Back: storage.Lookback{Low: 480, PrevGap: 3, PrevRegular: 520},
		P: 450, R: 460, From: 25, Low: 26, LowP: 450, Min30: 455}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// A day at its 30 days' low, not under it, is no low, even when a
	// store's price fell.
	var at SKUSince
	at.Add(20, &storage.SKUNum{Price: 480, Regular: 500, Lookback: storage.Lookback{Low: 480, Fell: true}})
	if at.Low != 0 {
		t.Errorf("a day at its 30-day low: got low day %d, want none", at.Low)
	}
}
