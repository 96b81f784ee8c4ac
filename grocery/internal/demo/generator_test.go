package demo_test

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/grocery/internal/demo"
	"github.com/grocerydata/grocery/grocery/internal/textfold"
)

// demoTestAsOf is the last day of the test data sets.
var demoTestAsOf = func() demo.Date {
	d, err := grocery.ParseDate("2025-06-15")
	if err != nil {
		panic(err)
	}
	return demo.Date(d)
}()

// demoFresh is how many days an observation counts as current.
const demoFresh = 14

// newDemoGen returns the generator for grocery's banners, as BuildDemo does.
func newDemoGen(scale string, asOf demo.Date, seed int64) (*demo.Generator, error) {
	var bs []demo.Banner
	for _, b := range grocery.Banners() {
		bs = append(bs, demo.Banner{Slug: b.Slug, Name: b.Name, Owner: b.Owner, Provinces: b.Provinces})
	}
	return demo.New(demo.Config{Scale: scale, AsOf: asOf, Seed: seed, Banners: bs})
}

// demoTerritory reports whether p is one of the three territories.
func demoTerritory(p string) bool { return p == "YT" || p == "NT" || p == "NU" }

// demoMatches reports whether a search token of text starts with query.
func demoMatches(query, text string) bool {
	for _, t := range textfold.Tokens(text) {
		if strings.HasPrefix(t, query) {
			return true
		}
	}
	return false
}

// demoSet is a generated data set with its whole observation stream.
type demoSet struct {
	gen      *demo.Generator
	obs      []demo.Observation
	chunks   []int
	stores   map[string]demo.Store
	products map[string]demo.Product // by GTIN-14
	gtinOf   map[[2]string]string    // (banner, sku) -> GTIN-14
}

var (
	demoSmallOnce sync.Once
	demoSmallSet  *demoSet
	demoSmallErr  error
)

// mustDemoSmall returns the small data set for (demoTestAsOf, seed 1),
// generated once for all tests.
func mustDemoSmall(tb testing.TB) *demoSet {
	tb.Helper()
	demoSmallOnce.Do(func() { demoSmallSet, demoSmallErr = newDemoSet("small", demoTestAsOf, 1) })
	if demoSmallErr != nil {
		tb.Fatal(demoSmallErr)
	}
	return demoSmallSet
}

