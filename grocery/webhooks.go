package grocery

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/grocerydata/grocery/grocery/internal/webhook"
	"github.com/grocerydata/grocery/internal/alertstore"
	"github.com/grocerydata/grocery/storage"
)

// Webhook event types.
const (
	// WebhookAlertTriggered is the event of an alert rule that fired: its
	// data is the AlertEvent, as AlertEvents returns it.
	WebhookAlertTriggered = "alert.triggered"
	// WebhookPing is the event TestWebhook sends: its data names the
	// endpoint.
	WebhookPing = "ping"
)

// webhookEventTypes are the types an endpoint subscribes to.
var webhookEventTypes = []string{WebhookAlertTriggered}

// Headers of a webhook delivery. WebhookSignatureHeader's value is
// "t=<unix seconds>,v1=<hex>": the HMAC-SHA256, under the endpoint's
// secret (the whole "whsec_..." string as the key), of the timestamp, a
// period and the request body as received ("<t>.<body>").
// VerifyWebhookSignature checks it.
const (
	WebhookSignatureHeader  = webhook.SignatureHeader
	WebhookEventIDHeader    = webhook.EventIDHeader
	WebhookEventTypeHeader  = webhook.EventTypeHeader
	WebhookDeliveryIDHeader = webhook.DeliveryIDHeader
)

// Delivery rules. A receiver has WebhookTimeout to answer 2xx; any other
// answer, or none, is retried after 30 s, doubling to at most an hour,
// each wait times a random 0.8 to 1.2, until WebhookRetryFor has passed
// since the first attempt: the next failure marks the delivery failed.
// An endpoint whose every attempt failed for WebhookDisableAfter is
// disabled.
const (
	WebhookTimeout      = webhook.Timeout
	WebhookRetryFor     = 24 * time.Hour
	WebhookDisableAfter = 72 * time.Hour
)

// MaxWebhooks is the number of webhook endpoints an account may hold.
const MaxWebhooks = 100

// Webhook id prefixes.
const (
	webhookIDPrefix  = "whk_"
	deliveryIDPrefix = "whd_"
	pingIDPrefix     = "evt_ping_"
	secretPrefix     = "whsec_"
)

// WebhookOptions configures webhook endpoints and their deliveries
// (Options.Webhooks).
type WebhookOptions struct {
	// Sender sends the deliveries. Set, on the node that holds the data
	// file for writing (a server, or an ingest node; never a replica),
	// it starts a worker that delivers each event once it is recorded,
	// and retries on schedule. Without it deliveries wait (in the data
	// file, or in the shared store of Options.Shared) for a Service that has
	// one.
	Sender WebhookSender
	// Manual starts no worker: deliveries are sent only when
	// DeliverWebhooks is called (tools and tests that drive the clock).
	Manual bool
	// Senders is the number of deliveries sent at once, each holding a
	// goroutine for up to WebhookTimeout; one account's endpoints get at
	// most half, and endpoints whose latest attempt failed or took 5 s or
	// more (a slow success) at most half between them. Default 64.
	Senders int
	// AllowLoopback allows endpoints on loopback addresses, over http
	// as well as https: for testing a receiver on the same machine.
	AllowLoopback bool
	// AllowPrivate allows endpoints on private (10/8, 172.16/12,
	// 192.168/16, 100.64/10, fc00::/7) and link-local (169.254/16,
	// fe80::/10) addresses, the cloud metadata addresses
	// (169.254.169.254, fd00:ec2::254) among them.
	AllowPrivate bool
}

// WebhookPolicy says which addresses deliveries may reach
// (WebhookOptions.AllowLoopback, AllowPrivate). A sender checks the
// address of each connection it dials with its CheckAddr (or Control, as
// a net.Dialer's Control), so that a name resolving elsewhere after the
// endpoint was created is refused too.
type WebhookPolicy = webhook.Allow

// WebhookRefusedError is the error of a dial WebhookPolicy.Control
// refused: the address is one deliveries may not reach.
type WebhookRefusedError = webhook.RefusedError

