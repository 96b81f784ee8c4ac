package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
)

// Store is a stored reference store.
type Store struct {
	ID, Banner, Province   string
	Name, City, PostalCode string
	Latitude, Longitude    float64
	Active                 bool
	Ord                    uint32 // compact number used inside series values; assigned by PutStore
	Observations30d        uint32
	// Source names the feed the store's prices come from ("demo",
	// "import", "hammer", "openprices"): every observation of the store
	// has its store's source, so it is kept once a store, not once a
	// row. Version 11 adds it; Options.StoreSource names it for the
	// stores of an older file.
	Source string
}

func (s *Store) encode(e enc) enc {
	e = e.uvarint(uint64(s.Ord)).str(s.Banner).str(s.Province).str(s.Name).str(s.City).str(s.PostalCode)
	return e.f64(s.Latitude).f64(s.Longitude).bool(s.Active).uvarint(uint64(s.Observations30d)).str(s.Source)
}

func decodeStore(id string, v []byte, s *Store) error {
	d := dec{b: v}
	*s = Store{ID: id, Ord: d.u32(), Banner: d.str(), Province: d.str(), Name: d.str(), City: d.str(),
		PostalCode: d.str(), Latitude: d.f64(), Longitude: d.f64(), Active: d.bool(), Observations30d: d.u32()}
	if len(d.b) > 0 {
		// A version 10 store ends here, without a source: the upgrade
		// reads it so.
		s.Source = d.str()
	}
	return d.err
}

func storeLocKey(province, banner, id string) []byte {
	b := make([]byte, 0, len(province)+len(banner)+len(id)+1)
	return append(appendStr0(append(b, province...), banner), id...)
}

// Store reads the store with the given id.
func (t *Tx) Store(id string, s *Store) (bool, error) {
	v := t.getString(idStores, id)
	if v == nil {
		return false, nil
	}
	return true, decodeStore(id, v, s)
}

// StoreIs reports whether a store with the given id exists and, if so,
// whether it belongs to banner, without decoding the rest of it: the
// check of every query about one store.
func (t *Tx) StoreIs(id, banner string) (found, ofBanner bool, err error) {
	v := t.getString(idStores, id)
	if v == nil {
		return false, false, nil
	}
	d := dec{b: v}
	d.u32() // Ord
	b := d.raw()
	return true, string(b) == banner, d.err
}

// PutStore writes s, assigning s.Ord when the store is new, and keeps the
// listing of active stores by province and banner in step.
func (t *Tx) PutStore(s *Store) error {
	var old Store
	found, err := t.Store(s.ID, &old)
	if err != nil {
		return err
	}
	if found {
		s.Ord = old.Ord
		if old.Province != s.Province || old.Banner != s.Banner {
			if err := t.storeLoc().Delete(storeLocKey(old.Province, old.Banner, old.ID)); err != nil {
				return err
			}
		}
	} else {
		n := t.storeCount() + 1
		if err := t.put(t.meta(), keyOrd, binary.BigEndian.AppendUint32(nil, n)); err != nil {
			return err
		}
		t.storeN, s.Ord = n, n
	}
	v := s.encode(nil)
	if err := t.put(t.stores(), []byte(s.ID), v); err != nil {
		return err
	}
	if !s.Active {
		return t.storeLoc().Delete(storeLocKey(s.Province, s.Banner, s.ID))
	}
	return t.put(t.storeLoc(), storeLocKey(s.Province, s.Banner, s.ID), v)
}

// upgradeStoreSources names the source of every store of a file older
// than version 11 by source (none when nil), rewriting each store and its
// listing.
func (t *Tx) upgradeStoreSources(source func(id string) string) error {
	if source == nil {
		return nil
	}
	var all []Store
	if err := t.ForEachStore(func(s *Store) error { all = append(all, *s); return nil }); err != nil {
		return err
	}
	for i := range all {
		if all[i].Source != "" {
			continue
		}
		all[i].Source = source(all[i].ID)
		if err := t.PutStore(&all[i]); err != nil {
			return err
		}
	}
	return nil
}

// storeCount returns the number of stores PutStore has numbered, the
// highest Store.Ord, read once per transaction.
func (t *Tx) storeCount() uint32 {
	if !t.storeNRead {
		if v := t.meta().Get(keyOrd); len(v) == 4 {
			t.storeN = binary.BigEndian.Uint32(v)
		}
		t.storeNRead = true
	}
	return t.storeN
}

// ActiveStores calls fn for each active store in province (all provinces
// when "") and banner (all banners when ""), ordered by province, banner
// and id. fn may keep s only until it returns; it stops the scan by
// returning ErrStop.
func (t *Tx) ActiveStores(province, banner string, fn func(s *Store) error) error {
	var s Store
	return stopped(t.activeStores(province, banner, func(id, v []byte) (bool, error) {
		if err := decodeStore(string(id), v, &s); err != nil {
			return false, err
		}
		return true, fn(&s)
	}))
}

