package server

import (
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// LogHandler is the servers' slog.Handler: slog's own text (logfmt) or
// JSON handler onto w, with one shortcut. The access log, a line a
// request, writes its lines itself, byte for byte as that handler would
// (TestAccessLineMatchesSlog), at a fraction of its cost: slog's handlers
// check every string for quoting and format through a generic state
// machine, a microsecond a line, which was a tenth of an MCP call's cost
// above its query. A line holding a string that slog would quote or
// escape (a path with a space, say) goes through slog.
type LogHandler struct {
	slog.Handler
	w    *lockedWriter
	json bool
}

// NewLogHandler returns a LogHandler writing JSON lines (json) or text
// lines to w, each line in one Write.
func NewLogHandler(w io.Writer, json bool) *LogHandler {
	lw := &lockedWriter{w: w}
	h := &LogHandler{w: lw, json: json}
	if json {
		h.Handler = slog.NewJSONHandler(lw, nil)
	} else {
		h.Handler = slog.NewTextHandler(lw, nil)
	}
	return h
}

// lockedWriter serializes the writes of slog's handler and of the access
// log's shortcut, so that lines never interleave on a writer that does
// not serialize them itself.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// accessLine is what the access log says of one request.
type accessLine struct {
	method, path, rpc, tool string
	requestID               string // the X-Request-Id given or made (package requestid); "" in none
	status, bytes           int
	duration                time.Duration
	remote                  string
	aborted                 bool
}

// lineBufs holds the shortcut's line buffers.
var lineBufs = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

// logAccess writes a's line at time now.
func logAccess(log *slog.Logger, r *http.Request, now time.Time, a *accessLine) {
	ctx, h := r.Context(), log.Handler()
	if !h.Enabled(ctx, slog.LevelInfo) {
		return
	}
	if lh, ok := h.(*LogHandler); ok {
		bp := lineBufs.Get().(*[]byte)
		defer lineBufs.Put(bp)
		if b, ok := lh.appendAccess((*bp)[:0], now, a); ok {
			lh.w.Write(b)
			*bp = b[:0]
			return
		}
	}
	// The record goes to the handler directly: slog.Logger's methods
	// would also walk the stack for the caller's program counter, which
	// the line does not show.
	rec := slog.NewRecord(now, slog.LevelInfo, "request", 0)
	rec.AddAttrs(slog.String("method", a.method), slog.String("path", a.path))
	if a.rpc != "" {
		rec.AddAttrs(slog.String("rpc", a.rpc))
	}
	if a.tool != "" {
		rec.AddAttrs(slog.String("tool", a.tool))
	}
	rec.AddAttrs(
		slog.Int("status", a.status),
		slog.Int("bytes", a.bytes),
		slog.Duration("duration", a.duration),
		slog.String("remote", a.remote),
	)
	if a.requestID != "" {
		rec.AddAttrs(slog.String("request_id", a.requestID))
	}
	if a.aborted {
		rec.AddAttrs(slog.Bool("aborted", true))
	}
	h.Handle(ctx, rec)
}

// appendAccess appends a's line as h's slog handler writes it, or reports
// false when one of its strings is one that handler would quote or escape.
func (h *LogHandler) appendAccess(b []byte, now time.Time, a *accessLine) ([]byte, bool) {
	if !plainText(a.method) || !plainText(a.path) || !plainText(a.remote) ||
		a.rpc != "" && !plainText(a.rpc) || a.tool != "" && !plainText(a.tool) ||
		a.requestID != "" && !plainText(a.requestID) {
		return b, false
	}
	if h.json {
		b = append(b, `{"time":"`...)
		b = now.AppendFormat(b, time.RFC3339Nano)
		b = append(b, `","level":"INFO","msg":"request"`...)
	} else {
		b = append(b, "time="...)
		b = appendRFC3339Millis(b, now)
		b = append(b, " level=INFO msg=request"...)
	}
	b = h.appendString(b, "method", a.method)
	b = h.appendString(b, "path", a.path)
	if a.rpc != "" {
		b = h.appendString(b, "rpc", a.rpc)
	}
	if a.tool != "" {
		b = h.appendString(b, "tool", a.tool)
	}
	b = strconv.AppendInt(h.appendKey(b, "status"), int64(a.status), 10)
	b = strconv.AppendInt(h.appendKey(b, "bytes"), int64(a.bytes), 10)
	if h.json { // as encoding/json: nanoseconds
		b = strconv.AppendInt(h.appendKey(b, "duration"), int64(a.duration), 10)
	} else {
		b = append(h.appendKey(b, "duration"), a.duration.String()...)
	}
	b = h.appendString(b, "remote", a.remote)
	if a.requestID != "" {
		b = h.appendString(b, "request_id", a.requestID)
	}
	if a.aborted {
		b = append(h.appendKey(b, "aborted"), "true"...)
	}
	if h.json {
		b = append(b, '}')
	}
	return append(b, '\n'), true
}

func (h *LogHandler) appendKey(b []byte, key string) []byte {
	if h.json {
		return append(append(append(b, `,"`...), key...), `":`...)
	}
	return append(append(append(b, ' '), key...), '=')
}

// appendString appends a plain (plainText) string value.
func (h *LogHandler) appendString(b []byte, key, s string) []byte {
	b = h.appendKey(b, key)
	if h.json {
		return append(append(append(b, '"'), s...), '"')
	}
	return append(b, s...)
}

// plainText reports whether s is written as it is, unquoted and
// unescaped, by both slog handlers: not empty, and printable ASCII other
// than the characters either quotes, escapes or splits on.
func plainText(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c <= ' ' || c >= 0x7f, c == '"', c == '\\', c == '=', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// appendRFC3339Millis appends t as slog's text handler writes times:
// RFC 3339 with exactly three digits of milliseconds, truncated.
func appendRFC3339Millis(b []byte, t time.Time) []byte {
	const prefixLen = len("2006-01-02T15:04:05.000")
	n := len(b)
	// RFC3339Nano trims trailing zeros: a tenth of a millisecond more
	// makes it write four digits, of which the fourth is dropped.
	b = t.Truncate(time.Millisecond).Add(time.Millisecond/10).AppendFormat(b, time.RFC3339Nano)
	return append(b[:n+prefixLen], b[n+prefixLen+1:]...)
}