// WebhookSender sends one delivery attempt: a POST of req.Body to req.URL
// with req.Header, following no redirect, within WebhookTimeout.
type WebhookSender interface {
	SendWebhook(ctx context.Context, req *WebhookRequest) WebhookResponse
}

// WebhookRequest is one delivery attempt for a WebhookSender.
type WebhookRequest struct {
	URL    string
	Header map[string]string // Content-Type and the Webhook*Header headers
	Body   []byte
}

// WebhookResponse is what an attempt got: Code the HTTP status (0 when
// none came), Err why it is not a success (nil for a 2xx), in words a
// user can act on, Latency how long it took.
type WebhookResponse struct {
	Code    int
	Err     error
	Latency time.Duration
}

// WebhookInput holds the arguments of CreateWebhook.
type WebhookInput struct {
	URL         string   `json:"url"`
	Description string   `json:"description,omitempty"`
	Events      []string `json:"events,omitempty"` // event types; default ["alert.triggered"]
}

// WebhookUpdate holds the arguments of UpdateWebhook: each field given is
// changed.
type WebhookUpdate struct {
	URL         *string   `json:"url,omitempty"`
	Description *string   `json:"description,omitempty"`
	Events      *[]string `json:"events,omitempty"`
	Enabled     *bool     `json:"enabled,omitempty"`
}

// Webhook is a webhook endpoint. Secret is set only in CreateWebhook's
// answer: it is never shown again.
type Webhook struct {
	ID             string     `json:"id"` // "whk_" and 16 hexadecimal digits
	URL            string     `json:"url"`
	Description    string     `json:"description"`
	Events         []string   `json:"events"`
	CreatedAt      time.Time  `json:"created_at"`
	Enabled        bool       `json:"enabled"`
	DisabledAt     *time.Time `json:"disabled_at,omitempty"`
	DisabledReason string     `json:"disabled_reason,omitempty"`
	Secret         string     `json:"secret,omitempty"` // "whsec_..." at creation only
}

// WebhookList is an account's endpoints, oldest first.
type WebhookList struct {
	Results []Webhook `json:"results"` // empty, never null
	Total   int       `json:"total"`
}

// WebhookEvent is the JSON body of a delivery. Data is the AlertEvent
// for alert.triggered (as AlertEvents returns it), {"webhook_id",
// "message"} for ping. ID is the event's id, the same on every attempt
// and redelivery: a receiver deduplicates on it.
type WebhookEvent struct {
	ID      string          `json:"id"`
	Type    string          `json:"type"`
	Created time.Time       `json:"created"`
	Data    json.RawMessage `json:"data"`
}

// Delivery statuses.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
)

// WebhookDelivery is one event sent to one endpoint, with what its latest
// attempt got.
type WebhookDelivery struct {
	ID            string     `json:"id"` // "whd_" and 16 hexadecimal digits, unique within its endpoint
	EventID       string     `json:"event_id"`
	Type          string     `json:"type"`
	CreatedAt     time.Time  `json:"created_at"`
	Status        string     `json:"status"` // pending, delivered or failed
	Attempts      int        `json:"attempts"`
	LastAttemptAt *time.Time `json:"last_attempt_at"`
	ResponseCode  *int       `json:"response_code"` // null when no answer came
	LatencyMS     *int64     `json:"latency_ms"`
	Error         string     `json:"error,omitempty"` // why the latest attempt failed
	NextRetryAt   *time.Time `json:"next_retry_at"`   // when pending
}

// WebhookDeliveryList is a page of an endpoint's deliveries, newest first.
type WebhookDeliveryList = Page[WebhookDelivery]

// WebhookDeliveriesInput holds the arguments of WebhookDeliveries.
type WebhookDeliveriesInput struct {
	Limit  Opt[int] `json:"limit,omitzero"`   // 1..500; 50 when not given
	Offset int      `json:"offset,omitempty"` // >= 0
}

