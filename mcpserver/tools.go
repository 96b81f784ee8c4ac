package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/challenge"
)

// instructions tell a model how the tools chain; initialize and
// server/discover return them.
const instructions = `Canadian grocery prices, collected on a fixed panel of reference stores. Prices are store-scoped: there is no national price, so every price query takes a province (a two-letter code: AB BC MB NB NL NS NT NU ON PE QC SK YT).

How the tools chain: search_products (by name or brand) or lookup_product (by barcode) -> each offer or result carries a banner and an external_sku (the retailer's own SKU) -> price_history(sku=external_sku, banner, province) for the price trend. A barcode is never a SKU. Each offer says whether its price is a good one (verdict, against its 30-day low and its typical price). search_products takes a size in the query (4L, 400 g, dozen) and ignores words such as cheapest; when it finds nothing, its hint says what each word finds alone. list_reference_stores shows the stores the prices come from: that panel is the coverage.

An empty result means no reference store of the province observed the product in the last 14 days; it does not prove the product is unavailable. Every list carries total: more than it returned means limit cut it (search_products counts products). search_products and list_reference_stores page with offset and their answer's next_offset, lookup_product's offers with offset. Prices are in CAD.

Every tools/call counts against the plan's monthly quota, failed calls too. A quota_exceeded error names the reset time: wait until then; retrying does not restore the allowance.`

// tool is a tool as tools/list shows it, with its handler.
type tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Annotations  map[string]any  `json:"annotations"`

	args []string                                            // argument names, for errors
	run  func(ctx context.Context, a arguments) (any, error) // the grocery call
}

func newTools(svc *grocery.Service) []tool {
	// Annotations repeat the title (clients of 2025-03-26 read it only
	// there) and say that every tool only reads, answers the same call
	// the same way, and reaches nothing outside the data set.
	ann := func(title string) map[string]any {
		return map[string]any{"title": title, "readOnlyHint": true, "idempotentHint": true, "openWorldHint": false}
	}
	return []tool{
		{
			Name:  "lookup_product",
			Title: "Look up a product by barcode",
			Description: `Current offers for a barcode in one province, one per banner SKU, cheapest first (offset pages); banner and external_sku go to price_history. price: in force (most common of the stores' last prices within 14 days). verdict: lowest_in_30_days (price <= low_30d, the 30 days' lowest, and < typical_price, the 60 days' usual regular price), else on_promotion, above_usual or usual_price.

Empty offers: not observed in the province in 14 days, not proof of absence. Unknown barcode: not_found.`,
			InputSchema:  json.RawMessage(lookupInput),
			OutputSchema: json.RawMessage(lookupOutput),
			Annotations:  ann("Look up a product by barcode"),
			args:         []string{"upc", "province", "limit", "offset", "lang"},
			run: func(ctx context.Context, a arguments) (any, error) {
				in := grocery.LookupInput{UPC: a.str("upc"), Province: a.str("province"), Limit: a.limit(), Offset: a.offset(), Lang: a.str("lang")}
				if err := a.err(); err != nil {
					return nil, err
				}
				return svc.LookupProduct(ctx, in)
			},
		},
		{
			Name:  "search_products",
			Title: "Search products by name or brand",
			Description: `Products whose name or brand words begin with the query's (case, accents ignored), in one province, best first; stop words (cheapest, the) ignored; a size (4L, 400 g, 12 x 355 mL, dozen) must match.

Each result: a product at its cheapest banner SKU (external_sku for price_history), offer_count, and up to 4 next cheapest offers (regular_price, on_promo only on promotion); lookup_product lists all. An empty upc: sold under no barcode; price_history works, lookup_product cannot.

limit and total count products; next_offset pages. Empty: nothing matching observed in 14 days (see hint), not proof of absence.`,
			InputSchema:  json.RawMessage(searchInput),
			OutputSchema: json.RawMessage(searchOutput),
			Annotations:  ann("Search products by name or brand"),
			args:         []string{"query", "province", "limit", "offset", "lang"},
			run: func(ctx context.Context, a arguments) (any, error) {
				in := grocery.SearchInput{Query: a.str("query"), Province: a.str("province"), Limit: a.limit(), Offset: a.offset(), Lang: a.str("lang")}
				if err := a.err(); err != nil {
					return nil, err
				}
				return svc.SearchProducts(ctx, in)
			},
		},
		{
			Name:  "price_history",
			Title: "Price history of a retailer SKU",
			Description: `Shelf-price series of one retailer SKU (an external_sku from lookup_product or search_products; never a barcode) in one province over period, to the latest date.

points: collection days, min/median/max over the banner's stores, store_count; stats over the daily medians (change_pct: latest vs first, %), store_min/store_max any store's extremes. in_force: each day's price in force (that day's offer); verdict: the offer's on the last day.`,
			InputSchema:  json.RawMessage(historyInput),
			OutputSchema: json.RawMessage(historyOutput),
			Annotations:  ann("Price history of a retailer SKU"),
			args:         []string{"sku", "banner", "province", "period", "lang"},
			run: func(ctx context.Context, a arguments) (any, error) {
				in := grocery.HistoryInput{SKU: a.str("sku"), Banner: a.str("banner"), Province: a.str("province"), Period: a.str("period"), Lang: a.str("lang")}
				if err := a.err(); err != nil {
					return nil, err
				}
				return svc.PriceHistory(ctx, in)
			},
		},
		{
			Name:         "list_reference_stores",
			Title:        "List the reference stores",
			Description:  `Active reference stores, by province, banner, or nearest a postal code: the panel whose shelf prices the other tools report, not a directory of all grocery stores. next_offset, when present, is the next page's offset.`,
			InputSchema:  json.RawMessage(storesInput),
			OutputSchema: json.RawMessage(storesOutput),
			Annotations:  ann("List the reference stores"),
			args:         []string{"province", "banner", "limit", "offset", "near"},
			run: func(ctx context.Context, a arguments) (any, error) {
				in := grocery.StoresInput{Province: a.str("province"), Banner: a.str("banner"), Limit: a.limit(), Offset: a.offset(), Near: a.str("near")}
				if err := a.err(); err != nil {
					return nil, err
				}
				return svc.ListReferenceStores(ctx, in)
			},
		},
	}
}

