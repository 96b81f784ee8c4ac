// Package webhookclient sends grocery's webhook deliveries over HTTP: the
// grocery.WebhookSender a server configures (grocery.WebhookOptions). It
// lives outside package grocery because it is a transport (grocery
// imports no net/http).
//
// A Client POSTs with one shared transport: no proxy, every dialled
// address checked by the grocery.WebhookPolicy (so a name that resolves
// to a private address at delivery time is refused, whatever it resolved
// to when the endpoint was created), no redirect followed, at most
// grocery.WebhookTimeout per request, all of it (dial, headers, body),
// at most MaxAnswerHeader bytes of an answer's headers taken and 64 KiB
// of its body read.
package webhookclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/grocerydata/grocery/grocery"
)

// maxAnswer is how much of a receiver's answer is read.
const maxAnswer = 64 << 10

// MaxAnswerHeader is the most bytes of a receiver's answer headers an
// attempt takes (status line and headers, over HTTP/1.1 or HTTP/2): a
// larger answer fails the attempt, its reason recorded, so that a
// receiver cannot make each delivery in flight hold megabytes.
const MaxAnswerHeader = 32 << 10

// Client is a grocery.WebhookSender over HTTP.
type Client struct {
	hc *http.Client
}

// New returns a Client whose dials p allows.
func New(p grocery.WebhookPolicy) *Client {
	d := &net.Dialer{Timeout: grocery.WebhookTimeout, Control: p.Control}
	tr := &http.Transport{
		Proxy:                  nil, // a proxy would dial the receiver in our stead, past the policy
		DialContext:            d.DialContext,
		TLSHandshakeTimeout:    grocery.WebhookTimeout,
		ResponseHeaderTimeout:  grocery.WebhookTimeout,
		MaxIdleConns:           64,
		MaxIdleConnsPerHost:    2,
		IdleConnTimeout:        90 * time.Second,
		ForceAttemptHTTP2:      true,
		MaxResponseHeaderBytes: MaxAnswerHeader,
	}
	return &Client{hc: &http.Client{
		Transport:     tr,
		Timeout:       grocery.WebhookTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// Close closes the client's idle connections.
func (c *Client) Close() { c.hc.CloseIdleConnections() }

// SendWebhook makes one attempt: a POST of r.Body with r.Header that
// succeeds on a 2xx answered within grocery.WebhookTimeout. A redirect is
// a failure, not followed.
func (c *Client) SendWebhook(ctx context.Context, r *grocery.WebhookRequest) grocery.WebhookResponse {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL, bytes.NewReader(r.Body))
	if err != nil {
		return grocery.WebhookResponse{Err: errors.New("the endpoint's url cannot be requested: register it again")}
	}
	for k, v := range r.Header {
		req.Header.Set(k, v)
	}
	req.Header.Set("User-Agent", "grocery-webhooks/1")
	start := time.Now()
	resp, err := c.hc.Do(req)
	if err != nil {
		return grocery.WebhookResponse{Latency: time.Since(start), Err: errors.New(describe(err))}
	}
	_, _ = io.CopyN(io.Discard, resp.Body, maxAnswer)
	resp.Body.Close()
	res := grocery.WebhookResponse{Code: resp.StatusCode, Latency: time.Since(start)}
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode <= 299:
	case resp.StatusCode >= 300 && resp.StatusCode <= 399:
		res.Err = fmt.Errorf("HTTP %d: a redirect is not followed; register the final URL", resp.StatusCode)
	default:
		res.Err = fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return res
}

// describe says why a request got no answer, in words a user can act on.
func describe(err error) string {
	var refused *grocery.WebhookRefusedError
	var ne net.Error
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &refused):
		return refused.Error()
	case strings.Contains(err.Error(), "response headers exceeded"), strings.Contains(err.Error(), "header list larger than"):
		return fmt.Sprintf("answer headers over %d KiB: a receiver's answer must keep its headers small", MaxAnswerHeader>>10)
	case errors.As(err, &ne) && ne.Timeout():
		return fmt.Sprintf("no answer within %s", grocery.WebhookTimeout)
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET):
		return "connection closed without an answer"
	case errors.As(err, &dnsErr):
		return "host " + dnsErr.Name + " does not resolve"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return strings.TrimPrefix(ue.Err.Error(), "net/http: ")
	}
	return err.Error()
}
