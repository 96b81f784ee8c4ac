package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grocerydata/grocery/internal/redistest"
	"github.com/redis/go-redis/v9"
)

// TestIdempotentCreateSIGKILL: servers are killed with SIGKILL while
// they create alert rules and webhook endpoints under Idempotency-Keys,
// as soon as the new object shows (so, often, after the creation and
// before its answer is kept); each key retried on the next server
// answers 201 with the object its first request made, and every key
// made exactly one object. With the data file and with Redis.
func TestIdempotentCreateSIGKILL(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts server processes")
	}
	for _, store := range []string{"DataFile", "Redis"} {
		t.Run(store, func(t *testing.T) {
			t.Parallel()
			e, extra := env{}, []string(nil)
			var rdb *redis.Client // with Redis, the objects are counted there: sooner than over HTTP
			if store == "Redis" {
				url := redistest.Start(t).URL()
				e["GROCERY_REDIS_URL"], extra = url, []string{"GROCERY_REDIS_URL=" + url}
				opt, err := redis.ParseURL(url)
				if err != nil {
					t.Fatal(err)
				}
				rdb = redis.NewClient(opt)
				t.Cleanup(func() { rdb.Close() })
			}
			db := keyDB(t)
			dir := t.TempDir()
			ok(t, cli(t, e, "import", "--db", db, writeFile(t, dir, "stores.csv", cliAlertStores), writeFile(t, dir, "day1.csv", cliAlertDay1)))
			key := createKey(t, e, db, "--account", "acme", "--plan", "integration")
			client := &http.Client{Timeout: 30 * time.Second}
			call := func(method, url, idemKey, body string) (int, []byte, error) {
				req, _ := http.NewRequest(method, url, strings.NewReader(body))
				req.Header.Set("X-API-Key", key)
				req.Header.Set("Content-Type", "application/json")
				if idemKey != "" {
					req.Header.Set("Idempotency-Key", idemKey)
				}
				resp, err := client.Do(req)
				if err != nil {
					return 0, nil, err
				}
				defer resp.Body.Close()
				b, err := io.ReadAll(resp.Body)
				return resp.StatusCode, b, err
			}
			ids := func(base, path string) []string {
				t.Helper()
				code, b, err := call("GET", base+path, "", "")
				if err != nil || code != http.StatusOK {
					t.Fatalf("GET %s: %d %s %v", path, code, b, err)
				}
				var l struct{ Results []struct{ ID string } }
				if err := json.Unmarshal(b, &l); err != nil {
					t.Fatal(err)
				}
				var out []string
				for _, r := range l.Results {
					out = append(out, r.ID)
				}
				return out
			}
			const rounds = 8
			hits := 0
			for i := range rounds {
				path, body := "/b2b/alerts", fmt.Sprintf(`{"name":"milk %d","upc":"068000000154","province":"ON","condition":"price_below","threshold":4}`, i)
				redisKey := "grocery:alerts:rules:acme"
				if i%2 == 1 {
					path, body = "/b2b/webhooks", fmt.Sprintf(`{"url":"https://203.0.113.9/hook/%d"}`, i)
					redisKey = "grocery:alerts:hooks:endpoints:acme"
				}
				count := func(base string) int {
					if rdb != nil {
						n, err := rdb.HLen(context.Background(), redisKey).Result()
						if err != nil {
							t.Fatal(err)
						}
						return int(n)
					}
					return len(ids(base, path))
				}
				idemKey := fmt.Sprintf("kill-%d", i)
				srv, base, _ := serveProcess(t, db, extra...)
				before := count(base)
				answered := make(chan error, 1)
				go func() {
					code, b, err := call("POST", base+path, idemKey, body)
					if err == nil && code != http.StatusCreated {
						err = fmt.Errorf("HTTP %d %s", code, b)
					}
					answered <- err
				}()
				// Kill as soon as the object shows, or once it is answered.
				var first error
				for done := false; !done; {
					select {
					case first = <-answered:
						done = true
					default:
						if count(base) > before {
							done = true
						}
					}
				}
				srv.Process.Signal(syscall.SIGKILL)
				srv.Wait()
				if first == nil {
					select {
					case first = <-answered:
					default:
					}
				}
				if first != nil && !strings.Contains(first.Error(), "HTTP") {
					hits++ // killed after the creation, before the client had its answer
				} else if first != nil {
					t.Fatalf("round %d: the first request: %v", i, first)
				}

				srv, base, _ = serveProcess(t, db, extra...)
				after := ids(base, path)
				code, b, err := call("POST", base+path, idemKey, body)
				if err != nil || code != http.StatusCreated {
					t.Fatalf("round %d: the retry after the kill: got %d %s %v, want 201 with the object the first request made", i, code, b, err)
				}
				var got struct{ ID string }
				json.Unmarshal(b, &got)
				if len(after) != i/2+1 || count(base) != before+1 || !bytes.Contains([]byte(strings.Join(after, " ")), []byte(got.ID)) || len(ids(base, path)) != i/2+1 {
					t.Fatalf("round %d: objects %v after the kill, the retry answered %s: want one object made by the key, and the retry to name it", i, after, got.ID)
				}
				srv.Process.Signal(syscall.SIGKILL) // the next round starts its own
				srv.Wait()
			}
			t.Logf("%s: %d of %d kills came after the creation, before the client had its answer", store, hits, rounds)
		})
	}
}