// call runs tools/call of t, nil when the message names no tool the
// server has. The call is charged first, whatever follows: an unknown
// tool, bad arguments, not found, or success. A success comes back as the
// result's JSON (payload), anything else as result or rerr.
func (s *server) call(r *http.Request, p *grocery.Principal, msg *message, t *tool) (payload any, result *callResult, rerr *rpcError, usage *grocery.Usage) {
	req := &msg.Params
	ctx := grocery.NewContextWithPrincipal(r.Context(), p)
	u, err := s.svc.Consume(ctx, p)
	if err != nil {
		res, rerr := s.answerError(err)
		if grocery.ErrorCode(err) != grocery.EQUOTA {
			return nil, res, rerr, nil // no usage to report
		}
		if res != nil {
			// The reset, for a client that reads it without parsing the
			// text: when (RFC 3339) and how long from now (seconds, as
			// Retry-After).
			res.Meta["reset"] = resetText(u.Reset)
			res.Meta["retry_after_seconds"] = retryAfterSeconds(u.RetryAfter)
		}
		return nil, res, rerr, &u
	}
	if msg.paramsErr != nil || req.Name == "" {
		why := ""
		if msg.paramsErr != nil {
			why = strings.TrimPrefix(msg.paramsErr.Error(), "params: ") + ": "
		}
		return nil, nil, &rpcError{Code: codeInvalidParams, Message: `invalid params: ` + why + `tools/call takes {"name": TOOL, "arguments": {...}}`}, &u
	}
	if t == nil {
		return nil, nil, &rpcError{Code: codeInvalidParams, Message: fmt.Sprintf("unknown tool %q: the tools are lookup_product, search_products, price_history and list_reference_stores", req.Name)}, &u
	}
	if err := checkArgs(t, req.Arguments); err != nil {
		res, rerr := s.answerError(err)
		return nil, res, rerr, &u
	}
	out, err := t.run(ctx, arguments{args: req.Arguments})
	if err != nil {
		res, rerr := s.answerError(err)
		return nil, res, rerr, &u
	}
	return out, nil, nil, &u
}

// toolOf returns the tool a tools/call message names, or nil.
func (s *server) toolOf(msg *message) *tool {
	if msg.paramsErr != nil {
		return nil
	}
	for i := range s.tools {
		if s.tools[i].Name == msg.Params.Name {
			return &s.tools[i]
		}
	}
	return nil
}

// errorAnswer is how the endpoint answers an error code.
type errorAnswer struct {
	// tool: a tools/call answers it as a tool error (isError: true, the
	// code first in the text and in _meta): the caller can act on it.
	tool bool
	// shown: answered as a JSON-RPC internal error, its text is shown, as
	// it names the cause and what to do. Otherwise that text is
	// "internal error" and the error is logged.
	shown bool
	// status is the HTTP status of a request refused with the code before
	// its method runs (the key check). 401 carries WWW-Authenticate, 503
	// Retry-After.
	status int
}

