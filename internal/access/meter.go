package access

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"sync"
	"time"

	"github.com/grocerydata/grocery/internal/fault"
	"github.com/grocerydata/grocery/storage"
)

// account is an account's in-memory state: its plan and its counter for
// the current window. The counter is the only state a metered call changes.
type account struct {
	name    string
	created int64

	mu     sync.Mutex
	plan   Plan
	quota  int64  // override of the plan's quota, 0 for none
	window uint32 // yyyymm of the counted month
	used   int64
	dirty  bool // used changed since the last flush

	// The same for the counted day: its calls, kept in the usage bucket
	// beside the months (window yyyymmdd) by the same flush.
	day      uint32 // yyyymmdd
	dayUsed  int64
	dayDirty bool
}

func (a *account) currentPlan() Plan {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.plan
}

func (a *account) quotaOverride() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.quota
}

func (a *account) setPlan(p Plan, quota int64) {
	a.mu.Lock()
	a.plan, a.quota = p, quota
	a.mu.Unlock()
}

// limit returns the account's calls a month.
func (a *account) limit() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.limitLocked()
}

func (a *account) limitLocked() int64 {
	if a.quota > 0 {
		return a.quota
	}
	return a.plan.Quota
}

// MonthOf returns the window t falls in, as yyyymm.
func MonthOf(t time.Time) uint32 {
	t = t.UTC()
	return uint32(t.Year())*100 + uint32(t.Month())
}

// DayOf returns the day t falls in (UTC), as yyyymmdd.
func DayOf(t time.Time) uint32 {
	t = t.UTC()
	return uint32(t.Year())*10000 + uint32(t.Month())*100 + uint32(t.Day())
}

// ResetOf returns the first instant after the window of t.
func ResetOf(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, time.UTC)
}

// meter is the counter store: it charges calls to accounts in memory,
// reads them, and flushes the counts to the data file in one transaction
// a second (group commit). It writes counts, never increments, so a flush
// repeated after a failure cannot count a call twice; a crash loses at
// most the calls since the last flush. A flush never waits for the write
// transaction: while another write holds it (an import, for a whole
// file), the counts go to the usage journal instead (see journal). When
// several servers share one quota, a shared store replaces this type.
type meter struct {
	db        *storage.DB
	ring      *Keyring
	journal   string // the usage journal's path
	journalID string // the data file's id in the journal

	mu      sync.Mutex        // guards pending
	pending map[usageID]int64 // counts not yet in the data file: ended windows, deferred or failed flushes

	journaled bool // the journal holds counts not yet in the data file; only the flusher touches it

	now       func() time.Time
	cause     func(error) string // names a file system error in an operator's words, or ""
	log       *slog.Logger       // says at once when a flush or the journal fails, and when it works again
	failMu    sync.Mutex         // guards failure and failSince
	failure   string             // the cause of the last failed flush, in words without paths; "" after a success
	failSince time.Time          // when the failures began
}

// tick flushes without waiting for the write transaction (the flusher's
// step) and records the outcome: the first failure, or a new cause, is
// logged at once with the system's error, and Health reports it until a
// flush succeeds again.
func (m *meter) tick() {
	err := m.flush(unlessBusy)
	m.failMu.Lock()
	defer m.failMu.Unlock()
	if err == nil {
		if m.failure != "" && m.log != nil {
			m.log.Info("usage counts saved again", "failing_since", m.failSince)
		}
		m.failure = ""
		return
	}
	cause := m.cause(err)
	if cause == "" {
		cause = "the data file and the usage journal could not be written"
	}
	if m.failure != cause {
		if m.log != nil {
			m.log.Error("usage counts not saved: a crash now loses the calls counted since the last save; retrying every flush",
				"cause", cause, "err", err.Error())
		}
		if m.failure == "" {
			m.failSince = m.now()
		}
		m.failure = cause
	}
}

// failing returns the cause of the failing flushes and since when, or "".
func (m *meter) failing() (string, time.Time) {
	m.failMu.Lock()
	defer m.failMu.Unlock()
	return m.failure, m.failSince
}

// charge counts one call to a in the window of now and returns the count
// and limit after it. Exact under concurrency: each call is counted once,
// under the account's lock.
func (m *meter) charge(a *account, now time.Time) (used, limit int64, err error) {
	return m.add(a, now, 1)
}

// read returns a's count and limit in the window of now.
func (m *meter) read(a *account, now time.Time) (used, limit int64, err error) {
	return m.add(a, now, 0)
}

func (m *meter) add(a *account, now time.Time, n int64) (used, limit int64, err error) {
	y, mo, d := now.UTC().Date()
	w := uint32(y)*100 + uint32(mo)
	day := w*100 + uint32(d) // DayOf(now), from the same reading
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.window != w {
		if err := m.rollover(a, w); err != nil {
			return 0, 0, err
		}
	}
	if a.day != day {
		if err := m.rollDay(a, day); err != nil {
			return 0, 0, err
		}
	}
	if n > 0 {
		a.used += n
		a.dirty = true
		a.dayUsed += n
		a.dayDirty = true
	}
	return a.used, a.limitLocked(), nil
}

