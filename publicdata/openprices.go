package publicdata

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// OpenPricesAttribution is the credit the Open Prices data dump's
// licence, the Open Database License, asks for.
const OpenPricesAttribution = "Open Prices, Open Food Facts contributors (https://prices.openfoodfacts.org), ODbL 1.0"

// The columns of the Open Prices dump that Convert reads.
var openPricesCols = []string{"type", "product_code", "price", "price_is_discounted", "price_without_discount", "currency", "date",
	"location_osm_id", "location_osm_type", "location_osm_display_name", "location_osm_address_city",
	"location_osm_address_postcode", "location_osm_address_country_code", "location_osm_lat", "location_osm_lon",
	"product_name", "location_osm_address_country", "category_tag"}

const (
	opType = iota
	opCode
	opPrice
	opDiscounted
	opWithout
	opCurrency
	opDate
	opOSMID
	opOSMType
	opDisplay
	opCity
	opPostcode
	opCountryCode
	opLat
	opLon
	opProductName
	opCountry
	opCategory
)

func convertOpenPrices(files []File, opts Options) (*Conversion, error) {
	if opts.Banner == nil || opts.Province == nil || opts.OpenParquet == nil {
		return nil, fmt.Errorf("publicdata: Open Prices needs Options.Banner, Province and OpenParquet")
	}
	sum := &Summary{Source: OpenPrices, Attribution: OpenPricesAttribution}
	c := &opConv{sum: sum, opts: opts, stores: map[string]*refStore{}}
	// The first pass finds the stores, which the import takes first.
	stores, err := c.findStores(files)
	if err != nil {
		return nil, err
	}
	sum.Stores = len(stores)
	conv := &Conversion{Source: OpenPrices, Stores: storesCSV(OpenPrices, stores), Summary: sum}
	conv.WriteObservations = func(ctx context.Context, partRows int, next func() (io.Writer, error)) error {
		pw := &partWriter{next: next, max: partRows, source: conv.Source}
		products := map[string]bool{}
		for _, f := range files {
			if err := c.writeFile(ctx, f, pw, products); err != nil {
				return err
			}
		}
		sum.NotMapped = c.notMap.list()
		return pw.close()
	}
	return conv, nil
}

// findStores returns the reference stores the rows of files name, each
// once, in the order first named; c.stores maps each row's store, nil
// for one that is not mapped.
func (c *opConv) findStores(files []File) ([]refStore, error) {
	var stores []refStore
	for _, f := range files {
		err := c.each(f, func(rec []string, at string) {
			if _, reason := c.row(rec); reason != "" {
				return
			}
			key := c.storeKey(rec)
			if _, ok := c.stores[key]; ok {
				return
			}
			st, reason := c.store(rec)
			if reason != "" {
				c.stores[key] = nil
				return
			}
			c.stores[key] = st
			stores = append(stores, *st)
		})
		if err != nil {
			return nil, err
		}
	}
	return stores, nil
}

// writeFile writes the observation rows of f to pw, counting them in
// c.sum (products: the barcodes counted so far) and tallying the rows
// not mapped.
func (c *opConv) writeFile(ctx context.Context, f File, pw *partWriter, products map[string]bool) error {
	var werr error
	var out []string
	err := c.each(f, func(rec []string, at string) {
		c.sum.Rows++
		o, reason := c.row(rec)
		if reason != "" {
			c.notMap.add(reason, at)
			return
		}
		st := c.stores[c.storeKey(rec)]
		if st == nil {
			_, reason := c.store(rec)
			c.notMap.add(reason, at+": "+field(rec, c.idx[opDisplay]))
			return
		}
		o.Store, o.Banner = st.ID, st.Banner
		if !products[o.UPC] {
			products[o.UPC] = true
			c.sum.Products++
		}
		out = o.record(out)
		if werr == nil {
			if werr = pw.write(out); werr == nil {
				c.sum.Kept++
			}
		}
	})
	if err == nil {
		err = werr
	}
	if err == nil {
		err = ctx.Err()
	}
	return err
}

// opConv holds the state of one Open Prices conversion.
type opConv struct {
	sum    *Summary
	opts   Options
	idx    []int
	stores map[string]*refStore // by OSM type and id; nil: not mapped
	notMap tally
}

