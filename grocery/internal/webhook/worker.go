package webhook

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	mrand "math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/grocerydata/grocery/internal/alertstore"
	"github.com/grocerydata/grocery/storage"
)

// Request is one delivery attempt for Config.Send: a POST of Body to URL
// with Header.
type Request struct {
	URL    string
	Header map[string]string // Content-Type and the *Header headers
	Body   []byte
}

// Response is what an attempt got: Code the HTTP status (0 when none
// came), Err why it is not a success (nil for a 2xx), Latency how long
// it took.
type Response struct {
	Code    int
	Err     error
	Latency time.Duration
}

// Run counts what Deliver did: the attempts made, the deliveries they
// delivered and those given up on (Config.RetryFor passed).
type Run struct {
	Attempts  int
	Delivered int
	Failed    int
}

// SlowAfter is the latency from which an attempt, even a success, marks
// its endpoint slow: slow endpoints share the senders failing ones may
// hold (half of Config.Senders), so that receivers that take seconds to
// answer cannot hold every sender while others wait.
const SlowAfter = Timeout / 2

// ErrNotSender is Deliver's error when another node holds the sender's
// lease (alertstore.HookStore.HoldSender): only one sends.
var ErrNotSender = errors.New("webhook: another node holds the sender's lease")

// Config is what a Worker sends with and records by. Its errors are the
// store's own (fault.Error) and ctx's: the caller converts them.
type Config struct {
	// Store holds the endpoints and their outboxes: the data file's, or
	// Redis's, which servers share (the worker then polls every second).
	Store alertstore.Store
	// Send makes one attempt, within Timeout, following no redirect.
	Send func(ctx context.Context, req *Request) Response
	// Senders is the number of deliveries sent at once; one account's
	// endpoints get at most half, and endpoints whose latest attempt
	// failed or took SlowAfter or more get at most half between them.
	// At least 1.
	Senders int
	// Now is the clock: of the signatures, of what is due and of the
	// attempts' records.
	Now func() time.Time
	// FanOut queues the events that wait for their endpoints in a
	// shared store, before each round (alertstore.HookStore.FanOut).
	FanOut func(ctx context.Context) error
	// Warn logs what the loop could not do (nil: nothing is logged).
	Warn func(msg string, err error)
	// Failed is told of each failed attempt once it is recorded, with
	// the delivery as recorded (no Body): its attempts, the answer's code
	// (0: no answer), the error, and its next attempt (Next), 0 when it
	// was given up on. The senders call it at once, each before its
	// endpoint's next delivery goes: it must be safe for concurrent use,
	// and quick. Nil: nobody is told.
	Failed func(d *storage.WebhookDelivery)
	// DeliveryID is a delivery's id in its header (DeliveryIDHeader).
	DeliveryID func(seq uint64) string
	// RetryFor is how long after its first attempt a delivery is retried
	// (after Backoff) before its next failure marks it failed.
	RetryFor time.Duration
	// DisableAfter is how long every attempt to an endpoint must fail
	// for the endpoint to be disabled, with the reason DisabledReason
	// words from when it began failing and the latest attempt's error.
	DisableAfter   time.Duration
	DisabledReason func(failingSince time.Time, last string) string
	// Manual starts no loop: deliveries go only in the rounds Deliver
	// runs on demand.
	Manual bool
}

// Worker sends the deliveries of a store's outboxes, each endpoint's in
// order, and records what each attempt got: a loop (Start) that sends
// them as they fall due, or rounds on demand (Deliver). It takes the
// sender's lease (alertstore.HookStore.HoldSender) under a random name
// of its own before it sends.
type Worker struct {
	cfg  Config
	node string        // this worker's name for the sender's lease
	held atomic.Bool   // this worker took the lease at least once: Stop gives it up
	wake chan struct{} // something was queued, or a sender finished (capacity 1)
	stop func()        // stops the loop and waits for it; nil when none runs

	mu       sync.Mutex
	idle     *sync.Cond       // signalled when a delivery in flight is recorded
	inflight map[hookKey]bool // endpoints with a delivery being sent: true when limited (failing or slow)
	limited  int              // how many of inflight are limited
	accounts map[string]int   // deliveries in flight by account
	slow     map[hookKey]bool // endpoints whose latest attempt took SlowAfter or more
	jobs     chan *job        // to the loop's senders
}

