package grocery

import (
	"sort"
	"strings"
)

// Banner is a grocery chain's store brand, such as No Frills or IGA.
type Banner struct {
	Slug      string   `json:"banner"`      // lowercase identifier, e.g. "no-frills"
	Name      string   `json:"banner_name"` // display name, e.g. "No Frills"
	Owner     string   `json:"owner"`       // the company that runs it
	Discount  bool     `json:"discount"`    // a discount (hard-discount or low-price) format
	Provinces []string `json:"provinces"`   // where it operates
}

// banners holds the banners the service knows, sorted by slug.
var banners = func() []Banner {
	bs := []Banner{
		{"loblaws", "Loblaws", "Loblaw", false, codes("ON")},
		{"real-canadian-superstore", "Real Canadian Superstore", "Loblaw", false, codes("BC AB SK MB ON")},
		{"no-frills", "No Frills", "Loblaw", true, codes("AB BC MB NB NL NS ON PE SK")},
		{"zehrs", "Zehrs", "Loblaw", false, codes("ON")},
		{"fortinos", "Fortinos", "Loblaw", false, codes("ON")},
		{"valu-mart", "Valu-mart", "Loblaw", false, codes("ON")},
		{"your-independent-grocer", "Your Independent Grocer", "Loblaw", false, codes("ON NS NB PE NL BC AB SK MB")},
		{"provigo", "Provigo", "Loblaw", false, codes("QC")},
		{"maxi", "Maxi", "Loblaw", true, codes("QC")},
		{"atlantic-superstore", "Atlantic Superstore", "Loblaw", false, codes("NS NB PE")},
		{"dominion", "Dominion", "Loblaw", false, codes("NL")},
		{"t-and-t", "T&T Supermarket", "Loblaw", false, codes("BC AB ON QC")},
		{"sobeys", "Sobeys", "Empire", false, codes("AB BC MB NB NL NS ON PE QC SK")},
		{"safeway", "Safeway", "Empire", false, codes("BC AB SK MB")},
		{"iga", "IGA", "Empire", false, codes("QC")},
		{"foodland", "Foodland", "Empire", false, codes("ON NS NB PE")},
		{"freshco", "FreshCo", "Empire", true, codes("ON BC AB SK MB")},
		{"thrifty-foods", "Thrifty Foods", "Empire", false, codes("BC")},
		{"farm-boy", "Farm Boy", "Empire", false, codes("ON")},
		{"longos", "Longo's", "Empire", false, codes("ON")},
		{"voila", "Voilà", "Empire", false, codes("ON QC")},
		{"metro", "Metro", "Metro", false, codes("QC ON")},
		{"super-c", "Super C", "Metro", true, codes("QC")},
		{"food-basics", "Food Basics", "Metro", true, codes("ON")},
		{"walmart", "Walmart", "Walmart", true, codes("AB BC MB NB NL NS NT ON PE QC SK YT")},
		{"save-on-foods", "Save-On-Foods", "Pattison", false, codes("BC AB SK MB YT")},
		{"pricesmart-foods", "PriceSmart Foods", "Pattison", true, codes("BC")},
		{"buy-low-foods", "Buy-Low Foods", "Pattison", false, codes("BC AB")},
		{"co-op", "Co-op", "Federated Co-operatives", false, codes("BC AB SK MB")},
		{"giant-tiger", "Giant Tiger", "Giant Tiger", true, codes("ON QC NB NS PE NL MB SK AB")},
		{"costco", "Costco", "Costco", true, codes("BC AB SK MB ON QC NB NS NL PE")},
		{"galleria", "Galleria Supermarket", "Galleria", false, codes("ON")},
		{"northern", "The North West Company", "North West", false, codes("NU NT YT MB")},
	}
	sort.Slice(bs, func(i, j int) bool { return bs[i].Slug < bs[j].Slug })
	return bs
}()

func codes(list string) []string { return strings.Fields(list) }

var bannerByKey = func() map[string]*Banner {
	m := make(map[string]*Banner, 2*len(banners))
	for i := range banners {
		b := &banners[i]
		m[b.Slug] = b
		m[foldKey(b.Slug)] = b
		m[foldKey(b.Name)] = b
	}
	return m
}()

// Banners returns every known banner, sorted by slug.
func Banners() []Banner {
	out := make([]Banner, len(banners))
	for i, b := range banners {
		b.Provinces = append([]string(nil), b.Provinces...)
		out[i] = b
	}
	return out
}

// ParseBanner resolves a banner slug ("no-frills") or display name ("No
// Frills", any case) to its banner. It returns EINVALIDARGUMENT listing the known
// slugs when the banner is unknown.
func ParseBanner(s string) (Banner, error) {
	if b, ok := bannerByKey[strings.TrimSpace(s)]; ok {
		return *b, nil
	}
	if b, ok := bannerByKey[foldKey(s)]; ok && foldKey(s) != "" {
		return *b, nil
	}
	if strings.TrimSpace(s) == "" {
		return Banner{}, Errorf(EINVALIDARGUMENT, "banner is required: one of %s", bannerSlugs())
	}
	return Banner{}, Errorf(EINVALIDARGUMENT, "banner %q is unknown: want one of %s", s, bannerSlugs())
}

func bannerSlugs() string {
	slugs := make([]string, len(banners))
	for i, b := range banners {
		slugs[i] = b.Slug
	}
	return strings.Join(slugs, ", ")
}

// bannerName returns the display name of a slug, or the slug itself.
func bannerName(slug string) string {
	if b, ok := bannerByKey[slug]; ok {
		return b.Name
	}
	return slug
}

// OperatesIn reports whether the banner has stores in the province.
func (b Banner) OperatesIn(province string) bool {
	for _, p := range b.Provinces {
		if p == province {
			return true
		}
	}
	return false
}
