package admin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/grocerydata/grocery/grocery"
)

// Client calls a Service through the admin socket of the server that
// holds its data file. It is safe for concurrent use.
type Client struct {
	path   string
	http   *http.Client
	stream *http.Client // no overall timeout: an import takes as long as it takes
	tr     *http.Transport
}

// Dial returns a client of the admin socket at path. It does not connect
// until a call. Connecting is given one second and a whole call ten
// seconds (an import aside).
//
// Before it sends anything it checks that the socket is the calling
// user's (or root's) with mode 0600 and, on Linux, that the process
// listening runs as that user or root (SO_PEERCRED); otherwise a call
// returns EPLANREQUIRED saying why, and sends nothing.
func Dial(path string) *Client { return dial(path, selfOrRoot()) }

func dial(path string, t trust) *Client {
	d := &net.Dialer{Timeout: dialTimeout}
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			c, err := d.DialContext(ctx, "unix", path)
			if err != nil {
				return nil, &noAdminError{path: path, err: err}
			}
			// Who listens is checked once connected (a stale socket is
			// no server at all), before anything is sent.
			if err := t.checkFile(path); err != nil {
				c.Close()
				return nil, err
			}
			if err := t.checkPeer(c, path); err != nil {
				c.Close()
				return nil, err
			}
			return c, nil
		},
		MaxIdleConnsPerHost: 2,
		IdleConnTimeout:     30 * time.Second,
	}
	return &Client{path: path, http: &http.Client{Transport: tr, Timeout: callTimeout}, stream: &http.Client{Transport: tr}, tr: tr}
}

// Close closes the client's idle connections. Calls after it connect again.
func (c *Client) Close() error {
	c.tr.CloseIdleConnections()
	return nil
}

// noAdminError is a failure to connect to an admin socket.
type noAdminError struct {
	path string
	err  error
}

func (e *noAdminError) Error() string {
	return fmt.Sprintf("%v on %s: %v", ErrNoAdmin, e.path, e.err)
}
func (e *noAdminError) Is(target error) bool { return target == ErrNoAdmin }
func (e *noAdminError) Unwrap() error        { return e.err }

