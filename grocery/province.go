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
}

var provinces = []Province{
	{"AB", "Alberta", "Alberta"},
	{"BC", "British Columbia", "Colombie-Britannique"},
	{"MB", "Manitoba", "Manitoba"},
	{"NB", "New Brunswick", "Nouveau-Brunswick"},
	{"NL", "Newfoundland and Labrador", "Terre-Neuve-et-Labrador"},
	{"NS", "Nova Scotia", "Nouvelle-Écosse"},
	{"NT", "Northwest Territories", "Territoires du Nord-Ouest"},
	{"NU", "Nunavut", "Nunavut"},
	{"ON", "Ontario", "Ontario"},
	{"PE", "Prince Edward Island", "Île-du-Prince-Édouard"},
	{"QC", "Quebec", "Québec"},
	{"SK", "Saskatchewan", "Saskatchewan"},
	{"YT", "Yukon", "Yukon"},
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
// It returns EINVALID, listing the valid codes, for anything else.
func ParseProvince(s string) (string, error) {
	if p, ok := provinceByKey[foldKey(s)]; ok {
		return p.Code, nil
	}
	if strings.TrimSpace(s) == "" {
		return "", Errorf(EINVALID, "province is required: one of %s", provinceCodes)
	}
	return "", Errorf(EINVALID, "province %q is not a Canadian province or territory: want one of %s (or an English or French name)", s, provinceCodes)
}

// ProvinceByCode returns the province with the given two-letter code.
func ProvinceByCode(code string) (Province, bool) {
	i := sort.Search(len(provinces), func(i int) bool { return provinces[i].Code >= code })
	if i < len(provinces) && provinces[i].Code == code {
		return provinces[i], true
	}
	return Province{}, false
}