func newDemoSet(scale string, asOf demo.Date, seed int64) (*demoSet, error) {
	g, err := newDemoGen(scale, asOf, seed)
	if err != nil {
		return nil, err
	}
	s := &demoSet{
		gen:      g,
		stores:   map[string]demo.Store{},
		products: map[string]demo.Product{},
		gtinOf:   map[[2]string]string{},
	}
	err = g.Observations(func(obs []demo.Observation) error {
		s.chunks = append(s.chunks, len(obs))
		s.obs = append(s.obs, obs...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, st := range g.Stores() {
		s.stores[st.ID] = st
	}
	for _, p := range g.Catalogue() {
		s.products[p.GTIN] = p
	}
	for _, l := range g.Links() {
		s.gtinOf[[2]string{l.Banner, l.ExternalSKU}] = l.GTIN
	}
	return s, nil
}

// digest hashes everything a generator produces.
func demoDigest(t *testing.T, scale string, asOf demo.Date, seed int64) string {
	t.Helper()
	g, err := newDemoGen(scale, asOf, seed)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	put := func(h hash.Hash, parts ...any) {
		for _, p := range parts {
			fmt.Fprint(h, p, "\x00")
		}
	}
	for _, s := range g.Stores() {
		put(h, s.ID, s.Banner, s.BannerName, s.Province, s.Name, s.City, s.PostalCode, s.Latitude, s.Longitude, s.Active)
	}
	for _, p := range g.Catalogue() {
		put(h, p.GTIN, p.Name, p.Brand, p.Size, p.Category)
	}
	for _, l := range g.Links() {
		put(h, l.Banner, l.ExternalSKU, l.GTIN)
	}
	put(h, g.Samples())
	var buf [32]byte
	err = g.Observations(func(obs []demo.Observation) error {
		for _, o := range obs {
			h.Write([]byte(o.StoreID))
			h.Write([]byte(o.Banner))
			h.Write([]byte(o.ExternalSKU))
			binary.LittleEndian.PutUint32(buf[0:], uint32(o.Date))
			binary.LittleEndian.PutUint64(buf[4:], uint64(o.Price))
			binary.LittleEndian.PutUint64(buf[12:], uint64(o.RegularPrice))
			binary.LittleEndian.PutUint32(buf[20:], uint32(o.PromoEnds))
			h.Write(buf[:24])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

func TestDemoGenInvalid(t *testing.T) {
	tests := []struct {
		name  string
		scale string
		asOf  demo.Date
		want  string // in the message
	}{
		{"ErrUnknownScale", "huge", demoTestAsOf, "small, medium, large"},
		{"ErrEmptyScale", "", demoTestAsOf, "small, medium, large"},
		{"ErrTooEarly", "small", 100, "too early"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := newDemoGen(tt.scale, tt.asOf, 1)
			var invalid *demo.InvalidError
			if !errors.As(err, &invalid) {
				t.Fatalf("got %v, want an *InvalidError", err)
			}
			if got := invalid.Msg; !strings.Contains(got, tt.want) {
				t.Errorf("got message %q, want it to contain %q", got, tt.want)
			}
		})
	}
}

func TestDemoGenDeterministic(t *testing.T) {
	a := demoDigest(t, "small", demoTestAsOf, 1)
	if b := demoDigest(t, "small", demoTestAsOf, 1); b != a {
		t.Errorf("same inputs: got digest %s, want %s", b, a)
	}
	if c := demoDigest(t, "small", demoTestAsOf, 2); c == a {
		t.Errorf("seed 2: got the digest of seed 1 (%s), want a different data set", c)
	}
	if d := demoDigest(t, "small", demoTestAsOf+7, 1); d == a {
		t.Errorf("asOf a week later: got the same digest (%s), want a different data set", d)
	}
}

func TestDemoGenCatalogue(t *testing.T) {
	s := mustDemoSmall(t)
	cat := s.gen.Catalogue()
	if n := len(cat); n < 250 || n > 350 {
		t.Errorf("got %d products, want 250 to 350", n)
	}
	seen := map[string]bool{}
	sizeRE := regexp.MustCompile(`^(\d+ x )?\d+(\.\d+)? (g|kg|mL|L|[a-z]+( bags)?)$`)
	categories := map[string]int{}
	for _, p := range cat {
		got, err := grocery.ParseGTIN(p.GTIN)
		if err != nil || string(got) != p.GTIN {
			t.Errorf("GTIN %s: got %q, %v, want a valid GTIN-14", p.GTIN, got, err)
		}
		if got.Restricted() {
			t.Errorf("GTIN %s is a restricted-circulation number", p.GTIN)
		}
		if u := got.UPC(); !(len(u) == 12 && u[0] == '0' || len(u) == 13 && (strings.HasPrefix(u, "754") || strings.HasPrefix(u, "755"))) {
			t.Errorf("GTIN %s prints as %s, want a 0-prefixed UPC-A or a 754/755 EAN-13", p.GTIN, u)
		}
		if seen[p.GTIN] {
			t.Errorf("GTIN %s appears twice", p.GTIN)
		}
		seen[p.GTIN] = true
		if p.Name == "" || p.Brand == "" || p.Category == "" || strings.Contains(p.Name, p.Brand) {
			t.Errorf("product %s: got name %q brand %q category %q, want all set and the name without the brand", p.GTIN, p.Name, p.Brand, p.Category)
		}
		if !sizeRE.MatchString(p.Size) {
			t.Errorf("product %s: got size %q, want e.g. \"2 L\", \"675 g\", \"12 x 355 mL\", \"24 rolls\"", p.GTIN, p.Size)
		}
		if p.Type == "" {
			t.Errorf("product %s %s: got no product type, want every demo product to have one", p.GTIN, p.Name)
		}
		categories[p.Category]++
	}
	if len(categories) < 10 {
		t.Errorf("got %d categories (%v), want at least 10", len(categories), categories)
	}
	for _, want := range []string{"Dairy & Eggs", "Bakery", "Snacks", "Beverages", "Pantry", "Frozen", "Meat & Deli", "Household"} {
		if categories[want] == 0 {
			t.Errorf("category %q: got no products, want some", want)
		}
	}
}

// demoPostalProvinces maps a postal code's first letter to its provinces.
var demoPostalProvinces = map[byte]string{
	'A': "NL", 'B': "NS", 'C': "PE", 'E': "NB", 'G': "QC", 'H': "QC", 'J': "QC",
	'K': "ON", 'L': "ON", 'M': "ON", 'N': "ON", 'P': "ON", 'R': "MB", 'S': "SK",
	'T': "AB", 'V': "BC", 'X': "NT", 'Y': "YT",
}

func TestDemoGenStores(t *testing.T) {
	s := mustDemoSmall(t)
	stores := s.gen.Stores()
	if n := len(stores); n < 50 || n > 70 {
		t.Errorf("got %d stores, want 50 to 70", n)
	}
	postalRE := regexp.MustCompile(`^[ABCEGHJ-NPRSTVXY][0-9][ABCEGHJ-NPRSTV-Z] [0-9][ABCEGHJ-NPRSTV-Z][0-9]$`)
	idRE := regexp.MustCompile(`^[a-z]+-([a-z]{2})-[0-9]{4}$`)
	ids := map[string]bool{}
	inactive := 0
	territories := map[string]bool{}
	for i, st := range stores {
		b, err := grocery.ParseBanner(st.Banner)
		if err != nil || b.Slug != st.Banner {
			t.Errorf("store %s: banner %q does not parse: %v", st.ID, st.Banner, err)
			continue
		}
		if !b.OperatesIn(st.Province) {
			t.Errorf("store %s: got banner %s in %s, want a province of %v", st.ID, st.Banner, st.Province, b.Provinces)
		}
		if st.BannerName != b.Name {
			t.Errorf("store %s: got banner name %q, want %q", st.ID, st.BannerName, b.Name)
		}
		if !postalRE.MatchString(st.PostalCode) {
			t.Errorf("store %s: got postal code %q, want A1A 1A1 without D F I O Q U", st.ID, st.PostalCode)
		} else {
			want := demoPostalProvinces[st.PostalCode[0]]
			if fsa := st.PostalCode[:3]; fsa == "X0A" || fsa == "X0B" || fsa == "X0C" {
				want = "NU"
			}
			if want != st.Province {
				t.Errorf("store %s: got postal code %s in %s, want a code of %s", st.ID, st.PostalCode, st.Province, want)
			}
		}
		m := idRE.FindStringSubmatch(st.ID)
		if m == nil || m[1] != strings.ToLower(st.Province) {
			t.Errorf("store %s: got ID form %q, want like nofrills-on-0123 with the province", st.ID, st.ID)
		}
		if ids[st.ID] {
			t.Errorf("store ID %s appears twice", st.ID)
		}
		ids[st.ID] = true
		if i > 0 && stores[i-1].ID >= st.ID {
			t.Errorf("stores not sorted by ID: %s before %s", stores[i-1].ID, st.ID)
		}
		if st.Latitude < 41.6 || st.Latitude > 70 || st.Longitude < -141 || st.Longitude > -52.6 {
			t.Errorf("store %s: got (%v, %v), want a point in Canada", st.ID, st.Latitude, st.Longitude)
		}
		if st.Name == "" || st.City == "" {
			t.Errorf("store %s: got name %q city %q, want a name and a city", st.ID, st.Name, st.City)
		}
		if !st.Active {
			inactive++
		}
		if demoTerritory(st.Province) {
			territories[st.Province] = true
		}
	}
	if inactive == 0 || inactive > len(stores)/10 {
		t.Errorf("got %d inactive stores of %d, want a few", inactive, len(stores))
	}
	if len(territories) < 2 {
		t.Errorf("got stores in territories %v, want at least two territories", territories)
	}
}

// TestDemoGenEveryProvince checks that every scale gives each of the
// thirteen provinces and territories an active reference store, of a
// banner that operates there.
func TestDemoGenEveryProvince(t *testing.T) {
	t.Parallel()
	for _, scale := range []string{"small", "medium", "large", "national"} {
		t.Run(scale, func(t *testing.T) {
			t.Parallel()
			g, err := newDemoGen(scale, demoTestAsOf, 1)
			if err != nil {
				t.Fatal(err)
			}
			active := map[string]int{}
			for _, st := range g.Stores() {
				b, err := grocery.ParseBanner(st.Banner)
				if err != nil {
					t.Fatalf("store %s: %v", st.ID, err)
				}
				if !b.OperatesIn(st.Province) {
					t.Errorf("store %s: got banner %s in %s, want a province of %v", st.ID, st.Banner, st.Province, b.Provinces)
				}
				if st.Active {
					active[st.Province]++
				}
			}
			for _, p := range grocery.Provinces() {
				if active[p.Code] == 0 {
					t.Errorf("got no active store in %s, want at least one", p.Code)
				}
			}
		})
	}
}

func TestDemoGenObservations(t *testing.T) {
	s := mustDemoSmall(t)
	g := s.gen
	if n := len(s.obs); n < 150_000 || n > 300_000 {
		t.Errorf("got %d observations, want 150,000 to 300,000", n)
	}
	if got, want := g.ObservationCount(), len(s.obs); got != want {
		t.Errorf("ObservationCount: got %d, want %d (emitted)", got, want)
	}
	for i, n := range s.chunks {
		if n > 300_000 || n == 0 || i < len(s.chunks)-1 && n < 100_000 {
			t.Errorf("chunk %d: got %d observations, want 100,000 to 300,000 (the last one fewer)", i, n)
		}
	}

	start := demoTestAsOf - 119
	promos := 0
	var prev demo.Observation
	var prevProv string
	weekdays := map[string]map[time.Weekday]bool{}
	earliest := demoTestAsOf
	for i, o := range s.obs {
		st, ok := s.stores[o.StoreID]
		if !ok {
			t.Fatalf("observation %d: store %q is not a reference store", i, o.StoreID)
		}
		if o.Banner != st.Banner {
			t.Fatalf("observation %d: got banner %s at store %s, want %s", i, o.Banner, o.StoreID, st.Banner)
		}
		if o.Date > demoTestAsOf || o.Date < start {
			t.Fatalf("observation %d: got date %s, want %s to %s", i, o.Date, start, demoTestAsOf)
		}
		earliest = min(earliest, o.Date)
		if o.Price <= 0 || o.RegularPrice < o.Price {
			t.Fatalf("observation %d: got price %d regular %d, want 0 < price <= regular", i, o.Price, o.RegularPrice)
		}
		if d := o.RegularPrice % 10; d != 7 && d != 9 {
			t.Fatalf("observation %d: got regular price %d, want a retail ending (.x7 or .x9)", i, o.RegularPrice)
		}
		switch {
		case o.PromoEnds == 0 && o.Price != o.RegularPrice:
			t.Fatalf("observation %d: got price %d regular %d without a promotion, want them equal", i, o.Price, o.RegularPrice)
		case o.PromoEnds != 0:
			promos++
			if o.Price >= o.RegularPrice || o.PromoEnds < o.Date || o.PromoEnds > o.Date+20 || o.PromoEnds.Weekday() != time.Wednesday {
				t.Fatalf("observation %d: got promo %d (regular %d) on %s ending %s (%s), want a lower price ending on a Wednesday within 3 weeks",
					i, o.Price, o.RegularPrice, o.Date, o.PromoEnds, o.PromoEnds.Weekday())
			}
		}
		if _, ok := s.gtinOf[[2]string{o.Banner, o.ExternalSKU}]; !ok {
			t.Fatalf("observation %d: SKU %s of %s has no link", i, o.ExternalSKU, o.Banner)
		}
		if i > 0 && !demoLess(prev, prevProv, o, st.Province) {
			t.Fatalf("observation %d out of order: (%s %s %s %s %s) then (%s %s %s %s %s)", i,
				prev.Banner, prev.ExternalSKU, prevProv, prev.Date, prev.StoreID, o.Banner, o.ExternalSKU, st.Province, o.Date, o.StoreID)
		}
		prev, prevProv = o, st.Province
		panel := o.Banner + "/" + st.Province
		if weekdays[panel] == nil {
			weekdays[panel] = map[time.Weekday]bool{}
		}
		weekdays[panel][o.Date.Weekday()] = true
	}
	if earliest > start+6 {
		t.Errorf("got earliest date %s, want history from %s", earliest, start)
	}
	t.Logf("%d observations in %d chunks, %d on promotion", len(s.obs), len(s.chunks), promos)
	if share := float64(promos) / float64(len(s.obs)); share < 0.08 || share > 0.22 {
		t.Errorf("got %.1f%% of observations on promotion, want 8-22%%", 100*share)
	}
	for panel, days := range weekdays {
		if len(days) != 2 {
			t.Errorf("panel %s: got collection weekdays %v, want two fixed days", panel, days)
		}
	}
}

// demoLess reports whether a sorts strictly before b in the stream order
// (Banner, ExternalSKU, province, Date, StoreID).
func demoLess(a demo.Observation, aProv string, b demo.Observation, bProv string) bool {
	switch {
	case a.Banner != b.Banner:
		return a.Banner < b.Banner
	case a.ExternalSKU != b.ExternalSKU:
		return a.ExternalSKU < b.ExternalSKU
	case aProv != bProv:
		return aProv < bProv
	case a.Date != b.Date:
		return a.Date < b.Date
	}
	return a.StoreID < b.StoreID
}

func TestDemoGenEmitError(t *testing.T) {
	g, err := newDemoGen("small", demoTestAsOf, 1)
	if err != nil {
		t.Fatal(err)
	}
	stop := errors.New("disk full")
	calls := 0
	err = g.Observations(func([]demo.Observation) error { calls++; return stop })
	if err != stop || calls != 1 {
		t.Errorf("got %v after %d calls, want %v after 1", err, calls, stop)
	}
}

func TestDemoGenLinks(t *testing.T) {
	s := mustDemoSmall(t)
	perBannerProduct := map[[2]string]string{}
	for _, l := range s.gen.Links() {
		if _, ok := s.products[l.GTIN]; !ok {
			t.Errorf("link %s %s: GTIN %s is not in the catalogue", l.Banner, l.ExternalSKU, l.GTIN)
		}
		if _, err := grocery.ParseGTIN(l.ExternalSKU); err == nil {
			t.Errorf("link %s: SKU %q parses as a barcode, want it never to", l.Banner, l.ExternalSKU)
		}
		k := [2]string{l.Banner, string(l.GTIN)}
		if sku, ok := perBannerProduct[k]; ok {
			t.Errorf("banner %s sells %s under SKUs %s and %s, want one", l.Banner, l.GTIN, sku, l.ExternalSKU)
		}
		perBannerProduct[k] = l.ExternalSKU
	}
	if len(perBannerProduct) != len(s.gtinOf) {
		t.Errorf("got %d (banner, product) pairs for %d (banner, SKU) links, want one SKU per pair and one GTIN per SKU", len(perBannerProduct), len(s.gtinOf))
	}
	styles := []struct{ banner, re string }{
		{"no-frills", `^2\d{7}_EA$`},
		{"sobeys", `^SOB-\d{7}$`},
		{"metro", `^MET\d{7}$`},
		{"walmart", `^WM\d{10}$`},
	}
	for _, st := range styles {
		re := regexp.MustCompile(st.re)
		n := 0
		for k := range s.gtinOf {
			if k[0] == st.banner {
				n++
				if !re.MatchString(k[1]) {
					t.Errorf("banner %s: got SKU %q, want the form %s", st.banner, k[1], st.re)
				}
			}
		}
		if n == 0 {
			t.Errorf("banner %s: got no SKUs, want some", st.banner)
		}
	}
}

// demoOwners are the private labels and the grocer that owns each.
var demoOwners = map[string]string{
	"President's Choice": "Loblaw",
	"no name":            "Loblaw",
	"Compliments":        "Empire",
	"Selection":          "Metro",
	"Irresistibles":      "Metro",
	"Great Value":        "Walmart",
	"Western Family":     "Pattison",
	"Kirkland Signature": "Costco",
}

func TestDemoGenPrivateLabels(t *testing.T) {
	s := mustDemoSmall(t)
	owners := map[string]bool{}
	for _, o := range s.obs {
		p := s.products[s.gtinOf[[2]string{o.Banner, o.ExternalSKU}]]
		owner, private := demoOwners[p.Brand]
		if !private {
			continue
		}
		b, _ := grocery.ParseBanner(o.Banner)
		if b.Owner != owner {
			t.Fatalf("%s %s (%s) observed at %s (owner %s), want only %s banners", p.Brand, p.Name, p.GTIN, o.Banner, b.Owner, owner)
		}
		owners[owner] = true
	}
	if len(owners) < 4 {
		t.Errorf("got private labels observed for owners %v, want at least four owners", owners)
	}
}

// demoMeans returns the mean regular price per (province, GTIN, banner).
func demoMeans(s *demoSet) map[[3]string]float64 {
	sum := map[[3]string]float64{}
	n := map[[3]string]float64{}
	for _, o := range s.obs {
		k := [3]string{s.stores[o.StoreID].Province, string(s.gtinOf[[2]string{o.Banner, o.ExternalSKU}]), o.Banner}
		sum[k] += float64(o.RegularPrice)
		n[k]++
	}
	for k := range sum {
		sum[k] /= n[k]
	}
	return sum
}

func TestDemoGenPriceLevels(t *testing.T) {
	s := mustDemoSmall(t)
	means := demoMeans(s)

	t.Run("DiscountBanners", func(t *testing.T) {
		type acc struct{ sum, n float64 }
		disc, full := map[[2]string]*acc{}, map[[2]string]*acc{}
		for k, v := range means {
			b, _ := grocery.ParseBanner(k[2])
			m := full
			if b.Discount {
				m = disc
			}
			pk := [2]string{k[0], k[1]}
			if m[pk] == nil {
				m[pk] = &acc{}
			}
			m[pk].sum += v
			m[pk].n++
		}
		pairs, cheaper, ratio := 0, 0, 0.0
		for pk, d := range disc {
			f := full[pk]
			if f == nil || demoTerritory(pk[0]) {
				continue
			}
			r := (d.sum / d.n) / (f.sum / f.n)
			pairs++
			ratio += r
			if r < 1 {
				cheaper++
			}
		}
		if pairs < 100 {
			t.Fatalf("got %d (province, product) pairs sold by both kinds of banner, want at least 100", pairs)
		}
		t.Logf("discount / full-service: %.3f over %d pairs, cheaper in %d", ratio/float64(pairs), pairs, cheaper)
		if mean := ratio / float64(pairs); mean > 0.95 || mean < 0.80 {
			t.Errorf("discount / full-service regular price: got %.3f on average, want 0.80 to 0.95", mean)
		}
		if share := float64(cheaper) / float64(pairs); share < 0.85 {
			t.Errorf("discount banners cheaper for %.0f%% of (province, product) pairs, want at least 85%%", 100*share)
		}
	})

	t.Run("Territories", func(t *testing.T) {
		// Same banner, same product: the territory against Ontario.
		n, higher, ratio := 0, 0, 0.0
		for k, v := range means {
			if !demoTerritory(k[0]) {
				continue
			}
			on, ok := means[[3]string{"ON", k[1], k[2]}]
			if !ok {
				continue
			}
			r := v / on
			n++
			ratio += r
			if r >= 1.15 {
				higher++
			}
		}
		if n < 20 {
			t.Fatalf("got %d products sold by one banner in a territory and Ontario, want at least 20", n)
		}
		t.Logf("territory / Ontario: %.3f over %d products, %d at least 15%% dearer", ratio/float64(n), n, higher)
		if mean := ratio / float64(n); mean < 1.25 || mean > 1.8 {
			t.Errorf("territory / Ontario regular price: got %.3f on average, want 1.25 to 1.80", mean)
		}
		if higher < n*95/100 {
			t.Errorf("got %d of %d products at least 15%% dearer in the territories, want 95%%", higher, n)
		}
	})

	t.Run("ZonePricing", func(t *testing.T) {
		// Within one (banner, SKU, province, date), most stores agree.
		groups, split := 0, 0
		for i := 0; i < len(s.obs); {
			j, same := i+1, true
			prov := s.stores[s.obs[i].StoreID].Province
			for ; j < len(s.obs); j++ {
				o := s.obs[j]
				if o.Banner != s.obs[i].Banner || o.ExternalSKU != s.obs[i].ExternalSKU || o.Date != s.obs[i].Date || s.stores[o.StoreID].Province != prov {
					break
				}
				if o.RegularPrice != s.obs[i].RegularPrice {
					same = false
				}
			}
			if j-i >= 2 {
				groups++
				if !same {
					split++
				}
			}
			i = j
		}
		if groups == 0 {
			t.Fatal("got no panel with two stores, want some")
		}
		t.Logf("%d of %d multi-store readings differ", split, groups)
		if share := float64(split) / float64(groups); share == 0 || share > 0.4 {
			t.Errorf("got %.1f%% of multi-store readings with differing regular prices, want some but under 40%%", 100*share)
		}
	})

	t.Run("PriceChanges", func(t *testing.T) {
		// Regular prices move over time in a good share of series.
		regs := map[[3]string]map[int64]bool{}
		for _, o := range s.obs {
			k := [3]string{o.Banner, o.ExternalSKU, o.StoreID}
			if regs[k] == nil {
				regs[k] = map[int64]bool{}
			}
			regs[k][o.RegularPrice] = true
		}
		moved := 0
		for _, set := range regs {
			if len(set) > 1 {
				moved++
			}
		}
		t.Logf("%d of %d series changed their regular price", moved, len(regs))
		if share := float64(moved) / float64(len(regs)); share < 0.2 || share > 0.9 {
			t.Errorf("got %.0f%% of (store, SKU) series with a regular price change, want 20-90%%", 100*share)
		}
	})
}

func TestDemoGenLifecycle(t *testing.T) {
	s := mustDemoSmall(t)
	asOf := demoTestAsOf
	first, last := map[string]demo.Date{}, map[string]demo.Date{}
	storeLast := map[string]demo.Date{}
	provinces := map[string]map[string]bool{}
	for _, o := range s.obs {
		x := s.gtinOf[[2]string{o.Banner, o.ExternalSKU}]
		if d, ok := first[x]; !ok || o.Date < d {
			first[x] = o.Date
		}
		last[x] = max(last[x], o.Date)
		storeLast[o.StoreID] = max(storeLast[o.StoreID], o.Date)
		if provinces[x] == nil {
			provinces[x] = map[string]bool{}
		}
		provinces[x][s.stores[o.StoreID].Province] = true
	}

	newProducts, discontinued, notInON := 0, 0, 0
	for x := range s.products {
		switch {
		case first[x] >= asOf-20:
			newProducts++
		case last[x] != 0 && last[x] < asOf-28:
			discontinued++
		}
		if len(provinces[x]) > 0 && !provinces[x]["ON"] {
			notInON++
		}
	}
	t.Logf("%d new, %d discontinued, %d never in ON, %d products", newProducts, discontinued, notInON, len(s.products))
	if newProducts < 3 {
		t.Errorf("got %d products first observed within 21 days of asOf, want at least 3", newProducts)
	}
	if discontinued < 3 {
		t.Errorf("got %d products last observed over 4 weeks before asOf, want at least 3", discontinued)
	}
	if notInON < 5 {
		t.Errorf("got %d products observed elsewhere but never in ON, want at least 5 (regional products)", notInON)
	}

	inactive := 0
	for _, st := range s.stores {
		if st.Active {
			continue
		}
		inactive++
		if d := storeLast[st.ID]; d == 0 || d > asOf-demoFresh || d < asOf-60 {
			t.Errorf("inactive store %s: got last observation %s, want 3-8 weeks before %s", st.ID, d, asOf)
		}
	}
	if inactive == 0 {
		t.Error("got no inactive store, want a few")
	}
}

func TestDemoGenSamples(t *testing.T) {
	s := mustDemoSmall(t)
	sm := s.gen.Samples()
	if sm.Province != "ON" {
		t.Fatalf("got province %q, want ON", sm.Province)
	}
	fresh := demoTestAsOf - demoFresh + 1
	current := map[string]map[string]bool{} // ON, last 14 days: GTIN -> banners
	var skuFirst, skuLast demo.Date
	for _, o := range s.obs {
		if s.stores[o.StoreID].Province != "ON" {
			continue
		}
		x := s.gtinOf[[2]string{o.Banner, o.ExternalSKU}]
		if o.Date >= fresh {
			if current[x] == nil {
				current[x] = map[string]bool{}
			}
			current[x][o.Banner] = true
		}
		if o.Banner == sm.Banner && o.ExternalSKU == sm.SKU {
			if skuFirst == 0 || o.Date < skuFirst {
				skuFirst = o.Date
			}
			skuLast = max(skuLast, o.Date)
		}
	}
	gtin := func(code string) string {
		t.Helper()
		g, err := grocery.ParseGTIN(code)
		if err != nil || string(g) != code {
			t.Fatalf("sample %q: got %s, %v, want a GTIN-14", code, g, err)
		}
		return code
	}

	t.Run("CarriedUPC", func(t *testing.T) {
		x := gtin(sm.CarriedGTIN)
		if _, ok := s.products[x]; !ok {
			t.Fatalf("got %s, want a catalogue product", sm.CarriedGTIN)
		}
		if n := len(current[x]); n < 3 {
			t.Errorf("got %d banners with current ON offers for %s, want at least 3", n, sm.CarriedGTIN)
		}
	})
	t.Run("NotCarriedUPC", func(t *testing.T) {
		x := gtin(sm.NotCarriedGTIN)
		if _, ok := s.products[x]; !ok {
			t.Fatalf("got %s, want a catalogue product", sm.NotCarriedGTIN)
		}
		if n := len(current[x]); n != 0 {
			t.Errorf("got %d banners with current ON offers for %s, want 0", n, sm.NotCarriedGTIN)
		}
	})
	t.Run("UnknownUPC", func(t *testing.T) {
		x := gtin(sm.UnknownGTIN)
		if _, ok := s.products[x]; ok {
			t.Errorf("got %s, want a barcode the catalogue lacks", sm.UnknownGTIN)
		}
		if grocery.GTIN(x).Restricted() {
			t.Errorf("got %s, want an unrestricted barcode", sm.UnknownGTIN)
		}
	})
	t.Run("SKU", func(t *testing.T) {
		if skuFirst == 0 || skuFirst > demoTestAsOf-90 || skuLast < fresh {
			t.Errorf("SKU %s at %s in ON: got observations %s to %s, want at least 90 days up to the last 14", sm.SKU, sm.Banner, skuFirst, skuLast)
		}
	})
	t.Run("Query", func(t *testing.T) {
		hits := 0
		for x, bs := range current {
			p := s.products[x]
			if demoMatches(sm.Query, p.Name+" "+p.Brand) {
				hits += len(bs)
			}
		}
		if sm.Query == "" || hits < 5 {
			t.Errorf("query %q: got %d current ON hits, want at least 5", sm.Query, hits)
		}
	})
}

// BenchmarkDemoGenLarge generates the large data set in memory and reports
// observations per second.
func BenchmarkDemoGenLarge(b *testing.B) {
	if testing.Short() {
		b.Skip("large demo generation in -short mode")
	}
	n, iters := 0, 0
	for b.Loop() {
		iters++
		g, err := newDemoGen("large", demoTestAsOf, 1)
		if err != nil {
			b.Fatal(err)
		}
		n = 0
		err = g.Observations(func(obs []demo.Observation) error { n += len(obs); return nil })
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "obs")
	b.ReportMetric(float64(n)*float64(iters)/b.Elapsed().Seconds(), "obs/s")
}

// TestDemoGenPriceInForceCases: the demo holds what the rule of a price
// in force is for (a store's latest observation carried over the days it
// is not visited, a promotion past its stated end at its regular price, a
// store that left the panel), so that every path reading current prices
// meets them: stores of one banner visited on different days, promotions
// that end between two visits of a store, and stores whose last
// observation is more than 14 days before the latest day.
func TestDemoGenPriceInForceCases(t *testing.T) {
	s := mustDemoSmall(t)
	type seriesKey struct{ banner, sku, province string }
	type storeKey struct {
		seriesKey
		store string
	}
	daysSeen := map[seriesKey]map[demo.Date]int{} // stores observed per series day
	storesOf := map[seriesKey]map[string]bool{}
	last := map[storeKey]demo.Observation{}
	endedBetween := 0
	lastSeen := map[string]demo.Date{}
	for _, o := range s.obs {
		k := seriesKey{o.Banner, o.ExternalSKU, s.stores[o.StoreID].Province}
		if daysSeen[k] == nil {
			daysSeen[k], storesOf[k] = map[demo.Date]int{}, map[string]bool{}
		}
		daysSeen[k][o.Date]++
		storesOf[k][o.StoreID] = true
		sk := storeKey{k, o.StoreID}
		if p, ok := last[sk]; ok && p.PromoEnds != 0 && p.PromoEnds < o.Date-1 {
			endedBetween++ // p's promotion ended before this visit: in force at its regular price between
		}
		last[sk] = o
		lastSeen[o.StoreID] = max(lastSeen[o.StoreID], o.Date)
	}
	partial := 0 // series days on which some store of a several-store series was not visited
	for k, days := range daysSeen {
		if n := len(storesOf[k]); n >= 2 {
			for _, c := range days {
				if c < n {
					partial++
				}
			}
		}
	}
	left := 0
	for id, d := range lastSeen {
		if !s.stores[id].Active && d < demoTestAsOf-14 {
			left++
		}
	}
	t.Logf("%d series days with a store not visited, %d promotions ended between visits, %d stores left the panel", partial, endedBetween, left)
	if partial < 1000 || endedBetween < 1000 || left < 1 {
		t.Errorf("got %d series days with a store not visited, %d promotions ended between visits, %d stores that left; want at least 1,000, 1,000 and 1",
			partial, endedBetween, left)
	}
}

// TestDemoGenNational checks the national scale's size and shape: at
// least 20,000 products, each priced somewhere; at least 300 stores; over
// a hundred million observations; every store read every day.
func TestDemoGenNational(t *testing.T) {
	g, err := newDemoGen("national", demoTestAsOf, 1)
	if err != nil {
		t.Fatal(err)
	}
	cat := g.Catalogue()
	if len(cat) < 20000 {
		t.Errorf("got %d products, want at least 20,000", len(cat))
	}
	linked := map[string]bool{}
	for _, l := range g.Links() {
		linked[l.GTIN] = true
	}
	// A pack size keeps its product's type ("Skim Milk" in 2 and 4 L);
	// a qualified variant is of a type of its own, named by its
	// qualifiers, so that no like-for-like comparison takes organic
	// milk for milk.
	typeOf := map[[2]string]string{} // name, brand -> type
	organic := 0
	for _, p := range cat {
		if !linked[p.GTIN] {
			t.Errorf("product %s %s %s: no banner carries it, want every product priced somewhere", p.GTIN, p.Name, p.Size)
		}
		k := [2]string{p.Name, p.Brand}
		if typ, ok := typeOf[k]; ok && typ != p.Type {
			t.Errorf("%s %s: got types %q and %q for two sizes, want one", p.Brand, p.Name, typ, p.Type)
		}
		typeOf[k] = p.Type
		if strings.HasPrefix(p.Name, "Organic ") {
			organic++
			if !strings.HasPrefix(p.Type, "organic ") {
				t.Errorf("%s %s: got type %q, want an organic type", p.Brand, p.Name, p.Type)
			}
		}
	}
	if organic == 0 {
		t.Error("no organic product: the type check above checked nothing")
	}
	// Every item of the line table is in the catalogue, and every
	// variant's item with it.
	items, variants, orphans, tableItems := g.CatalogueShape()
	if items != tableItems || orphans != 0 || variants == 0 {
		t.Errorf("got %d items (of the table's %d), %d variants, %d of them without their item; want every item, variants, none without", items, tableItems, variants, orphans)
	}

	// A panel that prices a variant (organic milk) prices its item
	// (milk), and every product is priced by some panel.
	panels, prods, of := g.SeriesProducts()
	type panelProduct struct{ panel, product int }
	priced := map[panelProduct]bool{}
	for i := range panels {
		priced[panelProduct{panels[i], prods[i]}] = true
	}
	variantSeries := 0
	for i := range panels {
		if item := of[prods[i]]; item >= 0 {
			variantSeries++
			if !priced[panelProduct{panels[i], item}] {
				t.Fatalf("panel %d prices product %d but not its item, product %d", panels[i], prods[i], item)
			}
		}
	}
	if variantSeries == 0 {
		t.Error("no series of a variant: the check above checked nothing")
	}
	if n := len(g.Stores()); n < 300 {
		t.Errorf("got %d stores, want at least 300", n)
	}
	if n := g.ObservationCount(); n < 100_000_000 {
		t.Errorf("got %d observations, want at least 100 million", n)
	}

	// The first chunk's reads: each (store, SKU) is read on consecutive
	// days but for the missed reads (3 %).
	last := map[string]demo.Date{}
	gaps := map[int]int{} // days between reads: count
	stop := errors.New("stop")
	err = g.Observations(func(chunk []demo.Observation) error {
		for _, o := range chunk {
			k := o.StoreID + "|" + o.ExternalSKU
			if d, ok := last[k]; ok {
				gaps[int(o.Date-d)]++
			}
			last[k] = o.Date
		}
		return stop
	})
	if !errors.Is(err, stop) {
		t.Fatal(err)
	}
	total := 0
	for _, n := range gaps {
		total += n
	}
	if total == 0 || gaps[1]*100 < total*95 {
		t.Errorf("got gaps between reads %v, want at least 95 %% of them one day", gaps)
	}
}