// CountActiveStores counts the stores ActiveStores would list.
func (t *Tx) CountActiveStores(province, banner string) (int, error) {
	n := 0
	err := t.activeStores(province, banner, func(id, v []byte) (bool, error) { n++; return true, nil })
	return n, err
}

// ActiveStoreCounts calls fn for each banner with active stores in
// province, by banner, with how many (CountActiveStores of each, in one
// scan of the province's stores rather than one search a banner).
func (t *Tx) ActiveStoreCounts(province string, fn func(banner string, n int) error) error {
	var (
		cur []byte
		n   int
	)
	flush := func() error {
		if n == 0 {
			return nil
		}
		return fn(t.names.get(cur), n)
	}
	c := t.storeLoc().Cursor()
	prefix := []byte(province)
	for k, _ := c.Seek(prefix); hasPrefix(k, prefix); k, _ = c.Next() {
		if len(k) < 3 {
			return errCorrupt
		}
		kb, _, ok := bytes.Cut(k[2:], []byte{0})
		if !ok {
			return errCorrupt
		}
		if !bytes.Equal(kb, cur) {
			if err := flush(); err != nil {
				return stopped(err)
			}
			cur, n = kb, 0
		}
		n++
	}
	return stopped(flush())
}

func (t *Tx) activeStores(province, banner string, fn func(id, v []byte) (bool, error)) error {
	var prefix []byte
	if province != "" {
		prefix = []byte(province)
		if banner != "" {
			prefix = appendStr0(prefix, banner)
		}
	}
	c := t.storeLoc().Cursor()
	for k, v := c.Seek(prefix); hasPrefix(k, prefix); k, v = c.Next() {
		if len(k) < 3 {
			return errCorrupt
		}
		kb, id, ok := bytes.Cut(k[2:], []byte{0})
		if !ok {
			return errCorrupt
		}
		if banner != "" && string(kb) != banner {
			continue
		}
		if more, err := fn(id, v); !more || err != nil {
			return err
		}
	}
	return nil
}

// ForEachStore calls fn for every stored store, active or not, by id.
func (t *Tx) ForEachStore(fn func(s *Store) error) error {
	var s Store
	return t.stores().ForEach(func(k, v []byte) error {
		if err := decodeStore(string(k), v, &s); err != nil {
			return err
		}
		return fn(&s)
	})
}

// Product is a stored catalogue product.
type Product struct {
	GTIN                        string
	Name, Brand, Size, Category string
	NameFr                      string // the French name, "" when none is known
	Type                        string // the product type below the category ("skim milk"), "" when none is known
	FirstSeen                   int32  // first observation day anywhere, 0 if never observed
}

// A product's value is its name, brand, size, category and first day,
// then the French name when it has one or a type follows, then the type
// when it has one: a value without them (every value written before
// French names or types were kept) reads with NameFr and Type "".
func (p *Product) encode(e enc) enc {
	e = e.str(p.Name).str(p.Brand).str(p.Size).str(p.Category).varint(int64(p.FirstSeen))
	if p.NameFr != "" || p.Type != "" {
		e = e.str(p.NameFr)
	}
	if p.Type != "" {
		e = e.str(p.Type)
	}
	return e
}

func decodeProduct(gtin string, d dec, p *Product) error {
	*p = Product{GTIN: gtin, Name: d.str(), Brand: d.str(), Size: d.str(), Category: d.str(), FirstSeen: int32(d.varint())}
	if len(d.b) > 0 {
		p.NameFr = d.str()
	}
	if len(d.b) > 0 && d.err == nil {
		p.Type = d.str()
	}
	return d.err
}

// Product reads the product with the given GTIN-14.
func (t *Tx) Product(gtin string, p *Product) (bool, error) {
	v := t.getString(idProducts, gtin)
	if v == nil {
		return false, nil
	}
	return true, decodeProduct(gtin, dec{b: v, tx: t}, p)
}

// ProductBrand returns the brand of the product with the given GTIN,
// decoding nothing else of it: a view of the file, valid until the
// transaction ends (a writable one's: until its next write) and never to
// be modified; nil and false when the catalogue has no such product. A
// scan that looks for the products of a few brands reads each product's
// brand this way, and only the matches in full.
func (t *Tx) ProductBrand(gtin string) (brand []byte, found bool, err error) {
	v := t.getString(idProducts, gtin)
	if v == nil {
		return nil, false, nil
	}
	d := dec{b: v}
	d.raw() // name
	brand = d.raw()
	return brand, true, d.err
}

