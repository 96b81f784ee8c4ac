// Command webhookreceiver receives a grocery server's webhook deliveries:
// it verifies each one's Grocery-Signature against the endpoint's secret,
// drops repeats by event id (delivery is at least once), prints the event
// and answers 204.
//
//	grocery serve --demo --webhook-allow-loopback &
//	grocery webhooks create --account demo --url http://127.0.0.1:8099/hooks   # prints the secret
//	GROCERY_WEBHOOK_SECRET=whsec_... go run ./examples/webhookreceiver -addr 127.0.0.1:8099
//
// A delivery that fails verification is answered 400, which the server
// retries: a receiver that got the wrong secret sees its mistake in the
// delivery log ('grocery webhooks deliveries').
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/grocerydata/grocery/grocery"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8099", "listen address")
	flag.Parse()
	secret := os.Getenv("GROCERY_WEBHOOK_SECRET")
	if secret == "" {
		log.Fatal("GROCERY_WEBHOOK_SECRET is not set: give the secret 'grocery webhooks create' printed")
	}
	log.Printf("receiving webhooks on http://%s/hooks", *addr)
	log.Fatal(http.ListenAndServe(*addr, handler(secret, os.Stdout)))
}

// handler verifies, deduplicates and prints each delivery to out.
func handler(secret string, out io.Writer) http.Handler {
	var mu sync.Mutex
	seen := map[string]bool{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, "cannot read the body", http.StatusBadRequest)
			return
		}
		// Verify the bytes received, before decoding them.
		if err := grocery.VerifyWebhookSignature(secret, r.Header.Get(grocery.WebhookSignatureHeader), body, time.Now(), 5*time.Minute); err != nil {
			http.Error(w, grocery.ErrorMessage(err), http.StatusBadRequest)
			return
		}
		var ev grocery.WebhookEvent
		if err := json.Unmarshal(body, &ev); err != nil {
			http.Error(w, "not a webhook event", http.StatusBadRequest)
			return
		}
		mu.Lock()
		repeat := seen[ev.ID]
		seen[ev.ID] = true
		mu.Unlock()
		if !repeat {
			msg := string(ev.Data)
			if ev.Type == grocery.WebhookAlertTriggered {
				var a grocery.AlertEvent
				if err := json.Unmarshal(ev.Data, &a); err == nil {
					msg = a.Message
				}
			}
			fmt.Fprintf(out, "%s %s %s\n", ev.Type, ev.ID, msg)
		}
		w.WriteHeader(http.StatusNoContent)
	})
}
