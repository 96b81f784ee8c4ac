// Package answercache keeps answers that depend only on a version of the
// data and on the request: a bounded, least-recently-used cache of one
// version at a time, where the callers asking at the same time for an
// answer not yet kept wait for one computation of it.
package answercache

import (
	"container/list"
	"sync"
)

// Cache holds answers of one data version, up to a total size in bytes
// that the caller estimates for each; the least recently used answers are
// evicted first. A newer version drops every answer. It is safe for
// concurrent use.
type Cache struct {
	max int64

	mu      sync.Mutex
	version uint64
	size    int64
	lru     list.List // of *entry, most recently used first
	m       map[any]*list.Element
	calls   map[any]*call // computations under way, of version
	stats   Stats
}

type entry struct {
	key  any
	val  any
	size int64
}

type call struct {
	done chan struct{}
	val  any
	err  error
}

// Stats counts what the cache did since it was made.
type Stats struct {
	Hits, Misses, Evictions int64
	Entries                 int
	Bytes                   int64 // the sizes of the answers kept
}

// New returns a cache of at most maxBytes of answers. An answer larger
// than that is answered but not kept.
func New(maxBytes int64) *Cache {
	return &Cache{max: maxBytes, m: map[any]*list.Element{}, calls: map[any]*call{}}
}

// Do returns the answer kept for key at version, or else computes it with
// compute, which returns the answer and its size in bytes, and keeps it.
// Callers asking for the same key and version while it is computed wait
// for that computation; one that fails is not kept, and each waiter then
// computes its own answer. A version older than the cache's is computed
// and not kept. key must be comparable.
func (c *Cache) Do(version uint64, key any, compute func() (any, int64, error)) (any, error) {
	c.mu.Lock()
	switch {
	case version > c.version:
		c.reset(version)
	case version < c.version:
		c.mu.Unlock()
		v, _, err := compute()
		return v, err
	}
	if el, ok := c.m[key]; ok {
		c.lru.MoveToFront(el)
		c.stats.Hits++
		v := el.Value.(*entry).val
		c.mu.Unlock()
		return v, nil
	}
	c.stats.Misses++
	if cl, ok := c.calls[key]; ok {
		c.mu.Unlock()
		<-cl.done
		if cl.err == nil {
			return cl.val, nil
		}
		v, _, err := compute()
		return v, err
	}
	cl := &call{done: make(chan struct{})}
	c.calls[key] = cl
	c.mu.Unlock()

	v, size, err := compute()
	cl.val, cl.err = v, err
	c.mu.Lock()
	if c.version == version {
		delete(c.calls, key)
		if err == nil {
			c.put(key, v, size)
		}
	}
	c.mu.Unlock()
	close(cl.done)
	return v, err
}

// reset drops every answer for a newer version.
func (c *Cache) reset(version uint64) {
	c.version = version
	c.lru.Init()
	c.m = map[any]*list.Element{}
	c.calls = map[any]*call{}
	c.size = 0
}

// put keeps an answer, evicting the least recently used ones beyond the
// bound.
func (c *Cache) put(key, val any, size int64) {
	if size > c.max {
		return
	}
	c.m[key] = c.lru.PushFront(&entry{key, val, size})
	c.size += size
	for c.size > c.max {
		el := c.lru.Back()
		e := el.Value.(*entry)
		c.lru.Remove(el)
		delete(c.m, e.key)
		c.size -= e.size
		c.stats.Evictions++
	}
}

// Stats returns the cache's counts.
func (c *Cache) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Entries, s.Bytes = len(c.m), c.size
	return s
}
