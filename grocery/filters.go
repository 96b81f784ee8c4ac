package grocery

import (
	"fmt"
	"strings"
)

// The filters the analytics share: province, banner and category, and a
// date range.

// analyticsArgs are the common filters of the period analytics, checked.
type analyticsArgs struct {
	province string
	banner   Banner // zero when not given
	category string // as given, trimmed; "" when not given
}

// parseAnalyticsArgs checks the province (required), banner and category
// filters shared by the analytics.
func parseAnalyticsArgs(province, banner, category string) (analyticsArgs, error) {
	var a analyticsArgs
	var err error
	if a.province, err = ParseProvince(province); err != nil {
		return a, err
	}
	if strings.TrimSpace(banner) != "" {
		if a.banner, err = ParseBanner(banner); err != nil {
			return a, err
		}
	}
	a.category = strings.TrimSpace(category)
	if len(a.category) > 100 {
		return a, Errorf(EINVALIDARGUMENT, "category is %d characters long: want at most 100", len(a.category))
	}
	return a, nil
}

// matchCategory reports whether a stored category is the one asked for
// (all when want is ""), case-insensitively.
func matchCategory(stored, want string) bool {
	return want == "" || strings.EqualFold(stored, want)
}

// emptyNote says why a result is empty.
func (a *analyticsArgs) emptyNote(what string, from, to Date) string {
	scope := a.province
	if a.banner.Slug != "" {
		scope = a.banner.Slug + " in " + scope
		if !a.banner.OperatesIn(a.province) {
			return fmt.Sprintf("banner %s does not operate in %s: no %s observed in the panel", a.banner.Slug, a.province, what)
		}
	}
	if a.category != "" {
		scope = "category " + a.category + ", " + scope
	}
	return fmt.Sprintf("no %s: not observed in the panel (%s) from %s to %s, which does not prove there is none", what, scope, from, to)
}

// maxAnalyticsDays bounds a date range of the analytics.
const maxAnalyticsDays = 366

// parseRange reads from and to (YYYY-MM-DD, optional), defaulting to the
// def days up to asOf, and checks them.
func parseRange(fromS, toS string, asOf Date, def int) (Date, Date, error) {
	to := asOf
	if strings.TrimSpace(toS) != "" {
		d, err := ParseDate(strings.TrimSpace(toS))
		if err != nil {
			return 0, 0, Errorf(EINVALIDARGUMENT, "to %q is not a date: want YYYY-MM-DD", toS)
		}
		to = d
	}
	from := to - Date(def) + 1
	if strings.TrimSpace(fromS) != "" {
		d, err := ParseDate(strings.TrimSpace(fromS))
		if err != nil {
			return 0, 0, Errorf(EINVALIDARGUMENT, "from %q is not a date: want YYYY-MM-DD", fromS)
		}
		from = d
	}
	if from > to {
		return 0, 0, Errorf(EINVALIDARGUMENT, "from %s is after to %s", from, to)
	}
	if int(to-from) >= maxAnalyticsDays {
		return 0, 0, Errorf(EINVALIDARGUMENT, "from %s to %s spans %d days: want at most %d", from, to, to-from+1, maxAnalyticsDays)
	}
	return from, to, nil
}
