package importrow

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/grocerydata/grocery/internal/rowwrite"
	"github.com/grocerydata/grocery/internal/words"
)

// Kind describes the columns of one kind of file. The first required
// columns of columns are mandatory, the rest optional.
type Kind struct {
	Name     string
	Index    map[string]int // column name -> canonical column number
	columns  []string
	required int
}

func newKind(name string, required int, columns ...string) *Kind {
	k := &Kind{Name: name, columns: columns, required: required, Index: map[string]int{}}
	for i, c := range columns {
		k.Index[c] = i
	}
	return k
}

// The kinds of file an import reads. Each takes every column the export
// of its dataset writes, so that an export imports back as it comes: the
// columns the export derives (a store's banner_name and observations_30d,
// an observation's province, on_promo, currency and source) are checked
// against what they must be and not stored.
var (
	Stores = newKind("stores", 8,
		"store_id", "banner", "province", "name", "city", "postal_code", "latitude", "longitude", "active",
		"banner_name", "observations_30d", "source")
	Observations = newKind("observations", 5,
		"date", "store_id", "banner", "external_sku", "price",
		"regular_price", "promo_ends", "upc", "name", "brand", "size", "category", "name_fr",
		"product_type", "province", "on_promo", "currency", "source")
	kinds = []*Kind{Stores, Observations}
)

// Derived is an export dataset an import cannot read: its rows are
// computed from the stores and observations, which are what to import.
type Derived struct {
	Name      string
	Signature []string // columns of its export that no Kind takes
}

// ExportOnly returns the names of cols that no Kind takes: the columns
// that tell a Derived dataset's export.
func ExportOnly(cols []rowwrite.Column) []string {
	var out []string
	for _, c := range cols {
		taken := false
		for _, k := range kinds {
			if _, ok := k.Index[c.Name]; ok {
				taken = true
			}
		}
		if !taken {
			out = append(out, c.Name)
		}
	}
	return out
}

// Canonical column numbers of a stores file: Row.Get's argument.
const (
	StoreID = iota
	StoreBanner
	StoreProvince
	StoreName
	StoreCity
	StorePostal
	StoreLat
	StoreLon
	StoreActive
	StoreBannerName
	StoreObs30d
	StoreSource
)

// Canonical column numbers of an observations file: Row.Get's argument.
const (
	ObsDate = iota
	ObsStore
	ObsBanner
	ObsSKU
	ObsPrice
	ObsRegular
	ObsPromoEnds
	ObsUPC
	ObsName
	ObsBrand
	ObsSize
	ObsCategory
	ObsNameFr
	ObsType
	ObsProvince
	ObsOnPromo
	ObsCurrency
	ObsSource
)

// Describe lists the columns as "a, b, c[, d, e]".
func (k *Kind) Describe() string {
	s := strings.Join(k.columns[:k.required], ", ")
	if k.required < len(k.columns) {
		s += "[, " + strings.Join(k.columns[k.required:], ", ") + "]"
	}
	return s
}

func describeKinds() string {
	return "stores (" + Stores.Describe() + ") or observations (" + Observations.Describe() + ")"
}

// A message about a header lists all its names up to allNames (as many
// as a file of either kind has columns), else the first shownNames.
const (
	allNames   = 18
	shownNames = 5
)

// someOf lists the names, each cut to 64 bytes, or when there are more
// than allNames the first shownNames and a count of the rest: a header of
// thousands of names gets a short message.
func someOf(names []string) string {
	n := len(names)
	if n > allNames {
		n = shownNames
	}
	shown := make([]string, 0, n)
	for _, n := range names[:n] {
		shown = append(shown, shortName(n))
	}
	s := strings.Join(shown, ", ")
	if more := len(names) - len(shown); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

// shortName cuts a name to 64 bytes, at a rune boundary, marking the cut.
func shortName(n string) string {
	if len(n) <= 64 {
		return n
	}
	cut := 64
	for cut > 0 && !utf8.RuneStart(n[cut]) {
		cut--
	}
	return n[:cut] + "..."
}

// detect recognises the kind of a file from its column names, refusing
// the export of a derived dataset, and maps each canonical column to its
// position in a row (-1 when absent). It returns what is wrong with the
// names when they give no kind.
func detect(names []string, derived []Derived) (*Kind, []int, string) {
	seen := make(map[string]int, len(names))
	for i, n := range names {
		if _, ok := seen[n]; !ok {
			seen[n] = i
		}
	}
	for _, d := range derived {
		if len(d.Signature) > 0 && hasAll(seen, d.Signature...) {
			return nil, nil, fmt.Sprintf("columns %s are those of an export of dataset %s, which cannot be imported: %s are computed from the stores and observations, so export and import datasets stores and observations instead", strings.Join(d.Signature, ", "), d.Name, d.Name)
		}
	}
	// The kind whose required columns are all present wins; otherwise the
	// one with more of its required columns present.
	var kind *Kind
	best := 0
	for _, k := range kinds {
		have := 0
		for _, c := range k.columns[:k.required] {
			if _, ok := seen[c]; ok {
				have++
			}
		}
		if have == k.required {
			kind, best = k, have
			break
		}
		if have > best {
			kind, best = k, have
		}
	}
	// store_id, banner and name belong to both kinds: alone they say nothing.
	if kind == nil || best <= 2 && !hasAny(seen, "province", "postal_code", "latitude", "longitude", "date", "external_sku", "price") {
		return nil, nil, fmt.Sprintf("columns %s are not recognised: want %s", someOf(names), describeKinds())
	}
	for i, n := range names {
		if n == "" {
			return nil, nil, fmt.Sprintf("column %d has no name: %s has columns %s", i+1, kind.Article(), kind.Describe())
		}
		if j := seen[n]; j != i {
			return nil, nil, fmt.Sprintf("column %q appears twice (columns %d and %d)", n, j+1, i+1)
		}
	}
	var missing, unknown []string
	for _, c := range kind.columns[:kind.required] {
		if _, ok := seen[c]; !ok {
			missing = append(missing, c)
		}
	}
	for _, n := range names {
		if _, ok := kind.Index[n]; !ok {
			unknown = append(unknown, strconv.Quote(shortName(n)))
		}
	}
	var probs []string
	if len(missing) > 0 {
		probs = append(probs, "missing "+words.Plural(len(missing), "column")+" "+strings.Join(missing, ", "))
	}
	if len(unknown) > 0 {
		probs = append(probs, "unknown "+words.Plural(len(unknown), "column")+" "+someOf(unknown))
	}
	if len(probs) > 0 {
		return nil, nil, fmt.Sprintf("%s for %s: want %s", strings.Join(probs, "; "), kind.Article(), kind.Describe())
	}
	pos := make([]int, len(kind.columns))
	for i, c := range kind.columns {
		pos[i] = -1
		if j, ok := seen[c]; ok {
			pos[i] = j
		}
	}
	return kind, pos, ""
}

// Article names a file of the kind: "a stores file", "an observations file".
func (k *Kind) Article() string {
	if k == Observations {
		return "an observations file"
	}
	return "a stores file"
}

func hasAll(m map[string]int, keys ...string) bool {
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

func hasAny(m map[string]int, keys ...string) bool {
	for _, k := range keys {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// normalNames returns column names trimmed and in lower case.
func normalNames(names []string) []string {
	norm := make([]string, len(names))
	for i, n := range names {
		norm[i] = strings.ToLower(strings.TrimSpace(n))
	}
	return norm
}
