package answercache

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

func constant(v any, size int64) func() (any, int64, error) {
	return func() (any, int64, error) { return v, size, nil }
}

// A kept answer is answered again without computing; a newer version
// computes it anew; an older one is computed and not kept.
func TestVersions(t *testing.T) {
	t.Parallel()
	c := New(1000)
	n := 0
	count := func() (any, int64, error) { n++; return n, 10, nil }
	for i, want := range []struct {
		version uint64
		got     int
	}{{1, 1}, {1, 1}, {2, 2}, {2, 2}, {1, 3}, {2, 2}, {3, 4}} {
		v, err := c.Do(want.version, "k", count)
		if err != nil || v.(int) != want.got {
			t.Errorf("call %d at version %d: got %v, %v, want %d", i, want.version, v, err, want.got)
		}
	}
}

// The answers kept never exceed the bound: the least recently used go
// first, and an answer over the bound is not kept.
func TestBound(t *testing.T) {
	t.Parallel()
	c := New(800)
	for k := 0; k < 10; k++ {
		c.Do(1, k, constant(k, 100))
		if k == 7 {
			c.Do(1, 0, constant(-1, 100)) // 0 used again: 1 is now the least recent
		}
	}
	st := c.Stats()
	if st.Bytes > 800 || st.Entries != 8 || st.Evictions != 2 {
		t.Fatalf("got %+v, want 8 entries of at most 800 bytes after 2 evictions", st)
	}
	if v, _ := c.Do(1, 0, constant(-2, 100)); v.(int) != 0 {
		t.Errorf("key 0: got %v, want the kept 0 (used recently)", v)
	}
	if v, _ := c.Do(1, 1, constant(-3, 100)); v.(int) != -3 {
		t.Errorf("key 1: got %v, want it computed anew (evicted)", v)
	}
	c.Do(1, "big", constant("big", 801))
	if v, _ := c.Do(1, "big", constant("again", 801)); v.(string) != "again" {
		t.Errorf("an answer over the bound was kept")
	}
}

// Callers asking at once wait for one computation; a failed one is not
// kept and each waiter computes its own.
func TestOneComputation(t *testing.T) {
	t.Parallel()
	c := New(1000)
	var n atomic.Int32
	release := make(chan struct{})
	slow := func() (any, int64, error) { n.Add(1); <-release; return "v", 1, nil }
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v, err := c.Do(1, "k", slow); err != nil || v != "v" {
				t.Errorf("got %v, %v, want v", v, err)
			}
		}()
	}
	for c.Stats().Misses < 8 {
		// every caller has asked
	}
	close(release)
	wg.Wait()
	if n.Load() != 1 {
		t.Errorf("computed %d times, want 1", n.Load())
	}
	boom := errors.New("boom")
	if _, err := c.Do(1, "e", func() (any, int64, error) { return nil, 0, boom }); err != boom {
		t.Fatalf("got %v, want the computation's error", err)
	}
	if v, err := c.Do(1, "e", constant("ok", 1)); err != nil || v != "ok" {
		t.Errorf("after a failure: got %v, %v, want it computed anew", v, err)
	}
}
