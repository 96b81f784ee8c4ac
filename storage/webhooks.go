package storage

import (
	"bytes"
	"encoding/binary"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Webhook is an account's webhook endpoint. Secret is what deliveries are
// signed with (it must be kept to sign). Disabled is when it was disabled
// (Unix seconds; 0 while enabled), FailingSince when the failures that
// continue to its latest attempt began (Unix milliseconds; 0 when its
// latest attempt succeeded or none was made). Seq is the number of its
// latest delivery.
type Webhook struct {
	Account        string
	ID             uint64
	URL            string
	Description    string
	Events         []string
	Secret         []byte
	Created        int64
	Disabled       int64
	DisabledReason string
	FailingSince   int64
	Seq            uint64
}

// WebhookDelivery is one event to deliver to one endpoint, with what its
// attempts got. Times are Unix milliseconds.
type WebhookDelivery struct {
	Account   string
	Endpoint  uint64
	Seq       uint64 // in event order, per endpoint
	EventID   string
	Type      string
	Created   int64
	Body      []byte // the JSON sent, the same on every attempt
	Status    uint8  // DeliveryPending, DeliveryDelivered or DeliveryFailed
	Attempts  int64
	Since     int64 // first attempt of the current round (a redelivery starts one)
	Next      int64 // when pending: the next attempt
	Last      int64 // the latest attempt, 0 before the first
	Code      int64 // its HTTP status, 0 when none came
	LatencyMS int64
	Error     string // why it failed, "" when it succeeded
}

// Delivery statuses.
const (
	DeliveryPending   = 0
	DeliveryDelivered = 1
	DeliveryFailed    = 2
)

func (t *Tx) webhooks() *bolt.Bucket          { return t.b(idWebhooks) }
func (t *Tx) webhookDeliveries() *bolt.Bucket { return t.b(idWebhookDeliveries) }
func (t *Tx) webhookPending() *bolt.Bucket    { return t.b(idWebhookPending) }

func webhookKey(account string, id uint64) []byte { return alertKey(account, id) }

func deliveryKey(account string, endpoint, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(webhookKey(account, endpoint), seq)
}

func splitDeliveryKey(k []byte) (string, uint64, uint64, bool) {
	if len(k) < 17 || k[len(k)-17] != 0 {
		return "", 0, 0, false
	}
	return string(k[:len(k)-17]), binary.BigEndian.Uint64(k[len(k)-16:]), binary.BigEndian.Uint64(k[len(k)-8:]), true
}

// PutWebhook stores an endpoint.
func (t *Tx) PutWebhook(w *Webhook) error {
	v := enc(nil).str(w.URL).str(w.Description).str(strings.Join(w.Events, ",")).str(string(w.Secret)).
		varint(w.Created).varint(w.Disabled).str(w.DisabledReason).varint(w.FailingSince).uvarint(w.Seq)
	return t.put(t.webhooks(), webhookKey(w.Account, w.ID), v)
}

func decodeWebhook(k, v []byte, w *Webhook) error {
	acct, id, ok := splitAlertKey(k)
	if !ok {
		return errCorrupt
	}
	d := dec{b: v}
	*w = Webhook{Account: acct, ID: id, URL: d.str(), Description: d.str()}
	if ev := d.str(); ev != "" {
		w.Events = strings.Split(ev, ",")
	}
	w.Secret = []byte(d.str())
	w.Created, w.Disabled, w.DisabledReason, w.FailingSince, w.Seq = d.varint(), d.varint(), d.str(), d.varint(), d.uvarint()
	return d.err
}

// WebhookCount returns the number of endpoints of every account.
func (t *Tx) WebhookCount() int {
	if t.webhooks() == nil {
		return 0
	}
	return t.webhooks().Stats().KeyN
}

// Webhook reads one endpoint of an account.
func (t *Tx) Webhook(account string, id uint64, w *Webhook) (bool, error) {
	if t.webhooks() == nil {
		return false, nil // a file not yet opened for writing (writeOnlyBuckets)
	}
	k := webhookKey(account, id)
	v := t.webhooks().Get(k)
	if v == nil {
		return false, nil
	}
	return true, decodeWebhook(k, v, w)
}

// Webhooks calls fn for each endpoint of account, in id order. fn may keep
// w only until it returns; ErrStop ends the scan.
func (t *Tx) Webhooks(account string, fn func(w *Webhook) error) error {
	if t.webhooks() == nil {
		return nil
	}
	prefix := appendStr0(nil, account)
	c := t.webhooks().Cursor()
	var w Webhook
	for k, v := c.Seek(prefix); hasPrefix(k, prefix); k, v = c.Next() {
		if err := decodeWebhook(k, v, &w); err != nil {
			return err
		}
		if err := fn(&w); err != nil {
			if err == ErrStop {
				return nil
			}
			return err
		}
	}
	return nil
}

// DeleteWebhook removes an endpoint with its deliveries, reporting whether
// it existed.
func (t *Tx) DeleteWebhook(account string, id uint64) (bool, error) {
	k := webhookKey(account, id)
	if t.webhooks().Get(k) == nil {
		return false, nil
	}
	if err := t.webhooks().Delete(k); err != nil {
		return false, err
	}
	for _, b := range []*bolt.Bucket{t.webhookDeliveries(), t.webhookPending()} {
		c := b.Cursor()
		for dk, _ := c.Seek(k); hasPrefix(dk, k); dk, _ = c.Seek(k) {
			if err := c.Delete(); err != nil {
				return false, err
			}
		}
	}
	return true, nil
}

// PutWebhookDelivery stores a delivery and keeps the pending index: a
// pending delivery is in it, a delivered or failed one is not.
func (t *Tx) PutWebhookDelivery(d *WebhookDelivery) error {
	k := deliveryKey(d.Account, d.Endpoint, d.Seq)
	v := enc(nil).str(d.EventID).str(d.Type).varint(d.Created).str(string(d.Body)).uvarint(uint64(d.Status)).
		varint(d.Attempts).varint(d.Since).varint(d.Next).varint(d.Last).varint(d.Code).varint(d.LatencyMS).str(d.Error)
	if err := t.put(t.webhookDeliveries(), k, v); err != nil {
		return err
	}
	if d.Status == DeliveryPending {
		return t.put(t.webhookPending(), k, nil)
	}
	return t.webhookPending().Delete(k)
}

func decodeDelivery(k, v []byte, d *WebhookDelivery) error {
	acct, ep, seq, ok := splitDeliveryKey(k)
	if !ok {
		return errCorrupt
	}
	r := dec{b: v}
	*d = WebhookDelivery{Account: acct, Endpoint: ep, Seq: seq, EventID: r.str(), Type: r.str(), Created: r.varint(),
		Body: []byte(r.str()), Status: uint8(r.uvarint()), Attempts: r.varint(), Since: r.varint(), Next: r.varint(),
		Last: r.varint(), Code: r.varint(), LatencyMS: r.varint(), Error: r.str()}
	return r.err
}

// WebhookDelivery reads one delivery of an endpoint.
func (t *Tx) WebhookDelivery(account string, endpoint, seq uint64, d *WebhookDelivery) (bool, error) {
	if t.webhookDeliveries() == nil {
		return false, nil
	}
	k := deliveryKey(account, endpoint, seq)
	v := t.webhookDeliveries().Get(k)
	if v == nil {
		return false, nil
	}
	return true, decodeDelivery(k, v, d)
}

// WebhookDeliveries calls fn for each delivery of an endpoint, newest
// first. fn may keep d only until it returns; ErrStop ends the scan.
func (t *Tx) WebhookDeliveries(account string, endpoint uint64, fn func(d *WebhookDelivery) error) error {
	if t.webhookDeliveries() == nil {
		return nil
	}
	prefix := webhookKey(account, endpoint)
	c := t.webhookDeliveries().Cursor()
	end := binary.BigEndian.AppendUint64(bytes.Clone(prefix), ^uint64(0))
	k, v := c.Seek(end)
	switch {
	case k == nil:
		k, v = c.Last()
	case !bytes.Equal(k, end):
		k, v = c.Prev()
	}
	var d WebhookDelivery
	for ; hasPrefix(k, prefix); k, v = c.Prev() {
		if err := decodeDelivery(k, v, &d); err != nil {
			return err
		}
		if err := fn(&d); err != nil {
			if err == ErrStop {
				return nil
			}
			return err
		}
	}
	return nil
}

// WebhookHeads calls fn with the first pending delivery of each endpoint
// that has one (the one to attempt next: an endpoint's deliveries go in
// order), in key order. ErrStop ends the scan.
func (t *Tx) WebhookHeads(fn func(account string, endpoint, seq uint64) error) error {
	if t.webhookPending() == nil {
		return nil
	}
	c := t.webhookPending().Cursor()
	for k, _ := c.First(); k != nil; {
		acct, ep, seq, ok := splitDeliveryKey(k)
		if !ok {
			return errCorrupt
		}
		if err := fn(acct, ep, seq); err != nil {
			if err == ErrStop {
				return nil
			}
			return err
		}
		if ep == ^uint64(0) {
			k, _ = c.Seek(append(appendStr0(nil, acct), 0xff))
			continue
		}
		k, _ = c.Seek(webhookKey(acct, ep+1))
	}
	return nil
}

// PruneWebhookDeliveries deletes an endpoint's delivered and failed
// deliveries created before the Unix millisecond before, oldest first,
// at most limit of them; it returns how many it deleted.
func (t *Tx) PruneWebhookDeliveries(account string, endpoint uint64, before int64, limit int) (int, error) {
	prefix := webhookKey(account, endpoint)
	c := t.webhookDeliveries().Cursor()
	var old [][]byte
	var d WebhookDelivery
	for k, v := c.Seek(prefix); hasPrefix(k, prefix) && len(old) < limit; k, v = c.Next() {
		if err := decodeDelivery(k, v, &d); err != nil {
			return 0, err
		}
		if d.Created >= before {
			break
		}
		if d.Status != DeliveryPending {
			old = append(old, bytes.Clone(k))
		}
	}
	for _, k := range old {
		if err := t.webhookDeliveries().Delete(k); err != nil {
			return 0, err
		}
	}
	return len(old), nil
}

// OnCommit runs fn once the transaction has committed.
func (t *Tx) OnCommit(fn func()) { t.tx.OnCommit(fn) }