// ProductNames reads the English and French names of the product with
// the given GTIN (nameFr "" when it has none), and nothing else of it.
func (t *Tx) ProductNames(gtin string) (name, nameFr string, found bool, err error) {
	v := t.getString(idProducts, gtin)
	if v == nil {
		return "", "", false, nil
	}
	return t.productNamesOf(v)
}

// productNamesOf reads the names of a product's value v.
func (t *Tx) productNamesOf(v []byte) (name, nameFr string, found bool, err error) {
	d := dec{b: v}
	name = d.str()
	d.raw() // brand
	d.raw() // size
	d.raw() // category
	d.varint()
	if len(d.b) > 0 && d.err == nil {
		nameFr = d.str()
	}
	return name, nameFr, true, d.err
}

// ForEachProduct calls fn for every product of the catalogue, by GTIN.
func (t *Tx) ForEachProduct(fn func(p *Product) error) error {
	var p Product
	return t.products().ForEach(func(k, v []byte) error {
		if err := decodeProduct(t.text(k), dec{b: v, tx: t}, &p); err != nil {
			return err
		}
		return fn(&p)
	})
}

// The kinds index keeps every product under its category and type,
//
//	kinds  category 0x00 type 0x00 gtin(14) -> (empty)
//
// ("" for a product without one), written with the product (PutProduct):
// the products of a category, or of a type within a category, are one
// range scan of keys, not a decoding of the catalogue. A category or type
// holds no 0x00 byte (PutProduct refuses one), so a key parses.

// ErrNulKind means a product's category or type holds a 0x00 byte.
var ErrNulKind = errors.New("storage: a product's category or type holds a NUL byte")

// kindKey is a product's key in the kinds index.
func kindKey(category, typ, gtin string) []byte {
	k := make([]byte, 0, len(category)+len(typ)+2+len(gtin))
	return append(appendStr0(appendStr0(k, category), typ), gtin...)
}

// productKind reads the category and type of a product's value: views of
// v.
func productKind(v []byte) (category, typ []byte, err error) {
	d := dec{b: v}
	d.raw() // name
	d.raw() // brand
	d.raw() // size
	category = d.raw()
	d.varint() // first seen
	if len(d.b) > 0 {
		d.raw() // French name
	}
	if len(d.b) > 0 && d.err == nil {
		typ = d.raw()
	}
	return category, typ, d.err
}

// ProductCategories calls fn with each category of the catalogue's
// products once, in byte order ("" first, for the products without one),
// until fn returns ErrStop: one seek a category. category is valid only
// until fn returns.
func (t *Tx) ProductCategories(fn func(category []byte) error) error {
	c := t.kinds().Cursor()
	var next []byte
	for k, _ := c.First(); k != nil; k, _ = c.Seek(next) {
		category, _, ok := bytes.Cut(k, []byte{0})
		if !ok {
			return errCorrupt
		}
		// Past every key of the category: the category, then 0x01.
		next = append(append(next[:0], category...), 1)
		if err := fn(category); err != nil {
			return stopped(err)
		}
	}
	return nil
}

// ProductsOfCategory calls fn with the type and GTIN of each product of
// category (exactly as stored) whose type keep accepts (every type when
// keep is nil), by type then GTIN, until fn returns ErrStop. keep is
// asked once a type, and the products of a type it refuses are passed
// over by one seek. The views are valid only until fn or keep returns;
// fn may not write the catalogue.
func (t *Tx) ProductsOfCategory(category string, keep func(typ []byte) bool, fn func(typ, gtin []byte) error) error {
	p := appendStr0(make([]byte, 0, len(category)+1), category)
	var next []byte
	c := t.kinds().Cursor()
	k, _ := c.Seek(p)
	for hasPrefix(k, p) {
		typ, gtin, ok := bytes.Cut(k[len(p):], []byte{0})
		if !ok || len(gtin) != 14 {
			return errCorrupt
		}
		if keep != nil && !keep(typ) {
			// Past every key of the type: the type, then 0x01.
			next = append(append(append(next[:0], p...), typ...), 1)
			k, _ = c.Seek(next)
			continue
		}
		at := len(p) + len(typ) + 1 // the type's keys start with k[:at]
		for tp := k[:at]; hasPrefix(k, tp); k, _ = c.Next() {
			if len(k) != at+14 {
				return errCorrupt
			}
			if err := fn(typ, k[at:]); err != nil {
				return stopped(err)
			}
		}
	}
	return nil
}

