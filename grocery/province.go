package grocery

import (
	"sort"
	"strings"
)

// Province is a Canadian province or territory.
type Province struct {
	Code   string // two-letter code, e.g. "ON"
	Name   string // English name
	NameFR string // French name
	// Population is the number of inhabitants, in thousands (Statistics
	// Canada, estimate for July 1, 2024): a province's weight in the
	// national price of a barcode (geographic_prices, regional_comparison).
	Population int
}

var provinces = []Province{
	{"AB", "Alberta", "Alberta", 4889},
	{"BC", "British Columbia", "Colombie-Britannique", 5698},
	{"MB", "Manitoba", "Manitoba", 1494},
	{"NB", "New Brunswick", "Nouveau-Brunswick", 854},
	{"NL", "Newfoundland and Labrador", "Terre-Neuve-et-Labrador", 546},
	{"NS", "Nova Scotia", "Nouvelle-Écosse", 1076},
	{"NT", "Northwest Territories", "Territoires du Nord-Ouest", 45},
	{"NU", "Nunavut", "Nunavut", 41},
	{"ON", "Ontario", "Ontario", 16124},
	{"PE", "Prince Edward Island", "Île-du-Prince-Édouard", 179},
	{"QC", "Quebec", "Québec", 9056},
	{"SK", "Saskatchewan", "Saskatchewan", 1240},
	{"YT", "Yukon", "Yukon", 47},
}

// provinceCodes lists the valid codes for error messages.
const provinceCodes = "AB BC MB NB NL NS NT NU ON PE QC SK YT"

// provinceByKey maps folded codes and names (English and French, without
// accents, case or punctuation) to the province.
var provinceByKey = func() map[string]Province {
	m := make(map[string]Province, 3*len(provinces))
	for _, p := range provinces {
		m[strings.ToLower(p.Code)] = p
		m[foldKey(p.Name)] = p
		m[foldKey(p.NameFR)] = p
	}
	return m
}()

// Provinces returns the thirteen provinces and territories, sorted by code.
func Provinces() []Province {
	return append([]Province(nil), provinces...)
}

// ParseProvince normalises a province given as a code ("on"), an English
// name ("Ontario") or a French name ("Québec") to its two-letter code.
// It returns EINVALIDARGUMENT, listing the valid codes, for anything else.
func ParseProvince(s string) (string, error) {
	if p, ok := provinceByKey[foldKey(s)]; ok {
		return p.Code, nil
	}
	if strings.TrimSpace(s) == "" {
		return "", Errorf(EINVALIDARGUMENT, "province is required: one of %s", provinceCodes)
	}
	return "", Errorf(EINVALIDARGUMENT, "province %q is not a Canadian province or territory: want one of %s (or an English or French name)", s, provinceCodes)
}

// ProvinceByCode returns the province with the given two-letter code.
func ProvinceByCode(code string) (Province, bool) {
	i := sort.Search(len(provinces), func(i int) bool { return provinces[i].Code >= code })
	if i < len(provinces) && provinces[i].Code == code {
		return provinces[i], true
	}
	return Province{}, false
}
