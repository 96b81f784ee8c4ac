package restserver_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/grocerydata/grocery/internal/servetest"
	"github.com/grocerydata/grocery/restserver"
)

// TestAnalyticsCached: a repeated analytics request is answered from the
// answer cache with the same bytes, and every request is still metered.
func TestAnalyticsCached(t *testing.T) {
	t.Parallel()
	s := servetest.Open(t, nil, handMade...)
	hs := httptest.NewServer(restserver.New(s, nil))
	defer hs.Close()
	const account = "TestAnalyticsCached"
	key := servetest.AccountKey(t, s, account, "integration", 0)
	paths := []string{
		"/b2b/competitive_benchmark?banner=loblaws&province=ON",
		"/b2b/category_report?province=ON",
		"/b2b/regional_comparison?category=Dairy%20%26%20Eggs",
	}
	before, err := s.UsageOf(context.Background(), account)
	if err != nil {
		t.Fatal(err)
	}
	const repeats = 4
	for _, path := range paths {
		var first []byte
		for i := range repeats {
			r := rawGet(t, "GET", hs.URL, key, path)
			if r.Status != http.StatusOK {
				t.Fatalf("GET %s: got %d, want 200\n%s", path, r.Status, r.Body)
			}
			if i == 0 {
				first = r.Body
			} else if !bytes.Equal(r.Body, first) {
				t.Errorf("GET %s, request %d: the answer differs from the first\n got %s\nwant %s", path, i+1, r.Body, first)
			}
		}
	}
	after, err := s.UsageOf(context.Background(), account)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := after.Used-before.Used, int64(len(paths)*repeats); got != want {
		t.Errorf("calls used: got %d more, want %d (every request metered, cached or not)", got, want)
	}
	st := s.AnswerCacheStats()
	if st.Misses != int64(len(paths)) || st.Hits != int64(len(paths)*(repeats-1)) {
		t.Errorf("answer cache: got %d misses and %d hits, want %d and %d", st.Misses, st.Hits, len(paths), len(paths)*(repeats-1))
	}
}