// hookKey names an endpoint.
type hookKey struct {
	account string
	id      uint64
}

// NewWorker returns a Worker that sends nothing until Start or Deliver:
// Kick may be called from the start.
func NewWorker() *Worker {
	var name [8]byte
	rand.Read(name[:])
	w := &Worker{node: hex.EncodeToString(name[:]), wake: make(chan struct{}, 1), inflight: map[hookKey]bool{},
		accounts: map[string]int{}, slow: map[hookKey]bool{}}
	w.idle = sync.NewCond(&w.mu)
	return w
}

// Kick wakes the loop: a transaction that queued a delivery calls it
// once committed (storage.Tx.OnCommit).
func (w *Worker) Kick() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Start sets what the worker sends with, and, unless cfg.Manual, starts
// its loop: a dispatcher and cfg.Senders senders. It is called once,
// before Deliver.
func (w *Worker) Start(cfg Config) {
	w.cfg = cfg
	if cfg.Manual {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	w.jobs = make(chan *job, cfg.Senders)
	var wg sync.WaitGroup
	for range cfg.Senders {
		wg.Go(func() {
			for j := range w.jobs {
				j.res = w.send(ctx, j)
				w.finish(ctx, j)
				w.Kick() // its endpoint's next delivery may be due
			}
		})
	}
	done := make(chan struct{})
	w.stop = func() { cancel(); <-done; close(w.jobs); wg.Wait() }
	go func() {
		defer close(done)
		w.run(ctx)
	}()
}

// Stop stops the loop, if one runs, and gives up the sender's lease, if
// the worker holds it: a delivery it was sending stays pending and is
// sent again at the next start (at least once).
func (w *Worker) Stop() {
	if w.stop != nil {
		w.stop()
		w.stop = nil
	}
	if w.held.Load() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		w.cfg.Store.ReleaseSender(ctx, w.node)
		cancel()
	}
}

// run dispatches deliveries to the senders until ctx ends: each time
// something was queued or a sender finished, when the earliest retry is
// due by the clock (Config.Now), and at least once a minute; with a
// store shared with other servers (Redis), where they queue deliveries
// too (a ping, a redelivery), every second.
func (w *Worker) run(ctx context.Context) {
	st := w.cfg.Store
	poll := time.Minute
	if !st.Local() {
		poll = time.Second
	}
	for {
		// With Redis, servers that hold a data file share the outbox:
		// the one holding the sender's lease sends; any may queue.
		// A server with nothing to send neither takes nor keeps the lease.
		ferr := w.cfg.FanOut(ctx)
		sending, err := st.HookPending(ctx)
		if sending && err == nil {
			sending, err = st.HoldSender(ctx, w.node, alertstore.SenderLease)
			w.held.CompareAndSwap(false, sending)
		}
		free := w.cfg.Senders - w.inFlight()
		var jobs []*job
		var next int64
		if free > 0 && sending {
			jobs, next, err = w.claimDue(ctx, w.cfg.Now(), free)
		}
		if err == nil {
			err = ferr
		}
		for _, j := range jobs {
			w.jobs <- j // a free sender takes it: the channel holds Senders
		}
		wait := poll
		switch {
		case err != nil:
			if w.cfg.Warn != nil {
				w.cfg.Warn("webhook deliveries: reading the outbox failed; retrying", err)
			}
			wait = 5 * time.Second
		case next != 0:
			wait = min(wait, max(time.UnixMilli(next).Sub(w.cfg.Now()), 0))
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-w.wake:
		case <-t.C:
		}
		t.Stop()
	}
}

func (w *Worker) inFlight() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.inflight)
}

