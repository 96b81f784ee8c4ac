package grocery

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/grocerydata/grocery/grocery/internal/alertstore"
	"github.com/grocerydata/grocery/grocery/internal/webhook"
	"github.com/grocerydata/grocery/storage"
)

// webhookHooks is a Service's delivery state: its options, the signal
// that a commit queued something, the deliveries being sent and the
// worker it runs.
type webhookHooks struct {
	opts WebhookOptions
	node string        // this Service's name for the sender's lease (alertstore.HookStore.HoldSender)
	held atomic.Bool   // this Service took the lease at least once: Close gives it up
	wake chan struct{} // a commit queued a delivery, or a sender finished (capacity 1)
	stop func()        // stops the worker and waits for it; nil when none runs

	mu       sync.Mutex
	idle     *sync.Cond        // signalled when a delivery in flight is recorded
	inflight map[hookKey]bool  // endpoints with a delivery being sent: true when failing
	failing  int               // how many of inflight are failing endpoints
	jobs     chan *deliveryJob // to the worker's senders
}

// hookKey names an endpoint.
type hookKey struct {
	account string
	id      uint64
}

func newWebhookHooks(opts WebhookOptions) *webhookHooks {
	if opts.Senders <= 0 {
		opts.Senders = 64
	}
	var name [8]byte
	rand.Read(name[:])
	h := &webhookHooks{opts: opts, node: hex.EncodeToString(name[:]), wake: make(chan struct{}, 1), inflight: map[hookKey]bool{}}
	h.idle = sync.NewCond(&h.mu)
	return h
}

