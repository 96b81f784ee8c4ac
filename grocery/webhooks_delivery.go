package grocery

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/grocerydata/grocery/grocery/internal/webhook"
	"github.com/grocerydata/grocery/storage"
)

// webhookHooks is a Service's webhook options and the worker that sends
// its deliveries (webhook.Worker).
type webhookHooks struct {
	opts WebhookOptions
	w    *webhook.Worker
}

func newWebhookHooks(opts WebhookOptions) *webhookHooks {
	if opts.Senders <= 0 {
		opts.Senders = 64
	}
	return &webhookHooks{opts: opts, w: webhook.NewWorker()}
}

// kick wakes the worker: a transaction that queued a delivery calls it
// once committed (storage.Tx.OnCommit).
func (h *webhookHooks) kick() {
	if h != nil {
		h.w.Kick()
	}
}

// startWebhooks starts the delivery worker when a sender is configured
// (on the node that holds the file for writing: the one that evaluates
// the rules), unless WebhookOptions.Manual: DeliverWebhooks then sends.
func (s *Service) startWebhooks() {
	h := s.hooks
	if h.opts.Sender == nil {
		return
	}
	cfg := webhook.Config{
		Store: s.alerts.st,
		Send: func(ctx context.Context, req *webhook.Request) webhook.Response {
			return webhook.Response(h.opts.Sender.SendWebhook(ctx, (*WebhookRequest)(req)))
		},
		Senders:      h.opts.Senders,
		Now:          s.now,
		FanOut:       func(ctx context.Context) error { return s.alerts.fanOut(ctx, 0) },
		DeliveryID:   deliveryID,
		RetryFor:     WebhookRetryFor,
		DisableAfter: WebhookDisableAfter,
		Manual:       h.opts.Manual,
		DisabledReason: func(since time.Time, last string) string {
			return fmt.Sprintf("every delivery attempt failed for %d days, since %s (the latest: %s): fix the receiver, then enable the endpoint again",
				int(WebhookDisableAfter.Hours()/24), since.UTC().Format(time.RFC3339), last)
		},
	}
	if s.log != nil {
		cfg.Warn = func(msg string, err error) {
			err = fromFault(err)
			s.log.Warn(msg, "err", ErrorMessage(err), "code", ErrorCode(err))
		}
		cfg.Failed = func(d *storage.WebhookDelivery) {
			next := "none: failed"
			if d.Next != 0 {
				next = time.UnixMilli(d.Next).UTC().Format(time.RFC3339)
			}
			attrs := []any{"account", d.Account, "webhook", webhookID(d.Endpoint), "delivery", deliveryID(d.Seq), "attempts", d.Attempts}
			if d.Code != 0 { // an answer came
				attrs = append(attrs, "http_status", d.Code)
			}
			s.log.Info("webhook attempt failed", append(attrs, "error", d.Error, "next_attempt", next)...)
		}
	}
	h.w.Start(cfg)
}

// stopWebhooks stops the worker, if one runs, and gives up the sender's
// lease, if this Service holds it: a delivery it was sending stays
// pending and is sent again at the next start (at least once).
func (s *Service) stopWebhooks() {
	if s.hooks != nil {
		s.hooks.w.Stop()
	}
}

// DeliverWebhooks sends, now, every delivery due by the clock
// (Options.Now), each endpoint's in order, until none is due: what the
// worker started by WebhookOptions.Sender does on its own. It first waits
// for the deliveries the worker is sending to be recorded. It is for
// tools and tests that drive the clock.
//
// It returns ECONFLICT when no WebhookOptions.Sender is configured, the
// file is opened read-only or, with a shared store, another server holds the
// sender's lease (only one server sends), and EUNAVAILABLE when the shared store does
// not answer.
func (s *Service) DeliverWebhooks(ctx context.Context) (*WebhookRun, error) {
	if s.hooks.opts.Sender == nil || !s.bolt.Metering() {
		return nil, Errorf(ECONFLICT, "no webhook sender: this Service was opened without WebhookOptions.Sender, or read-only")
	}
	run, err := s.hooks.w.Deliver(ctx)
	if errors.Is(err, webhook.ErrNotSender) {
		return nil, Errorf(ECONFLICT, "another server sends the webhook deliveries of this Redis (it holds the sender's lease)")
	}
	if run == nil {
		return nil, fromFault(err)
	}
	out := WebhookRun(*run)
	return &out, fromFault(err)
}
