package grocery_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/grocerydata/grocery/grocery"
)

// A webhook receiver verifies each delivery's signature on the body as
// received, before decoding it, and answers 2xx quickly; it
// deduplicates on the event id (a delivery can come more than once).
func ExampleVerifyWebhookSignature() {
	secret := "whsec_3q2-7wAAAAC6ut7wAAAAALq63vAAAAAAurre8AAAAAA" // shown once by CreateWebhook
	receive := func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, "cannot read the body", http.StatusBadRequest)
			return
		}
		sig := r.Header.Get(grocery.WebhookSignatureHeader)
		if err := grocery.VerifyWebhookSignature(secret, sig, body, time.Now(), 5*time.Minute); err != nil {
			http.Error(w, grocery.ErrorMessage(err), http.StatusBadRequest)
			return
		}
		var ev grocery.WebhookEvent
		if err := json.Unmarshal(body, &ev); err != nil {
			http.Error(w, "not an event", http.StatusBadRequest)
			return
		}
		fmt.Println("verified", ev.Type, ev.ID)
		w.WriteHeader(http.StatusNoContent)
	}

	// What the service sends: Grocery-Signature: t=<unix>,v1=<hex of
	// HMAC-SHA256 of "<t>.<body>" under the secret>.
	body := []byte(`{"id":"evt_4f1c2a9b7d3e8c10","type":"alert.triggered","created":"2026-11-21T18:00:00Z","data":{}}`)
	send := func(body []byte) int {
		t := time.Now().Unix()
		mac := hmac.New(sha256.New, []byte(secret))
		fmt.Fprintf(mac, "%d.%s", t, body)
		req := httptest.NewRequest(http.MethodPost, "/hooks", bytes.NewReader(body))
		req.Header.Set(grocery.WebhookSignatureHeader, fmt.Sprintf("t=%d,v1=%x", t, mac.Sum(nil)))
		rec := httptest.NewRecorder()
		receive(rec, req)
		return rec.Code
	}
	fmt.Println(send(body))

	// A body changed after signing is refused.
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "%d.%s", time.Now().Unix(), body)
	req := httptest.NewRequest(http.MethodPost, "/hooks", bytes.NewReader(bytes.Replace(body, []byte("4f1c"), []byte("0000"), 1)))
	req.Header.Set(grocery.WebhookSignatureHeader, fmt.Sprintf("t=%d,v1=%x", time.Now().Unix(), mac.Sum(nil)))
	rec := httptest.NewRecorder()
	receive(rec, req)
	fmt.Print(rec.Code, " ", rec.Body.String())
	// Output:
	// verified alert.triggered evt_4f1c2a9b7d3e8c10
	// 204
	// 400 Grocery-Signature: signature does not match the body under this secret
}
