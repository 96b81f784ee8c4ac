package grocery

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/grocerydata/grocery/storage"

	"github.com/grocerydata/grocery/grocery/internal/answercache"
)

// DefaultAnswerCacheBytes is the default bound of the answer cache
// (Options.AnswerCacheBytes): 64 MiB of answers, measured as their JSON.
const DefaultAnswerCacheBytes = 64 << 20

// answerKey names a cached answer: the query and its request.
type answerKey struct {
	query string
	in    any
}

// Cached returns query(ctx, in) from the Service's answer cache when
// the same query has answered the same request on the same DataVersion,
// else calls it and keeps its answer for the next caller. name names
// query: one name, one query. It is for the queries whose answer depends
// only on the data and the request (the analytics of a province, a
// banner, a category or a product; not those of an account: its alert
// events or watchlist), so that the transports (the REST interface, the
// CLI through the admin socket) answer a repeated request once per data
// version. The answers kept are shared: the caller must not modify them.
// The cache holds at most Options.AnswerCacheBytes of answers, counted
// as the length of their JSON, and evicts the least recently used first;
// callers asking at once for an answer not yet kept wait for one call of
// query. A failed call is never kept. It returns query's errors.
func Cached[In comparable, Out any](ctx context.Context, s *Service, name string, query func(context.Context, In) (*Out, error), in In) (*Out, error) {
	v, err := s.answers.Do(s.DataVersion(), answerKey{name, in}, func() (any, int64, error) {
		out, err := query(ctx, in)
		if err != nil {
			return nil, 0, err
		}
		b, err := json.Marshal(out)
		if err != nil {
			return nil, 0, err
		}
		return out, int64(len(b)), nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*Out), nil
}

// AnswerCacheStats are the counts of the answer cache (Cached).
type AnswerCacheStats = answercache.Stats

// AnswerCacheStats returns the counts of the Service's answer cache. It
// returns no error.
func (s *Service) AnswerCacheStats() AnswerCacheStats { return s.answers.Stats() }

// answerWarmer runs the warming of the answer cache (Options.WarmAnswers).
type answerWarmer struct {
	mu      sync.Mutex
	stop    chan struct{} // closed by Close
	stopped bool
	wg      sync.WaitGroup
}

// warmAnswers starts computing, for the current data version, the answers
// of the default requests (WarmAnswers) into the answer cache: the brief of
// every province with reference stores, then the competitive benchmark of
// each of their banners. It does
// nothing unless Options.WarmAnswers; a newer version or Close ends it.
func (s *Service) warmAnswers() {
	w := s.warm
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		version := s.DataVersion()
		var (
			reqs   []BenchmarkInput
			briefs []BriefInput
		)
		err := s.db.View(func(tx *storage.Tx) error {
			for _, p := range Provinces() {
				if n, err := tx.CountActiveStores(p.Code, ""); err != nil {
					return err
				} else if n > 0 {
					briefs = append(briefs, BriefInput{Province: p.Code})
				}
				seen := map[string]bool{}
				err := tx.ActiveStores(p.Code, "", func(st *storage.Store) error {
					if !seen[st.Banner] {
						seen[st.Banner] = true
						reqs = append(reqs, BenchmarkInput{Banner: st.Banner, Province: p.Code})
					}
					return nil
				})
				if err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return
		}
		// After each answer it waits as long as the answer took, so that
		// it takes at most half of a core from the requests it warms for.
		var took time.Duration
		wait := func() bool {
			select {
			case <-w.stop:
				return false
			case <-time.After(took):
			}
			return s.DataVersion() == version // else a newer write warms its own
		}
		for _, in := range briefs {
			if !wait() {
				return
			}
			t0 := time.Now()
			s.ExecutiveBrief(context.Background(), in) // its market part is kept
			took = time.Since(t0)
		}
		for _, in := range reqs {
			if !wait() {
				return
			}
			t0 := time.Now()
			Cached(context.Background(), s, "CompetitiveBenchmark", s.CompetitiveBenchmark, in)
			took = time.Since(t0)
		}
	}()
}

// stopWarming ends the warming and waits for it: after Close's call, no
// warming reads the file.
func (s *Service) stopWarming() {
	w := s.warm
	if w == nil {
		return
	}
	w.mu.Lock()
	if !w.stopped {
		w.stopped = true
		close(w.stop)
	}
	w.mu.Unlock()
	w.wg.Wait()
}