// errorAnswers is the one table from error codes to the protocol: every
// answer to an error is chosen here (ServeHTTP for the key check,
// answerError for a tools/call). A code it does not list is answered as
// EINTERNAL. Only a code of the key itself is a 401: a key store that
// fails or does not answer never tells a client its key is invalid.
var errorAnswers = map[string]errorAnswer{
	grocery.EINVALIDARGUMENT: {tool: true, status: http.StatusBadRequest},
	grocery.ENOTFOUND:        {tool: true, status: http.StatusNotFound},
	grocery.EQUOTA:           {tool: true, status: http.StatusTooManyRequests},
	grocery.EUNAUTHENTICATED: {status: http.StatusUnauthorized},
	grocery.EPLANREQUIRED:    {status: http.StatusForbidden},
	grocery.EUNAVAILABLE:     {shown: true, status: http.StatusServiceUnavailable},
	grocery.EINTERNAL:        {status: http.StatusInternalServerError},
}

// answerOf returns the table's answer for err.
func answerOf(err error) errorAnswer {
	if a, ok := errorAnswers[grocery.ErrorCode(err)]; ok {
		return a
	}
	return errorAnswers[grocery.EINTERNAL]
}

// answerError maps an error of a tools/call to its answer.
func (s *server) answerError(err error) (*callResult, *rpcError) {
	switch a := answerOf(err); {
	case a.tool:
		return toolError(err), nil
	case a.shown:
		return nil, &rpcError{Code: codeInternalError, Message: grocery.ErrorMessage(err)}
	}
	return nil, s.internal(err)
}

// refuse answers a request whose key check failed with err: its status
// and headers from errorAnswers, a JSON-RPC invalid request for a client
// error and an internal error for a server one. A 401's challenge names
// invalid_token and why the key failed when the request sent one (key
// is not empty), and is bare when it sent none (RFC 6750).
func (s *server) refuse(w http.ResponseWriter, id json.RawMessage, key string, err error) {
	a := answerOf(err)
	switch a.status {
	case http.StatusUnauthorized:
		why := ""
		if key != "" {
			why = grocery.ErrorMessage(err)
		}
		w.Header().Set("WWW-Authenticate", challenge.Header("Bearer", "grocery", why))
	case http.StatusServiceUnavailable:
		w.Header().Set("Retry-After", "1")
	}
	var e *rpcError
	switch {
	case a.status < http.StatusInternalServerError:
		e = &rpcError{Code: codeInvalidRequest, Message: grocery.ErrorMessage(err)}
	case a.shown:
		e = &rpcError{Code: codeInternalError, Message: grocery.ErrorMessage(err)}
	default:
		e = s.internal(err)
	}
	writeJSON(w, a.status, errorResponse(id, e.Code, e.Message))
}

// appender is a result that writes its own JSON (the grocery results do).
type appender interface{ AppendJSON([]byte) []byte }

var bufs = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// writeToolResult writes a successful tools/call answer. The result goes
// in twice, as structuredContent and as the same JSON in a text item for
// clients that read only text; the envelope is written directly so that
// the result is encoded once and escaped once. resultType adds
// "resultType": "complete" (revision.resultType).
func writeToolResult(w http.ResponseWriter, id json.RawMessage, res any, resultType bool) {
	pb, bp := bufs.Get().(*[]byte), bufs.Get().(*[]byte)
	defer func() { bufs.Put(pb); bufs.Put(bp) }()
	var payload []byte
	if a, ok := res.(appender); ok {
		payload = a.AppendJSON((*pb)[:0])
	} else {
		var err error
		if payload, err = json.Marshal(res); err != nil {
			writeJSON(w, http.StatusOK, errorResponse(id, codeInternalError, "internal error"))
			return
		}
	}
	b := append((*bp)[:0], `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":{"content":[{"type":"text","text":`...)
	b = appendJSONText(b, payload)
	b = append(b, `}],"structuredContent":`...)
	b = append(b, payload...)
	b = append(b, `,"isError":false`...)
	if resultType {
		b = append(b, `,"resultType":"complete"`...)
	}
	b = append(b, `}}`...)
	setJSONHeaders(w.Header(), len(b))
	w.WriteHeader(http.StatusOK)
	w.Write(b)
	*pb, *bp = payload[:0], b[:0]
}

// internal logs an unexpected error and answers without its text.
func (s *server) internal(err error) *rpcError {
	s.log.Error("mcp: internal error", "err", err)
	return &rpcError{Code: codeInternalError, Message: "internal error"}
}

// callResult is a tools/call result.
type callResult struct {
	Content           []textContent   `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError"`
	Meta              map[string]any  `json:"_meta,omitempty"`
	ResultType        string          `json:"resultType,omitempty"`
}

type textContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// toolError is a tool error: a text that starts with the stable code, and
// the code in _meta. Internal errors never reach it (see call).
func toolError(err error) *callResult {
	code := grocery.ErrorCode(err)
	return &callResult{
		Content: []textContent{{"text", code + ": " + grocery.ErrorMessageIn(err, toolVerbs)}},
		IsError: true,
		Meta:    map[string]any{"code": code},
	}
}

// checkArgs refuses arguments the tool does not take, naming the ones it
// does.
func checkArgs(t *tool, args []argument) error {
	for _, a := range args {
		if !slices.Contains(t.args, a.name) {
			return grocery.Errorf(grocery.EINVALIDARGUMENT, "unknown argument %q: %s takes %s", a.name, t.Name, strings.Join(t.args, ", "))
		}
	}
	return nil
}

// arguments reads tool arguments, keeping the first type error.
type arguments struct {
	args  []argument
	first error
}

func (a *arguments) err() error { return a.first }

// get returns the argument name, the last one sent where it repeats.
func (a *arguments) get(name string) (json.RawMessage, bool) {
	for i := len(a.args) - 1; i >= 0; i-- {
		if a.args[i].name == name {
			return a.args[i].value, true
		}
	}
	return nil, false
}

// str returns a string argument, "" when absent or null.
func (a *arguments) str(name string) string {
	v, ok := a.get(name)
	if !ok || bytes.Equal(v, []byte("null")) {
		return ""
	}
	// Most arguments are plain strings: take them as they are.
	if n := len(v); n >= 2 && v[0] == '"' && v[n-1] == '"' && bytes.IndexByte(v[1:n-1], '\\') < 0 && bytes.IndexByte(v[1:n-1], '"') < 0 {
		return string(v[1 : n-1])
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil && a.first == nil {
		hint := ""
		if name == "upc" {
			hint = " (a barcode as a string keeps its leading zeros)"
		}
		a.first = grocery.Errorf(grocery.EINVALIDARGUMENT, "%s must be a string, got %s%s", name, v, hint)
	}
	return s
}

// limit returns the limit argument, toolDefaultLimit when absent or
// null. A limit that is given must be a whole number from 1 to
// toolMaxLimit: an explicit 0 is an error, not the default.
func (a *arguments) limit() grocery.Opt[int] {
	v, ok := a.get("limit")
	if !ok || bytes.Equal(v, []byte("null")) {
		return grocery.Some(toolDefaultLimit)
	}
	// v is a value of a valid JSON document: Atoi takes exactly its
	// whole numbers, and refuses 5.0, 1e2 and "5".
	n, err := strconv.Atoi(string(v))
	switch {
	case a.first != nil:
	case err != nil:
		a.first = grocery.Errorf(grocery.EINVALIDARGUMENT, "limit must be a whole number from 1 to %d, got %s", toolMaxLimit, v)
	case n < 1 || n > toolMaxLimit:
		a.first = grocery.Errorf(grocery.EINVALIDARGUMENT, "limit %d is out of range: want 1 to %d (default %d)", n, toolMaxLimit, toolDefaultLimit)
	}
	return grocery.Some(n)
}

// offset returns the offset argument, 0 when absent: a whole number, its
// range checked by the grocery call.
func (a *arguments) offset() int {
	v, ok := a.get("offset")
	if !ok || bytes.Equal(v, []byte("null")) {
		return 0
	}
	n, err := strconv.Atoi(string(v))
	if err != nil && a.first == nil {
		a.first = grocery.Errorf(grocery.EINVALIDARGUMENT, "offset must be a whole number from 0 to %d, got %s", grocery.MaxOffset, v)
	}
	return n
}

// appendJSONText appends JSON text as a JSON string. The text is compact
// JSON from an encoder, which never holds raw control characters, so
// quotes and backslashes are all there is to escape. The buffer is grown
// once for the worst case, then filled in one pass without a branch per
// byte: compact JSON holds a quote every few bytes, too often for a
// branch to be predicted, so every byte writes a backslash and then
// itself, one place on when it needs the backslash, over it otherwise.
func appendJSONText(b, text []byte) []byte {
	at := len(b)
	b = slices.Grow(b, 2*len(text)+2)
	out := b[at : at+2*len(text)+2]
	out[0] = '"'
	j := 1
	for _, c := range text {
		e := int(jsonTextEscapes[c])
		out[j] = '\\'
		out[j+e] = c
		j += 1 + e
	}
	out[j] = '"'
	return b[:at+j+1]
}

// jsonTextEscapes is 1 for the bytes appendJSONText escapes, 0 for the
// others.
var jsonTextEscapes = [256]uint8{'"': 1, '\\': 1}

// toolVerbs names the queries in errors' follow-ups as this interface
// offers them: by tool.
var toolVerbs = grocery.Verbs{Lookup: "lookup_product", Search: "search_products"}
