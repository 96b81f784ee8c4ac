package publicdata

import (
	"cmp"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// HammerAttribution is the credit Project Hammer's terms ask for.
const HammerAttribution = "Project Hammer, Jacob Filipp (https://jacobfilipp.com/hammer/)"

// hammerStores are the stores whose prices Project Hammer collects: each
// vendor's web prices are those of one pickup store, in the North York
// area of Toronto for all but Save-On-Foods, priced in Kamloops, BC. The
// key is the vendor as the product file writes it, folded (lower case,
// letters and digits only).
var hammerStores = map[string]refStore{
	"voila":       {"hammer-voila", "voila", "ON", "Voilà online (Project Hammer, North York)", "North York", "M2N 6K1", 43.7615, -79.4111},
	"tandt":       {"hammer-t-and-t", "t-and-t", "ON", "T&T Supermarket (Project Hammer, North York)", "North York", "M2J 4A6", 43.7781, -79.3456},
	"loblaws":     {"hammer-loblaws", "loblaws", "ON", "Loblaws (Project Hammer, North York)", "North York", "M2N 5P1", 43.7701, -79.4137},
	"nofrills":    {"hammer-no-frills", "no-frills", "ON", "No Frills (Project Hammer, North York)", "North York", "M3J 2C4", 43.7594, -79.4904},
	"metro":       {"hammer-metro", "metro", "ON", "Metro (Project Hammer, North York)", "North York", "M2N 5N8", 43.7677, -79.4126},
	"galleria":    {"hammer-galleria", "galleria", "ON", "Galleria Supermarket (Project Hammer, North York)", "North York", "M2M 3X4", 43.7926, -79.4189},
	"walmart":     {"hammer-walmart", "walmart", "ON", "Walmart (Project Hammer, North York)", "North York", "M3A 1Z5", 43.7519, -79.3311},
	"saveonfoods": {"hammer-save-on-foods", "save-on-foods", "BC", "Save-On-Foods (Project Hammer, Kamloops)", "Kamloops", "V2C 1G8", 50.6745, -120.3273},
}

// hammerVendorAliases are other spellings of a vendor, folded.
var hammerVendorAliases = map[string]string{
	"tt": "tandt", "tandtsupermarket": "tandt", "galleriasupermarket": "galleria", "voilabysobeys": "voila",
	"saveon": "saveonfoods",
}

// hammerVendor returns the folded key of vendor in hammerStores.
func hammerVendor(vendor string) (string, bool) {
	k := fold(vendor)
	if a, ok := hammerVendorAliases[k]; ok {
		k = a
	}
	_, ok := hammerStores[k]
	return k, ok
}

func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '&':
			b.WriteString("and")
		case r == 'à':
			b.WriteRune('a')
		}
	}
	return b.String()
}

// hammerProduct is one row of hammer-4-product.csv, mapped.
type hammerProduct struct {
	store              *refStore
	sku, upc           string
	name, brand, units string
	lastDay            int32 // the last day an observation was written, to keep one a day
	num                int32 // its number in hammerConv.products
}

// hammerObs is a kept price, held until its chunk is written: 16 bytes.
type hammerObs struct {
	product, day   int32
	price, regular int32 // cents
}

// hammerChunkParts is how many parts of observations a chunk holds (see
// hammerConv.chunk).
const hammerChunkParts = 8

// Columns of the two Hammer files.
var (
	hammerProductCols = []string{"id", "concatted", "vendor", "product_name", "units", "brand", "detail_url", "sku", "upc"}
	hammerRawCols     = []string{"nowtime", "current_price", "old_price", "price_per_unit", "other", "product_id"}
)

// csvReader returns a reader of a published CSV file: lenient with quotes
// and field counts, as the published files need.
func csvReader(r io.Reader) *csv.Reader {
	cr := csv.NewReader(r)
	cr.LazyQuotes = true
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	return cr
}

// headerIndex maps each of want to its column in header (-1 when absent).
func headerIndex(header, want []string) []int {
	idx := make([]int, len(want))
	for i, w := range want {
		idx[i] = -1
		for j, h := range header {
			if strings.EqualFold(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")), w) {
				idx[i] = j
				break
			}
		}
	}
	return idx
}

func field(rec []string, i int) string {
	if i < 0 || i >= len(rec) {
		return ""
	}
	return strings.TrimSpace(rec[i])
}

