package grocery

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/grocerydata/grocery/grocery/internal/demo"
	"github.com/grocerydata/grocery/grocery/internal/ingest"
	"github.com/grocerydata/grocery/storage"
)

// DemoOptions configures BuildDemo. A nil *DemoOptions means the defaults.
type DemoOptions struct {
	Scale    string                // "small" (default), "medium", "large" or "national"
	AsOf     Date                  // last day of data; 0 means today (UTC)
	Seed     int64                 // 0 means the default seed, 1
	Force    bool                  // replace an existing file
	Progress func(done, total int) // observations written so far; may be nil
}

// DemoSamples are identifiers to try on a fresh demo data set: each one
// exercises a different answer of the query tools.
type DemoSamples struct {
	Province      string `json:"province"`        // e.g. "ON"
	CarriedUPC    string `json:"carried_upc"`     // a barcode with several current offers in Province
	NotCarriedUPC string `json:"not_carried_upc"` // a barcode the catalogue knows but no banner carries in Province now
	UnknownUPC    string `json:"unknown_upc"`     // a GS1-valid barcode that is not in the catalogue
	SKU           string `json:"sku"`             // an external_sku with at least 90 days of history in Province
	Banner        string `json:"banner"`          // its banner slug
	Query         string `json:"query"`           // a search query with several hits in Province
}

// DemoSummary describes a built demo data file.
type DemoSummary struct {
	Path         string        `json:"path"`
	Scale        string        `json:"scale"`
	AsOf         Date          `json:"as_of"`
	Stores       int           `json:"stores"`
	Products     int           `json:"products"`
	Observations int           `json:"observations"`
	Bytes        int64         `json:"bytes"`
	Samples      DemoSamples   `json:"samples"`
	Elapsed      time.Duration `json:"-"`
}

// BuildDemo writes a realistic, deterministic Canadian demo data set to a
// new data file at path: real banners in the provinces where they operate,
// reference stores around real cities, GS1-valid barcodes, weekly flyer
// promotions, regional price levels, products not carried in some
// provinces and new products in the last weeks. The same scale, date and
// seed always give the same data. The file is built beside path and moved
// into place only when complete.
//
// It returns EINVALIDARGUMENT for an unknown scale, or when path exists and
// opts.Force is false, and ECONFLICT when another process (a server, a
// reader) holds the file at path: it never replaces a file in use.
func BuildDemo(ctx context.Context, path string, opts *DemoOptions) (*DemoSummary, error) {
	start := time.Now()
	if opts == nil {
		opts = &DemoOptions{}
	}
	scale, asOf, seed := opts.Scale, opts.AsOf, opts.Seed
	if scale == "" {
		scale = "small"
	}
	if asOf == 0 {
		asOf = DateOf(time.Now())
	}
	if seed == 0 {
		seed = 1
	}
	gen, err := newDemoGen(scale, asOf, seed)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return nil, Errorf(EINVALIDARGUMENT, "cannot build the demo data in %s: the directory %s does not exist", path, filepath.Dir(path))
	}
	if _, err := os.Stat(path); err == nil && !opts.Force {
		return nil, Errorf(EINVALIDARGUMENT, "data file %s already exists: pass --force to replace it", path)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, Errorf(EINVALIDARGUMENT, "cannot use %s: %v", path, err)
	}
	// Replacing a file that a server holds would leave the server writing
	// keys and counts to a deleted file: hold the file's lock until the new
	// one is in place, and refuse while anyone else holds it.
	unlock, err := storage.LockFile(path)
	switch {
	case errors.Is(err, storage.ErrLocked):
		return nil, Errorf(ECONFLICT, "data file %s is in use by another process (a running server?): stop it before replacing the file", path)
	case err == nil:
		defer unlock()
	case !errors.Is(err, fs.ErrNotExist):
		return nil, Errorf(EINVALIDARGUMENT, "cannot use %s: %v", path, err)
	}
	tmp := path + ".building"
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, Errorf(EINVALIDARGUMENT, "cannot remove %s: %v", tmp, err)
	}
	sum, err := buildDemo(ctx, tmp, gen, opts.Progress)
	if err != nil {
		os.Remove(tmp)
		return nil, err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return nil, Errorf(EINVALIDARGUMENT, "cannot move the demo file into place: %v", err)
	}
	sum.Path, sum.Scale, sum.AsOf, sum.Elapsed = path, scale, asOf, time.Since(start)
	return sum, nil
}

