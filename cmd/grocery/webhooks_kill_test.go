package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/servetest"
)

// serveProcess starts 'grocery serve' on db as a process of its own (this
// test binary as the command), on a free loopback port, allowing loopback
// webhooks, with extraEnv ("NAME=value") added to its environment, and
// returns it with its base URL and its stderr (its log) as it grows.
func serveProcess(t *testing.T, db string, extraEnv ...string) (*exec.Cmd, string, *servetest.LogBuffer) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "serve", "--db", db, "--addr", "127.0.0.1:0", "--webhook-allow-loopback")
	cmd.Env = append(append(os.Environ(), asGrocery+"=1"), extraEnv...)
	stderr := &servetest.LogBuffer{}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	base := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "Serving "); ok {
				base <- strings.Fields(rest)[0]
			}
		}
	}()
	select {
	case b := <-base:
		return cmd, b, stderr
	case <-time.After(30 * time.Second):
		t.Fatalf("grocery serve did not say where it serves within 30 s; its stderr: %s", stderr.String())
		return nil, "", nil
	}
}

// TestWebhooksSIGKILL: a server is killed with SIGKILL while a delivery
// waits for its retry and another event waits behind it; the next server
// on the file keeps the retry's schedule, and once it is redelivered the
// rest follow, in order, each signed.
func TestWebhooksSIGKILL(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts server processes")
	}
	e := env{}
	db := keyDB(t)
	dir := t.TempDir()
	ok(t, cli(t, e, "import", "--db", db, writeFile(t, dir, "stores.csv", cliAlertStores), writeFile(t, dir, "day1.csv", cliAlertDay1)))
	key := createKey(t, e, db, "--account", "acme", "--plan", "integration")

	var mu sync.Mutex
	up, requests, bad := false, 0, 0
	var delivered []string
	firstAttempt, secondDelivered := make(chan struct{}, 1), make(chan struct{})
	var secret string
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		requests++
		if grocery.VerifyWebhookSignature(secret, r.Header.Get(grocery.WebhookSignatureHeader), body, time.Now(), 5*time.Minute) != nil {
			bad++
		}
		select {
		case firstAttempt <- struct{}{}:
		default:
		}
		if !up {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		delivered = append(delivered, r.Header.Get(grocery.WebhookEventIDHeader))
		if len(delivered) == 2 {
			close(secondDelivered)
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(rcv.Close)

	r := cli(t, e, "webhooks", "create", "--db", db, "--account", "acme", "--url", rcv.URL+"/hooks", "--webhook-allow-loopback", "--json")
	ok(t, r)
	var hook grocery.Webhook
	if err := json.Unmarshal([]byte(r.stdout), &hook); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	secret = hook.Secret
	mu.Unlock()
	ok(t, cli(t, e, "alerts", "create", "--db", db, "--account", "acme", "--name", "milk under 4", "--upc", "068000000154",
		"--province", "ON", "--condition", "price_below", "--threshold", "4"))
	ok(t, cli(t, e, "webhooks", "test", "--db", db, "--account", "acme", hook.ID)) // queued before any server runs

	srv, base, logs := serveProcess(t, db)
	select {
	case <-firstAttempt:
	case <-time.After(10 * time.Second):
		t.Fatal("the server made no attempt within 10 s of its start")
	}
	deliveries := func() []grocery.WebhookDelivery {
		t.Helper()
		req, _ := http.NewRequest("GET", base+"/b2b/webhooks/"+hook.ID+"/deliveries", nil)
		req.Header.Set("X-API-Key", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var l grocery.WebhookDeliveryList
		if err := json.NewDecoder(resp.Body).Decode(&l); err != nil {
			t.Fatal(err)
		}
		return l.Results
	}
	// The first attempt's 503 is recorded (a retry scheduled) before the kill.
	logs.WaitFor(t, 10*time.Second, "the first attempt's record", func(text string) bool {
		return strings.Contains(text, `msg="webhook attempt failed"`)
	})
	ds := deliveries()
	if len(ds) != 1 || ds[0].Attempts != 1 || ds[0].Status != "pending" || ds[0].NextRetryAt == nil {
		t.Fatalf("after the first attempt's record: got %+v, want the ping pending after 1 attempt, with its retry", ds)
	}
	before := ds[0]
	// An import through the server's socket records an event, queued behind the ping.
	ok(t, cli(t, e, "import", "--db", db, writeFile(t, dir, "day2.csv", cliAlertDay2)))
	if err := srv.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	srv.Wait()

	mu.Lock()
	up = true
	mu.Unlock()
	_, base, _ = serveProcess(t, db)
	ds = deliveries()
	if len(ds) != 2 || ds[1].ID != before.ID || ds[1].Status != "pending" || ds[1].Attempts != 1 || !ds[1].NextRetryAt.Equal(*before.NextRetryAt) ||
		ds[0].Type != "alert.triggered" || ds[0].Attempts != 0 {
		t.Fatalf("after the restart: got %+v, want the ping pending after 1 attempt with its retry kept at %s, the event waiting behind it", ds, before.NextRetryAt)
	}
	req, _ := http.NewRequest("POST", base+"/b2b/webhooks/"+hook.ID+"/deliveries/"+before.ID+"/redeliver", nil)
	req.Header.Set("X-API-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("redeliver: %v, %v", resp, err)
	}
	resp.Body.Close()
	want := []string{ds[1].EventID, ds[0].EventID}
	select {
	case <-secondDelivered:
	case <-time.After(10 * time.Second):
	}
	mu.Lock()
	got, n, b := slices.Clone(delivered), requests, bad
	mu.Unlock()
	if !slices.Equal(got, want) || b != 0 || n != 3 {
		t.Fatalf("delivered %v in %d requests (%d badly signed) within 10 s of the restart, want %v in 3, all signed", got, n, b, want)
	}
}
