package restserver

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/grocerydata/grocery/grocery"
)

// queryParams maps "METHOD /path/template" to the query parameters that
// the OpenAPI document (GET /openapi.json) gives the operation: the one
// list of what each path takes, read at the first request (not when a
// program that never serves starts).
var queryParams = sync.OnceValue(func() map[string][]string {
	var doc struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Parameters map[string]openAPIParam `json:"parameters"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPIDoc, &doc); err != nil {
		panic("restserver: openapi.json: " + err.Error())
	}
	resolve := func(ps []openAPIParam) []string {
		var names []string
		for _, p := range ps {
			if ref, ok := strings.CutPrefix(p.Ref, "#/components/parameters/"); ok {
				p = doc.Components.Parameters[ref]
			}
			if p.In == "query" {
				names = append(names, p.Name)
			}
		}
		return names
	}
	out := map[string][]string{}
	for path, ops := range doc.Paths {
		var common []openAPIParam
		if raw, ok := ops["parameters"]; ok {
			json.Unmarshal(raw, &common)
		}
		for method, raw := range ops {
			if method == "parameters" {
				continue
			}
			var op struct {
				Parameters []openAPIParam `json:"parameters"`
			}
			json.Unmarshal(raw, &op)
			out[strings.ToUpper(method)+" "+path] = append(resolve(common), resolve(op.Parameters)...)
		}
	}
	return out
})

type openAPIParam struct {
	Ref  string `json:"$ref"`
	Name string `json:"name"`
	In   string `json:"in"`
}

// checkQuery refuses a query parameter that the operation does not take
// (a misspelt one, or limit where a path has no pages), which would
// otherwise be ignored and change the answer without a word: a 400 that
// names it and lists the parameters the operation takes. Well-formed
// names allocate nothing.
func checkQuery(r *http.Request) error {
	raw := r.URL.RawQuery
	if raw == "" {
		return nil
	}
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	op := method + " " + routeTemplate(r)
	accepted, known := queryParams()[op]
	if !known {
		return nil // not documented: the document's own test names it
	}
	for raw != "" {
		var part string
		part, raw, _ = strings.Cut(raw, "&")
		if part == "" {
			continue
		}
		name, _, _ := strings.Cut(part, "=")
		if strings.ContainsAny(name, "%+") {
			if n, err := url.QueryUnescape(name); err == nil {
				name = n
			}
		}
		if !contains(accepted, name) {
			return unknownParam(op, name, accepted)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func unknownParam(op, name string, accepted []string) error {
	takes := "no query parameters"
	if len(accepted) > 0 {
		takes = "only " + strings.Join(accepted, ", ")
	}
	if name == "limit" || name == "offset" {
		return grocery.Errorf(grocery.EINVALIDARGUMENT, "query parameter %q is not supported by %s, whose answer is not paginated: it takes %s", name, op, takes)
	}
	return grocery.Errorf(grocery.EINVALIDARGUMENT, "unknown query parameter %q: %s takes %s", name, op, takes)
}
