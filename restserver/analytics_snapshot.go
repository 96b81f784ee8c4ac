package restserver

import (
	"net/http"

	"github.com/grocerydata/grocery/grocery"
)

// geographicPrices answers GET /b2b/geographic_prices?upc= (or category=).
func (s *server) geographicPrices(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.GeoPricesInput{UPC: p.str("upc"), Category: p.str("category")}
	if p.err != nil {
		return p.err
	}
	res, err := grocery.Cached(r.Context(), s.svc, "GeographicPrices", s.svc.GeographicPrices, in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, res)
}

// regionalComparison answers GET /b2b/regional_comparison[?upc=|category=].
func (s *server) regionalComparison(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.RegionalInput{UPC: p.str("upc"), Category: p.str("category")}
	if p.err != nil {
		return p.err
	}
	res, err := grocery.Cached(r.Context(), s.svc, "RegionalComparison", s.svc.RegionalComparison, in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, res)
}

// competitiveBenchmark answers GET /b2b/competitive_benchmark?banner=&province=.
func (s *server) competitiveBenchmark(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.BenchmarkInput{Banner: p.str("banner"), Province: p.str("province")}
	if p.err != nil {
		return p.err
	}
	res, err := grocery.Cached(r.Context(), s.svc, "CompetitiveBenchmark", s.svc.CompetitiveBenchmark, in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, res)
}

// brandInsights answers GET /b2b/brand_insights?brand=[&province=&period=].
func (s *server) brandInsights(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.BrandInput{Brand: p.str("brand"), Province: p.str("province"), Period: p.str("period")}
	if p.err != nil {
		return p.err
	}
	res, err := grocery.Cached(r.Context(), s.svc, "BrandInsights", s.svc.BrandInsights, in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, res)
}

// basket answers POST /b2b/basket {province, items: [{upc | name, quantity}]}.
func (s *server) basket(w http.ResponseWriter, r *http.Request) error {
	var in grocery.BasketInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	res, err := s.svc.CompareBasket(r.Context(), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, res)
}