// days returns a's calls on each day from from to to (yyyymmdd), as the
// data file, the counts not yet flushed and a's own day hold them.
func (m *meter) days(a *account, from, to uint32) (map[uint32]int64, error) {
	out := map[uint32]int64{}
	err := m.db.View(func(tx *storage.Tx) error {
		return tx.UsageWindows(a.name, from, to, func(w uint32, n uint64) error {
			out[w] = int64(n)
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	for u, n := range m.pending {
		if u.account == a.name && u.window >= from && u.window <= to {
			out[u.window] = max(out[u.window], n)
		}
	}
	m.mu.Unlock()
	a.mu.Lock()
	if a.day >= from && a.day <= to {
		out[a.day] = max(out[a.day], a.dayUsed)
	}
	a.mu.Unlock()
	return out, nil
}

// rollover moves a to window w, keeping the ended window's count for the
// next flush. The caller holds a.mu.
func (m *meter) rollover(a *account, w uint32) error {
	used, err := m.move(usageID{a.name, a.window}, a.used, a.dirty, w)
	if err != nil {
		return err
	}
	a.window, a.used, a.dirty = w, used, false
	return nil
}

// rollDay moves a to day d as rollover moves it to a month.
func (m *meter) rollDay(a *account, d uint32) error {
	used, err := m.move(usageID{a.name, a.day}, a.dayUsed, a.dayDirty, d)
	if err != nil {
		return err
	}
	a.day, a.dayUsed, a.dayDirty = d, used, false
	return nil
}

// move returns the count stored for ended's account in window next, and
// keeps the count of the window it leaves (ended, counted used) for the
// next flush when it changed since the last one (dirty).
func (m *meter) move(ended usageID, used int64, dirty bool, next uint32) (int64, error) {
	var stored uint64
	err := m.db.View(func(tx *storage.Tx) error {
		var err error
		stored, err = tx.Usage(ended.account, next)
		return err
	})
	if err != nil {
		return 0, err
	}
	if dirty {
		m.mu.Lock()
		m.keep(ended, used)
		m.mu.Unlock()
	}
	return int64(stored), nil
}

// keep records a count not yet in the data file; the caller holds m.mu.
func (m *meter) keep(u usageID, used int64) {
	if m.pending == nil {
		m.pending = map[usageID]int64{}
	}
	m.pending[u] = max(m.pending[u], used)
}

// flushWait says whether a flush waits for a write transaction under way.
type flushWait int

const (
	unlessBusy    flushWait = iota // write the usage journal instead, and keep the counts pending
	waitForWriter                  // wait, and write the counts to the data file
)

// flush writes the counts and key last-used times changed since the last
// flush, in one transaction. With unlessBusy, it does not wait for a write
// transaction under way: it writes the usage journal instead, and the
// counts stay pending for the next flush.
func (m *meter) flush(how flushWait) error {
	counts, keys := m.changed()
	if len(counts) == 0 && len(keys) == 0 {
		return nil
	}
	write := func(tx *storage.Tx) error { return writeUsage(tx, counts, keys) }
	ran, err := true, error(nil)
	if how == waitForWriter {
		err = m.db.Update(write)
	} else {
		ran, err = m.db.TryUpdate(write)
	}
	if ran && err == nil {
		for _, s := range keys {
			s.e.flushedUsed = s.used
		}
		if m.journaled {
			// The data file now holds everything the journal did.
			if err := os.Remove(m.journal); err == nil || errors.Is(err, fs.ErrNotExist) {
				m.journaled = false
			}
		}
		return nil
	}
	return m.keepPending(counts, keys, err)
}

// keyUse is a key's last use, not yet flushed.
type keyUse struct {
	e    *keyEntry
	used int64
}

// changed returns the counts and the keys' last uses changed since the
// last flush, marking the accounts' counts clean.
func (m *meter) changed() (map[usageID]int64, []keyUse) {
	m.mu.Lock()
	counts := m.pending
	m.pending = nil
	m.mu.Unlock()
	if counts == nil {
		counts = map[usageID]int64{}
	}
	m.ring.mu.RLock()
	defer m.ring.mu.RUnlock()
	for _, a := range m.ring.accounts {
		a.mu.Lock()
		if a.dirty {
			u := usageID{a.name, a.window}
			counts[u] = max(counts[u], a.used)
			a.dirty = false
		}
		if a.dayDirty {
			u := usageID{a.name, a.day}
			counts[u] = max(counts[u], a.dayUsed)
			a.dayDirty = false
		}
		a.mu.Unlock()
	}
	var keys []keyUse
	for _, e := range m.ring.keys {
		if t := e.lastUsed.Load(); t > e.flushedUsed {
			keys = append(keys, keyUse{e, t})
		}
	}
	return counts, keys
}

// writeUsage writes counts and the keys' last uses in tx.
func writeUsage(tx *storage.Tx, counts map[usageID]int64, keys []keyUse) error {
	for c, used := range counts {
		if err := tx.PutUsage(c.account, c.window, uint64(used)); err != nil {
			return err
		}
	}
	var k storage.Key
	for _, s := range keys {
		found, err := tx.Key(s.e.id, &k)
		if err != nil {
			return err
		}
		if found && k.LastUsed < s.used {
			k.LastUsed = s.used
			if err := tx.PutKey(&k); err != nil {
				return err
			}
		}
	}
	return nil
}

// keepPending hands counts, absolute, back to the next flush, and until
// then keeps them and the keys' last uses in the journal; it returns err,
// the flush's, with the journal's.
func (m *meter) keepPending(counts map[usageID]int64, keys []keyUse, err error) error {
	m.mu.Lock()
	for c, used := range counts {
		m.keep(c, used)
	}
	j := &journal{usage: maps.Clone(m.pending), lastUsed: map[string]int64{}}
	m.mu.Unlock()
	for _, s := range keys {
		j.lastUsed[s.e.id] = s.used
	}
	if jerr := writeJournal(m.journal, m.journalID, j); jerr != nil {
		return errors.Join(err, jerr)
	}
	m.journaled = true
	return err
}

// run flushes every interval until stop is closed, then once more,
// waiting for the write transaction if need be.
func (m *meter) run(interval time.Duration, stop <-chan struct{}, done chan<- error) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			m.tick() // a failed flush is retried by the next one
		case <-stop:
			done <- m.flush(waitForWriter)
			return
		}
	}
}

var errReadOnly = errors.New("metering needs a data file opened for writing")

// Consume charges one call to the principal's account in the data file's
// meter and returns its quota after the call, with a fault.Quota beside it
// when the call is over the quota.
func (b *Bolt) Consume(ctx context.Context, p *Principal) (Usage, error) {
	if u, err, ok := p.TakeCharged(); ok {
		return u, err
	}
	if b.meter == nil {
		return Usage{}, errReadOnly
	}
	if p == nil || p.acct == nil {
		return Usage{}, fault.New(fault.Unauthenticated, "no authenticated caller: call Authenticate first")
	}
	now := b.now()
	used, limit, err := b.meter.charge(p.acct, now)
	if err != nil {
		return Usage{}, err
	}
	u := Usage{Account: p.Account, Plan: p.Plan.Name, Limit: limit, Used: used, Remaining: max(limit-used, 0), Reset: ResetOf(now)}
	if used > limit {
		u.RetryAfter = u.Reset.Sub(now)
		return u, fault.New(fault.Quota, "the monthly quota of %d calls is spent; it resets at %s: wait until then, retrying does not restore it", limit, u.Reset.Format(time.RFC3339))
	}
	return u, nil
}

// UsageOf returns an account's quota in the current window without
// charging a call.
func (b *Bolt) UsageOf(ctx context.Context, accountName string) (Usage, error) {
	r := b.ring
	r.mu.RLock()
	a := r.accounts[accountName]
	r.mu.RUnlock()
	if a == nil {
		return Usage{}, fault.New(fault.NotFound, "no account %q", accountName)
	}
	now := b.now()
	var used, limit int64
	if b.meter != nil {
		var err error
		if used, limit, err = b.meter.read(a, now); err != nil {
			return Usage{}, err
		}
	} else {
		a.mu.Lock()
		if a.window == MonthOf(now) {
			used = a.used
		}
		limit = a.limitLocked()
		a.mu.Unlock()
	}
	return Usage{Account: a.name, Plan: a.currentPlan().Name, Limit: limit, Used: used, Remaining: max(limit-used, 0), Reset: ResetOf(now)}, nil
}

// UsageDays returns an account's calls on each of the n days up to today
// (UTC), oldest first, from the data file and the counts not yet flushed.
func (b *Bolt) UsageDays(ctx context.Context, accountName string, n int) ([]DayUsage, error) {
	r := b.ring
	r.mu.RLock()
	a := r.accounts[accountName]
	r.mu.RUnlock()
	if a == nil {
		return nil, fault.New(fault.NotFound, "no account %q", accountName)
	}
	days, ids := LastDays(b.now(), n)
	if n == 0 {
		return days, nil
	}
	var counts map[uint32]int64
	if b.meter != nil {
		var err error
		if counts, err = b.meter.days(a, ids[0], ids[n-1]); err != nil {
			return nil, err
		}
	} else {
		counts = map[uint32]int64{}
		err := b.db.View(func(tx *storage.Tx) error {
			return tx.UsageWindows(a.name, ids[0], ids[n-1], func(w uint32, used uint64) error {
				counts[w] = int64(used)
				return nil
			})
		})
		if err != nil {
			return nil, err
		}
	}
	for i, id := range ids {
		days[i].Calls = counts[id]
	}
	return days, nil
}
