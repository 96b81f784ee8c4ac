package restserver

import (
	"fmt"
	"net/http"

	"github.com/gorilla/mux"
	"github.com/grocerydata/grocery/grocery"
)

// RouteTable returns "METHOD /path/template" for every route New serves,
// read by walking its router. A route that takes any method is an error:
// the OpenAPI document could not describe it.
func RouteTable(svc *grocery.Service) ([]string, error) {
	s := newServer(svc, nil)
	s.routes()
	var out []string
	err := s.router.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		tpl, err := route.GetPathTemplate()
		if err != nil {
			return err
		}
		methods, err := route.GetMethods()
		if err != nil {
			return fmt.Errorf("route %s: %w", tpl, err)
		}
		for _, m := range methods {
			if m == http.MethodHead {
				continue // every GET path answers HEAD (routes)
			}
			out = append(out, m+" "+tpl)
		}
		return nil
	})
	return out, err
}

// ProblemStatuses returns the code -> status table of every problem.
func ProblemStatuses() map[string]int {
	m := make(map[string]int, len(statusOf))
	for code, st := range statusOf {
		m[code] = st.status
	}
	return m
}