// kick wakes the worker: a transaction that queued a delivery calls it
// once committed (storage.Tx.OnCommit).
func (h *webhookHooks) kick() {
	if h == nil {
		return
	}
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// startWebhooks starts the delivery worker when a sender is configured
// (on the node that holds the file for writing: the one that evaluates
// the rules): a dispatcher and WebhookOptions.Senders senders.
func (s *Service) startWebhooks() {
	h := s.hooks
	if h.opts.Sender == nil || h.opts.Manual {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.jobs = make(chan *deliveryJob, h.opts.Senders)
	var wg sync.WaitGroup
	for range h.opts.Senders {
		wg.Go(func() {
			for j := range h.jobs {
				j.res = s.sendDelivery(ctx, j)
				s.finishDelivery(ctx, j)
				h.kick() // its endpoint's next delivery may be due
			}
		})
	}
	done := make(chan struct{})
	h.stop = func() { cancel(); <-done; close(h.jobs); wg.Wait() }
	go func() {
		defer close(done)
		s.runWebhooks(ctx)
	}()
}

// stopWebhooks stops the worker, if one runs, and gives up the sender's
// lease, if this Service holds it: a delivery it was sending stays
// pending and is sent again at the next start (at least once).
func (s *Service) stopWebhooks() {
	if s.hooks == nil {
		return
	}
	if s.hooks.stop != nil {
		s.hooks.stop()
		s.hooks.stop = nil
	}
	if s.hooks.held.Load() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		s.alerts.st.ReleaseSender(ctx, s.hooks.node)
		cancel()
	}
}

// runWebhooks dispatches deliveries to the senders until ctx ends: each
// time this Service queued something or a sender finished, when the
// earliest retry is due by the clock (Options.Now), and at least once a
// minute; with the alert events in Redis, where other servers queue
// deliveries too (a ping, a redelivery), every second.
func (s *Service) runWebhooks(ctx context.Context) {
	h := s.hooks
	poll := time.Minute
	if !s.alerts.local() {
		poll = time.Second
	}
	for {
		// With Redis, servers that hold a data file share the outbox:
		// the one holding the sender's lease sends; any may queue.
		// A server with nothing to send neither takes nor keeps the lease.
		ferr := s.alerts.fanOut(ctx, 0)
		sending, err := s.alerts.st.HookPending(ctx)
		if sending && err == nil {
			sending, err = s.alerts.st.HoldSender(ctx, h.node, alertstore.SenderLease)
			h.held.CompareAndSwap(false, sending)
		}
		err = fromFault(err)
		free := h.opts.Senders - s.inFlight()
		var jobs []*deliveryJob
		var next int64
		if free > 0 && sending {
			jobs, next, err = s.claimDue(ctx, s.now(), free)
		}
		if err == nil {
			err = ferr
		}
		for _, j := range jobs {
			h.jobs <- j // a free sender takes it: the channel holds Senders
		}
		wait := poll
		switch {
		case err != nil:
			if s.log != nil {
				s.log.Warn("webhook deliveries: reading the outbox failed; retrying", "err", ErrorMessage(err), "code", ErrorCode(err))
			}
			wait = 5 * time.Second
		case next != 0:
			wait = min(wait, max(time.UnixMilli(next).Sub(s.now()), 0))
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-h.wake:
		case <-t.C:
		}
		t.Stop()
	}
}

func (s *Service) inFlight() int {
	s.hooks.mu.Lock()
	defer s.hooks.mu.Unlock()
	return len(s.hooks.inflight)
}

// DeliverWebhooks sends, now, every delivery due by the clock
// (Options.Now), each endpoint's in order, until none is due: what the
// worker started by WebhookOptions.Sender does on its own. It first waits
// for the deliveries the worker is sending to be recorded. It is for
// tools and tests that drive the clock.
//
// It returns ECONFLICT when no WebhookOptions.Sender is configured, the
// file is opened read-only or, with Redis, another server holds the
// sender's lease (only one server sends), and EUNAVAILABLE when Redis does
// not answer.
func (s *Service) DeliverWebhooks(ctx context.Context) (*WebhookRun, error) {
	h := s.hooks
	if h.opts.Sender == nil || !s.bolt.Metering() {
		return nil, Errorf(ECONFLICT, "no webhook sender: this Service was opened without WebhookOptions.Sender, or read-only")
	}
	if sending, err := s.alerts.st.HoldSender(ctx, h.node, alertstore.SenderLease); err != nil {
		return nil, fromFault(err)
	} else if !sending {
		return nil, Errorf(ECONFLICT, "another server sends the webhook deliveries of this Redis (it holds the sender's lease)")
	}
	h.held.Store(true)
	h.mu.Lock()
	for len(h.inflight) > 0 {
		h.idle.Wait()
	}
	h.mu.Unlock()
	run := &WebhookRun{}
	if err := s.alerts.fanOut(ctx, 0); err != nil {
		return run, err
	}
	for {
		now := s.now()
		jobs, _, err := s.claimDue(ctx, now, maxRound)
		if err != nil || len(jobs) == 0 {
			return run, err
		}
		queue := make(chan *deliveryJob)
		var wg sync.WaitGroup
		for range min(h.opts.Senders, len(jobs)) {
			wg.Go(func() {
				for j := range queue {
					j.res = s.sendDelivery(ctx, j)
					s.finishDelivery(ctx, j)
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

// deliveryJob is one attempt: the delivery, where it goes, and what came
// of it.
type deliveryJob struct {
	key     hookKey
	failing bool // its endpoint's latest attempt failed
	d       storage.WebhookDelivery
	url     string
	secret  []byte
	now     time.Time // when it was claimed: the clock of its record
	res     WebhookResponse
	outcome WebhookRun
	err     error // recording it failed
}

// maxRound bounds the attempts DeliverWebhooks claims at once.
const maxRound = 1024

// claimDue claims, at most limit, the head deliveries of enabled
// endpoints that are due at now and whose endpoint has none in flight,
// marking them in flight; endpoints that are failing get at most half of
// WebhookOptions.Senders at once, so that receivers that never answer
// cannot hold every sender for WebhookTimeout at each retry while the
// healthy ones wait. It returns the earliest time (Unix ms) a head
// not yet due will be, 0 when none waits.
func (s *Service) claimDue(ctx context.Context, now time.Time, limit int) ([]*deliveryJob, int64, error) {
	h := s.hooks
	nowMS := now.UnixMilli()
	var jobs []*deliveryJob
	var next int64
	h.mu.Lock()
	defer h.mu.Unlock()
	failingMax := max(h.opts.Senders/2, 1)
	err := s.alerts.st.HookHeads(ctx, func(w *storage.Webhook, d *storage.WebhookDelivery) error {
		key := hookKey{w.Account, w.ID}
		if _, busy := h.inflight[key]; busy || w.Disabled != 0 {
			return nil
		}
		failing := w.FailingSince != 0
		if failing && h.failing >= failingMax {
			return nil
		}
		if d.Next > nowMS {
			if next == 0 || d.Next < next {
				next = d.Next
			}
			return nil
		}
		h.inflight[key] = failing
		if failing {
			h.failing++
		}
		jobs = append(jobs, &deliveryJob{key: key, failing: failing, url: w.URL, secret: slices.Clone(w.Secret), now: now, d: cloneDelivery(d)})
		if len(jobs) == limit {
			return storage.ErrStop
		}
		return nil
	})
	if err != nil {
		for _, j := range jobs {
			h.release(j)
		}
		return nil, 0, fromFault(err)
	}
	return jobs, next, nil
}

// cloneDelivery returns a copy of d that shares nothing with it.
func cloneDelivery(d *storage.WebhookDelivery) storage.WebhookDelivery {
	c := *d
	c.Body = slices.Clone(d.Body)
	return c
}

// release marks j's endpoint as no longer in flight; h.mu is held.
func (h *webhookHooks) release(j *deliveryJob) {
	if h.inflight[j.key] {
		h.failing--
	}
	delete(h.inflight, j.key)
	h.idle.Broadcast()
}

// finishDelivery records what j's attempt got, unless the attempt was
// cut short by ctx (a stop): it then stays pending, sent again at the
// next start.
func (s *Service) finishDelivery(ctx context.Context, j *deliveryJob) {
	if ctx.Err() == nil || j.res.Code != 0 {
		// Not ctx: a stop must not cut short the record of an answer.
		_, err := s.alerts.st.EditHook(context.Background(), j.d.Account, j.d.Endpoint, func(e *alertstore.Edit) error {
			j.outcome = WebhookRun{}
			return recordAttempt(e, j, j.now, &j.outcome)
		})
		j.err = fromFault(err)
		if j.err != nil && s.log != nil {
			s.log.Warn("webhook deliveries: recording an attempt failed; it is sent again", "err", ErrorMessage(j.err), "code", ErrorCode(j.err))
		}
	}
	s.hooks.mu.Lock()
	s.hooks.release(j)
	s.hooks.mu.Unlock()
}

// sendDelivery makes one attempt of j, signed at the clock's time.
func (s *Service) sendDelivery(ctx context.Context, j *deliveryJob) WebhookResponse {
	req := &WebhookRequest{URL: j.url, Body: j.d.Body, Header: map[string]string{
		"Content-Type":          "application/json",
		WebhookSignatureHeader:  webhook.Sign(j.secret, s.now(), j.d.Body),
		WebhookEventIDHeader:    j.d.EventID,
		WebhookEventTypeHeader:  j.d.Type,
		WebhookDeliveryIDHeader: deliveryID(j.d.Seq),
	}}
	return s.hooks.opts.Sender.SendWebhook(ctx, req)
}

// recordAttempt writes what an attempt made at now got: delivered on
// success; otherwise retried after webhook.Backoff, or failed once
// WebhookRetryFor has passed since its first attempt; and the endpoint
// disabled once every attempt failed for WebhookDisableAfter.
func recordAttempt(e *alertstore.Edit, j *deliveryJob, now time.Time, run *WebhookRun) error {
	nowMS := now.UnixMilli()
	var d storage.WebhookDelivery
	if found, err := e.Delivery(j.d.Seq, &d); err != nil || !found {
		return err // deleted meanwhile
	}
	w := &e.W
	run.Attempts++
	d.Attempts++
	d.Last, d.Code, d.LatencyMS = nowMS, int64(j.res.Code), j.res.Latency.Milliseconds()
	if d.Since == 0 {
		d.Since = nowMS
	}
	if j.res.Err == nil {
		d.Status, d.Next, d.Error = storage.DeliveryDelivered, 0, ""
		w.FailingSince = 0
		run.Delivered++
	} else {
		d.Error = j.res.Err.Error()
		if len(d.Error) > 300 {
			d.Error = d.Error[:300]
		}
		if nowMS-d.Since >= WebhookRetryFor.Milliseconds() {
			d.Status, d.Next = storage.DeliveryFailed, 0
			run.Failed++
		} else {
			d.Next = nowMS + webhook.Backoff(int(d.Attempts), mrand.Float64()).Milliseconds()
		}
		if w.FailingSince == 0 {
			w.FailingSince = nowMS
		} else if nowMS-w.FailingSince >= WebhookDisableAfter.Milliseconds() && w.Disabled == 0 {
			w.Disabled = now.Unix()
			w.DisabledReason = fmt.Sprintf("every delivery attempt failed for %d days, since %s (the latest: %s): fix the receiver, then enable the endpoint again",
				int(WebhookDisableAfter.Hours()/24), time.UnixMilli(w.FailingSince).UTC().Format(time.RFC3339), d.Error)
		}
	}
	e.Put(&d)
	return nil
}
