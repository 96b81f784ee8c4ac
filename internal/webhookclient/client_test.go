package webhookclient_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/webhookclient"
)

// send makes one attempt at url with a client that may reach loopback.
func send(t *testing.T, url string) grocery.WebhookResponse {
	t.Helper()
	c := webhookclient.New(grocery.WebhookPolicy{Loopback: true})
	t.Cleanup(c.Close)
	return c.SendWebhook(context.Background(), &grocery.WebhookRequest{
		URL: url, Header: map[string]string{"Content-Type": "application/json"}, Body: []byte(`{}`)})
}

// TestSendWebhookHeaderCap: a receiver's answer headers are read up to
// MaxAnswerHeader; a larger answer fails the attempt with a reason that
// says so, and the attempt holds no more than a small multiple of the cap.
func TestSendWebhookHeaderCap(t *testing.T) {
	tests := []struct {
		name    string
		header  int // bytes of one answer header
		wantErr string
	}{
		{"OK", 4 << 10, ""},
		{"ErrHeadersTooLarge", 1 << 20, "headers over"},
		{"ErrHeadersHuge", 9 << 20, "headers over"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			value := strings.Repeat("x", tt.header)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-Big", value)
				w.WriteHeader(http.StatusNoContent)
			}))
			defer srv.Close()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			res := send(t, srv.URL)
			runtime.ReadMemStats(&after)
			t.Logf("receiver's header %d bytes: the attempt allocated %d bytes", tt.header, after.TotalAlloc-before.TotalAlloc)
			switch {
			case tt.wantErr == "" && res.Err != nil:
				t.Fatalf("got error %v, want success", res.Err)
			case tt.wantErr != "" && (res.Err == nil || !strings.Contains(res.Err.Error(), tt.wantErr)):
				t.Errorf("got error %v (HTTP %d), want one containing %q", res.Err, res.Code, tt.wantErr)
			}
			// What the attempt allocated, whatever the receiver sent: a
			// few times the cap, not the receiver's headers.
			if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(32*webhookclient.MaxAnswerHeader); tt.wantErr != "" && got > limit {
				t.Errorf("attempt allocated %d bytes, want at most %d", got, limit)
			}
		})
	}
}
