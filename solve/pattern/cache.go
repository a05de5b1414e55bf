package pattern

import (
	"fmt"
	"sync"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
)

// Cache shares Search's results per stage count between calls on the same
// problems with the same options (a sweep's points along n). The results
// are those Search computes without it; it only saves the work. The zero
// value is not usable: use NewCache. A nil cache caches nothing. It is
// safe for concurrent use; a result being computed is waited for, not
// computed twice.
type Cache struct {
	mu sync.Mutex
	m  map[string]*cacheEntry
}

type cacheEntry struct {
	once sync.Once
	s    *schedule.Schedule
	rec  *seen
	err  error
}

// maxCacheEntries bounds a Cache (a few KB per schedule).
const maxCacheEntries = 4096

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{m: map[string]*cacheEntry{}} }

// get returns the cached result for (p, n) in a chain that started at lo
// (and, top > 0, took greedy prunes from count top), with the chain's
// record of solved patterns, computing them with f once.
// Errors are not kept (a cancelled solve must not stay cancelled).
func (c *Cache) get(p *problem.Problem, n, lo, top int, f func() (*schedule.Schedule, *seen, error)) (*schedule.Schedule, *seen, error) {
	if c == nil {
		return f()
	}
	key := fmt.Sprintf("%#v|%d|%d|%d", *p, n, lo, top)
	c.mu.Lock()
	e, ok := c.m[key]
	if !ok {
		if len(c.m) >= maxCacheEntries {
			clear(c.m) // bounded memory; only work is lost
		}
		e = &cacheEntry{}
		c.m[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.s, e.rec, e.err = f() })
	if e.err != nil {
		c.mu.Lock()
		if c.m[key] == e {
			delete(c.m, key)
		}
		c.mu.Unlock()
	}
	return e.s, e.rec, e.err
}