// openCSV opens f, reads its header and returns the column of each of
// want (-1 when absent).
func openCSV(f File, want []string) (io.ReadCloser, *csv.Reader, []int, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, nil, nil, err
	}
	cr := csvReader(rc)
	header, err := cr.Read()
	if err != nil {
		rc.Close()
		return nil, nil, nil, fmt.Errorf("%s: %w", f.Name, err)
	}
	return rc, cr, headerIndex(header, want), nil
}

func convertHammer(files []File, opts Options) (*Conversion, error) {
	var products, raws []hammerInput
	for _, f := range files {
		p, r, err := sniffHammer(f)
		if err != nil {
			return nil, err
		}
		products, raws = append(products, p...), append(raws, r...)
	}
	if len(products) == 0 {
		return nil, errors.New("no product file: Project Hammer's hammer-4-raw.csv needs hammer-4-product.csv beside it")
	}
	sum := &Summary{Source: Hammer, Attribution: HammerAttribution}
	h := &hammerConv{sum: sum, opts: opts, byID: map[string]*hammerProduct{}, days: map[int32]bool{}}
	for _, f := range products {
		if err := h.readProducts(f); err != nil {
			return nil, err
		}
	}
	var stores []refStore
	for _, k := range []string{"voila", "tandt", "loblaws", "nofrills", "metro", "galleria", "walmart", "saveonfoods"} {
		if h.vendors[k] {
			stores = append(stores, hammerStores[k])
		}
	}
	sum.Stores = len(stores)
	conv := &Conversion{Source: Hammer, Stores: storesCSV(Hammer, stores), Summary: sum}
	conv.WriteObservations = func(ctx context.Context, partRows int, next func() (io.Writer, error)) error {
		pw := &partWriter{next: next, max: partRows, source: conv.Source}
		if partRows > 0 {
			h.chunk = make([]hammerObs, 0, partRows*hammerChunkParts)
		}
		for _, in := range raws {
			if err := h.readRaw(ctx, in, pw); err != nil {
				return err
			}
		}
		if err := h.flush(pw); err != nil {
			return err
		}
		h.finish()
		return pw.close()
	}
	return conv, nil
}

// hammerConv holds the state of one Hammer conversion.
type hammerConv struct {
	sum      *Summary
	opts     Options
	byID     map[string]*hammerProduct
	products []*hammerProduct     // by number
	stores   map[string]*refStore // hammerStores' stores met, by vendor key
	vendors  map[string]bool
	notMap   tally
	notes    tally
	days     map[int32]bool
	// chunk holds the prices kept, in the raw file's order (by time),
	// until it is full (hammerChunkParts parts) when the observations
	// are written in parts: it is written sorted by product, then day,
	// so that a part holds the days of a few products, not a few days
	// of every product. Each part's import then rewrites a product's
	// series, offer and search entries once for all its days of the
	// chunk, and the memory it takes grows with the part's size, not
	// with the number of products (187,000 in the real files). 16 bytes
	// a price: 64 MB for the default 4 million.
	chunk []hammerObs
	dates map[int32]string // a day's date, as written
}

// readProducts reads a product table (hammer-4-product.csv or the SQLite
// file's product table): each row a product of a known vendor, by id.
func (h *hammerConv) readProducts(in hammerInput) error {
	t, err := in.open()
	if err != nil {
		return err
	}
	defer t.Close()
	idx := headerIndex(t.Header(), hammerProductCols)
	if h.vendors == nil {
		h.vendors, h.stores = map[string]bool{}, map[string]*refStore{}
	}
	for {
		rec, err := t.Next()
		switch {
		case err == io.EOF:
			return nil
		case errors.Is(err, errNotCSV):
			h.notMap.add("product row not readable as CSV", t.Where())
		case err != nil:
			return err
		default:
			h.product(rec, idx, t)
		}
	}
}

