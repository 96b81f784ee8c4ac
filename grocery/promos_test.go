package grocery

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPromoCalendar(t *testing.T) {
	svc := periodService(t)
	ctx := context.Background()
	got, err := svc.PromoCalendar(ctx, PromoCalendarInput{Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	// L1 at lob-a: on promotion 11-05 and 11-08 (3 days apart, within the
	// 7-day gap), regular on 11-12: one event 11-05..11-08, 5.00 -> 4.00,
	// a 20 % discount, 1 store, 2 observation days, over by 11-19.
	want := []PromoEvent{{Banner: "loblaws", BannerName: "Loblaws", ExternalSKU: "L1", UPC: "068000000154", Name: "2% Milk", Brand: "Natrel",
		Category: "Dairy & Eggs", Province: "ON", Start: day("2026-11-05"), End: day("2026-11-08"), RegularPrice: 500, PromoPrice: 400,
		DiscountPct: 20, Stores: 1, Days: 2, PromoEnds: dp("2026-11-11")}}
	if diff := cmp.Diff(want, got.Results); diff != "" || got.Total != 1 {
		t.Errorf("total %d (want 1), events (-want +got):\n%s", got.Total, diff)
	}
	if got.Basis.Observations != 2 || got.Basis.Stores != 3 || *got.Basis.From != day("2026-11-05") {
		t.Errorf("basis: got %+v", got.Basis)
	}
	// A tie: lob-b on promotion on 11-08 too, at 3.50 of 5.50: the
	// prices 4.00 and 3.50 tie once each on 11-08, but 4.00 was also seen
	// on 11-05: 4.00 (2) over 3.50 (1); regulars 5.00 (2) over 5.50 (1);
	// stores 2. The event is derived again from its start.
	mustImport(t, svc, "tie.csv", "date,store_id,banner,external_sku,price,regular_price\n2026-11-08,lob-b,loblaws,L1,3.50,5.50\n", nil)
	got, err = svc.PromoCalendar(ctx, PromoCalendarInput{Province: "ON", Banner: "loblaws", From: "2026-11-06", To: "2026-11-06"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Results) != 1 || got.Results[0].PromoPrice != 400 || got.Results[0].RegularPrice != 500 || got.Results[0].Stores != 2 || got.Results[0].Start != day("2026-11-05") {
		t.Errorf("after lob-b's promotion: got %+v, want one event from 11-05 at 4.00 of 5.00 in 2 stores", got.Results)
	}
	for _, in := range []PromoCalendarInput{{Province: "ON", From: "2026-11-20", To: "2026-11-01"}, {Province: "ON", From: "nov"},
		{Province: "ON", From: "2025-01-01", To: "2026-11-01"}, {Province: "ON", Limit: Some(501)}, {}} {
		if _, err := svc.PromoCalendar(ctx, in); ErrorCode(err) != EINVALIDARGUMENT {
			t.Errorf("%+v: got %v, want EINVALIDARGUMENT", in, err)
		}
	}
	empty, err := svc.PromoCalendar(ctx, PromoCalendarInput{Province: "QC"})
	if err != nil || len(empty.Results) != 0 || !strings.Contains(empty.Basis.Note, "not observed in the panel") {
		t.Errorf("QC: got %+v, %v; want no event and a note", empty, err)
	}
}

func TestNewOnShelf(t *testing.T) {
	svc := periodService(t)
	ctx := context.Background()
	got, err := svc.NewOnShelf(ctx, NewOnShelfInput{Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	// 14 days: 11-06..11-19. L1 was first seen 10-15 (not new); L2 and N1
	// on 11-19, one store each; newest first, then by banner.
	want := []NewProduct{
		{Banner: "loblaws", BannerName: "Loblaws", ExternalSKU: "L2", UPC: "060383000028", Name: "Old Cheddar", Brand: "Black Diamond", Size: "400 g",
			Category: "Dairy & Eggs", Province: "ON", FirstSeen: day("2026-11-19"), FirstPrice: 800, FirstStores: 1, LatestPrice: 800, LastSeen: day("2026-11-19")},
		{Banner: "no-frills", BannerName: "No Frills", ExternalSKU: "N1", UPC: "068000000154", Name: "2% Milk", Brand: "Natrel", Size: "2 L",
			Category: "Dairy & Eggs", Province: "ON", FirstSeen: day("2026-11-19"), FirstPrice: 450, FirstStores: 1, LatestPrice: 450, LastSeen: day("2026-11-19")},
	}
	if diff := cmp.Diff(want, got.Results); diff != "" || got.Total != 2 || got.From != day("2026-11-06") {
		t.Errorf("total %d from %s, (-want +got):\n%s", got.Total, got.From, diff)
	}
	one, err := svc.NewOnShelf(ctx, NewOnShelfInput{Province: "ON", Banner: "no-frills", Limit: Some(1)})
	if err != nil || one.Total != 1 || one.Results[0].ExternalSKU != "N1" {
		t.Errorf("no-frills: got %+v, %v", one, err)
	}
	// 60 days reach back to the panel's first day (10-15): the note says so.
	all, err := svc.NewOnShelf(ctx, NewOnShelfInput{Province: "ON", Days: Some(60)})
	if err != nil || all.Total != 3 || !strings.Contains(all.Basis.Note, "begin on 2026-10-15") {
		t.Errorf("60 days: got %+v, %v; want 3 with a note on the panel's start", all, err)
	}
	for _, in := range []NewOnShelfInput{{Province: "ON", Days: Some(-1)}, {Province: "ON", Days: Some(0)}, {Province: "ON", Days: Some(366)}, {Province: "ON", Banner: "nope"}, {Province: ""}} {
		if _, err := svc.NewOnShelf(ctx, in); ErrorCode(err) != EINVALIDARGUMENT {
			t.Errorf("%+v: got %v, want EINVALIDARGUMENT", in, err)
		}
	}
	empty, err := svc.NewOnShelf(ctx, NewOnShelfInput{Province: "ON", Category: "Caviar"})
	if err != nil || empty.Total != 0 || !strings.Contains(empty.Basis.Note, "not observed in the panel") {
		t.Errorf("Caviar: got %+v, %v", empty, err)
	}
}

// TestPromoCalendarOngoing: a promotion is ongoing on the data set's
// latest day (2026-11-19) when the end its stores gave is on or after
// it, or, with no end given, when it was last observed on promotion
// within the 7 days before it (11-12 on), whether or not its banner was
// observed on the latest day itself.
func TestPromoCalendarOngoing(t *testing.T) {
	svc, err := Open(filepath.Join(t.TempDir(), "promo.db"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	mustImport(t, svc, "stores.csv", periodStores, nil)
	// P1: ends 11-25, last observed 11-10 (loblaws not observed since):
	//     ongoing. P2: no end given, last observed 11-14: ongoing. P3: no
	//     end, last observed 11-05: over. P4: observed on the latest day,
	//     ending that day: ongoing. P5: 11-12 (ends 11-15) and 11-16 (no
	//     end given): one event whose stores last gave the end 11-15:
	//     over, though last observed within 7 days.
	mustImport(t, svc, "obs.csv", `date,store_id,banner,external_sku,price,regular_price,promo_ends
2026-11-10,lob-a,loblaws,P1,3.00,4.00,2026-11-25
2026-11-14,lob-a,loblaws,P2,3.00,4.00,
2026-11-05,lob-a,loblaws,P3,3.00,4.00,
2026-11-19,nf-c,no-frills,P4,2.00,2.50,2026-11-19
2026-11-12,nf-c,no-frills,P5,2.00,2.50,2026-11-15
2026-11-16,nf-c,no-frills,P5,2.00,2.50,
`, nil)
	got, err := svc.PromoCalendar(context.Background(), PromoCalendarInput{Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		SKU     string
		Ends    *Date
		Ongoing bool
	}
	var rows []row
	for _, e := range got.Results {
		rows = append(rows, row{e.ExternalSKU, e.PromoEnds, e.Ongoing})
	}
	want := []row{{"P3", nil, false}, {"P1", dp("2026-11-25"), true}, {"P5", dp("2026-11-15"), false}, {"P2", nil, true}, {"P4", dp("2026-11-19"), true}}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("events by start (-want +got):\n%s", diff)
	}
}

// TestOptArgument: an optional argument given as 0 is 0 (refused for
// days), not the default; in JSON it is the number, or absent when not
// given; and inputs holding one key the answer cache by value.
func TestOptArgument(t *testing.T) {
	for _, tc := range []struct {
		in   NewOnShelfInput
		json string
	}{
		{NewOnShelfInput{Province: "ON"}, `{"province":"ON"}`},
		{NewOnShelfInput{Province: "ON", Days: Some(0)}, `{"province":"ON","days":0}`},
		{NewOnShelfInput{Province: "ON", Days: Some(30)}, `{"province":"ON","days":30}`},
	} {
		b, err := json.Marshal(tc.in)
		if err != nil || string(b) != tc.json {
			t.Errorf("%+v: JSON %s, %v; want %s", tc.in, b, err, tc.json)
		}
		var back NewOnShelfInput
		if err := json.Unmarshal(b, &back); err != nil || back != tc.in {
			t.Errorf("%s: decoded %+v, %v; want %+v", b, back, err, tc.in)
		}
	}
	var null NewOnShelfInput
	if err := json.Unmarshal([]byte(`{"province":"ON","days":null}`), &null); err != nil || null.Days.Set {
		t.Errorf("days null: %+v, %v; want not given", null, err)
	}

	svc := periodService(t)
	ctx := context.Background()
	if _, err := svc.NewOnShelf(ctx, NewOnShelfInput{Province: "ON", Days: Some(0)}); ErrorCode(err) != EINVALIDARGUMENT || !strings.Contains(ErrorMessage(err), "days 0 is out of range") {
		t.Errorf("days 0: got %v, want it out of range", err)
	}
	before := svc.AnswerCacheStats()
	for range 2 {
		// A new value each time, equal: the second is the first's answer.
		if _, err := Cached(ctx, svc, "NewOnShelf", svc.NewOnShelf, NewOnShelfInput{Province: "ON", Days: Some(30)}); err != nil {
			t.Fatal(err)
		}
	}
	if after := svc.AnswerCacheStats(); after.Misses-before.Misses != 1 || after.Hits-before.Hits != 1 {
		t.Errorf("two equal requests: %d misses, %d hits; want 1 and 1", after.Misses-before.Misses, after.Hits-before.Hits)
	}
}
