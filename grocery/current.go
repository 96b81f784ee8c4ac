package grocery

import (
	"slices"

	"github.com/grocerydata/grocery/storage"
)

// The snapshot analytics (benchmark.go, geography.go, brands.go and the
// basket) read the current offers: per province, each banner SKU's
// latest observation across the province's reference stores, observed
// within the last 14 days before the data set's latest date.

// freshDays is the freshness window of an offer: a store's latest
// observation counts toward an offer while it is less than 14 days older
// than the newest observation of the SKU in the province, and an offer is
// current while its newest observation is less than 14 days older than the
// data set's latest observation.
const freshDays = 14

// snapshot records what one read of the current offers used, for the
// answer's Basis: the provinces and banners priced, the store-level
// prices and their days.
type snapshot struct {
	asOf    int32
	provs   map[string]bool    // provinces priced
	banners map[[2]string]bool // (province, banner) priced
	stores  map[[2]string]int  // active reference stores of (province, banner), of the provinces counted
	counted map[string]bool    // provinces whose stores are counted
	from    int32
	to      int32
	obs     int
	// The province of the offer added last and the banners recorded
	// since it began: a scan adds a province's offers one after the
	// other, most of them of banners already recorded, which a look
	// through a few interned strings finds faster than a map.
	lastProv string
	recorded []string
}

func newSnapshot(asOf int32) *snapshot {
	// Sized for every province's banners: a map grown entry by entry
	// rehashes at every doubling (a quarter of a one-barcode geographic
	// answer by profile).
	const pairs = 64
	return &snapshot{asOf: asOf, provs: make(map[string]bool, len(provinces)), banners: make(map[[2]string]bool, pairs),
		stores: make(map[[2]string]int, pairs), counted: make(map[string]bool, len(provinces))}
}

// current reports whether o is a current offer.
func (sn *snapshot) current(o *storage.Offer) bool { return sn.currentAt(o.ObservedAt, o.StoreCount) }

// currentAt reports whether an offer observed on day observed, priced
// by stores stores, is a current offer.
func (sn *snapshot) currentAt(observed int32, stores uint32) bool {
	return observed > sn.asOf-freshDays && stores > 0
}

// add records a current offer of gtin in province as used.
func (sn *snapshot) add(province, gtin string, o *storage.Offer) {
	if !sn.current(o) {
		return
	}
	if province != sn.lastProv {
		sn.provs[province] = true
		sn.lastProv, sn.recorded = province, sn.recorded[:0]
	}
	if !slices.Contains(sn.recorded, o.Banner) {
		sn.banners[[2]string{province, o.Banner}] = true
		sn.recorded = append(sn.recorded, o.Banner)
	}
	sn.obs += int(o.StoreCount)
	if sn.from == 0 || o.ObservedAt < sn.from {
		sn.from = o.ObservedAt
	}
	sn.to = max(sn.to, o.ObservedAt)
}

// activeStores returns the active reference stores of banner in
// province, counted once per snapshot: every banner's of the province at
// its first (one scan of its stores, not a search a banner).
func (sn *snapshot) activeStores(tx *storage.Tx, province, banner string) (int, error) {
	if !sn.counted[province] {
		err := tx.ActiveStoreCounts(province, func(b string, n int) error {
			sn.stores[[2]string{province, b}] = n
			return nil
		})
		if err != nil {
			return 0, err
		}
		sn.counted[province] = true
	}
	return sn.stores[[2]string{province, banner}], nil
}

// basis fills the coverage of a snapshot: the provinces and banners
// priced, the days of the offers' latest observations, the active
// reference stores of the banners priced in their provinces.
func (sn *snapshot) basis(tx *storage.Tx, comparison string) (Basis, error) {
	b := Basis{Provinces: sortedKeys(sn.provs), Banners: []string{}, Observations: sn.obs, Comparison: comparison}
	seen := map[string]bool{}
	for pb := range sn.banners {
		if !seen[pb[1]] {
			seen[pb[1]] = true
			b.Banners = append(b.Banners, pb[1])
		}
		n, err := sn.activeStores(tx, pb[0], pb[1])
		if err != nil {
			return b, err
		}
		b.Stores += n
	}
	slices.Sort(b.Banners)
	if sn.obs > 0 {
		from, to := Date(sn.from), Date(sn.to)
		b.From, b.To = &from, &to
	}
	return b, nil
}