// newDemoGen returns the demo generator for grocery's banners. It returns
// EINVALIDARGUMENT for an unknown scale or an as-of date too early for it.
func newDemoGen(scale string, asOf Date, seed int64) (*demo.Generator, error) {
	bs := make([]demo.Banner, len(banners))
	for i, b := range banners {
		bs[i] = demo.Banner{Slug: b.Slug, Name: b.Name, Owner: b.Owner, Provinces: b.Provinces}
	}
	gen, err := demo.New(demo.Config{Scale: scale, AsOf: demo.Date(asOf), Seed: seed, Banners: bs})
	var invalid *demo.InvalidError
	switch {
	case errors.As(err, &invalid):
		return nil, Errorf(EINVALIDARGUMENT, "%s", invalid.Msg)
	case err != nil:
		return nil, Errorf(EINTERNAL, "%v", err)
	}
	return gen, nil
}

// demoBatch converts the generator's stores, catalogue and links.
func demoBatch(gen *demo.Generator) *batch {
	b := &batch{}
	for _, s := range gen.Stores() {
		b.Stores = append(b.Stores, Store{ID: s.ID, Banner: s.Banner, BannerName: s.BannerName, Province: s.Province,
			Name: s.Name, City: s.City, PostalCode: s.PostalCode, Latitude: s.Latitude, Longitude: s.Longitude, Active: s.Active,
			Source: SourceDemo})
	}
	for _, p := range gen.Catalogue() {
		b.Products = append(b.Products, CatalogueItem{GTIN: GTIN(p.GTIN), Name: p.Name, NameFr: p.NameFr, Brand: p.Brand, Size: p.Size, Category: p.Category, Type: p.Type})
	}
	for _, l := range gen.Links() {
		b.Links = append(b.Links, SKULink{Banner: l.Banner, ExternalSKU: l.ExternalSKU, GTIN: GTIN(l.GTIN)})
	}
	return b
}

// demoObservations converts a chunk of the generator's observations.
func demoObservations(chunk []demo.Observation) []Observation {
	out := make([]Observation, len(chunk))
	for i, o := range chunk {
		out[i] = Observation{Date: Date(o.Date), StoreID: o.StoreID, Banner: o.Banner, ExternalSKU: o.ExternalSKU,
			Price: Cents(o.Price), RegularPrice: Cents(o.RegularPrice), PromoEnds: Date(o.PromoEnds)}
	}
	return out
}

// demoSamples converts the generator's samples, printing barcodes as UPCs.
func demoSamples(s demo.Samples) DemoSamples {
	return DemoSamples{Province: s.Province, CarriedUPC: GTIN(s.CarriedGTIN).UPC(), NotCarriedUPC: GTIN(s.NotCarriedGTIN).UPC(),
		UnknownUPC: GTIN(s.UnknownGTIN).UPC(), SKU: s.SKU, Banner: s.Banner, Query: s.Query}
}

func buildDemo(ctx context.Context, path string, gen *demo.Generator, progress func(done, total int)) (*DemoSummary, error) {
	s, err := open(path, &Options{}, storage.Options{NoSync: true}, nil)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	sum := &DemoSummary{Samples: demoSamples(gen.Samples())}
	head := demoBatch(gen)
	if _, err := s.write(ctx, head, ingest.KeysAnywhere); err != nil {
		return nil, err
	}
	sum.Stores, sum.Products = len(head.Stores), len(head.Products)
	total := gen.ObservationCount()
	err = gen.Observations(func(chunk []demo.Observation) error {
		// The generator emits series in key order, after everything
		// already written: append-order writes pack pages full.
		if _, err := s.write(ctx, &batch{Observations: demoObservations(chunk)}, ingest.KeysAppended); err != nil {
			return err
		}
		sum.Observations += len(chunk)
		if progress != nil {
			progress(sum.Observations, total)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := s.db.Sync(); err != nil {
		return nil, err
	}
	if sum.Bytes, err = s.db.Size(); err != nil {
		return nil, err
	}
	return sum, nil
}
