package restserver

import (
	"net/http"

	"github.com/grocerydata/grocery/grocery"
)

// categoryReport answers GET /b2b/category_report?province=[&banner=&category=&period=].
func (s *server) categoryReport(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.CategoryReportInput{Province: p.str("province"), Banner: p.str("banner"), Category: p.str("category"), Period: p.str("period")}
	if p.err != nil {
		return p.err
	}
	res, err := grocery.Cached(r.Context(), s.svc, "CategoryReport", s.svc.CategoryReport, in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, res)
}

// promoCalendar answers GET /b2b/promo_calendar?province=[&banner=&category=&from=&to=&limit=&offset=].
func (s *server) promoCalendar(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.PromoCalendarInput{Province: p.str("province"), Banner: p.str("banner"), Category: p.str("category"),
		From: p.str("from"), To: p.str("to")}
	in.Limit, in.Offset = p.page()
	if p.err != nil {
		return p.err
	}
	res, err := grocery.Cached(r.Context(), s.svc, "PromoCalendar", s.svc.PromoCalendar, in)
	if err != nil {
		return err
	}
	pageLinks(w, r, res.Total, res.Limit, res.Offset)
	return writeJSON(w, http.StatusOK, res)
}

// newOnShelf answers GET /b2b/new_on_shelf?province=[&banner=&category=&days=&limit=&offset=].
func (s *server) newOnShelf(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.NewOnShelfInput{Province: p.str("province"), Banner: p.str("banner"), Category: p.str("category"),
		Days: p.optInt("days", "1 to 365")}
	in.Limit, in.Offset = p.page()
	if p.err != nil {
		return p.err
	}
	res, err := grocery.Cached(r.Context(), s.svc, "NewOnShelf", s.svc.NewOnShelf, in)
	if err != nil {
		return err
	}
	pageLinks(w, r, res.Total, res.Limit, res.Offset)
	return writeJSON(w, http.StatusOK, res)
}
