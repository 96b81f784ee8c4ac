package storage

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A rule and an event written before Paused and Reason existed (without
// their trailing bytes) decode as an active rule and an event without a
// reason; a paused rule is off the watch index, and back on it once
// active.
func TestAlertRecordsCompatible(t *testing.T) {
	t.Parallel()
	db, err := Open(filepath.Join(t.TempDir(), "a.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	old := AlertRule{Account: "acme", ID: 7, Name: "n", Banner: "loblaws", SKU: "L1", Province: "ON", Condition: "promo_start", Created: 5}
	oldBody := enc(nil).str(old.Name).str(old.GTIN).str(old.Banner).str(old.SKU).str(old.Province).str(old.Condition).
		varint(old.Threshold).varint(old.Created)
	oldEvent := enc(nil).uvarint(7).varint(9).varint(20000).str("promo_start").str("").str("loblaws").str("L1").str("ON").
		uvarint(399).uvarint(0).str("msg")
	watching := func(tx *Tx) int {
		n := 0
		tx.AlertsWatching("ON", "", "loblaws", "L1", func(string, uint64) error { n++; return nil })
		return n
	}
	err = db.Update(func(tx *Tx) error {
		if err := tx.put(tx.alertRules(), alertKey(old.Account, old.ID), oldBody); err != nil {
			return err
		}
		if err := tx.put(tx.alertWatch(), alertWatchKey(&old), nil); err != nil {
			return err
		}
		if err := tx.put(tx.alertEvents(), eventKey("acme", 1), oldEvent); err != nil {
			return err
		}
		var got AlertRule
		if found, err := tx.AlertRule("acme", 7, &got); err != nil || !found {
			t.Fatalf("AlertRule: %v, %v", found, err)
		}
		if diff := cmp.Diff(old, got); diff != "" {
			t.Errorf("old rule decoded (-want +got):\n%s", diff)
		}
		events := 0
		err := tx.AlertEvents("acme", func(e *AlertEvent) error {
			events++
			if e.Reason != "" || e.Message != "msg" || e.Price != 399 {
				t.Errorf("old event decoded: got %+v, want no reason, message msg, price 399", e)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if events != 1 {
			t.Errorf("old events read: got %d, want 1", events)
		}
		got.Paused = true
		if err := tx.PutAlertRule(&got); err != nil {
			return err
		}
		var paused AlertRule
		if _, err := tx.AlertRule("acme", 7, &paused); err != nil || !paused.Paused {
			t.Errorf("paused rule read back: got %+v, %v, want Paused", paused, err)
		}
		if n := watching(tx); n != 0 || tx.HasAlertRules() {
			t.Errorf("a paused rule: %d watch entries, HasAlertRules %v; want 0, false", n, tx.HasAlertRules())
		}
		paused.Paused = false
		if err := tx.PutAlertRule(&paused); err != nil {
			return err
		}
		if n := watching(tx); n != 1 {
			t.Errorf("a resumed rule: got %d watch entries, want 1", n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A file of this version without the idempotency and webhook buckets
// (written before they existed) opens read-only, reading no record; its
// first writable open creates them.
func TestIdempotencyBucketsWriteOnly(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "a.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *Tx) error {
		for _, b := range writeOnlyBuckets {
			if err := tx.tx.DeleteBucket(b); err != nil {
				return err
			}
		}
		return nil
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of a file without the idempotency buckets: %v", err)
	}
	err = ro.View(func(tx *Tx) error {
		var r IdempotencyRecord
		found, err := tx.IdempotencyRecord("acme", "k", &r)
		if found || err != nil {
			t.Errorf("IdempotencyRecord: got %v, %v, want not found", found, err)
		}
		var w Webhook
		if found, err := tx.Webhook("acme", 1, &w); found || err != nil {
			t.Errorf("Webhook: got %v, %v, want not found", found, err)
		}
		var d WebhookDelivery
		if found, err := tx.WebhookDelivery("acme", 1, 1, &d); found || err != nil {
			t.Errorf("WebhookDelivery: got %v, %v, want not found", found, err)
		}
		called := errors.New("called with a record")
		for name, err := range map[string]error{
			"Webhooks":          tx.Webhooks("acme", func(*Webhook) error { return called }),
			"WebhookDeliveries": tx.WebhookDeliveries("acme", 1, func(*WebhookDelivery) error { return called }),
			"WebhookHeads":      tx.WebhookHeads(func(string, uint64, uint64) error { return called }),
		} {
			if err != nil {
				t.Errorf("%s: %v, want no record", name, err)
			}
		}
		return nil
	})
	ro.Close()
	if err != nil {
		t.Fatal(err)
	}
	db, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *Tx) error {
		return tx.PutIdempotencyRecord(&IdempotencyRecord{Account: "acme", Key: "k", Hash: []byte("h"), Created: 1})
	})
	if err != nil {
		t.Errorf("a record after the writable open: %v", err)
	}
}