// product maps a product row, rec, whose columns are idx.
func (h *hammerConv) product(rec []string, idx []int, t hammerTable) {
	id := field(rec, idx[0])
	vendor := field(rec, idx[2])
	key, ok := hammerVendor(vendor)
	switch {
	case id == "":
		h.notMap.add("product row without an id", t.Where())
		return
	case !ok:
		h.notMap.add("product of a vendor with no known banner", t.Where()+": "+vendor)
		return
	}
	st := h.stores[key]
	if st == nil {
		s := hammerStores[key]
		st = &s
		h.stores[key] = st
	}
	// Copies of the fields kept, not of the row: a row's strings
	// share one allocation, URL and all.
	p := &hammerProduct{store: st, name: strings.Clone(field(rec, idx[3])), units: strings.Clone(field(rec, idx[4])),
		brand: strings.Clone(field(rec, idx[5])), sku: strings.Clone(field(rec, idx[7])), lastDay: -1 << 30}
	if p.sku == "" {
		p.sku = "hammer-" + id
	}
	if upc := strings.TrimSuffix(field(rec, idx[8]), ".0"); upc != "" && h.opts.ValidBarcode(upc) {
		p.upc = strings.Clone(upc)
	} else {
		h.sum.SKUOnly++
	}
	h.vendors[key] = true
	if old := h.byID[id]; old != nil {
		p.num = old.num // a repeated id: the last row wins
		h.products[p.num] = p
	} else {
		p.num = int32(len(h.products))
		h.products = append(h.products, p)
	}
	h.byID[strings.Clone(id)] = p
	h.sum.Products++
}

// sentinelDate is the date some Hammer rows carry in place of one: the
// first day of the Julian period, written by the database for a null.
const sentinelDate = "-4713-11-24"

// readRaw reads a raw price table (hammer-4-raw.csv or the SQLite file's
// raw table), keeping each price it maps: written as it comes, or held
// in the chunk when the observations are written in parts.
func (h *hammerConv) readRaw(ctx context.Context, in hammerInput, pw *partWriter) error {
	t, err := in.open()
	if err != nil {
		return err
	}
	defer t.Close()
	idx := headerIndex(t.Header(), hammerRawCols)
	var out []string
	var o obsRow
	for n := 1; ; n++ {
		rec, err := t.Next()
		if err == io.EOF {
			return nil
		}
		if n%65536 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		h.sum.Rows++
		if errors.Is(err, errNotCSV) {
			h.notMap.add("row not readable as CSV", t.Where())
			continue
		} else if err != nil {
			return err
		}
		r, ok := h.price(rec, idx, t)
		if !ok {
			continue
		}
		h.sum.Kept++
		if h.chunk == nil {
			out = h.record(out, &o, r.p, r.date, r.price, r.regular)
			if err := pw.write(out); err != nil {
				return err
			}
			continue
		}
		h.chunk = append(h.chunk, hammerObs{product: r.p.num, day: r.day, price: int32(r.price), regular: int32(r.regular)})
		if len(h.chunk) == cap(h.chunk) {
			if err := h.flush(pw); err != nil {
				return err
			}
		}
	}
}

// hammerPrice is a raw row mapped: a product's price on a day.
type hammerPrice struct {
	p              *hammerProduct
	day            int32
	date           string
	price, regular int64 // cents
}

// price maps a raw row, rec, whose columns are idx; false when it is not
// kept, counted under its reason.
func (h *hammerConv) price(rec []string, idx []int, t hammerTable) (hammerPrice, bool) {
	at := func(v string) string { return t.Where() + ": " + strconv.Quote(v) }
	when := field(rec, idx[0])
	if strings.HasPrefix(when, sentinelDate) {
		h.notMap.add("sentinel date "+sentinelDate+" (no date recorded)", at(when))
		return hammerPrice{}, false
	}
	day, date, ok := parseDay(when)
	if !ok {
		h.notMap.add("nowtime is not a date", at(when))
		return hammerPrice{}, false
	}
	other := field(rec, idx[4])
	if strings.Contains(strings.ToLower(other), "out of stock") {
		h.notMap.add("out of stock: not a price observation", at(other))
		return hammerPrice{}, false
	}
	price, regular, ok := h.prices(rec, idx, at)
	if !ok {
		return hammerPrice{}, false
	}
	pid := field(rec, idx[5])
	p := h.byID[pid]
	if p == nil {
		h.notMap.add("product_id not in the product file (or its vendor not mapped)", at(pid))
		return hammerPrice{}, false
	}
	h.days[day] = true
	if p.lastDay == day {
		h.notMap.add("a later price the same day (the day's first is kept)", at(when))
		return hammerPrice{}, false
	}
	p.lastDay = day
	if strings.Contains(strings.ToUpper(other), "SALE") {
		h.notes.add("kept, marked SALE", at(other))
	}
	if price > 1<<31-1 || regular > 1<<31-1 {
		h.notMap.add("price over $21 million", at(field(rec, idx[1])))
		return hammerPrice{}, false
	}
	return hammerPrice{p: p, day: day, date: date, price: price, regular: regular}, true
}