// Deliver sends, now, every delivery due by the clock, each endpoint's
// in order, until none is due: what the loop does on its own. It first
// takes the sender's lease (ErrNotSender when another node holds it),
// waits for the deliveries the loop is sending to be recorded and queues
// the events waiting in a shared store (Config.FanOut). It sends in
// rounds of at most Config.Senders deliveries, one per sender, so that a
// round lasts no longer than an attempt; it keeps the lease before each
// round and stops with ErrNotSender when another node took it meanwhile.
// The Run is nil only when it returns before sending.
func (w *Worker) Deliver(ctx context.Context) (*Run, error) {
	if err := w.holdSender(ctx); err != nil {
		return nil, err
	}
	w.mu.Lock()
	for len(w.inflight) > 0 {
		w.idle.Wait()
	}
	w.mu.Unlock()
	run := &Run{}
	if err := w.cfg.FanOut(ctx); err != nil {
		return run, err
	}
	for first := true; ; first = false {
		if !first {
			if err := w.holdSender(ctx); err != nil {
				return run, err
			}
		}
		now := w.cfg.Now()
		jobs, _, err := w.claimDue(ctx, now, max(w.cfg.Senders, 1))
		if err != nil || len(jobs) == 0 {
			return run, err
		}
		queue := make(chan *job)
		var wg sync.WaitGroup
		for range min(w.cfg.Senders, len(jobs)) {
			wg.Go(func() {
				for j := range queue {
					j.res = w.send(ctx, j)
					w.finish(ctx, j)
				}
			})
		}
		for _, j := range jobs {
			queue <- j
		}
		close(queue)
		wg.Wait()
		for _, j := range jobs {
			run.Attempts += j.outcome.Attempts
			run.Delivered += j.outcome.Delivered
			run.Failed += j.outcome.Failed
			if j.err != nil {
				return run, j.err
			}
		}
		if err := ctx.Err(); err != nil {
			return run, err
		}
	}
}

// holdSender takes or keeps the sender's lease for a round of Deliver:
// ErrNotSender when another node holds it.
func (w *Worker) holdSender(ctx context.Context) error {
	sending, err := w.cfg.Store.HoldSender(ctx, w.node, alertstore.SenderLease)
	if err != nil {
		return err
	}
	if !sending {
		return ErrNotSender
	}
	w.held.Store(true)
	return nil
}

// job is one attempt: the delivery, where it goes, and what came of it.
type job struct {
	key     hookKey
	d       storage.WebhookDelivery
	url     string
	secret  []byte
	now     time.Time // when it was claimed: the clock of its record
	res     Response
	outcome Run
	err     error                   // recording it failed
	failed  storage.WebhookDelivery // as a failed attempt recorded it (Attempts 0: none did)
}

// claimDue claims, at most limit, the head deliveries of enabled
// endpoints that are due at now and whose endpoint has none in flight,
// marking them in flight. Each account's endpoints get at most half of
// Config.Senders at once, and endpoints that are failing or slow (their
// latest attempt took SlowAfter or more, success or not) at most half
// between them, so that one account's receivers, or receivers that
// answer late or never, cannot hold every sender while the others wait. It returns the earliest time (Unix ms) a head not yet due will
// be, 0 when none waits.
func (w *Worker) claimDue(ctx context.Context, now time.Time, limit int) ([]*job, int64, error) {
	nowMS := now.UnixMilli()
	var jobs []*job
	var next int64
	w.mu.Lock()
	defer w.mu.Unlock()
	share := max(w.cfg.Senders/2, 1)
	err := w.cfg.Store.HookHeads(ctx, func(h *storage.Webhook, d *storage.WebhookDelivery) error {
		key := hookKey{h.Account, h.ID}
		if _, busy := w.inflight[key]; busy || h.Disabled != 0 || w.accounts[h.Account] >= share {
			return nil
		}
		limited := h.FailingSince != 0 || w.slow[key]
		if limited && w.limited >= share {
			return nil
		}
		if d.Next > nowMS {
			if next == 0 || d.Next < next {
				next = d.Next
			}
			return nil
		}
		w.inflight[key] = limited
		w.accounts[h.Account]++
		if limited {
			w.limited++
		}
		jobs = append(jobs, &job{key: key, url: h.URL, secret: slices.Clone(h.Secret), now: now, d: cloneDelivery(d)})
		if len(jobs) == limit {
			return storage.ErrStop
		}
		return nil
	})
	if err != nil {
		for _, j := range jobs {
			w.release(j)
		}
		return nil, 0, err
	}
	return jobs, next, nil
}

// cloneDelivery returns a copy of d that shares nothing with it.
func cloneDelivery(d *storage.WebhookDelivery) storage.WebhookDelivery {
	c := *d
	c.Body = slices.Clone(d.Body)
	return c
}

