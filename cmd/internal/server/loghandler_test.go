package server

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"
)

// sameAsSlog logs a through logAccess with a LogHandler, and the same
// attributes through slog's own handler, and requires the same bytes. It
// reports whether the shortcut wrote the line.
func sameAsSlog(t *testing.T, json bool, now time.Time, a *accessLine) bool {
	t.Helper()
	var got, want bytes.Buffer
	lh := NewLogHandler(&got, json)
	_, short := lh.appendAccess(nil, now, a)
	logAccess(slog.New(lh), httptest.NewRequest("GET", "/", nil), now, a)

	var h slog.Handler = slog.NewTextHandler(&want, nil)
	if json {
		h = slog.NewJSONHandler(&want, nil)
	}
	attrs := []slog.Attr{slog.String("method", a.method), slog.String("path", a.path)}
	if a.rpc != "" {
		attrs = append(attrs, slog.String("rpc", a.rpc))
	}
	if a.tool != "" {
		attrs = append(attrs, slog.String("tool", a.tool))
	}
	attrs = append(attrs, slog.Int("status", a.status), slog.Int("bytes", a.bytes),
		slog.Duration("duration", a.duration), slog.String("remote", a.remote))
	if a.requestID != "" {
		attrs = append(attrs, slog.String("request_id", a.requestID))
	}
	if a.aborted {
		attrs = append(attrs, slog.Bool("aborted", true))
	}
	slog.New(h).LogAttrs(context.Background(), slog.LevelInfo, "request", attrs...)
	// slog.Logger stamps its own time: put the record's in its place.
	w := want.Bytes()
	if i, j := bytes.IndexByte(w, '='), bytes.IndexByte(w, ' '); !json && i > 0 && j > i {
		w = append(append([]byte("time="), appendRFC3339Millis(nil, now)...), w[j:]...)
	} else if json {
		k := bytes.Index(w, []byte(`","level"`))
		w = append(append([]byte(`{"time":"`), now.AppendFormat(nil, time.RFC3339Nano)...), w[k:]...)
	}
	if got.String() != string(w) {
		t.Errorf("json %v, %+v:\n got %s\nwant %s", json, *a, got.Bytes(), w)
	}
	return short
}

// TestAccessLineMatchesSlog: the access log's own lines are slog's, in
// both formats, and lines with strings slog quotes or escapes take slog.
func TestAccessLineMatchesSlog(t *testing.T) {
	mcp := accessLine{method: "POST", path: "/mcp", rpc: "tools/call", tool: "lookup_product",
		status: 200, bytes: 6370, duration: 13*time.Microsecond + 250*time.Nanosecond, remote: "127.0.0.1:50312",
		requestID: "JX4VQ3YH7ZK2M5N6P7R8S9T0UV"}
	rest := accessLine{method: "GET", path: "/b2b/export", status: 499, bytes: 0, duration: 3*time.Second + 5*time.Millisecond,
		remote: "[::1]:4000", aborted: true, requestID: "client-chosen.id:42/x"}
	odd := []accessLine{
		{method: "GET", path: "/a path", status: 404, remote: "127.0.0.1:1"},
		{method: "GET", path: `/quote"d`, status: 404, remote: "127.0.0.1:1"},
		{method: "GET", path: "/a=b", status: 404, remote: "127.0.0.1:1"},
		{method: "GET", path: `/back\slash`, status: 404, remote: "127.0.0.1:1"},
		{method: "GET", path: "/<b>&amp;", status: 404, remote: "127.0.0.1:1"},
		{method: "GET", path: "/caf\u00e9", status: 404, remote: "127.0.0.1:1"},
		{method: "GET", path: "/bad\xffutf8", status: 404, remote: "127.0.0.1:1"},
		{method: "GET", path: "/tab\there\n", status: 404, remote: "127.0.0.1:1"},
		{method: "GET", path: "/", status: 200, remote: ""},
		{method: "GET", path: "/", status: 200, remote: "127.0.0.1:1", requestID: "a=b"},
		{method: "GET", path: "/", status: 200, remote: "127.0.0.1:1", requestID: `q"uote`},
	}
	zone := time.FixedZone("EST", -5*3600)
	times := []time.Time{
		time.Date(2026, 11, 23, 15, 4, 5, 0, time.UTC),
		time.Date(2026, 11, 23, 15, 4, 5, 999_999_999, time.UTC),
		time.Date(2026, 11, 23, 15, 4, 5, 120_000_000, zone),
		time.Date(2026, 1, 2, 3, 4, 5, 6, zone),
	}
	for _, json := range []bool{false, true} {
		for _, now := range times {
			for _, a := range []accessLine{mcp, rest} {
				if !sameAsSlog(t, json, now, &a) {
					t.Errorf("json %v, %+v: plain, but the shortcut did not write it", json, a)
				}
			}
			for _, a := range odd {
				if sameAsSlog(t, json, now, &a) {
					t.Errorf("json %v, path %q, remote %q: the shortcut wrote a line slog quotes or escapes", json, a.path, a.remote)
				}
			}
		}
	}
}

// FuzzAccessLine holds the shortcut to slog on any path and remote address.
func FuzzAccessLine(f *testing.F) {
	f.Add("/mcp", "127.0.0.1:5000", 200, int64(13250), false, int64(1763910245123456789))
	f.Add("/a b", "", 404, int64(0), true, int64(0))
	f.Fuzz(func(t *testing.T, path, remote string, status int, dur int64, aborted bool, nanos int64) {
		id := remote // any string, as a request id too
		now := time.Unix(0, nanos).UTC()
		if now.Year() < 0 || now.Year() >= 10000 {
			return // slog writes an error for these in JSON
		}
		a := accessLine{method: "GET", path: path, status: status, bytes: status * 7, duration: time.Duration(dur), remote: remote, aborted: aborted, requestID: id}
		sameAsSlog(t, false, now, &a)
		sameAsSlog(t, true, now, &a)
	})
}

func BenchmarkAccessLine(b *testing.B) {
	var buf bytes.Buffer
	r := httptest.NewRequest("POST", "/mcp", nil)
	a := accessLine{method: "POST", path: "/mcp", rpc: "tools/call", tool: "lookup_product",
		status: 200, bytes: 6370, duration: 13 * time.Microsecond, remote: "127.0.0.1:50312"}
	for _, c := range []struct {
		name string
		log  *slog.Logger
	}{
		{"Shortcut", slog.New(NewLogHandler(&buf, false))},
		{"Slog", slog.New(slog.NewTextHandler(&buf, nil))},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				logAccess(c.log, r, time.Now(), &a)
			}
		})
	}
}
