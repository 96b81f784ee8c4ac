package restserver

import (
	"net/http"

	"github.com/grocerydata/grocery/grocery"
)

// prices answers GET /prices?banner=&store=[&q=][&limit=&offset=].
func (s *server) prices(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.StorePricesInput{Banner: p.str("banner"), Store: p.str("store"), Query: p.str("q")}
	in.Limit, in.Offset = p.page()
	if p.err != nil {
		return p.err
	}
	res, err := s.svc.StorePrices(r.Context(), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, res)
}

// price answers GET /price?banner=&store=&sku= (or upc=).
func (s *server) price(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.StorePriceInput{Banner: p.str("banner"), Store: p.str("store"), SKU: p.str("sku"), UPC: p.str("upc")}
	if p.err != nil {
		return p.err
	}
	res, err := s.svc.StorePrice(r.Context(), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, res)
}

// search answers GET /search?q=&(province=|postal_code=)[&limit=&offset=].
func (s *server) search(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.StoreSearchInput{Query: p.str("q"), Province: p.str("province"), PostalCode: p.str("postal_code")}
	in.Limit, in.Offset = p.page()
	if p.err != nil {
		return p.err
	}
	res, err := s.svc.SearchStores(r.Context(), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, res)
}

// export answers GET /b2b/export: the rows of a data set, streamed in the
// format asked for as they are read. A bad argument is a problem answer;
// a failure once rows were sent (the client went away, the server is
// stopping) cuts the connection, so the client never takes a partial file
// for a whole one.
func (s *server) export(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.ExportInput{
		Format: p.str("format"), Dataset: p.str("dataset"),
		Province: p.str("province"), Banner: p.str("banner"), Category: p.str("category"), UPC: p.str("upc"),
		From: p.str("from"), To: p.str("to"),
	}
	if p.err != nil {
		return p.err
	}
	exp, err := s.svc.PrepareExport(r.Context(), in)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", exp.ContentType)
	h.Set("Content-Disposition", exp.ContentDisposition())
	sum, err := exp.Stream(r.Context(), w)
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