// WebhookRun is what DeliverWebhooks did.
type WebhookRun struct {
	Attempts  int `json:"attempts"`
	Delivered int `json:"delivered"`
	Failed    int `json:"failed"` // deliveries given up on (WebhookRetryFor passed)
}

// VerifyWebhookSignature checks a delivery's WebhookSignatureHeader
// value against its body (the bytes received, before any decoding) and
// the endpoint's secret: the HMAC must match and the timestamp be within
// tolerance of now (0: not checked), which bounds how long a captured
// request can be replayed. It returns EINVALIDARGUMENT saying what does
// not match.
func VerifyWebhookSignature(secret, header string, body []byte, now time.Time, tolerance time.Duration) error {
	if err := webhook.Verify([]byte(secret), header, body, now, tolerance); err != nil {
		return Errorf(EINVALIDARGUMENT, "%s: %v", WebhookSignatureHeader, err)
	}
	return nil
}

func (s *Service) webhookPolicy() WebhookPolicy {
	return WebhookPolicy{Loopback: s.hooks.opts.AllowLoopback, Private: s.hooks.opts.AllowPrivate}
}

// checkWebhookURL checks an endpoint's URL (webhook.Allow.CheckURL) and
// the addresses its host resolves to now.
func (s *Service) checkWebhookURL(ctx context.Context, raw string) (string, error) {
	if len(raw) > 2048 {
		return "", Errorf(EINVALIDARGUMENT, "url: want at most 2048 characters, got %d", len(raw))
	}
	if strings.TrimSpace(raw) == "" {
		return "", Errorf(EINVALIDARGUMENT, "url is required: the https:// address deliveries are POSTed to")
	}
	p := s.webhookPolicy()
	u, err := p.CheckURL(raw)
	if err == nil {
		err = p.Resolve(ctx, u)
	}
	if err != nil {
		return "", Errorf(EINVALIDARGUMENT, "url %q: %v", raw, err)
	}
	return u.String(), nil
}

func checkWebhookDescription(d string) (string, error) {
	d = strings.TrimSpace(d)
	if utf8.RuneCountInString(d) > 200 || strings.ContainsFunc(d, func(c rune) bool { return c < ' ' || c == 0x7f }) {
		return "", Errorf(EINVALIDARGUMENT, "description: want at most 200 characters without control characters")
	}
	return d, nil
}