// release marks j's endpoint as no longer in flight; w.mu is held.
func (w *Worker) release(j *job) {
	if w.inflight[j.key] {
		w.limited--
	}
	delete(w.inflight, j.key)
	if w.accounts[j.key.account]--; w.accounts[j.key.account] <= 0 {
		delete(w.accounts, j.key.account)
	}
	w.idle.Broadcast()
}

// finish records what j's attempt got, unless the attempt was cut short
// by ctx (a stop): it then stays pending, sent again at the next start.
func (w *Worker) finish(ctx context.Context, j *job) {
	if ctx.Err() == nil || j.res.Code != 0 {
		// Not ctx: a stop must not cut short the record of an answer.
		_, err := w.cfg.Store.EditHook(context.Background(), j.d.Account, j.d.Endpoint, func(e *alertstore.Edit) error {
			j.outcome, j.failed = Run{}, storage.WebhookDelivery{}
			return w.record(e, j, j.now, &j.outcome)
		})
		j.err = err
		if j.err != nil && w.cfg.Warn != nil {
			w.cfg.Warn("webhook deliveries: recording an attempt failed; it is sent again", j.err)
		}
		if j.err == nil && j.failed.Attempts != 0 && w.cfg.Failed != nil {
			w.cfg.Failed(&j.failed)
		}
	}
	w.mu.Lock()
	if j.res.Latency >= SlowAfter {
		w.slow[j.key] = true
	} else {
		delete(w.slow, j.key)
	}
	w.release(j)
	w.mu.Unlock()
}

// send makes one attempt of j, signed at the clock's time.
func (w *Worker) send(ctx context.Context, j *job) Response {
	req := &Request{URL: j.url, Body: j.d.Body, Header: map[string]string{
		"Content-Type":   "application/json",
		SignatureHeader:  Sign(j.secret, w.cfg.Now(), j.d.Body),
		EventIDHeader:    j.d.EventID,
		EventTypeHeader:  j.d.Type,
		DeliveryIDHeader: w.cfg.DeliveryID(j.d.Seq),
	}}
	return w.cfg.Send(ctx, req)
}

// record writes what an attempt made at now got: delivered on success;
// otherwise retried after Backoff, or failed once Config.RetryFor has
// passed since its first attempt; and the endpoint disabled once every
// attempt failed for Config.DisableAfter. It writes nothing, and counts
// only the attempt, when the delivery is no longer pending with the
// attempts it was claimed at: another sender recorded it, or it was
// delivered and then redelivered, meanwhile.
func (w *Worker) record(e *alertstore.Edit, j *job, now time.Time, run *Run) error {
	nowMS := now.UnixMilli()
	var d storage.WebhookDelivery
	if found, err := e.Delivery(j.d.Seq, &d); err != nil || !found {
		return err // deleted meanwhile
	}
	run.Attempts++
	if d.Status != j.d.Status || d.Attempts != j.d.Attempts {
		return nil
	}
	h := &e.W
	d.Attempts++
	d.Last, d.Code, d.LatencyMS = nowMS, int64(j.res.Code), j.res.Latency.Milliseconds()
	if d.Since == 0 {
		d.Since = nowMS
	}
	if j.res.Err == nil {
		d.Status, d.Next, d.Error = storage.DeliveryDelivered, 0, ""
		h.FailingSince = 0
		run.Delivered++
	} else {
		d.Error = j.res.Err.Error()
		if len(d.Error) > 300 {
			d.Error = d.Error[:300]
		}
		if nowMS-d.Since >= w.cfg.RetryFor.Milliseconds() {
			d.Status, d.Next = storage.DeliveryFailed, 0
			run.Failed++
		} else {
			d.Next = nowMS + Backoff(int(d.Attempts), mrand.Float64()).Milliseconds()
		}
		if h.FailingSince == 0 {
			h.FailingSince = nowMS
		} else if nowMS-h.FailingSince >= w.cfg.DisableAfter.Milliseconds() && h.Disabled == 0 {
			h.Disabled = now.Unix()
			h.DisabledReason = w.cfg.DisabledReason(time.UnixMilli(h.FailingSince), d.Error)
		}
	}
	e.Put(&d)
	if j.res.Err != nil {
		j.failed = d
		j.failed.Body = nil // the log's, not the receiver's
	}
	return nil
}
