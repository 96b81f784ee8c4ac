package restserver

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"
	"github.com/grocerydata/grocery/grocery"
)

// prices answers GET /prices?banner=&store=[&q=][&limit=&offset=][&lang=].
func (s *server) prices(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.StorePricesInput{Banner: p.str("banner"), Store: p.str("store"), Query: p.str("q"), Lang: p.str("lang")}
	in.Limit, in.Offset = p.page()
	if p.err != nil {
		return p.err
	}
	res, err := s.svc.StorePrices(r.Context(), in)
	if err != nil {
		return err
	}
	pageLinks(w, r, res.Total, res.Limit, res.Offset)
	return writeJSON(w, http.StatusOK, res)
}

// price answers GET /price?banner=&store=&sku= (or upc=)[&lang=].
func (s *server) price(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.StorePriceInput{Banner: p.str("banner"), Store: p.str("store"), SKU: p.str("sku"), UPC: p.str("upc"), Lang: p.str("lang")}
	if p.err != nil {
		return p.err
	}
	res, err := s.svc.StorePrice(r.Context(), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, res)
}

// search answers GET /search?q=&(province=|postal_code=)[&limit=&offset=][&lang=].
func (s *server) search(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.StoreSearchInput{Query: p.str("q"), Province: p.str("province"), PostalCode: p.str("postal_code"), Lang: p.str("lang")}
	in.Limit, in.Offset = p.page()
	if p.err != nil {
		return p.err
	}
	res, err := s.svc.SearchStores(r.Context(), in)
	if err != nil {
		return err
	}
	pageLinks(w, r, res.Total, res.Limit, res.Offset)
	return writeJSON(w, http.StatusOK, res)
}

// product answers GET /products/{upc}?province=[&limit=&offset=][&lang=]:
// lookup_product's answer, the barcode's current offers in the province.
func (s *server) product(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.LookupInput{UPC: mux.Vars(r)["upc"], Province: p.str("province"), Lang: p.str("lang")}
	in.Limit, in.Offset = p.page()
	if p.err != nil {
		return p.err
	}
	res, err := s.svc.LookupProduct(r.Context(), in)
	if err != nil {
		return err
	}
	pageLinks(w, r, res.Total, in.Limit.Or(grocery.DefaultLimit), in.Offset)
	return writeJSON(w, http.StatusOK, res)
}

// history answers GET /history?sku=&banner=&province=[&period=][&lang=]:
// price_history's answer, a banner SKU's daily series in the province.
func (s *server) history(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.HistoryInput{SKU: p.str("sku"), Banner: p.str("banner"), Province: p.str("province"), Period: p.str("period"), Lang: p.str("lang")}
	if p.err != nil {
		return p.err
	}
	res, err := s.svc.PriceHistory(r.Context(), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, res)
}

// stores answers GET /stores[?province=][&banner=][&near=][&limit=&offset=]:
// list_reference_stores' answer, the reference stores.
func (s *server) stores(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.StoresInput{Province: p.str("province"), Banner: p.str("banner"), Near: p.str("near")}
	in.Limit, in.Offset = p.page()
	if p.err != nil {
		return p.err
	}
	res, err := s.svc.ListReferenceStores(r.Context(), in)
	if err != nil {
		return err
	}
	pageLinks(w, r, res.Total, in.Limit.Or(grocery.DefaultLimit), in.Offset)
	return writeJSON(w, http.StatusOK, res)
}

// usage answers GET /usage: the caller's quota this month, with its quota
// headers, and its calls on each of the last 30 days.
func (s *server) usage(w http.ResponseWriter, r *http.Request) error {
	res, err := s.svc.AccountUsage(r.Context(), grocery.PrincipalFromContext(r.Context()).Account)
	if err != nil {
		return err
	}
	quotaHeaders(w.Header(), &res.Usage)
	w.Header().Set("Cache-Control", "no-store")
	return writeJSON(w, http.StatusOK, res)
}

// export answers GET /b2b/export: the rows of a data set, streamed in the
// format asked for (format, or else Accept: negotiateExport) as they are
// read. A bad argument is a problem answer;
// a failure once rows were sent (the client went away, the server is
// stopping, a panic) cuts the connection, so the client never takes a
// partial file for a whole one.
func (s *server) export(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.ExportInput{
		Format: p.str("format"), Dataset: p.str("dataset"),
		Province: p.str("province"), Banner: p.str("banner"), Category: p.str("category"), UPC: p.str("upc"),
		From: p.str("from"), To: p.str("to"), ChangedSince: p.str("changed_since"),
	}
	if p.err != nil {
		return p.err
	}
	if in.Format == "" {
		f, err := negotiateExport(r.Header.Get("Accept"))
		if err != nil {
			return err
		}
		in.Format = f
	}
	exp, err := s.svc.PrepareExport(r.Context(), in)
	if err != nil {
		return err
	}
	defer exp.Close() // HEAD, or a panic before Stream: it holds the data file
	h := w.Header()
	h.Set("Content-Type", exp.ContentType)
	h.Set("Content-Disposition", exp.ContentDisposition())
	h.Set("X-Export-Cursor", exp.Cursor)
	if r.Method == http.MethodHead {
		return nil // the headers a GET would send (an XLSX export of a barcode or of changes read up to its limit to know them)
	}
	if strings.EqualFold(in.Format, "xlsx") {
		account := ""
		if pr := grocery.PrincipalFromContext(r.Context()); pr != nil {
			account = pr.Account
		}
		release, err := s.xlsx.acquire(account)
		if err != nil {
			h.Del("Content-Disposition")
			h.Set("Retry-After", exportRetryAfter)
			return err
		}
		defer release()
	}
	ew := newExportWriter(w)
	defer func() {
		if v := recover(); v != nil {
			if ew.n == 0 && v != http.ErrAbortHandler {
				h.Del("Content-Disposition")
				panic(v) // nothing sent: a 500 problem
			}
			s.log.Error("export cut short", "path", r.URL.Path, "panic", fmt.Sprint(v))
			panic(http.ErrAbortHandler)
		}
	}()
	sum, err := exp.Stream(r.Context(), ew)
	switch {
	case err == nil:
		return nil
	case sum.Bytes == 0:
		h.Del("Content-Disposition")
		return err
	default:
		panic(http.ErrAbortHandler)
	}
}