func checkWebhookEvents(events []string) ([]string, error) {
	if len(events) == 0 {
		return slices.Clone(webhookEventTypes), nil
	}
	var out []string
	for _, e := range events {
		e = strings.ToLower(strings.TrimSpace(e))
		if !slices.Contains(webhookEventTypes, e) {
			return nil, Errorf(EINVALIDARGUMENT, "events: %q is not an event type: want %s", e, strings.Join(webhookEventTypes, ", "))
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out, nil
}

func webhookID(n uint64) string { return webhookIDPrefix + fmt.Sprintf("%016x", n) }

func deliveryID(n uint64) string { return deliveryIDPrefix + fmt.Sprintf("%016x", n) }

// parseHexID reads prefix and 16 hexadecimal digits.
func parseHexID(s, prefix, what string) (uint64, error) {
	s = strings.TrimSpace(s)
	rest, ok := strings.CutPrefix(s, prefix)
	if ok && len(rest) == 16 {
		if n, err := strconv.ParseUint(rest, 16, 64); err == nil {
			return n, nil
		}
	}
	return 0, Errorf(EINVALIDARGUMENT, "%s %q: want %s and 16 hexadecimal digits", what, s, prefix)
}

func noWebhook(id string) error {
	return Errorf(ENOTFOUND, "no webhook endpoint %s", strings.TrimSpace(id))
}

func webhookOf(w *storage.Webhook) Webhook {
	out := Webhook{ID: webhookID(w.ID), URL: w.URL, Description: w.Description, Events: slices.Clone(w.Events),
		CreatedAt: time.Unix(w.Created, 0).UTC(), Enabled: w.Disabled == 0}
	if out.Events == nil {
		out.Events = []string{}
	}
	if w.Disabled != 0 {
		t := time.Unix(w.Disabled, 0).UTC()
		out.DisabledAt, out.DisabledReason = &t, w.DisabledReason
	}
	return out
}

// CreateWebhook registers a webhook endpoint for the account in ctx: every
// event of a type it subscribes to (Events, by default alert.triggered)
// is POSTed to its URL, signed with its secret, which the answer carries
// (Secret) and nothing shows again. The URL is https://, or http:// to a
// loopback host when WebhookOptions.AllowLoopback; its host must not be,
// nor resolve to, a loopback (unless allowed), private, link-local or
// metadata address (unless WebhookOptions.AllowPrivate): each delivery
// checks the address it connects to again.
//
// It returns EINVALIDARGUMENT naming the field for a missing, malformed
// or refused url, an overlong description or an unknown event type;
// ECONFLICT when the account holds MaxWebhooks endpoints;
// EUNAUTHENTICATED or ENOTFOUND for a missing or unknown account;
// EUNAVAILABLE when the shared store (Options.Shared) does not answer.
func (s *Service) CreateWebhook(ctx context.Context, in WebhookInput) (*Webhook, error) {
	account, err := s.accountOf(ctx)
	if err != nil {
		return nil, err
	}
	w := storage.Webhook{Account: account, Created: s.now().Unix()}
	claim := idemClaim(ctx, account)
	if id, ok, err := claimedObject(claim, "webhook"); err != nil {
		return nil, err
	} else if ok {
		// Created by the first request with this idempotency key: its
		// answer, the secret with it.
		if found, err := s.alerts.st.Hook(ctx, account, id, &w); err != nil {
			return nil, fromFault(err)
		} else if !found {
			return nil, claimedGone(claim, "webhook endpoint")
		}
		out := webhookOf(&w)
		out.Secret = string(w.Secret)
		return &out, nil
	}
	if w.URL, err = s.checkWebhookURL(ctx, in.URL); err != nil {
		return nil, err
	}
	if w.Description, err = checkWebhookDescription(in.Description); err != nil {
		return nil, err
	}
	if w.Events, err = checkWebhookEvents(in.Events); err != nil {
		return nil, err
	}
	var raw [32]byte
	rand.Read(raw[:])
	secret := secretPrefix + base64.RawURLEncoding.EncodeToString(raw[:])
	w.Secret = []byte(secret)
	if err := s.alerts.st.CreateHook(ctx, &w, MaxWebhooks, claim); err != nil {
		return nil, fromFault(err)
	}
	out := webhookOf(&w)
	out.Secret = secret
	return &out, nil
}

// ListWebhooks returns the endpoints of the account in ctx, oldest
// first (without their secrets).
//
// It returns EUNAUTHENTICATED or ENOTFOUND for a missing or unknown
// account.
func (s *Service) ListWebhooks(ctx context.Context) (*WebhookList, error) {
	account, err := s.accountOf(ctx)
	if err != nil {
		return nil, err
	}
	res := &WebhookList{Results: []Webhook{}}
	err = s.alerts.st.Hooks(ctx, account, func(w *storage.Webhook) error {
		res.Results = append(res.Results, webhookOf(w))
		return nil
	})
	if err != nil {
		return nil, fromFault(err)
	}
	slices.SortStableFunc(res.Results, func(a, b Webhook) int { return a.CreatedAt.Compare(b.CreatedAt) })
	res.Total = len(res.Results)
	return res, nil
}

// Webhook returns one endpoint of the account in ctx (without its
// secret).
//
// It returns EINVALIDARGUMENT for an id not of the form whk_ and 16
// hexadecimal digits, ENOTFOUND when the account has no such endpoint
// (another account's is not found either), EUNAUTHENTICATED or ENOTFOUND
// for a missing or unknown account, and EUNAVAILABLE when the shared store does not
// answer.
func (s *Service) Webhook(ctx context.Context, id string) (*Webhook, error) {
	account, n, err := s.webhookArgs(ctx, id)
	if err != nil {
		return nil, err
	}
	var w storage.Webhook
	if err := s.readWebhook(ctx, account, n, id, &w); err != nil {
		return nil, err
	}
	out := webhookOf(&w)
	return &out, nil
}

// webhookArgs returns the account of ctx and the number of the endpoint
// id names, or the error of a call on it.
func (s *Service) webhookArgs(ctx context.Context, id string) (string, uint64, error) {
	account, err := s.accountOf(ctx)
	if err != nil {
		return "", 0, err
	}
	n, err := parseHexID(id, webhookIDPrefix, "webhook id")
	return account, n, err
}

func (s *Service) readWebhook(ctx context.Context, account string, n uint64, id string, w *storage.Webhook) error {
	found, err := s.alerts.st.Hook(ctx, account, n, w)
	if err == nil && !found {
		return noWebhook(id)
	}
	return fromFault(err)
}

// editWebhook runs edit on an endpoint of account (alertstore.HookStore's
// EditHook), ENOTFOUND when there is none, stores the endpoint as edited
// in out (when not nil), and wakes the delivery worker once the change is
// stored.
func (s *Service) editWebhook(ctx context.Context, account string, n uint64, id string, edit func(e *alertstore.Edit) error, out *storage.Webhook) error {
	found, err := s.alerts.st.EditHook(ctx, account, n, func(e *alertstore.Edit) error {
		if err := edit(e); err != nil {
			return err
		}
		if out != nil {
			*out = e.W
		}
		return nil
	})
	if err != nil {
		return fromFault(err)
	}
	if !found {
		return noWebhook(id)
	}
	s.hooks.kick()
	return nil
}

// UpdateWebhook changes the fields of in that are set on an endpoint of
// the account in ctx, checked as CreateWebhook checks them, and returns
// it. Enabled false disables it (nothing is sent to it, and events
// recorded meanwhile are not queued for it); true enables it again and
// restarts the retries of what waits for it.
//
// It returns EINVALIDARGUMENT for a malformed id or a field CreateWebhook
// refuses, ENOTFOUND when the account has no such endpoint,
// EUNAUTHENTICATED or ENOTFOUND for a missing or unknown account, and
// EUNAVAILABLE when the shared store does not answer.
func (s *Service) UpdateWebhook(ctx context.Context, id string, in WebhookUpdate) (*Webhook, error) {
	account, n, err := s.webhookArgs(ctx, id)
	if err != nil {
		return nil, err
	}
	var url, desc string
	var events []string
	if in.URL != nil {
		if url, err = s.checkWebhookURL(ctx, *in.URL); err != nil {
			return nil, err
		}
	}
	if in.Description != nil {
		if desc, err = checkWebhookDescription(*in.Description); err != nil {
			return nil, err
		}
	}
	if in.Events != nil {
		if events, err = checkWebhookEvents(*in.Events); err != nil {
			return nil, err
		}
	}
	now := s.now()
	var w storage.Webhook
	err = s.editWebhook(ctx, account, n, id, func(e *alertstore.Edit) error {
		w := &e.W
		if in.URL != nil {
			w.URL = url
		}
		if in.Description != nil {
			w.Description = desc
		}
		if in.Events != nil {
			w.Events = events
		}
		restart := false
		if in.Enabled != nil {
			switch {
			case !*in.Enabled && w.Disabled == 0:
				w.Disabled, w.DisabledReason = now.Unix(), "disabled by the account"
			case *in.Enabled && w.Disabled != 0:
				w.Disabled, w.DisabledReason, w.FailingSince = 0, "", 0
				restart = true
			}
		}
		if restart || in.URL != nil && w.Disabled == 0 {
			if err := e.RestartPending(now); err != nil {
				return err
			}
		}
		return nil
	}, &w)
	if err != nil {
		return nil, err
	}
	out := webhookOf(&w)
	return &out, nil
}

// DeleteWebhook deletes an endpoint of the account in ctx with its
// deliveries: nothing more is sent to it.
//
// It returns EINVALIDARGUMENT for a malformed id, ENOTFOUND when the
// account has no such endpoint, EUNAUTHENTICATED or ENOTFOUND for a
// missing or unknown account, and EUNAVAILABLE when the shared store does not
// answer.
func (s *Service) DeleteWebhook(ctx context.Context, id string) error {
	account, n, err := s.webhookArgs(ctx, id)
	if err != nil {
		return err
	}
	found, err := s.alerts.st.DeleteHook(ctx, account, n)
	if err == nil && !found {
		return noWebhook(id)
	}
	return fromFault(err)
}

// TestWebhook queues a ping event for an endpoint of the account in ctx
// (after the deliveries already queued to it: deliveries go in order)
// and returns its delivery, which WebhookDeliveries then follows. With
// a shared store, an alert event recorded before the ping but not yet queued to
// the endpoint (its recording server could not queue it, and the sending
// server's worker queues it before its next round) is queued, and sent,
// after the ping.
//
// It returns EINVALIDARGUMENT for a malformed id, ENOTFOUND when the
// account has no such endpoint, ECONFLICT when it is disabled,
// EUNAUTHENTICATED or ENOTFOUND for a missing or unknown account, and
// EUNAVAILABLE when the shared store does not answer.
func (s *Service) TestWebhook(ctx context.Context, id string) (*WebhookDelivery, error) {
	var d storage.WebhookDelivery
	err := s.changeEnabledWebhook(ctx, id, func(e *alertstore.Edit, now time.Time) error {
		var raw [8]byte
		rand.Read(raw[:])
		evID := pingIDPrefix + fmt.Sprintf("%016x", binary.BigEndian.Uint64(raw[:]))
		data, _ := json.Marshal(struct {
			WebhookID string `json:"webhook_id"`
			Message   string `json:"message"`
		}{webhookID(e.W.ID), "a test event sent by POST /b2b/webhooks/{id}/test: answer 2xx"})
		body, err := json.Marshal(WebhookEvent{ID: evID, Type: WebhookPing, Created: now.UTC().Truncate(time.Second), Data: data})
		if err != nil {
			return err
		}
		d = storage.WebhookDelivery{EventID: evID, Type: WebhookPing, Created: now.UnixMilli(), Body: body, Next: now.UnixMilli()}
		e.Enqueue(&d)
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := deliveryOf(&d)
	return &out, nil
}

// changeEnabledWebhook edits an enabled endpoint of the account in ctx
// with fn, at the clock's time, and wakes the worker once it is stored.
// It returns TestWebhook's errors.
func (s *Service) changeEnabledWebhook(ctx context.Context, id string, fn func(e *alertstore.Edit, now time.Time) error) error {
	account, n, err := s.webhookArgs(ctx, id)
	if err != nil {
		return err
	}
	now := s.now()
	return s.editWebhook(ctx, account, n, id, func(e *alertstore.Edit) error {
		if e.W.Disabled != 0 {
			return Errorf(ECONFLICT, "webhook %s is disabled (%s): enable it first", webhookID(e.W.ID), e.W.DisabledReason)
		}
		return fn(e, now)
	}, nil)
}

// wantsAlerts reports whether an endpoint takes alert events now.
func wantsAlerts(w *storage.Webhook) bool {
	return w.Disabled == 0 && slices.Contains(w.Events, WebhookAlertTriggered)
}

// alertDelivery returns the delivery of a recorded event (ID set), shown
// under ids.
func alertDelivery(ids alertstore.IDs, e *storage.AlertEvent) (storage.WebhookDelivery, error) {
	ev := alertEvent(ids, e)
	data, err := json.Marshal(ev)
	if err != nil {
		return storage.WebhookDelivery{}, err
	}
	body, err := json.Marshal(WebhookEvent{ID: ev.ID, Type: WebhookAlertTriggered, Created: ev.TriggeredAt, Data: data})
	if err != nil {
		return storage.WebhookDelivery{}, err
	}
	at := time.Unix(e.Triggered, 0).UnixMilli()
	return storage.WebhookDelivery{EventID: ev.ID, Type: WebhookAlertTriggered, Created: at, Body: body, Next: at}, nil
}

func deliveryOf(d *storage.WebhookDelivery) WebhookDelivery {
	out := WebhookDelivery{ID: deliveryID(d.Seq), EventID: d.EventID, Type: d.Type,
		CreatedAt: time.UnixMilli(d.Created).UTC(), Attempts: int(d.Attempts), Error: d.Error}
	switch d.Status {
	case storage.DeliveryDelivered:
		out.Status = DeliveryDelivered
	case storage.DeliveryFailed:
		out.Status = DeliveryFailed
	default:
		out.Status = DeliveryPending
		t := time.UnixMilli(d.Next).UTC()
		out.NextRetryAt = &t
	}
	if d.Last != 0 {
		t := time.UnixMilli(d.Last).UTC()
		lat := d.LatencyMS
		out.LastAttemptAt, out.LatencyMS = &t, &lat
		if d.Code != 0 {
			c := int(d.Code)
			out.ResponseCode = &c
		}
	}
	return out
}

// WebhookDeliveries returns a page of an endpoint's deliveries, newest
// first: delivered and failed ones stay listed 30 days.
//
// It returns EINVALIDARGUMENT for a malformed id, a limit outside 1..500
// or a negative offset, ENOTFOUND when the account has no such endpoint,
// EUNAUTHENTICATED or ENOTFOUND for a missing or unknown account, and
// EUNAVAILABLE when the shared store does not answer.
func (s *Service) WebhookDeliveries(ctx context.Context, id string, in WebhookDeliveriesInput) (*WebhookDeliveryList, error) {
	account, n, err := s.webhookArgs(ctx, id)
	if err != nil {
		return nil, err
	}
	limit, offset, err := checkPage(in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	res := newPage[WebhookDelivery](limit, offset)
	var w storage.Webhook
	if err := s.readWebhook(ctx, account, n, id, &w); err != nil {
		return nil, err
	}
	res.Total, err = s.alerts.st.HookDeliveries(ctx, account, n, offset, limit, func(d *storage.WebhookDelivery) {
		res.Results = append(res.Results, deliveryOf(d))
	})
	if err != nil {
		return nil, fromFault(err)
	}
	return &res, nil
}

// RedeliverWebhook sends a delivery of an endpoint of the account in ctx
// again, with the same event id and body: it becomes pending, due now,
// with WebhookRetryFor of retries (an endpoint's deliveries go in order,
// so it goes before the later ones still waiting).
//
// It returns EINVALIDARGUMENT for a malformed id, ENOTFOUND when the
// account has no such endpoint or delivery, ECONFLICT when the endpoint
// is disabled, EUNAUTHENTICATED or ENOTFOUND for a missing or unknown
// account, and EUNAVAILABLE when the shared store does not answer.
func (s *Service) RedeliverWebhook(ctx context.Context, id, delivery string) (*WebhookDelivery, error) {
	seq, err := parseHexID(delivery, deliveryIDPrefix, "delivery id")
	if err != nil {
		return nil, err
	}
	var d storage.WebhookDelivery
	err = s.changeEnabledWebhook(ctx, id, func(e *alertstore.Edit, now time.Time) error {
		found, err := e.Delivery(seq, &d)
		if err != nil {
			return err
		}
		if !found {
			return Errorf(ENOTFOUND, "webhook %s has no delivery %s", webhookID(e.W.ID), strings.TrimSpace(delivery))
		}
		d.Status, d.Since, d.Next = storage.DeliveryPending, 0, now.UnixMilli()
		e.Put(&d)
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := deliveryOf(&d)
	return &out, nil
}
