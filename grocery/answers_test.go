package grocery_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/grocerydata/grocery/grocery"
)

// Cached answers a repeated request from the cache, and a write of the
// data (a new DataVersion) is answered anew.
func TestCachedNewDataVersion(t *testing.T) {
	t.Parallel()
	s := MustFixture(t)
	ctx := context.Background()
	calls := 0
	query := func(ctx context.Context, in grocery.StoreSearchInput) (*grocery.StoreSearchResult, error) {
		calls++
		return s.SearchStores(ctx, in)
	}
	in := grocery.StoreSearchInput{Query: "milk", Province: "ON"}
	ask := func() *grocery.StoreSearchResult {
		t.Helper()
		res, err := grocery.Cached(ctx, s, "SearchStores", query, in)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first, again := ask(), ask()
	if calls != 1 || first != again {
		t.Fatalf("two requests: got %d calls, want 1 and the kept answer", calls)
	}
	b := &grocery.Batch{Observations: []grocery.Observation{{Date: day(t, "2026-11-19"), StoreID: "lob-on-2", Banner: "loblaws",
		ExternalSKU: "21000002_EA", Price: 349, RegularPrice: 349}}}
	if _, err := grocery.WriteBatch(ctx, s, b); err != nil {
		t.Fatal(err)
	}
	after := ask()
	if calls != 2 || after.Total != first.Total+1 {
		t.Errorf("after a write: got %d calls and total %d, want 2 calls and total %d", calls, after.Total, first.Total+1)
	}
	// The other queries keep their names apart: the same input under
	// another name is another answer.
	if _, err := grocery.Cached(ctx, s, "other", query, in); err != nil || calls != 3 {
		t.Errorf("another name: got %d calls (%v), want 3", calls, err)
	}
}

// A cached analytics answer is the answer the query gives.
func TestCachedSameAnswer(t *testing.T) {
	t.Parallel()
	s := MustFixture(t)
	ctx := context.Background()
	in := grocery.CategoryReportInput{Province: "ON"}
	want, err := s.CategoryReport(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		got, err := grocery.Cached(ctx, s, "CategoryReport", s.CategoryReport, in)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("cached answer differs (-want +got):\n%s", diff)
		}
	}
}

// The cache keeps at most Options.AnswerCacheBytes, counted as JSON: with
// room for the largest of three answers only, each new one evicts the one
// before.
func TestCachedBound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	queries := []string{"milk", "chocolate", "natrel"}
	fixture := MustFixture(t)
	largest := 0
	for _, q := range queries {
		res, err := fixture.SearchStores(ctx, grocery.StoreSearchInput{Query: q, Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		largest = max(largest, len(b))
	}
	now := func() time.Time { return time.Date(2026, 11, 19, 15, 0, 0, 0, time.UTC) }
	s, err := grocery.Open(filepath.Join(t.TempDir(), "grocery.db"), &grocery.Options{Now: now, AnswerCacheBytes: int64(largest)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := grocery.WriteBatch(ctx, s, fixtureBatch(t)); err != nil {
		t.Fatal(err)
	}
	for _, q := range append(queries, "milk", "milk") {
		if _, err := grocery.Cached(ctx, s, "SearchStores", s.SearchStores, grocery.StoreSearchInput{Query: q, Province: "ON"}); err != nil {
			t.Fatal(err)
		}
	}
	st := s.AnswerCacheStats()
	if st.Bytes > int64(largest) || st.Entries != 1 || st.Evictions != 3 || st.Hits != 1 {
		t.Errorf("got %+v, want one answer of at most %d bytes kept, 3 evictions and 1 hit (the last milk)", st, largest)
	}
}
