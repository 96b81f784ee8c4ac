package search

import (
	"slices"
	"strings"
	"sync"

	"github.com/grocerydata/grocery/storage"
)

// Ref is a banner SKU of a product, with the number of the banner's
// active stores in the province whose latest observation of it is
// current.
type Ref struct {
	Banner, SKU string
	Stores      int32
}

// Index answers a store search's exact total and gives its stores
// without a read per store and SKU: for one province and one version of
// the data, the current banner SKUs of every product and the province's
// active stores. It is read-only once built.
type Index struct {
	refs   map[[14]byte][]Ref
	stores []Store
}

// Refs are the banner SKUs of gtin with at least one store whose latest
// observation is current, in the order storage.Tx.SKUsOf lists them. The
// caller must not modify them.
func (ix *Index) Refs(gtin [14]byte) []Ref { return ix.refs[gtin] }

// Stores are the province's active stores by store_id, as Nearest lists
// them without a postal code (with no distance). The caller must not
// modify them.
func (ix *Index) Stores() []Store { return ix.stores }

// BuildIndex builds the Index of province, where an observation is
// current when it is later than after. It reads every latest observation
// of the province's active stores once, and the SKU record of each banner
// SKU they hold.
func BuildIndex(tx *storage.Tx, province string, after int32) (*Index, error) {
	ix := &Index{refs: map[[14]byte][]Ref{}}
	err := tx.ActiveStores(province, "", func(st *storage.Store) error {
		ix.stores = append(ix.stores, Store{Store: *st})
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(ix.stores, func(a, b Store) int { return strings.Compare(a.ID, b.ID) })
	type bannerSKU struct{ banner, sku string }
	counts := map[bannerSKU]int32{}
	for i := range ix.stores {
		st := &ix.stores[i]
		err := tx.LatestAt(st.ID, func(l *storage.Latest) error {
			if l.Date > after {
				counts[bannerSKU{st.Banner, l.SKU}]++
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	var rec storage.SKU
	for k, n := range counts {
		found, err := tx.SKU(k.banner, k.sku, &rec)
		if err != nil {
			return nil, err
		}
		if !found || len(rec.GTIN) != 14 {
			continue // no product: a search never finds it
		}
		g := [14]byte([]byte(rec.GTIN))
		ix.refs[g] = append(ix.refs[g], Ref{Banner: k.banner, SKU: k.sku, Stores: n})
	}
	for _, refs := range ix.refs {
		// SKUsOf's order: by banner, then SKU, as the bytes of banner 0x00 SKU sort.
		slices.SortFunc(refs, func(a, b Ref) int {
			return strings.Compare(a.Banner+"\x00"+a.SKU, b.Banner+"\x00"+b.SKU)
		})
	}
	return ix, nil
}

// Cache keeps the Index of each province for one version of the data: a
// newer version drops them all. Its zero value is ready to use and it is
// safe for concurrent use. An Index holds one Ref per current banner SKU
// of its province and one Store per active store: about 100 bytes each,
// under a megabyte for a province of the large demo set.
type Cache struct {
	mu      sync.Mutex
	version uint64
	byProv  map[string]*Index
}

// Get returns the Index of province at version, built by build when the
// cache has none for that version. Callers asking at the same time wait
// for one build. Versions only grow: a caller still at an older version
// than the cache's gets a value of its own, which the cache does not
// keep.
func (c *Cache) Get(version uint64, province string, build func() (*Index, error)) (*Index, error) {
	c.mu.Lock()
	if c.byProv != nil && version < c.version {
		c.mu.Unlock()
		return build() // not under the lock: the cache's callers need not wait for it
	}
	defer c.mu.Unlock()
	if c.byProv == nil || version > c.version {
		c.version, c.byProv = version, map[string]*Index{}
	}
	if v, ok := c.byProv[province]; ok {
		return v, nil
	}
	v, err := build()
	if err != nil {
		return v, err
	}
	c.byProv[province] = v
	return v, nil
}
