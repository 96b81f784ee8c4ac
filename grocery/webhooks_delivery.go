package grocery

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/grocerydata/grocery/grocery/internal/webhook"
	"github.com/grocerydata/grocery/storage"
)

// webhookHooks is a Service's delivery state: its options, the signal
// that a commit queued something, and the worker it runs.
type webhookHooks struct {
	opts WebhookOptions
	wake chan struct{} // a commit queued a delivery (capacity 1)
	mu   sync.Mutex    // one round of deliveries at a time
	stop func()        // stops the worker and waits for it; nil when none runs
}

func newWebhookHooks(opts WebhookOptions) *webhookHooks {
	if opts.Senders <= 0 {
		opts.Senders = 8
	}
	return &webhookHooks{opts: opts, wake: make(chan struct{}, 1)}
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
// and the file is held for writing with the alert events in it.
func (s *Service) startWebhooks() {
	if s.hooks.opts.Sender == nil || s.hooks.opts.Manual || !s.alerts.local() {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	s.hooks.stop = func() { cancel(); <-done }
	go func() {
		defer close(done)
		s.runWebhooks(ctx)
	}()
}

// stopWebhooks stops the worker, if one runs: a delivery it was sending
// stays pending and is sent again at the next start (at least once).
func (s *Service) stopWebhooks() {
	if s.hooks != nil && s.hooks.stop != nil {
		s.hooks.stop()
		s.hooks.stop = nil
	}
}

// runWebhooks delivers until ctx ends: a round whenever a commit queued
// something, or the earliest retry is due by the clock (Options.Now), and
// at least once a minute.
func (s *Service) runWebhooks(ctx context.Context) {
	for {
		run, next, err := s.webhookRound(ctx)
		if ctx.Err() != nil {
			return
		}
		wait := time.Minute
		switch {
		case err != nil:
			if s.log != nil {
				s.log.Warn("webhook deliveries: a round failed; retrying", "err", ErrorMessage(err), "code", ErrorCode(err))
			}
			wait = 5 * time.Second
		case run.Attempts > 0:
			continue // the next deliveries in line may be due now
		case next != 0:
			wait = min(wait, max(time.UnixMilli(next).Sub(s.now()), 0))
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-s.hooks.wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// DeliverWebhooks sends, now, every delivery due by the clock
// (Options.Now), each endpoint's in order, until none is due: what the
// worker started by WebhookOptions.Sender does on its own. It is for
// tools and tests that drive the clock.
//
// It returns ECONFLICT when no WebhookOptions.Sender is configured, the
// file is opened read-only or the alert events are in Redis.
func (s *Service) DeliverWebhooks(ctx context.Context) (*WebhookRun, error) {
	if err := s.webhooksLocal(); err != nil {
		return nil, err
	}
	if s.hooks.opts.Sender == nil || !s.bolt.Metering() {
		return nil, Errorf(ECONFLICT, "no webhook sender: this Service was opened without WebhookOptions.Sender, or read-only")
	}
	total := &WebhookRun{}
	for {
		run, _, err := s.webhookRound(ctx)
		total.Attempts += run.Attempts
		total.Delivered += run.Delivered
		total.Failed += run.Failed
		if err != nil {
			return total, err
		}
		if run.Attempts == 0 {
			return total, nil
		}
	}
}

// deliveryJob is one attempt of a round.
type deliveryJob struct {
	d      storage.WebhookDelivery
	url    string
	secret []byte
	res    WebhookResponse
}

// maxRound bounds the attempts of one round.
const maxRound = 1024

// webhookRound attempts the head delivery of each enabled endpoint that
// is due, with WebhookOptions.Senders at once, and records what each got.
// It returns the earliest time (Unix ms) a delivery not yet due will be,
// 0 when none waits.
func (s *Service) webhookRound(ctx context.Context) (WebhookRun, int64, error) {
	s.hooks.mu.Lock()
	defer s.hooks.mu.Unlock()
	var run WebhookRun
	now := s.now()
	nowMS := now.UnixMilli()
	var jobs []*deliveryJob
	var next int64
	err := s.db.View(func(tx *storage.Tx) error {
		return tx.WebhookHeads(func(account string, ep, seq uint64) error {
			var w storage.Webhook
			if found, err := tx.Webhook(account, ep, &w); err != nil || !found || w.Disabled != 0 {
				return err
			}
			j := &deliveryJob{url: w.URL, secret: w.Secret}
			if found, err := tx.WebhookDelivery(account, ep, seq, &j.d); err != nil || !found {
				return err
			}
			if j.d.Next > nowMS {
				if next == 0 || j.d.Next < next {
					next = j.d.Next
				}
				return nil
			}
			jobs = append(jobs, j)
			if len(jobs) == maxRound {
				return storage.ErrStop
			}
			return nil
		})
	})
	if err != nil || len(jobs) == 0 {
		return run, next, err
	}
	queue := make(chan *deliveryJob)
	var wg sync.WaitGroup
	for range min(s.hooks.opts.Senders, len(jobs)) {
		wg.Go(func() {
			for j := range queue {
				j.res = s.sendDelivery(ctx, j)
			}
		})
	}
	for _, j := range jobs {
		queue <- j
	}
	close(queue)
	wg.Wait()
	stopped := ctx.Err()
	err = s.db.Update(func(tx *storage.Tx) error {
		for _, j := range jobs {
			if stopped != nil && j.res.Code == 0 {
				continue // cut short by the stop: it stays pending, sent again at the next start
			}
			if err := recordAttempt(tx, j, now, &run); err != nil {
				return err
			}
		}
		return nil
	})
	return run, next, err
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
func recordAttempt(tx *storage.Tx, j *deliveryJob, now time.Time, run *WebhookRun) error {
	nowMS := now.UnixMilli()
	var d storage.WebhookDelivery
	var w storage.Webhook
	if found, err := tx.WebhookDelivery(j.d.Account, j.d.Endpoint, j.d.Seq, &d); err != nil || !found {
		return err // deleted meanwhile
	}
	if found, err := tx.Webhook(j.d.Account, j.d.Endpoint, &w); err != nil || !found {
		return err
	}
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
			d.Next = nowMS + webhook.Backoff(int(d.Attempts), rand.Float64()).Milliseconds()
		}
		if w.FailingSince == 0 {
			w.FailingSince = nowMS
		} else if nowMS-w.FailingSince >= WebhookDisableAfter.Milliseconds() && w.Disabled == 0 {
			w.Disabled = now.Unix()
			w.DisabledReason = fmt.Sprintf("every delivery attempt failed for %d days, since %s (the latest: %s): fix the receiver, then enable the endpoint again",
				int(WebhookDisableAfter.Hours()/24), time.UnixMilli(w.FailingSince).UTC().Format(time.RFC3339), d.Error)
		}
	}
	if err := tx.PutWebhookDelivery(&d); err != nil {
		return err
	}
	return tx.PutWebhook(&w)
}
