package grocery

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const signalStores = `store_id,banner,province,name,city,postal_code,latitude,longitude
lob-a,loblaws,ON,Loblaws A,Toronto,M5V 1A1,43.60,-79.40
nf-a,no-frills,ON,No Frills A,Toronto,M4C 1A1,43.63,-79.30
met-a,metro,ON,Metro A,Toronto,M4C 1A2,43.64,-79.30
sob-a,sobeys,ON,Sobeys A,Toronto,M4C 1A3,43.65,-79.30
maxi-q,maxi,QC,Maxi Q,Montréal,H2X 1A1,45.50,-73.57
`

// The data set, as of 2026-11-20 (the default since is 11-14), one store
// per banner so that each offer is that store's latest price.
const signalObs = `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-11-01,lob-a,loblaws,L1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-10,lob-a,loblaws,L1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-20,lob-a,loblaws,L1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-01,nf-a,no-frills,N1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-10,nf-a,no-frills,N1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-16,nf-a,no-frills,N1,3.99,5.00,2026-11-22,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-20,nf-a,no-frills,N1,3.99,5.00,2026-11-22,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-10,met-a,metro,M1,6.50,6.50,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-20,met-a,metro,M1,6.50,6.50,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-01,lob-a,loblaws,L2,12.00,12.00,,043300000011,Original Roast,Maxwell House,925 g,Pantry
2026-11-10,lob-a,loblaws,L2,12.00,12.00,,043300000011,Original Roast,Maxwell House,925 g,Pantry
2026-11-20,lob-a,loblaws,L2,12.00,12.00,,043300000011,Original Roast,Maxwell House,925 g,Pantry
2026-11-01,met-a,metro,M2,10.00,10.00,,043300000011,Original Roast,Maxwell House,925 g,Pantry
2026-11-10,met-a,metro,M2,10.00,10.00,,043300000011,Original Roast,Maxwell House,925 g,Pantry
2026-11-15,met-a,metro,M2,8.00,8.00,,043300000011,Original Roast,Maxwell House,925 g,Pantry
2026-11-20,met-a,metro,M2,8.00,8.00,,043300000011,Original Roast,Maxwell House,925 g,Pantry
2026-11-10,sob-a,sobeys,S2,10.00,10.00,,043300000011,Original Roast,Maxwell House,925 g,Pantry
2026-11-20,sob-a,sobeys,S2,10.00,10.00,,043300000011,Original Roast,Maxwell House,925 g,Pantry
2026-11-10,met-a,metro,M3,5.00,5.00,,063800000021,Cheerios,General Mills,430 g,Pantry
2026-11-20,met-a,metro,M3,5.00,5.00,,063800000021,Cheerios,General Mills,430 g,Pantry
2026-11-10,sob-a,sobeys,S3,5.50,5.50,,063800000021,Cheerios,General Mills,430 g,Pantry
2026-11-20,sob-a,sobeys,S3,5.50,5.50,,063800000021,Cheerios,General Mills,430 g,Pantry
2026-11-20,nf-a,no-frills,N3,4.80,4.80,,063800000021,Cheerios,General Mills,430 g,Pantry
2026-08-01,lob-a,loblaws,L4,4.00,4.00,,065633000032,Classic Chips,Lay's,235 g,Snacks
2026-11-10,lob-a,loblaws,L4,4.00,4.00,,065633000032,Classic Chips,Lay's,235 g,Snacks
2026-11-20,lob-a,loblaws,L4,4.00,4.00,,065633000032,Classic Chips,Lay's,235 g,Snacks
2026-11-10,lob-a,loblaws,L5,3.80,3.80,,028400000048,Classic Chips,Lay's,200 g,Snacks
2026-11-20,lob-a,loblaws,L5,3.80,3.80,,028400000048,Classic Chips,Lay's,200 g,Snacks
2026-11-01,sob-a,sobeys,S5,4.00,4.00,,048500000052,Orange Juice,Tropicana,1.54 L,Beverages
2026-11-10,sob-a,sobeys,S5,4.00,4.00,,048500000052,Orange Juice,Tropicana,1.54 L,Beverages
2026-11-17,sob-a,sobeys,S5,4.49,5.99,2026-11-23,048500000052,Orange Juice,Tropicana,1.54 L,Beverages
2026-11-01,met-a,metro,M6,6.00,6.00,,062870000061,Salted Butter,Lactantia,454 g,Dairy & Eggs
2026-11-10,met-a,metro,M6,6.00,6.00,,062870000061,Salted Butter,Lactantia,454 g,Dairy & Eggs
2026-11-18,met-a,metro,M6,5.40,6.00,2026-11-24,062870000061,Salted Butter,Lactantia,454 g,Dairy & Eggs
2026-11-20,maxi-q,maxi,Q1,5.50,5.50,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
`

