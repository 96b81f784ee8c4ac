package grocery

import "strings"

// The languages of product names. A product has an English name and may
// have a French one; a query that takes a lang shows the name in it.
const (
	LangEnglish = "en" // the default
	LangFrench  = "fr"
)

// ParseLang reads a lang argument: "en" (also when empty) or "fr", in any
// case. It returns EINVALIDARGUMENT for anything else.
func ParseLang(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", LangEnglish:
		return LangEnglish, nil
	case LangFrench:
		return LangFrench, nil
	}
	return "", Errorf(EINVALIDARGUMENT, "lang %q is not supported: want en (English, the default) or fr (French)", s)
}

// nameIn returns a product's name in lang: its French name for French
// and its English name for English, each falling back to the other when
// the product lacks it (a product known by one name only shows that one).
func nameIn(name, nameFr, lang string) string {
	if lang == LangFrench && nameFr != "" || name == "" {
		return nameFr
	}
	return name
}