// each calls fn with each row of f (an Open Prices Parquet dump).
func (c *opConv) each(f File, fn func(rec []string, at string)) error {
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	rows, err := c.opts.OpenParquet(rc)
	if err != nil {
		return fmt.Errorf("%s: %w", f.Name, err)
	}
	defer rows.Close()
	c.idx = headerIndex(rows.Header(), openPricesCols)
	for _, need := range []int{opCode, opPrice, opCurrency, opDate, opOSMID} {
		if c.idx[need] < 0 {
			return fmt.Errorf("%s is not an Open Prices dump: it has no column %s", f.Name, openPricesCols[need])
		}
	}
	for n := 1; ; n++ {
		rec, err := rows.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
		fn(rec, fmt.Sprintf("%s: row %d", f.Name, n))
	}
}

func (c *opConv) storeKey(rec []string) string {
	return strings.ToLower(field(rec, c.idx[opOSMType])) + field(rec, c.idx[opOSMID])
}

// row maps a price row to an observation without its store, or says why
// it is not mapped.
func (c *opConv) row(rec []string) (obsRow, string) {
	cc := strings.ToUpper(field(rec, c.idx[opCountryCode]))
	if cc == "" && strings.EqualFold(field(rec, c.idx[opCountry]), "Canada") {
		cc = "CA"
	}
	if cc != "CA" {
		return obsRow{}, "not in Canada"
	}
	if cur := strings.ToUpper(field(rec, c.idx[opCurrency])); cur != "CAD" {
		return obsRow{}, "not in Canadian dollars"
	}
	code := field(rec, c.idx[opCode])
	if code == "" || strings.EqualFold(field(rec, c.idx[opType]), "CATEGORY") {
		return obsRow{}, "a raw-category price without a barcode (" + field(rec, c.idx[opCategory]) + ")"
	}
	if !c.opts.ValidBarcode(code) {
		return obsRow{}, "product_code is not a valid GTIN"
	}
	price, ok := floatCents(field(rec, c.idx[opPrice]))
	if !ok || price <= 0 {
		return obsRow{}, "price is not a positive amount"
	}
	regular := price
	if b, _ := strconv.ParseBool(field(rec, c.idx[opDiscounted])); b {
		if w, ok := floatCents(field(rec, c.idx[opWithout])); ok && w > price {
			regular = w
		}
	}
	_, date, ok := parseDay(field(rec, c.idx[opDate]))
	if !ok {
		return obsRow{}, "date is not a date"
	}
	if field(rec, c.idx[opOSMID]) == "" {
		return obsRow{}, "no OpenStreetMap location"
	}
	return obsRow{Date: date, SKU: code, UPC: code, Price: price, Regular: regular, Name: field(rec, c.idx[opProductName])}, ""
}

// store maps a row's OpenStreetMap location to a reference store.
func (c *opConv) store(rec []string) (*refStore, string) {
	display := field(rec, c.idx[opDisplay])
	name, _, _ := strings.Cut(display, ",")
	name = strings.TrimSpace(name)
	banner, ok := c.opts.Banner(name)
	if !ok {
		return nil, "the store's brand is not a banner the service knows"
	}
	postal := field(rec, c.idx[opPostcode])
	prov, ok := c.opts.Province(postal)
	if !ok {
		return nil, "the store has no Canadian postal code in location_osm_address_postcode (the province comes from it, not from the coordinates)"
	}
	lat, err1 := strconv.ParseFloat(field(rec, c.idx[opLat]), 64)
	lon, err2 := strconv.ParseFloat(field(rec, c.idx[opLon]), 64)
	if err1 != nil || err2 != nil {
		return nil, "the store has no coordinates"
	}
	city := field(rec, c.idx[opCity])
	if city == "" {
		city = "?"
	}
	id := "openprices-" + strings.ToLower(field(rec, c.idx[opOSMType])) + "-" + field(rec, c.idx[opOSMID])
	return &refStore{ID: id, Banner: banner, Province: prov, Name: name + " (Open Prices)", City: city, Postal: postal, Lat: lat, Lon: lon}, ""
}

// floatCents reads a price written as a number (4.99, 4.989999771118164
// from a float column) as cents.
func floatCents(s string) (int64, bool) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || f > 1e7 {
		return 0, false
	}
	return int64(math.Round(f * 100)), true
}