// exportIdle is how long an export may go without its client taking any
// of it: the server's write timeout is for answers of one piece, and an
// export of millions of rows or to a slow client takes longer.
const exportIdle = 60 * time.Second

// exportWriter lifts the server's write deadline for the time an export
// takes to build (an XLSX file writes nothing until its rows are read),
// then holds each write to exportIdle, and counts what was written.
type exportWriter struct {
	w        http.ResponseWriter
	rc       *http.ResponseController
	n        int64
	extended time.Time
}

func newExportWriter(w http.ResponseWriter) *exportWriter {
	rc := http.NewResponseController(w)
	rc.SetWriteDeadline(time.Time{}) // a writer that cannot keep the server's timeout
	return &exportWriter{w: w, rc: rc}
}

func (e *exportWriter) Write(p []byte) (int, error) {
	if now := time.Now(); now.Sub(e.extended) >= time.Second {
		e.rc.SetWriteDeadline(now.Add(exportIdle))
		e.extended = now
	}
	n, err := e.w.Write(p)
	e.n += int64(n)
	return n, err
}

// createAlert answers POST /b2b/alerts: 201 with the stored rule and its
// Location.
func (s *server) createAlert(w http.ResponseWriter, r *http.Request) error {
	var in grocery.AlertInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	rule, err := s.svc.CreateAlert(r.Context(), in)
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/b2b/alerts/"+rule.ID)
	return writeJSON(w, http.StatusCreated, rule)
}

// listAlerts answers GET /b2b/alerts[?limit=&offset=]: the caller's rules.
func (s *server) listAlerts(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	var in grocery.ListAlertsInput
	in.Limit, in.Offset = p.page()
	if p.err != nil {
		return p.err
	}
	res, err := s.svc.ListAlerts(r.Context(), in)
	if err != nil {
		return err
	}
	pageLinks(w, r, res.Total, res.Limit, res.Offset)
	return writeJSON(w, http.StatusOK, res)
}

// alert answers GET /b2b/alerts/{id}: one of the caller's rules; another
// account's is not found.
func (s *server) alert(w http.ResponseWriter, r *http.Request) error {
	rule, err := s.svc.Alert(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, rule)
}

// updateAlert answers PATCH /b2b/alerts/{id}: 200 with the changed rule;
// another account's rule is not found.
func (s *server) updateAlert(w http.ResponseWriter, r *http.Request) error {
	var in grocery.AlertUpdate
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	rule, err := s.svc.UpdateAlert(r.Context(), mux.Vars(r)["id"], in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, rule)
}

// evaluateAlert answers POST /b2b/alerts/{id}/evaluate: 200 with the rule
// and where it stands now, recording its event when its condition holds.
func (s *server) evaluateAlert(w http.ResponseWriter, r *http.Request) error {
	rule, err := s.svc.EvaluateAlert(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, rule)
}

// deleteAlert answers DELETE /b2b/alerts/{id}: 204; another account's
// rule is not found.
func (s *server) deleteAlert(w http.ResponseWriter, r *http.Request) error {
	if err := s.svc.DeleteAlert(r.Context(), mux.Vars(r)["id"]); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// alertEvents answers GET /b2b/alerts/events[?since=&rule_id=&limit=&offset=]:
// the caller's events, newest first.
func (s *server) alertEvents(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.AlertEventsInput{Since: p.str("since"), RuleID: p.str("rule_id")}
	in.Limit, in.Offset = p.page()
	if p.err != nil {
		return p.err
	}
	res, err := s.svc.AlertEvents(r.Context(), in)
	if err != nil {
		return err
	}
	pageLinks(w, r, res.Total, res.Limit, res.Offset)
	return writeJSON(w, http.StatusOK, res)
}

// exportTypes are the media types of the export formats, in the order a
// tie between them is settled (JSON, the default, first), with the
// names clients also use for JSON Lines.
var exportTypes = []struct{ format, mediaType string }{
	{"json", "application/json"},
	{"jsonl", "application/x-ndjson"},
	{"jsonl", "application/jsonl"},
	{"jsonl", "application/x-jsonlines"},
	{"csv", "text/csv"},
	{"xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"},
	{"parquet", "application/vnd.apache.parquet"},
}

// negotiateExport chooses an export's format from its request's Accept
// header when the format parameter is absent: the format of the highest
// quality (JSON on a tie, or with no Accept, or */*). An Accept that
// takes none of them is a 406 that lists them and names the format
// parameter.
func negotiateExport(accept string) (string, error) {
	best, bestQ := "", 0.0
	for _, t := range exportTypes {
		if q := acceptQ(accept, t.mediaType); q > bestQ {
			best, bestQ = t.format, q
		}
	}
	if best == "" {
		types := make([]string, len(exportTypes))
		for i, t := range exportTypes {
			types[i] = t.mediaType
		}
		return "", &problemError{code: codeNotAcceptable,
			detail: fmt.Sprintf("Accept %q takes none of the export's formats: accept one of %s, or choose with the format parameter (json, jsonl, csv, xlsx, parquet)", accept, strings.Join(types, ", "))}
	}
	return best, nil
}