func signalService(t *testing.T) *Service {
	t.Helper()
	return csvService(t, signalStores, signalObs)
}

// sig is what the tests compare of a signal.
type sig struct {
	Kind, Type, Severity, UPC, Banner string
	Price, Own, Market, Previous      Cents
	Pct                               float64
}

func sigs(res *SignalsResult) []sig {
	var out []sig
	for _, s := range res.Results {
		e := s.Evidence
		g := sig{Kind: s.Kind, Type: s.Type, Severity: s.Severity, UPC: e.UPC, Banner: e.Banner}
		for _, p := range []struct {
			dst *Cents
			src *Cents
		}{{&g.Price, e.Price}, {&g.Own, e.OwnPrice}, {&g.Market, e.MarketPrice}, {&g.Previous, e.Previous}} {
			if p.src != nil {
				*p.dst = *p.src
			}
		}
		if e.ChangePct != nil {
			g.Pct = *e.ChangePct
		}
		out = append(out, g)
	}
	return out
}

func TestSignals(t *testing.T) {
	svc := signalService(t)
	if _, err := svc.CreateKey(context.Background(), KeyInput{Account: "acme", Plan: "integration"}); err != nil {
		t.Fatal(err)
	}
	acme := NewContextWithAccount(context.Background(), "acme")
	if _, err := svc.CreateAlert(acme, AlertInput{Name: "coffee", UPC: "043300000011", Province: "ON", Condition: "promo_start"}); err != nil {
		t.Fatal(err)
	}
	t.Run("OK", func(t *testing.T) {
		got, err := svc.Signals(acme, SignalsInput{Province: "ON", Banner: "loblaws"})
		if err != nil {
			t.Fatal(err)
		}
		// Threats (own = Loblaws), one per barcode:
		//  milk: No Frills' promotion from 11-16 at 3.99 (regular 5.00,
		//    ends 11-22: in force on 11-20), a -20.2% move from at your
		//    5.00 to 1.01/5.00 = 20.2% under it -> high. Metro's 6.50 is
		//    above.
		//  coffee: Metro cut its regular 10.00 -> 8.00 on 11-15 (>= since
		//    11-14), -20%, to 4.00/12.00 = 33.3% under Loblaws' 12.00; it
		//    was under 12.00 before: medium.
		//  Sobeys' coffee 10.00 is under 12.00 but neither new nor a cut.
		// Opportunities (regular prices against the other banners'
		// regular median):
		//  coffee: the regular median of Metro 8.00, Sobeys 10.00 = 9.00
		//    (shelf the same); 12.00 is 3.00/9.00 = 33.3% above -> high.
		//  milk: regular median of No Frills 5.00 (on promotion at 3.99)
		//    and Metro 6.50 = 5.75; 5.00 is 13.0% under: not well below.
		//  Cheerios: Metro, Sobeys and No Frills, never Loblaws -> gap of
		//    3 banners, low, median of 5.00, 5.50, 4.80 = 5.00.
		//  juice (Sobeys) and butter (Metro): 1 other banner, no gap.
		//  chips: only Loblaws carries them.
		// Changes (every banner):
		//  juice: Sobeys' regular 4.00 -> 5.99 on 11-17: +49.75% -> 49.8,
		//    high; its promotion at 4.49 claims 5.99, never charged in the
		//    30 days before (4.00 was): unverified, 5.99 is 49.8% over 4.00
		//    -> high; tie on 49.8, by type.
		//  chips: Lay's 200 g first seen 11-10 at 3.80 = 190 c/100 g; the
		//    235 g at 4.00 = 170.21 c/100 g; (190-170.21)/170.21 = 11.6%,
		//    high.
		//  coffee: Metro's regular before since (11-10) 10.00, now 8.00:
		//    -20.0%, medium; 8.00 on 11-15 is also under every day of the
		//    30 before (10.00): a 30-day low, 20.0% under, medium (a tie
		//    on 20.0, by type).
		//  milk: No Frills' 3.99 on 11-16 is under the 5.00 of 11-01 and
		//    11-10: a 30-day low, 1.01/5.00 = 20.2% under, medium; its
		//    3.99 of 11-20 is not under 3.99.
		//  butter: 5.40 on 11-18 under the 30-day low 6.00 by 10.0% ->
		//    medium. The promotions of milk and butter are honest (5.00
		//    and 6.00 were charged on 11-10).
		// Watchlist: coffee, cheapest Metro 8.00 of 3 banners, no promotion
		// -> low.
		want := []sig{
			{Kind: "threats", Type: "competitor_promotion", Severity: "high", UPC: "068000000154", Banner: "no-frills", Price: 399, Own: 500, Previous: 500, Pct: -20.2},
			{Kind: "threats", Type: "competitor_price_cut", Severity: "medium", UPC: "043300000011", Banner: "metro", Price: 800, Own: 1200, Previous: 1000, Pct: -33.3},
			{Kind: "opportunities", Type: "priced_above_market", Severity: "high", UPC: "043300000011", Banner: "loblaws", Price: 1200, Own: 1200, Market: 900, Pct: 33.3},
			{Kind: "opportunities", Type: "assortment_gap", Severity: "low", UPC: "063800000021", Market: 500},
			{Kind: "changes", Type: "price_increase", Severity: "high", UPC: "048500000052", Banner: "sobeys", Price: 449, Previous: 400, Pct: 49.8},
			{Kind: "changes", Type: "unverified_reference_price", Severity: "high", UPC: "048500000052", Banner: "sobeys", Price: 449, Previous: 400, Pct: 49.8},
			{Kind: "changes", Type: "shrinkflation", Severity: "high", UPC: "028400000048", Banner: "loblaws", Price: 380, Previous: 400, Pct: 11.6},
			{Kind: "changes", Type: "lowest_in_30_days", Severity: "medium", UPC: "068000000154", Banner: "no-frills", Price: 399, Previous: 500, Pct: -20.2},
			{Kind: "changes", Type: "lowest_in_30_days", Severity: "medium", UPC: "043300000011", Banner: "metro", Price: 800, Previous: 1000, Pct: -20},
			{Kind: "changes", Type: "price_decrease", Severity: "medium", UPC: "043300000011", Banner: "metro", Price: 800, Previous: 1000, Pct: -20},
			{Kind: "changes", Type: "lowest_in_30_days", Severity: "medium", UPC: "062870000061", Banner: "metro", Price: 540, Previous: 600, Pct: -10},
			{Kind: "watchlist", Type: "watched_product", Severity: "low", UPC: "043300000011", Banner: "metro", Price: 800},
		}
		if diff := cmp.Diff(want, sigs(got)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		if c := (SignalCounts{Threats: 2, Opportunities: 2, Changes: 7, Watchlist: 1}); got.Counts != c || got.Total != 12 {
			t.Errorf("counts %+v total %d, want %+v 12", got.Counts, got.Total, c)
		}
		if got.Since != day("2026-11-14") || got.To != day("2026-11-20") {
			t.Errorf("since %s to %s, want 2026-11-14 2026-11-20", got.Since, got.To)
		}
		if e := got.Results[0].Explanation; e != "No Frills has Natrel 2% Milk on promotion at 3.99 (regular 5.00, -20.2%) since 2026-11-16, 20.2% under your 5.00: consider matching or countering in the next flyer" {
			t.Errorf("explanation %q", e)
		}
	})
	t.Run("KindAndPage", func(t *testing.T) {
		got, err := svc.Signals(acme, SignalsInput{Province: "ON", Banner: "loblaws", Kind: "Opportunities", Limit: Some(2), Offset: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got.Total != 2 || len(got.Results) != 1 || got.Results[0].Evidence.UPC != "063800000021" {
			t.Errorf("total %d, %d results, first %+v; want 2, 1, Cheerios", got.Total, len(got.Results), got.Results)
		}
	})
	t.Run("CountsWhateverKind", func(t *testing.T) {
		// kind filters the list, not the counts: every kind counts the
		// signals worked out in OK.
		for _, kind := range []string{"", "threats", "opportunities", "changes", "watchlist"} {
			got, err := svc.Signals(acme, SignalsInput{Province: "ON", Banner: "loblaws", Kind: kind})
			if err != nil {
				t.Fatal(err)
			}
			want := SignalCounts{Threats: 2, Opportunities: 2, Changes: 7, Watchlist: 1}
			total := map[string]int{"": 12, "threats": 2, "opportunities": 2, "changes": 7, "watchlist": 1}[kind]
			if got.Counts != want || got.Total != total || len(got.Results) != total {
				t.Errorf("kind %q: counts %+v, total %d, %d results; want %+v, %d, %d", kind, got.Counts, got.Total, len(got.Results), want, total, total)
			}
		}
	})
	t.Run("NoBannerNoAccount", func(t *testing.T) {
		got, err := svc.Signals(context.Background(), SignalsInput{Province: "ON", Category: "pantry"})
		if err != nil {
			t.Fatal(err)
		}
		// Only changes, of Pantry: Metro's coffee cut, a 30-day low too.
		want := []sig{
			{Kind: "changes", Type: "lowest_in_30_days", Severity: "medium", UPC: "043300000011", Banner: "metro", Price: 800, Previous: 1000, Pct: -20},
			{Kind: "changes", Type: "price_decrease", Severity: "medium", UPC: "043300000011", Banner: "metro", Price: 800, Previous: 1000, Pct: -20},
		}
		if diff := cmp.Diff(want, sigs(got)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		for _, s := range []string{"give banner", "no watchlist"} {
			if !strings.Contains(got.Basis.Note, s) {
				t.Errorf("note %q does not say %q", got.Basis.Note, s)
			}
		}
	})
	t.Run("UnknownAccount", func(t *testing.T) {
		// An account named but not known (a typo on the command line):
		// no watchlist, and the note says why.
		got, err := svc.Signals(NewContextWithAccount(context.Background(), "acmee"), SignalsInput{Province: "ON", Kind: "watchlist"})
		if err != nil {
			t.Fatal(err)
		}
		if want := `no watchlist: account "acmee" does not exist`; got.Total != 0 || !strings.Contains(got.Basis.Note, want) {
			t.Errorf("got %d signals, note %q; want none and %q", got.Total, got.Basis.Note, want)
		}
	})
	t.Run("SingleBanner", func(t *testing.T) {
		// Quebec has Maxi only: nothing to compare, nothing moved.
		got, err := svc.Signals(acme, SignalsInput{Province: "QC", Banner: "maxi"})
		if err != nil {
			t.Fatal(err)
		}
		if got.Total != 0 || len(got.Results) != 0 || !strings.Contains(got.Basis.Note, "not observed in the panel") {
			t.Errorf("got %d signals, note %q; want none and a note", got.Total, got.Basis.Note)
		}
	})
	t.Run("Empty", func(t *testing.T) {
		got, err := svc.Signals(acme, SignalsInput{Province: "BC"})
		if err != nil {
			t.Fatal(err)
		}
		if got.Total != 0 || got.Results == nil {
			t.Errorf("got %d signals, results %v; want 0 and []", got.Total, got.Results)
		}
	})
	for name, in := range map[string]SignalsInput{
		"ErrMissingProvince": {},
		"ErrKind":            {Province: "ON", Kind: "rumours"},
		"ErrSince":           {Province: "ON", Since: "yesterday"},
		"ErrSinceAfter":      {Province: "ON", Since: "2026-12-01"},
		"ErrBanner":          {Province: "ON", Banner: "nope"},
		"ErrLimit":           {Province: "ON", Limit: Some(501)},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := svc.Signals(acme, in); ErrorCode(err) != EINVALIDARGUMENT {
				t.Errorf("got %v, want %s", err, EINVALIDARGUMENT)
			}
		})
	}
}

// TestSignalsConcurrent: calls at once, each with its own arguments, get
// what each gets alone (the scans share reused buffers; run with -race).
func TestSignalsConcurrent(t *testing.T) {
	svc := signalService(t)
	ins := []SignalsInput{
		{Province: "ON", Banner: "loblaws"},
		{Province: "ON", Banner: "metro", Kind: "threats"},
		{Province: "ON", Category: "pantry"},
		{Province: "QC", Banner: "maxi"},
		{Province: "ON", Banner: "sobeys", Limit: Some(3), Offset: 1},
	}
	want := make([]*SignalsResult, len(ins))
	for i, in := range ins {
		res, err := svc.Signals(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = res
	}
	got := make([]*SignalsResult, 4*len(ins))
	errs := make([]error, len(got))
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i], errs[i] = svc.Signals(context.Background(), ins[i%len(ins)]) })
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if diff := cmp.Diff(want[i%len(ins)], got[i], cmpopts.IgnoreUnexported(Signal{})); diff != "" {
			t.Errorf("%+v at once (-alone +at once):\n%s", ins[i%len(ins)], diff)
		}
	}
}