// prices reads a raw row's current_price and old_price: the price and
// the regular price, in cents; false when it is not kept.
func (h *hammerConv) prices(rec []string, idx []int, at func(string) string) (price, regular int64, ok bool) {
	cur := field(rec, idx[1])
	price, ok = parseCents(cur)
	if !ok {
		if cur == "" {
			h.notMap.add("no current_price", at(strings.Join(rec, ",")))
		} else {
			h.notMap.add("current_price is not a number (shifted columns)", at(cur))
		}
		return 0, 0, false
	}
	regular = price
	if old := field(rec, idx[2]); old != "" {
		r, ok := parseCents(old)
		if !ok {
			h.notMap.add("old_price is not a number (shifted columns)", at(old))
			return 0, 0, false
		}
		regular = max(r, price)
	}
	if price <= 0 {
		h.notMap.add("current_price is not more than zero", at(cur))
		return 0, 0, false
	}
	return price, regular, true
}

// record returns out holding the observation of p on date.
func (h *hammerConv) record(out []string, o *obsRow, p *hammerProduct, date string, price, regular int64) []string {
	*o = obsRow{Date: date, Store: p.store.ID, Banner: p.store.Banner, SKU: p.sku, Price: price, Regular: regular,
		UPC: p.upc, Name: p.name, Brand: p.brand, Size: p.units}
	return o.record(out)
}

// flush writes the chunk's prices by product, then day, and empties it.
func (h *hammerConv) flush(pw *partWriter) error {
	slices.SortFunc(h.chunk, func(a, b hammerObs) int {
		if a.product != b.product {
			return cmp.Compare(a.product, b.product)
		}
		return cmp.Compare(a.day, b.day)
	})
	if h.dates == nil {
		h.dates = map[int32]string{}
	}
	var out []string
	var o obsRow
	for _, c := range h.chunk {
		date, ok := h.dates[c.day]
		if !ok {
			date = dayString(c.day)
			h.dates[c.day] = date
		}
		out = h.record(out, &o, h.products[c.product], date, int64(c.price), int64(c.regular))
		if err := pw.write(out); err != nil {
			return err
		}
	}
	h.chunk = h.chunk[:0]
	return nil
}

// finish completes the summary: reasons and the gaps between days.
func (h *hammerConv) finish() {
	h.sum.NotMapped = h.notMap.list()
	h.sum.Notes = h.notes.list()
	h.sum.Gaps = gaps(h.days, 3)
}

// gaps returns the runs of at least minDays days missing from days
// between its first and last day.
func gaps(days map[int32]bool, minDays int) []Gap {
	if len(days) == 0 {
		return nil
	}
	var all []int32
	for d := range days {
		all = append(all, d)
	}
	slices.Sort(all)
	var out []Gap
	for i := 1; i < len(all); i++ {
		if n := int(all[i] - all[i-1] - 1); n >= minDays {
			out = append(out, Gap{From: dayString(all[i-1] + 1), To: dayString(all[i] - 1), Days: n})
		}
	}
	return out
}

// parseDay reads the date at the start of s (YYYY-MM-DD, then a time or
// nothing) as days since 1970-01-01 and the date's text.
func parseDay(s string) (int32, string, bool) {
	if len(s) < 10 {
		return 0, "", false
	}
	t, err := time.Parse("2006-01-02", s[:10])
	if err != nil || t.Year() < 2000 {
		return 0, "", false
	}
	return int32(t.Unix() / 86400), s[:10], true
}

func dayString(d int32) string { return time.Unix(int64(d)*86400, 0).UTC().Format("2006-01-02") }

// parseCents reads a dollar amount as published: "4.99", "$4.99",
// "1,299.00"; at most two decimals.
func parseCents(s string) (int64, bool) {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "$"))
	s = strings.ReplaceAll(s, ",", "")
	if s == "" {
		return 0, false
	}
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" {
		whole = "0"
	}
	if len(frac) > 2 || len(whole) > 9 {
		return 0, false
	}
	var c int64
	for _, r := range whole {
		if r < '0' || r > '9' {
			return 0, false
		}
		c = c*10 + int64(r-'0')
	}
	c *= 100
	for i, r := range frac {
		if r < '0' || r > '9' {
			return 0, false
		}
		if i == 0 {
			c += 10 * int64(r-'0')
		} else {
			c += int64(r - '0')
		}
	}
	return c, true
}
