package grocery

import (
	"context"
	"path/filepath"
	"testing"
)

// With Options.WarmAnswers, the brief of every province and the
// competitive benchmark of every banner of every province's panel are in
// the answer cache after Open and again after a write of the data, and a
// client's request is then a hit.
func TestWarmAnswers(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "demo.db")
	if _, err := BuildDemo(context.Background(), path, &DemoOptions{Scale: "small", AsOf: Date(20776)}); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, &Options{WarmAnswers: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	s.warm.wg.Wait()
	warmed := s.AnswerCacheStats()
	if warmed.Entries == 0 {
		t.Fatalf("after Open: got %+v, want benchmarks kept", warmed)
	}
	in := BenchmarkInput{Banner: "loblaws", Province: "ON"}
	if _, err := Cached(context.Background(), s, "CompetitiveBenchmark", s.CompetitiveBenchmark, in); err != nil {
		t.Fatal(err)
	}
	if st := s.AnswerCacheStats(); st.Hits != warmed.Hits+1 {
		t.Errorf("a request after the warming: got %+v, want a hit", st)
	}
	if _, err := s.ExecutiveBrief(context.Background(), BriefInput{Province: "QC"}); err != nil {
		t.Fatal(err)
	}
	if st := s.AnswerCacheStats(); st.Hits != warmed.Hits+2 {
		t.Errorf("a brief after the warming: got %+v, want a hit", st)
	}
	// A write: a new version, warmed anew.
	s.dataWritten()
	s.warm.wg.Wait()
	if st := s.AnswerCacheStats(); st.Entries != warmed.Entries || st.Misses != 2*warmed.Misses {
		t.Errorf("after a write: got %+v, want the %d answers computed again", st, warmed.Entries)
	}
	// Close ends the warming; a write after it warms nothing.
	s.stopWarming()
	s.dataWritten()
	s.warm.wg.Wait()
}
