package restserver

import (
	"net/http"

	"github.com/grocerydata/grocery/grocery"
)

// signals answers GET /b2b/signals?province=[&banner=&category=&kind=&since=&limit=&offset=].
func (s *server) signals(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.SignalsInput{Province: p.str("province"), Banner: p.str("banner"), Category: p.str("category"),
		Kind: p.str("kind"), Since: p.str("since")}
	in.Limit, in.Offset = p.page()
	if p.err != nil {
		return p.err
	}
	res, err := s.svc.Signals(r.Context(), in)
	if err != nil {
		return err
	}
	pageLinks(w, r, res.Total, res.Limit, res.Offset)
	return writeJSON(w, http.StatusOK, res)
}
