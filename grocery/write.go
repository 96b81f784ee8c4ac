package grocery

import (
	"context"
	"strings"

	"github.com/grocerydata/grocery/grocery/internal/ingest"
	"github.com/grocerydata/grocery/grocery/internal/unitprice"
	"github.com/grocerydata/grocery/storage"
)

// The write path: grocery validates a batch of its public types and
// converts it to ingest's records; ingest writes them in one transaction
// and keeps every derived structure in step (offers, search tokens,
// store-latest prices, store volumes, the analytics aggregates); the alert
// rules follow the series written through the write's hook (alertHook).

// seriesKey names a series: a banner's SKU in a province.
type seriesKey = ingest.SeriesKey

// obsRec is an observation in the compact form the write path sorts.
type obsRec = ingest.Obs

// writeRules are the rules of the product the write path applies.
var writeRules = &ingest.Rules{
	Provinces:     strings.Fields(provinceCodes),
	FreshDays:     freshDays,
	PriceLookback: priceLookback,
	PromoGap:      promoGap,
	StoreSource:   SourceImport,
	Unit:          unitCode,
	Merge: func(given, earlier *storage.Product, update bool) (keptName, bool) {
		return mergeFacts(storedFacts(given), storedFacts(earlier), update)
	},
}

// unitCode is unitprice.Of with the basis numbered by unitprice.Code.
func unitCode(size string) (float64, uint32) {
	qty, basis := unitprice.Of(size)
	if qty <= 0 {
		return 0, 0
	}
	return qty, unitprice.Code(basis)
}

// productFacts points at a product's name, French name, brand, size,
// category and product type.
type productFacts [6]*string

func itemFacts(it *CatalogueItem) productFacts {
	return productFacts{&it.Name, &it.NameFr, &it.Brand, &it.Size, &it.Category, &it.Type}
}

func storedFacts(p *storage.Product) productFacts {
	return productFacts{&p.Name, &p.NameFr, &p.Brand, &p.Size, &p.Category, &p.Type}
}

// mergeFacts is the rule for a product's facts given again: an empty one
// is the earlier one (nothing clears a fact); a name (English or French)
// that differs from an earlier one gives way to it unless update, and the
// first such name is returned with its column (name or name_fr) and the
// name kept (ok true); other facts take the new value.
func mergeFacts(given, earlier productFacts, update bool) (k keptName, ok bool) {
	for i := range given {
		g, e := given[i], earlier[i]
		switch {
		case *g == "":
			*g = *e
		case i < 2 && *e != "" && *g != *e && !update:
			if !ok {
				k, ok = keptName{Field: [2]string{"name", "name_fr"}[i], Given: *g, Kept: *e}, true
			}
			*g = *e
		}
	}
	return k, ok
}

// writeBatch writes b in one transaction: all of it or, on error, none of
// it, with every derived structure kept in step (ingest.Write). It returns
// EINVALIDARGUMENT for a store whose banner or province is not known, and for an
// observation whose store is unknown or of another banner.
func (s *Service) writeBatch(ctx context.Context, b *batch) (batchStats, error) {
	return s.write(ctx, b, ingest.KeysAnywhere)
}

// write is writeBatch with the series keys in order.
func (s *Service) write(ctx context.Context, b *batch, order ingest.Order) (batchStats, error) {
	return s.commitWrite(ctx, func(tx *storage.Tx, hook ingest.Hook) (ingest.Stats, error) {
		recs, err := b.records()
		if err != nil {
			return ingest.Stats{}, err
		}
		return ingest.Write(ctx, tx, writeRules, hook, recs, order)
	})
}

// writeImport writes an observations file's import, or a batch of it, in one transaction: the
// products and links of b, then the observations feed passes to its
// callback in chunks, in ingest.WriteImport's order, then what derives from them
// (ingest.WriteImport). stores lists the file's stores by the numbers its
// obsRecs use, ords their Ord as the import sorted them. then, when not
// nil, writes in the same transaction once the rows are. feed's error, or
// the first write error, rolls everything back.
func (s *Service) writeImport(ctx context.Context, b *batch, stores []string, ords []uint32, series []seriesKey,
	feed func(write func([]obsRec) error) error, then func(tx *storage.Tx) error) (batchStats, error) {
	return s.commitWrite(ctx, func(tx *storage.Tx, hook ingest.Hook) (ingest.Stats, error) {
		recs, err := b.records()
		if err != nil {
			return ingest.Stats{}, err
		}
		st, err := ingest.WriteImport(ctx, tx, writeRules, hook, recs, stores, ords, series, feed)
		if err == nil && then != nil {
			err = then(tx)
		}
		return st, err
	})
}

// commitWrite runs one write in a write transaction, with the alert
// rules' hook, and once it committed moves DataVersion on and evaluates
// the rules left for after the commit.
func (s *Service) commitWrite(ctx context.Context, run func(*storage.Tx, ingest.Hook) (ingest.Stats, error)) (batchStats, error) {
	hook, release := s.alertHook()
	defer release()
	var st batchStats
	err := s.db.Update(func(tx *storage.Tx) error {
		var err error
		st.Stats, err = run(tx, hook)
		return fromFault(err)
	})
	if err != nil {
		return batchStats{}, err
	}
	s.dataWritten()
	st.alertsErr = hook.afterCommit(ctx)
	return st, nil
}

// records converts b to ingest's records. It returns EINVALIDARGUMENT for a
// store whose banner or province is not known.
func (b *batch) records() (*ingest.Batch, error) {
	out := &ingest.Batch{UpdateNames: b.UpdateNames, Stores: make([]storage.Store, len(b.Stores)),
		Products: make([]storage.Product, len(b.Products)), Links: make([]ingest.Link, len(b.Links)),
		SKUFacts: b.SKUFacts, Observations: make([]ingest.Observation, len(b.Observations))}
	for i := range b.Stores {
		in := &b.Stores[i]
		banner, err := ParseBanner(in.Banner)
		if err != nil {
			return nil, err
		}
		prov, err := ParseProvince(in.Province)
		if err != nil {
			return nil, err
		}
		out.Stores[i] = storage.Store{ID: in.ID, Banner: banner.Slug, Province: prov, Name: in.Name, City: in.City,
			PostalCode: in.PostalCode, Latitude: in.Latitude, Longitude: in.Longitude, Active: in.Active, Source: in.Source}
	}
	for i, in := range b.Products {
		out.Products[i] = storage.Product{GTIN: string(in.GTIN), Name: in.Name, NameFr: in.NameFr, Brand: in.Brand, Size: in.Size, Category: in.Category, Type: in.Type}
	}
	for i, in := range b.Links {
		out.Links[i] = ingest.Link{Banner: in.Banner, SKU: in.ExternalSKU, GTIN: string(in.GTIN)}
	}
	for i := range b.Observations {
		o := &b.Observations[i]
		out.Observations[i] = ingest.Observation{Date: int32(o.Date), StoreID: o.StoreID, Banner: o.Banner, SKU: o.ExternalSKU,
			Price: uint32(o.Price), Regular: uint32(o.RegularPrice), PromoEnd: int32(o.PromoEnds)}
	}
	return out, nil
}