// PutProduct writes p, and moves it in the kinds index when its category
// or type changed. A category or type holding a 0x00 byte is refused
// (ErrNulKind): it would not parse back from the index's key.
func (t *Tx) PutProduct(p *Product) error {
	if strings.IndexByte(p.Category, 0) >= 0 || strings.IndexByte(p.Type, 0) >= 0 {
		return fmt.Errorf("%w: product %s, category %q, type %q", ErrNulKind, p.GTIN, p.Category, p.Type)
	}
	indexed := false
	if old := t.products().Get([]byte(p.GTIN)); old != nil {
		category, typ, err := productKind(old)
		if err != nil {
			return err
		}
		indexed = string(category) == p.Category && string(typ) == p.Type
		if !indexed {
			if err := t.kinds().Delete(kindKey(string(category), string(typ), p.GTIN)); err != nil {
				return err
			}
		}
	}
	if !indexed {
		if err := t.put(t.kinds(), kindKey(p.Category, p.Type, p.GTIN), nil); err != nil {
			return err
		}
	}
	return t.put(t.products(), []byte(p.GTIN), p.encode(nil))
}

// fillKinds writes every product's entry of the kinds index (an upgrade
// of a file older than version 13).
func (t *Tx) fillKinds() error {
	c := t.products().Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		category, typ, err := productKind(v)
		if err != nil {
			return err
		}
		if err := t.put(t.kinds(), kindKey(string(category), string(typ), string(k)), nil); err != nil {
			return err
		}
	}
	return nil
}

// SKU is a banner's SKU and the barcode it is sold under.
type SKU struct {
	Banner, SKU string
	GTIN        string // "" when not linked
	FirstSeen   int32  // first observation day, 0 if never observed
	LastSeen    int32  // latest observation day
	// The facts of a SKU sold under no barcode, as its banner names it
	// ("" when not known): such a SKU is a product of its own, found by
	// search through tokens of its name and brand (SKURef), never by a
	// barcode. A linked SKU's facts are its product's.
	Name, Brand, Size, Category string
}

// SKURef is the reference a search token holds for a banner SKU sold
// under no barcode (PutToken): banner and SKU joined by a 0 byte, which a
// GTIN-14 (14 digits) never holds.
func SKURef(banner, sku string) string { return banner + "\x00" + sku }

// ParseSKURef splits a search token's reference into the banner and SKU
// of SKURef; ok is false for a GTIN-14.
func ParseSKURef(ref []byte) (banner, sku string, ok bool) {
	b, s, ok := bytes.Cut(ref, []byte{0})
	if !ok {
		return "", "", false
	}
	return string(b), string(s), true
}

func skuKey(banner, sku string) []byte {
	return append(appendStr0(make([]byte, 0, len(banner)+len(sku)+1), banner), sku...)
}

// SKU reads a banner's SKU.
func (t *Tx) SKU(banner, sku string, s *SKU) (bool, error) {
	v := t.get(idSKUs, skuKey(banner, sku))
	if v == nil {
		return false, nil
	}
	d := dec{b: v}
	*s = SKU{Banner: banner, SKU: sku, GTIN: d.str(), FirstSeen: int32(d.varint()), LastSeen: int32(d.varint())}
	if len(d.b) > 0 && d.err == nil {
		s.Name, s.Brand, s.Size, s.Category = d.str(), d.str(), d.str(), d.str()
	}
	return true, d.err
}

// PutSKU writes s and, when it is linked, the GTIN -> SKU index entry. A
// change of link removes the old index entry.
func (t *Tx) PutSKU(s *SKU) error {
	var old SKU
	found, err := t.SKU(s.Banner, s.SKU, &old)
	if err != nil {
		return err
	}
	if found && old.GTIN != "" && old.GTIN != s.GTIN {
		if err := t.gtinSKUs().Delete(append([]byte(old.GTIN), skuKey(s.Banner, s.SKU)...)); err != nil {
			return err
		}
	}
	if s.GTIN != "" && (!found || old.GTIN != s.GTIN) {
		if err := t.put(t.gtinSKUs(), append([]byte(s.GTIN), skuKey(s.Banner, s.SKU)...), nil); err != nil {
			return err
		}
	}
	v := enc(nil).str(s.GTIN).varint(int64(s.FirstSeen)).varint(int64(s.LastSeen))
	if s.Name != "" || s.Brand != "" || s.Size != "" || s.Category != "" {
		v = v.str(s.Name).str(s.Brand).str(s.Size).str(s.Category)
	}
	return t.put(t.skus(), skuKey(s.Banner, s.SKU), v)
}

// SKUsOf calls fn with the banner and SKU of every SKU linked to gtin.
func (t *Tx) SKUsOf(gtin string, fn func(banner, sku string) error) error {
	prefix := []byte(gtin)
	c := t.gtinSKUs().Cursor()
	for k, _ := c.Seek(prefix); hasPrefix(k, prefix); k, _ = c.Next() {
		b, s, ok := bytes.Cut(k[len(prefix):], []byte{0})
		if !ok {
			return errCorrupt
		}
		if err := fn(string(b), string(s)); err != nil {
			return stopped(err)
		}
	}
	return nil
}