// CreateKey calls Service.CreateKey on the server. Besides that method's
// errors it returns one wrapping ErrNoAdmin when nothing answers.
func (c *Client) CreateKey(ctx context.Context, in grocery.KeyInput) (*grocery.NewKey, error) {
	var out grocery.NewKey
	if err := c.call(ctx, http.MethodPost, "/v1/keys", in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ListKeys calls Service.ListKeys on the server. It returns an error
// wrapping ErrNoAdmin when nothing answers.
func (c *Client) ListKeys(ctx context.Context) ([]grocery.KeyInfo, error) {
	var out []grocery.KeyInfo
	if err := c.call(ctx, http.MethodGet, "/v1/keys", nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// RevokeKey calls Service.RevokeKey on the server: when it returns, the
// server refuses the key. Besides that method's errors it returns one
// wrapping ErrNoAdmin when nothing answers.
func (c *Client) RevokeKey(ctx context.Context, keyOrID string) (*grocery.KeyInfo, error) {
	var out grocery.KeyInfo
	if err := c.call(ctx, http.MethodPost, "/v1/keys/revoke", revokeInput{Key: keyOrID}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// AccountUsage calls Service.AccountUsage on the server. Besides that
// method's errors it returns one wrapping ErrNoAdmin when nothing answers.
func (c *Client) AccountUsage(ctx context.Context, account string) (*grocery.AccountUsage, error) {
	var out grocery.AccountUsage
	if err := c.call(ctx, http.MethodGet, "/v1/usage?"+url.Values{"account": {account}}.Encode(), nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Plans returns the server's plans. It returns an error wrapping
// ErrNoAdmin when nothing answers.
func (c *Client) Plans(ctx context.Context) ([]grocery.Plan, error) {
	var out []grocery.Plan
	if err := c.call(ctx, http.MethodGet, "/v1/plans", nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// LookupProduct calls Service.LookupProduct on the server and returns
// its result or its error (EINVALIDARGUMENT, ENOTFOUND), or one wrapping
// ErrNoAdmin when nothing answers.
func (c *Client) LookupProduct(ctx context.Context, in grocery.LookupInput) (*grocery.LookupResult, error) {
	return ask[grocery.LookupResult](ctx, c, "/v1/lookup", in)
}

// SearchProducts calls Service.SearchProducts on the server and returns
// its result or its error (EINVALIDARGUMENT), or one wrapping ErrNoAdmin when
// nothing answers.
func (c *Client) SearchProducts(ctx context.Context, in grocery.SearchInput) (*grocery.SearchResult, error) {
	return ask[grocery.SearchResult](ctx, c, "/v1/search", in)
}

// PriceHistory calls Service.PriceHistory on the server and returns its
// result or its error (EINVALIDARGUMENT, ENOTFOUND), or one wrapping ErrNoAdmin
// when nothing answers.
func (c *Client) PriceHistory(ctx context.Context, in grocery.HistoryInput) (*grocery.HistoryResult, error) {
	return ask[grocery.HistoryResult](ctx, c, "/v1/history", in)
}

// ListReferenceStores calls Service.ListReferenceStores on the server
// and returns its result or its error (EINVALIDARGUMENT), or one wrapping
// ErrNoAdmin when nothing answers.
func (c *Client) ListReferenceStores(ctx context.Context, in grocery.StoresInput) (*grocery.StoresResult, error) {
	res, err := ask[grocery.StoresResult](ctx, c, "/v1/stores", in)
	if err != nil {
		return nil, err
	}
	// Store.Active is not part of the JSON: every store listed is active.
	for i := range res.Stores {
		res.Stores[i].Active = true
	}
	return res, nil
}

// ExecutiveBrief calls Service.ExecutiveBrief on the server, with the
// alert events of the account ctx acts for if any, and returns its result
// or its error, or one wrapping ErrNoAdmin when nothing answers.
func (c *Client) ExecutiveBrief(ctx context.Context, in grocery.BriefInput) (*grocery.Brief, error) {
	return ask[grocery.Brief](ctx, c, forAccount(ctx, "/v1/brief"), in)
}

// Signals calls Service.Signals on the server, with the watchlist of the
// account ctx acts for if any, and returns its result or its error
// (EINVALIDARGUMENT), or one wrapping ErrNoAdmin when nothing answers.
func (c *Client) Signals(ctx context.Context, in grocery.SignalsInput) (*grocery.SignalsResult, error) {
	return ask[grocery.SignalsResult](ctx, c, forAccount(ctx, "/v1/report/signals"), in)
}

// forAccount adds the account ctx acts for (grocery.NewContextWithAccount)
// to path as its account parameter.
func forAccount(ctx context.Context, path string) string {
	if p := grocery.PrincipalFromContext(ctx); p != nil && p.Account != "" {
		return path + "?" + url.Values{"account": {p.Account}}.Encode()
	}
	return path
}

// CreateAlert calls Service.CreateAlert on the server for the account ctx
// acts for, and returns its result or its error, or one wrapping
// ErrNoAdmin when nothing answers.
func (c *Client) CreateAlert(ctx context.Context, in grocery.AlertInput) (*grocery.AlertRule, error) {
	return ask[grocery.AlertRule](ctx, c, forAccount(ctx, "/v1/alerts"), in)
}

// ListAlerts calls Service.ListAlerts on the server for the account ctx
// acts for, and returns its result or its error, or one wrapping
// ErrNoAdmin when nothing answers.
func (c *Client) ListAlerts(ctx context.Context, in grocery.ListAlertsInput) (*grocery.AlertRules, error) {
	return ask[grocery.AlertRules](ctx, c, forAccount(ctx, "/v1/alerts/list"), in)
}

// Alert calls Service.Alert on the server for the account ctx acts for,
// and returns its result or its error, or one wrapping ErrNoAdmin when
// nothing answers.
func (c *Client) Alert(ctx context.Context, id string) (*grocery.AlertRule, error) {
	return ask[grocery.AlertRule](ctx, c, forAccount(ctx, "/v1/alerts/get"), alertID{id})
}

// DeleteAlert calls Service.DeleteAlert on the server for the account ctx
// acts for, and returns its error, or one wrapping ErrNoAdmin when nothing
// answers.
func (c *Client) DeleteAlert(ctx context.Context, id string) error {
	_, err := ask[alertID](ctx, c, forAccount(ctx, "/v1/alerts/delete"), alertID{id})
	return err
}

// UpdateAlert calls Service.UpdateAlert on the server for the account ctx
// acts for, and returns its result or its error, or one wrapping
// ErrNoAdmin when nothing answers.
func (c *Client) UpdateAlert(ctx context.Context, id string, in grocery.AlertUpdate) (*grocery.AlertRule, error) {
	return ask[grocery.AlertRule](ctx, c, forAccount(ctx, "/v1/alerts/update"), alertUpdate{id, in})
}

// EvaluateAlert calls Service.EvaluateAlert on the server for the account
// ctx acts for, and returns its result or its error, or one wrapping
// ErrNoAdmin when nothing answers.
func (c *Client) EvaluateAlert(ctx context.Context, id string) (*grocery.AlertRule, error) {
	return ask[grocery.AlertRule](ctx, c, forAccount(ctx, "/v1/alerts/evaluate_one"), alertID{id})
}

// AlertEvents calls Service.AlertEvents on the server for the account ctx
// acts for, and returns its result or its error, or one wrapping
// ErrNoAdmin when nothing answers.
func (c *Client) AlertEvents(ctx context.Context, in grocery.AlertEventsInput) (*grocery.AlertEventList, error) {
	return ask[grocery.AlertEventList](ctx, c, forAccount(ctx, "/v1/alerts/events"), in)
}

// EvaluateAlerts calls Service.EvaluateAlerts on the server, for the
// account ctx acts for or for every account, and returns its result or its
// error, or one wrapping ErrNoAdmin when nothing answers.
func (c *Client) EvaluateAlerts(ctx context.Context) (*grocery.AlertEvaluation, error) {
	return ask[grocery.AlertEvaluation](ctx, c, forAccount(ctx, "/v1/alerts/evaluate"), struct{}{})
}

// CategoryReport calls Service.CategoryReport on the server and returns
// its result or its error (EINVALIDARGUMENT), or one wrapping ErrNoAdmin when
// nothing answers.
func (c *Client) CategoryReport(ctx context.Context, in grocery.CategoryReportInput) (*grocery.CategoryReport, error) {
	return ask[grocery.CategoryReport](ctx, c, "/v1/report/category_report", in)
}

// PromoCalendar calls Service.PromoCalendar on the server and returns its
// result or its error (EINVALIDARGUMENT), or one wrapping ErrNoAdmin when nothing
// answers.
func (c *Client) PromoCalendar(ctx context.Context, in grocery.PromoCalendarInput) (*grocery.PromoCalendar, error) {
	return ask[grocery.PromoCalendar](ctx, c, "/v1/report/promo_calendar", in)
}

// NewOnShelf calls Service.NewOnShelf on the server and returns its
// result or its error (EINVALIDARGUMENT), or one wrapping ErrNoAdmin when nothing
// answers.
func (c *Client) NewOnShelf(ctx context.Context, in grocery.NewOnShelfInput) (*grocery.NewOnShelf, error) {
	return ask[grocery.NewOnShelf](ctx, c, "/v1/report/new_on_shelf", in)
}

// ask posts a query's input to its route and decodes the result.
func ask[R any](ctx context.Context, c *Client, path string, in any) (*R, error) {
	var out R
	if err := c.call(ctx, http.MethodPost, path, in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Import imports a file through the server that holds the data file, as
// Service.Import does on a file this process holds: r is streamed to the
// server, which writes it in one transaction (a file of more than about a
// million observations, in batches of whole days). opts.Progress counts
// the bytes sent.
//
// It returns ErrNoAdmin (wrapped) when no server answers, having read
// nothing of r, and the server's errors (EINVALIDARGUMENT for a bad row, ...) as
// *grocery.Error values.
func (c *Client) Import(ctx context.Context, name string, r io.Reader, opts *grocery.ImportOptions) (*grocery.ImportReport, error) {
	if opts == nil {
		opts = &grocery.ImportOptions{}
	}
	q := url.Values{"name": {name}}
	if opts.SkipInvalid {
		q.Set("skip_invalid", "true")
	}
	if opts.UpdateNames {
		q.Set("update_names", "true")
	}
	var counted *countingReader
	if opts.Progress != nil {
		counted = &countingReader{r: r, fn: opts.Progress, next: progressEvery}
		r = counted
	}
	var rep grocery.ImportReport
	err := c.send(ctx, c.stream, http.MethodPost, "/v1/import?"+q.Encode(), "text/plain", r, &rep)
	if err != nil {
		return nil, err
	}
	if counted != nil {
		opts.Progress(counted.n) // all of it, as a local import reports
	}
	return &rep, nil
}

// Export streams an export through the server that holds the data file
// to w, as Service.Export does on a file this process holds (in.Progress
// aside: it is not called). It returns ErrNoAdmin (wrapped) when no
// server answers, the server's errors as *grocery.Error values (EINVALIDARGUMENT
// before anything was written), and EINTERNAL when the export was cut
// short after it began.
func (c *Client) Export(ctx context.Context, in grocery.ExportInput, w io.Writer) (*grocery.ExportSummary, error) {
	body, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	resp, err := c.do(ctx, c.stream, http.MethodPost, "/v1/export", "application/json", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, c.answerError(resp)
	}
	sum := &grocery.ExportSummary{Cursor: resp.Header.Get(exportCursorHeader)}
	sum.Bytes, err = io.Copy(w, resp.Body)
	if ctx.Err() != nil {
		return sum, ctx.Err()
	}
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return sum, err // writing to w failed, or the connection did
	}
	rows, perr := strconv.ParseInt(resp.Trailer.Get(exportRowsTrailer), 10, 64)
	if err != nil || perr != nil {
		return sum, grocery.Errorf(grocery.EINTERNAL, "the server on %s cut the export short after %d bytes", c.path, sum.Bytes)
	}
	sum.Rows = rows
	return sum, nil
}

// progressEvery is the bytes sent between Progress calls of an import.
const progressEvery = 64 << 10

// countingReader counts the bytes read and reports them every progressEvery.
type countingReader struct {
	r    io.Reader
	n    int64
	next int64
	fn   func(int64)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n >= c.next {
		c.fn(c.n)
		c.next = c.n + progressEvery
	}
	return n, err
}

// call sends one request and decodes its answer into out. An error answer
// becomes the *grocery.Error the server returned.
func (c *Client) call(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	return c.send(ctx, c.http, method, path, "application/json", body, out)
}

func (c *Client) send(ctx context.Context, client *http.Client, method, path, contentType string, body io.Reader, out any) error {
	resp, err := c.do(ctx, client, method, path, contentType, body)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return c.answerError(resp)
	}
	dec := json.NewDecoder(io.LimitReader(resp.Body, maxAnswer))
	if err := dec.Decode(out); errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) {
		return &stoppedError{grocery.Errorf(grocery.EINTERNAL, "the server on %s stopped in the middle of its answer: %v", c.path, err)}
	} else if err != nil {
		return grocery.Errorf(grocery.EINTERNAL, "the server on %s sent a malformed answer: %v", c.path, err)
	}
	return nil
}

// ErrStopped is wrapped by the error of a call whose server went away
// after the request was sent and before its answer came (killed, or
// stopped): whether it did what was asked is not known. A server does an
// import whole or not at all (a large one by whole days), so the import
// may be run again.
var ErrStopped = errors.New("the server stopped before answering")

type stoppedError struct{ err error }

func (e *stoppedError) Error() string        { return e.err.Error() }
func (e *stoppedError) Unwrap() error        { return e.err }
func (e *stoppedError) Is(target error) bool { return target == ErrStopped }

// do sends one request and returns the answer, whatever its status.
func (c *Client) do(ctx context.Context, client *http.Client, method, path, contentType string, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, "http://admin"+path, body)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := client.Do(req)
	if err != nil {
		var na *noAdminError
		var ne net.Error
		var refused *grocery.Error
		switch {
		case errors.As(err, &na):
			return nil, na
		case errors.As(err, &refused):
			return nil, refused // an untrusted socket
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case errors.As(err, &ne) && ne.Timeout():
			return nil, grocery.Errorf(grocery.EINTERNAL, "the server on %s did not answer within %s", c.path, callTimeout)
		default:
			return nil, &stoppedError{grocery.Errorf(grocery.EINTERNAL, "the server on %s stopped before answering: %v", c.path, errors.Unwrap(err))}
		}
	}
	return resp, nil
}

// answerError returns the *grocery.Error of an error answer.
func (c *Client) answerError(resp *http.Response) error {
	var e errorBody
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxAnswer)).Decode(&e); err != nil || e.Code == "" {
		return grocery.Errorf(grocery.EINTERNAL, "the server on %s answered %s", c.path, resp.Status)
	}
	if strings.HasPrefix(e.Message, unknownOperation) {
		// Servers before this one answered not_found, which would read
		// as "no such barcode"; say what it is.
		return grocery.Errorf(grocery.ECONFLICT, "the server holding the data file (on %s) is older than this command and cannot answer it: restart the server", c.path)
	}
	return &grocery.Error{Code: e.Code, Message: e.Message, Next: e.Next}
}

// GeographicPrices calls Service.GeographicPrices on the server and
// returns its result or its error (EINVALIDARGUMENT, ENOTFOUND), or one wrapping
// ErrNoAdmin when nothing answers.
func (c *Client) GeographicPrices(ctx context.Context, in grocery.GeoPricesInput) (*grocery.GeoPricesResult, error) {
	return ask[grocery.GeoPricesResult](ctx, c, "/v1/report/geographic_prices", in)
}

// RegionalComparison calls Service.RegionalComparison on the server and
// returns its result or its error (EINVALIDARGUMENT, ENOTFOUND), or one wrapping
// ErrNoAdmin when nothing answers.
func (c *Client) RegionalComparison(ctx context.Context, in grocery.RegionalInput) (*grocery.RegionalResult, error) {
	return ask[grocery.RegionalResult](ctx, c, "/v1/report/regional_comparison", in)
}

// CompetitiveBenchmark calls Service.CompetitiveBenchmark on the server
// and returns its result or its error (EINVALIDARGUMENT), or one wrapping
// ErrNoAdmin when nothing answers.
func (c *Client) CompetitiveBenchmark(ctx context.Context, in grocery.BenchmarkInput) (*grocery.BenchmarkResult, error) {
	return ask[grocery.BenchmarkResult](ctx, c, "/v1/report/competitive_benchmark", in)
}

// BrandInsights calls Service.BrandInsights on the server and returns its
// result or its error (EINVALIDARGUMENT), or one wrapping ErrNoAdmin when nothing
// answers.
func (c *Client) BrandInsights(ctx context.Context, in grocery.BrandInput) (*grocery.BrandResult, error) {
	return ask[grocery.BrandResult](ctx, c, "/v1/report/brand_insights", in)
}

// CompareBasket calls Service.CompareBasket on the server and returns its
// result or its error (EINVALIDARGUMENT), or one wrapping ErrNoAdmin when nothing
// answers.
func (c *Client) CompareBasket(ctx context.Context, in grocery.BasketInput) (*grocery.BasketResult, error) {
	return ask[grocery.BasketResult](ctx, c, "/v1/report/basket", in)
}

// CreateWebhook calls Service.CreateWebhook on the server for the account
// ctx acts for (the server's options decide which URLs it takes), and
// returns its result or its error, or one wrapping ErrNoAdmin when nothing
// answers.
func (c *Client) CreateWebhook(ctx context.Context, in grocery.WebhookInput) (*grocery.Webhook, error) {
	return ask[grocery.Webhook](ctx, c, forAccount(ctx, "/v1/webhooks"), in)
}

// ListWebhooks calls Service.ListWebhooks on the server for the account
// ctx acts for, and returns its result or its error, or one wrapping
// ErrNoAdmin when nothing answers.
func (c *Client) ListWebhooks(ctx context.Context) (*grocery.WebhookList, error) {
	return ask[grocery.WebhookList](ctx, c, forAccount(ctx, "/v1/webhooks/list"), struct{}{})
}

// DeleteWebhook calls Service.DeleteWebhook on the server for the account
// ctx acts for, and returns its error, or one wrapping ErrNoAdmin when
// nothing answers.
func (c *Client) DeleteWebhook(ctx context.Context, id string) error {
	_, err := ask[webhookRef](ctx, c, forAccount(ctx, "/v1/webhooks/delete"), webhookRef{id})
	return err
}

// TestWebhook calls Service.TestWebhook on the server for the account ctx
// acts for, and returns its result or its error, or one wrapping
// ErrNoAdmin when nothing answers.
func (c *Client) TestWebhook(ctx context.Context, id string) (*grocery.WebhookDelivery, error) {
	return ask[grocery.WebhookDelivery](ctx, c, forAccount(ctx, "/v1/webhooks/test"), webhookRef{id})
}

// WebhookDeliveries calls Service.WebhookDeliveries on the server for the
// account ctx acts for, and returns its result or its error, or one
// wrapping ErrNoAdmin when nothing answers.
func (c *Client) WebhookDeliveries(ctx context.Context, id string, in grocery.WebhookDeliveriesInput) (*grocery.WebhookDeliveryList, error) {
	return ask[grocery.WebhookDeliveryList](ctx, c, forAccount(ctx, "/v1/webhooks/deliveries"), webhookDeliveries{id, in})
}
