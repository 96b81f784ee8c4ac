// Package storage keeps the grocery data in one bbolt file. It owns the
// bucket layout and the byte encodings; the rules (what an offer is, what a
// search matches) belong to package grocery above it.
//
// # Layout
//
// Every bucket is created at Open; keys sort as bytes. Composite keys end
// variable-length strings with 0x00, and dates are 4-byte big-endian day
// numbers (days since 1970-01-01), so one prefix is one range scan:
//
//	meta       "format" -> version; "asof" -> latest observation day;
//	           "storeord" -> last store number; "keysecret" -> key hash secret; "alertidkey" -> the secret alert ids are shown under;
//	           "alertsowed" -> earliest day (4) whose alert events, kept
//	           outside the file (Redis), are owed an evaluation;
//	           "alertscopied" -> 1 once the alert rules were copied to Redis
//	           "fileid" -> the file's identity (8); "write" -> its last
//	           write number (8): see writes.go; "importresume" -> an
//	           import stopped between its batches: its file's digest
//	           (32), the last day written (4), the write number of its
//	           last batch (8)
//	stores     store_id -> Store
//	storeloc   province(2) banner 0x00 store_id -> Store (a copy, for listing)
//	products   gtin(14) -> Product
//	kinds      category 0x00 type 0x00 gtin(14) -> (empty): every product
//	           under its category and type (catalogue.go)
//	skus       banner 0x00 sku -> SKU
//	gtinskus   gtin(14) banner 0x00 sku -> (empty)
//	dayblocks  banner 0x00 sku 0x00 province(2) day(4) -> Block: the days,
//	           from day (a multiple of 16) to day+15, of one SKU's
//	           observations across a province's stores, after the writes
//	           that last changed them (writes.go)
//	dayheads   as dayblocks: the series' newest blocks, until a write of
//	           the series settles them (heads.go); a block is in one of
//	           the two
//	offers     province(2) gtin(14) banner 0x00 sku -> Offer
//	offerprices province(2) -> banners, products (gtin, newest day, end
//	           of its offers), offers (banner, price, regular, stores,
//	           day): what the comparisons and the search read of the
//	           province's offers (offerprices.go)
//	tokens     province(2) token 0x00 gtin(14) -> token flags
//	latest     store_id 0x00 sku -> Latest: a store's latest price of a SKU
//	storedays  store_id 0x00 day(4) -> observations that day
//	accounts   name -> Account
//	keys       key id -> Key (a keyed hash, never the key)
//	usage      account 0x00 window(4) -> calls counted in that month
//	           (window yyyymm) or on that day (window yyyymmdd)
//	alertrules account 0x00 id(8) -> AlertRule
//	alertwatch province(2) ('g' gtin(14) | 's' banner 0x00 sku 0x00)
//	           account 0x00 id(8) -> (empty): the active rules watching a series
//	alertevents account 0x00 (MaxUint64-id)(8) -> AlertEvent, newest first
//	alertfired account 0x00 rule id(8) day(4) -> event id: one event per
//	           rule and observation day
//	catdays, catskus, shelf, promos, promodates: the analytics aggregates
//	           (see analytics.go)
//	idempotency account 0x00 key -> IdempotencyRecord: a request made
//	           with an idempotency key, and its answer
//	idemexpiry created(8, Unix ms) account 0x00 key -> (empty): the
//	           records by age, to prune the expired ones
//	webhooks   account 0x00 id(8) -> Webhook (an endpoint, with its secret)
//	webhookdeliveries account 0x00 endpoint(8) seq(8) -> WebhookDelivery,
//	           an endpoint's deliveries in event order (its outbox and log)
//	webhookpending account 0x00 endpoint(8) seq(8) -> (empty): the
//	           deliveries not yet delivered or failed, the first of each
//	           endpoint its head
//
// Values are compact varint encodings, private to this package and
// versioned by FormatVersion.
package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// FormatVersion is the on-disk format this package reads and writes: each
// series in records of 16 days, the analytics aggregates that the import
// derives from what each observation row carried, and each banner SKU's
// daily price (its price in force that day over every store whose price is
// in force, as the offers define it) with what it looks back on and its
// matched stores' move (Lookback) in the category aggregates, each category aggregate naming its SKUs by
// their number in its category's list (catskus), and each offer as the
// banner SKU's price in force on the data set's latest day with the day it
// expires and the figures of its price verdict (its 30-day low and its
// typical regular price).
//
// Open refuses a version 1 or 2 file (no aggregates) with ErrFormat and a
// message to rebuild it (grocery demo, or an import into a new file), since
// only the import's derive step (package grocery) knows how to build the
// aggregates. A writable Open upgrades a version 3 to 8 file in place
// through Options.Upgrade, which derives the aggregates and offers again
// from the series (version 3 lacks the daily prices, 4 numbers no SKU, 5
// has offers without the day they expire, 3 to 6 keep each day's median
// of the stores observed as its daily price, without Lookback, 7 has
// offers without their verdict's figures and no Lookback.Fell, 8 no
// Lookback.Link); a
// read-only Open refuses them, saying to open the file once for writing.
// An upgrade is one transaction: when a category aggregate of a version 4
// or 9 to 11 file is corrupt, the writable Open fails with an error naming it
// (wrapping the decoder's) and the file is left as it was.
//
// Version 10 adds the file's identity and write number and the
// observations' write stamps (writes.go); a writable Open upgrades a
// version 9 file to it by itself (its observations count as written
// before write 1), without Options.Upgrade, and an older one through
// Options.Upgrade, then the same way.
//
// Version 11 adds each store's source (Store.Source: the feed its prices
// come from) and each offer's weekly prices (Offer.Daily and
// Offer.WeekBefore); a writable Open upgrades a version 9 or 10 file to
// it by itself, naming each store's source by Options.StoreSource and
// taking the weekly prices from the category days' daily prices.
//
// Version 12 keeps each category day's SKUs in three parts, their numbers,
// their links and the rest (encodeSKUs), so that a chained index reads the
// links without decoding the rest; a writable Open rewrites the days of a
// version 9 to 11 file so, by itself.
//
// Version 13 adds the kinds index (every product under its category and
// type: ProductCategories, ProductsOfCategory); a writable Open of a
// version 9 to 12 file writes it by itself.
//
// Version 15 adds the offer prices (of every offer in each province, its
// banner, prices, store count and day, by product, each product with the
// newest day of its offers: OfferPrices) in place of version 14's offer
// days (the newest day of each product's offers alone); version 16 lays
// them out as OfferPrices reads them, each product once. A writable Open
// of a version 9 to 15 file writes them by itself.
//
// Version 17 adds the category blocks (each series of category days
// merged over aligned blocks of 4 to 512 days: CatSpans); a writable Open
// of a version 9 to 16 file writes them by itself.
//
// Version 18 keeps each series' newest blocks apart from its older ones
// (dayheads, heads.go); a writable Open of a version 9 to 17 file adds the
// bucket, empty, by itself, and the writes that follow move the blocks they
// rewrite.
const FormatVersion = 18

// selfUpgrade is the oldest version a writable Open upgrades without
// Options.Upgrade: from it on, the upgrade adds what only this package
// writes (the write stamps of version 10, the stores' sources and the
// offers' weekly prices of 11, the category days' parts of 12, the kinds
// index of 13, the offer prices as version 16 lays them out).
const selfUpgrade = 9

// Bucket names.
var (
	bucketMeta      = []byte("meta")
	bucketStores    = []byte("stores")
	bucketStoreLoc  = []byte("storeloc")
	bucketProducts  = []byte("products")
	bucketSKUs      = []byte("skus")
	bucketGTINSKUs  = []byte("gtinskus")
	bucketSeries    = []byte("dayblocks")
	bucketHeads     = []byte("dayheads")
	bucketOffers    = []byte("offers")
	bucketTokens    = []byte("tokens")
	bucketLatest    = []byte("latest")
	bucketStoreDays = []byte("storedays")
	bucketAccounts  = []byte("accounts")
	bucketKeys      = []byte("keys")
	bucketUsage     = []byte("usage")
	// Alert buckets. A writable Open creates any bucket of the current
	// version that a file of that version lacks; a read-only Open refuses
	// such a file.
	bucketAlertRules  = []byte("alertrules")
	bucketAlertWatch  = []byte("alertwatch")
	bucketAlertEvents = []byte("alertevents")
	bucketAlertFired  = []byte("alertfired")
	// Idempotency records (idempotency.go), created like the alert
	// buckets; only writes touch them, so a read-only Open serves a file
	// that lacks them (writeOnlyBuckets).
	bucketIdem       = []byte("idempotency")
	bucketIdemExpiry = []byte("idemexpiry")
	// Analytics aggregates (see analytics.go).
	bucketCatDays     = []byte("catdays")
	bucketCatSKUs     = []byte("catskus")
	bucketKinds       = []byte("kinds")
	bucketOfferPrices = []byte("offerprices")
	bucketCatBlocks   = []byte("catblocks")
	// Version 14's offer days, which an upgrade removes.
	bucketOfferDays  = []byte("offerdays")
	bucketShelf      = []byte("shelf")
	bucketPromos     = []byte("promos")
	bucketPromoDates = []byte("promodates")
	// Webhook buckets (see webhooks.go).
	bucketWebhooks          = []byte("webhooks")
	bucketWebhookDeliveries = []byte("webhookdeliveries")
	bucketWebhookPending    = []byte("webhookpending")
	// Statistics Canada's monthly averages (see benchmarks.go).
	bucketBenchmarks = []byte("benchmarks")

	allBuckets = [][]byte{bucketMeta, bucketStores, bucketStoreLoc, bucketProducts, bucketSKUs,
		bucketGTINSKUs, bucketSeries, bucketOffers, bucketTokens, bucketLatest, bucketStoreDays,
		bucketAccounts, bucketKeys, bucketUsage, bucketAlertRules, bucketAlertWatch, bucketAlertEvents,
		bucketAlertFired, bucketCatDays, bucketShelf, bucketPromos, bucketPromoDates, bucketIdem, bucketIdemExpiry,
		bucketWebhooks, bucketWebhookDeliveries, bucketWebhookPending, bucketCatSKUs, bucketKinds, bucketOfferPrices, bucketCatBlocks, bucketHeads, bucketBenchmarks}

	keyFormat  = []byte("format")
	keyAsOf    = []byte("asof")
	keyOrd     = []byte("storeord")
	keySecret  = []byte("keysecret")
	alertIDKey = []byte("alertidkey")
	keyOwed    = []byte("alertsowed")
	keyCopied  = []byte("alertscopied")
)

// Errors returned by Open.
var (
	// ErrLocked means another process holds the file for writing.
	ErrLocked = errors.New("storage: data file is in use by another process")
	// ErrNotDataFile means the file is not a grocery data file.
	ErrNotDataFile = errors.New("storage: not a grocery data file")
	// ErrFormat means the file was written by an unsupported format version.
	ErrFormat = errors.New("storage: unsupported data file format")
)

// Options configures Open.
type Options struct {
	ReadOnly    bool          // open for reading only
	LockTimeout time.Duration // how long to wait for another process's lock
	NoSync      bool          // skip fsync on commit (bulk loads); call Sync before Close
	// Upgrade, when set, upgrades a file of version 3 to 8 (from) to
	// the current version in the writable Open's first transaction, after
	// what this package does itself (a version 4 file's category days): it
	// writes what the later versions add that only the write path can
	// derive (from 3, storage.SKUDay in every CatDay; from 3 to 7,
	// every offer). A writable Open without it refuses such a file with
	// ErrFormat, and so does a read-only Open of a version 3 file.
	Upgrade func(tx *Tx, from int) error
	// StoreSource names the source of a store of a file older than
	// version 11, which kept none, by its id: the upgrade writes it in
	// every store. Nil leaves them without one ("").
	StoreSource func(id string) string
	// Preload reads every page of the file in use at Open, and of each
	// file Reopen opens, before they return, so that no read of those
	// pages pays their first touch (a page fault, or a disk read when the
	// page cache does not hold the page; the pages a later commit writes,
	// and every page once a growing file is mapped again, are touched when
	// read). It costs one read of the file, in order:
	// about 0.2 s a GB from the page cache, the disk's sequential read
	// otherwise. For a long-running server; a command that answers one
	// question reads less without it.
	Preload bool
}

// DB is an open data file.
type DB struct {
	cur     atomic.Pointer[handle] // the open file; Reopen swaps it
	names   interner
	writer  sync.Mutex   // held by Update and TryUpdate: one writer at a time
	waiting atomic.Int32 // Updates waiting for writer
	preload bool         // Options.Preload, for Reopen
}

// interner shares one string among decoded values that repeat (banner
// slugs, province codes), so a read does not allocate one per row.
//
// Its map is never changed once published: a read loads it and looks up,
// writing nothing shared. A lock taken for every read (a lookup reads a
// banner for each of its offers) would bounce its cache line between
// the cores serving requests. A new string copies the map; the strings
// are few and each is added once.
type interner struct {
	m  atomic.Pointer[map[string]string]
	mu sync.Mutex // serializes additions
}

// get returns b as a shared string. It holds at most a few thousand
// strings; past that it returns fresh ones.
func (in *interner) get(b []byte) string {
	if m := in.m.Load(); m != nil {
		if s, ok := (*m)[string(b)]; ok {
			return s
		}
	}
	s := string(b)
	in.mu.Lock()
	defer in.mu.Unlock()
	old := in.m.Load()
	if old != nil {
		if shared, ok := (*old)[s]; ok {
			return shared // added since the lookup above
		}
		if len(*old) >= 4096 {
			return s
		}
	}
	m := map[string]string{}
	if old != nil {
		m = maps.Clone(*old)
	}
	m[s] = s
	in.m.Store(&m)
	return s
}

// Open opens the data file at path, creating it and its buckets unless
// opts.ReadOnly. It returns ErrLocked when another process holds the file
// past opts.LockTimeout, ErrNotDataFile or ErrFormat for a foreign file.
//
// A file replaced while Open waited for its lock (as 'grocery demo --force'
// replaces one under its lock) is not the one opened: Open checks that
// path names the same file after the lock as before it, and opens again
// when it does not, so that nothing is written to a deleted file.
func Open(path string, opts Options) (*DB, error) {
	for range 5 {
		before, beforeErr := os.Stat(path)
		db, err := openOnce(path, opts)
		if err != nil {
			return nil, err
		}
		after, err := os.Stat(path)
		switch {
		case err == nil && beforeErr == nil && os.SameFile(before, after):
			return db, nil
		case err == nil && errors.Is(beforeErr, fs.ErrNotExist) && !opts.ReadOnly:
			return db, nil // created here
		}
		db.Close() // the file was replaced or removed while Open waited
	}
	return nil, ErrLocked
}

func openOnce(path string, opts Options) (*DB, error) {
	b, err := openBolt(path, opts)
	if err != nil {
		return nil, err
	}
	if opts.ReadOnly {
		err = b.View(checkFormat)
	} else {
		err = b.Update(initBuckets)
	}
	var from int
	var up errUpgrade
	if errors.As(err, &up) && (opts.Upgrade != nil || up.from >= selfUpgrade) && !opts.ReadOnly {
		from, err = up.from, nil
	}
	if err != nil {
		b.Close()
		return nil, unwrapUpgrade(err)
	}
	db := &DB{preload: opts.Preload}
	db.cur.Store(newHandle(b))
	if from != 0 {
		if err := db.upgrade(from, opts); err != nil {
			db.Close()
			return nil, err
		}
		db.cur.Load().legacyOffers.Store(false)
	}
	if opts.Preload {
		if err := preload(b); err != nil {
			db.Close()
			return nil, err
		}
	}
	return db, nil
}

// openBolt opens the bbolt file at path as opts say, its errors turned
// into this package's.
func openBolt(path string, opts Options) (*bolt.DB, error) {
	timeout := opts.LockTimeout
	if timeout <= 0 {
		timeout = 2 * time.Second
	}
	if opts.ReadOnly {
		if _, err := os.Stat(path); err != nil {
			return nil, err
		}
	}
	mmap := 0
	if !opts.ReadOnly && runtime.GOOS != "windows" {
		// A writer that outgrows its mapping remaps it at commit, and
		// bbolt then copies every dirty node's keys and values to the heap
		// (about the size of what the transaction writes, per remap) and
		// waits for every reader to finish. Mapping the file's size and
		// 1 GB of address space up front (not memory, not file: on
		// Windows it would be; bbolt rounds a mapping over 1 GB up to a
		// whole GB, so 1 to 2 GB past the file) avoids both until the file
		// has grown by at least 1 GB.
		mmap = 1 << 30
		if fi, err := os.Stat(path); err == nil {
			mmap += int(fi.Size())
		}
	}
	b, err := bolt.Open(path, 0o600, &bolt.Options{
		InitialMmapSize: mmap,
		Timeout:         timeout,
		ReadOnly:        opts.ReadOnly,
		NoSync:          opts.NoSync,
		FreelistType:    bolt.FreelistMapType,
		// Statistics take a lock and merge counters at the start and end
		// of every transaction; nothing reads them.
		NoStatistics: true,
	})
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return nil, ErrLocked
	case errors.Is(err, bolterrors.ErrInvalid), errors.Is(err, bolterrors.ErrChecksum), errors.Is(err, bolterrors.ErrVersionMismatch):
		return nil, ErrNotDataFile
	case err != nil:
		return nil, err
	}
	// bbolt grows a file past 16 MB by 16 MB beyond what it needs; 1 MB
	// keeps a small file small at the cost of more frequent growth.
	b.AllocSize = 1 << 20
	return b, nil
}

// upgrade brings a file of version from to this version in one
// transaction: the buckets this version has and the file lacks, the data
// moved to this version's form, the version.
func (db *DB) upgrade(from int, opts Options) error {
	return db.Update(func(tx *Tx) error {
		for _, name := range allBuckets {
			if _, err := tx.tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		if from == 4 || from >= selfUpgrade && from < 12 {
			// Version 4's days name their SKUs in full; those of 9 to 11
			// number them in version 11's encoding. (An Upgrade of 5 to 8
			// derives the days again.)
			if err := tx.upgradeCatDays(from); err != nil {
				return err
			}
		}
		if from < selfUpgrade {
			if err := opts.Upgrade(tx, from); err != nil {
				return err
			}
		}
		// The weekly prices from the category days, whether Upgrade
		// wrote the offers anew or not (offers of version 4 or 5 that it
		// left are not read).
		if !tx.legacyOffers() && from < 11 {
			if err := tx.upgradeOfferWeeks(); err != nil {
				return err
			}
		}
		if err := initWrites(tx.meta()); err != nil {
			return err
		}
		if from < 11 {
			if err := tx.upgradeStoreSources(opts.StoreSource); err != nil {
				return err
			}
		}
		if from < 17 {
			if err := tx.fillIndexes(); err != nil {
				return err
			}
		}
		return tx.meta().Put(keyFormat, binary.BigEndian.AppendUint32(nil, FormatVersion))
	})
}

// fillIndexes writes anew what this version derives from the file's
// data as an upgrade leaves it: the kinds index, the offer prices (in
// place of version 14's offer days) and the category blocks.
func (t *Tx) fillIndexes() error {
	if err := t.fillKinds(); err != nil {
		return err
	}
	if t.tx.Bucket(bucketOfferDays) != nil {
		if err := t.tx.DeleteBucket(bucketOfferDays); err != nil {
			return err
		}
	}
	if err := t.fillOfferPrices(); err != nil {
		return err
	}
	return t.fillCatBlocks()
}

// errUpgrade marks a file of an older version (from) that a writable
// Open with Options.Upgrade upgrades in place.
type errUpgrade struct{ from int }

func (e errUpgrade) Error() string {
	return fmt.Sprintf("version %d, which a writable open upgrades", e.from)
}

// unwrapUpgrade turns the upgrade mark into the refusal a caller sees.
func unwrapUpgrade(err error) error {
	var up errUpgrade
	if errors.As(err, &up) {
		return fmt.Errorf("%w: version %d, this program reads version %d: open it once for writing (grocery serve, import or keys) to upgrade it in place", ErrFormat, up.from, FormatVersion)
	}
	return err
}

func checkFormat(tx *bolt.Tx) error {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		return ErrNotDataFile
	}
	v := meta.Get(keyFormat)
	if len(v) != 4 {
		return ErrNotDataFile
	}
	n := binary.BigEndian.Uint32(v)
	switch {
	case n >= 3 && n < FormatVersion:
		// A writable Open upgrades it (Options.Upgrade); a read-only
		// one refuses it, saying so.
		return errUpgrade{int(n)}
	case n == 1 || n == 2:
		return fmt.Errorf("%w: version %d, this program reads version %d, which adds the analytics aggregates: rebuild the file with grocery demo, or import your stores and observations files into a new data file", ErrFormat, n, FormatVersion)
	case n > FormatVersion:
		return fmt.Errorf("%w: version %d, this program reads version %d", ErrFormat, n, FormatVersion)
	}
	for _, name := range allBuckets {
		missing := tx.Bucket(name) == nil && !slices.ContainsFunc(writeOnlyBuckets, func(b []byte) bool { return bytes.Equal(b, name) })
		if missing {
			return fmt.Errorf("%w: it lacks the %q bucket of version %d: open it once for writing (grocery serve, import or keys) to add it", ErrFormat, name, n)
		}
	}
	return nil
}

// checkVersion refuses a file of another format version, and marks a
// version 4 to 13 file with errUpgrade.
func checkVersion(tx *bolt.Tx) error {
	if v := tx.Bucket(bucketMeta).Get(keyFormat); len(v) == 4 && binary.BigEndian.Uint32(v) != FormatVersion {
		if n := binary.BigEndian.Uint32(v); n >= 4 && n < FormatVersion {
			return errUpgrade{int(n)}
		}
		return checkFormat(tx)
	}
	return nil
}

func initBuckets(tx *bolt.Tx) error {
	if tx.Bucket(bucketMeta) != nil {
		if err := checkVersion(tx); err != nil {
			return err // an older format: no bucket is created in it
		}
		// Buckets added within this format version are created on the
		// first writable open of an older file.
		for _, name := range allBuckets {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		return checkFormat(tx)
	}
	if k, _ := tx.Cursor().First(); k != nil {
		return ErrNotDataFile // some other bbolt file
	}
	for _, name := range allBuckets {
		if _, err := tx.CreateBucket(name); err != nil {
			return err
		}
	}
	if err := initWrites(tx.Bucket(bucketMeta)); err != nil {
		return err
	}
	return tx.Bucket(bucketMeta).Put(keyFormat, binary.BigEndian.AppendUint32(nil, FormatVersion))
}

// Close closes the file, once the transactions under way end.
func (db *DB) Close() error {
	h := db.cur.Swap(nil)
	if h == nil {
		return nil // closed already, as bbolt allows
	}
	h.release()
	<-h.closed
	return h.err
}

// Sync flushes the file to disk (needed after writes with NoSync).
func (db *DB) Sync() error {
	return db.with(func(h *handle) error { return h.bolt.Sync() })
}

// Path returns the file's path ("" once closed).
func (db *DB) Path() string {
	h := db.acquire()
	if h == nil {
		return ""
	}
	defer h.release()
	return h.bolt.Path()
}

// Size returns the file's size in bytes.
func (db *DB) Size() (int64, error) {
	var n int64
	err := db.with(func(h *handle) error {
		return h.bolt.View(func(tx *bolt.Tx) error { n = tx.Size(); return nil })
	})
	return n, err
}

// View runs fn in a read-only transaction.
func (db *DB) View(fn func(*Tx) error) error {
	return db.with(func(h *handle) error {
		return h.bolt.View(func(tx *bolt.Tx) error { return fn(db.newTx(h, tx)) })
	})
}

// Update runs fn in a read-write transaction; fn's error rolls it back.
func (db *DB) Update(fn func(*Tx) error) error {
	db.waiting.Add(1)
	db.writer.Lock()
	db.waiting.Add(-1)
	defer db.writer.Unlock()
	return db.with(func(h *handle) error { return h.bolt.Update(db.update(h, fn)) })
}

// update returns a bbolt write transaction running fn, then what the
// transaction keeps in step with its writes (the offer prices).
func (db *DB) update(h *handle, fn func(*Tx) error) func(*bolt.Tx) error {
	return func(tx *bolt.Tx) error {
		t := db.newTx(h, tx)
		if err := fn(t); err != nil {
			return err
		}
		if err := t.putCatBlocks(); err != nil {
			return err
		}
		return t.putOfferPrices()
	}
}

// WritersWaiting returns how many Updates wait for the write
// transaction under way (an import holds one for a whole file).
func (db *DB) WritersWaiting() int { return int(db.waiting.Load()) }

// TryUpdate runs fn in a read-write transaction unless another write
// transaction of this DB is under way (an import holds one for a whole
// file); then it returns at once with ran false, and fn is not called.
func (db *DB) TryUpdate(fn func(*Tx) error) (ran bool, err error) {
	if !db.writer.TryLock() {
		return false, nil
	}
	defer db.writer.Unlock()
	return true, db.with(func(h *handle) error { return h.bolt.Update(db.update(h, fn)) })
}

// Tx is a transaction. Values it returns are copies, valid after it ends,
// except the OfferPrices view.
type Tx struct {
	tx     *bolt.Tx
	names  *interner
	asOf   *atomic.Pointer[asOfAt]       // its file's (see AsOf)
	bkts   [len(bucketIDs)]*bolt.Bucket  // resolved on first use
	got    [len(bucketIDs)]bool          // get read the bucket
	curs   *[len(bucketIDs)]*bolt.Cursor // get's, from its second read of a bucket
	slab   []byte
	texts  []byte              // backs the short strings reads return (see text)
	banner string              // the last banner found by bannerOf
	dicts  map[string]*skuDict // the category SKU lists read or written (see dict)
	// shared keeps the lists a read transaction decodes for the others
	// that read the same committed state.
	shared *sharedDicts
	// lastGP and lastDict are the key prefix and list dict returned last.
	lastGP   []byte
	lastDict *skuDict
	// storeN is the store count (see storeCount), once storeNRead.
	storeN     uint32
	storeNRead bool
	// offerProvinces are the provinces whose offers the transaction
	// changed: their offer prices are rebuilt before it commits.
	offerProvinces []string
	// legacy reports whether the file's offers are those of version 4
	// or 5, which an upgrade reads before it writes them anew
	// (handle.legacyOffers; its ClearOffers clears it).
	legacy bool
	// days4 reports whether the category days are version 4's, whose
	// SKUs are strings (those of an upgrade of such a file).
	days4 bool
	// catTouched are the series whose days the transaction changed: their
	// blocks are rebuilt before it commits (putCatBlocks).
	catTouched map[string]*catTouch
	dayKey     []byte // readDay's key
	// through is the newest day the transaction says it writes
	// (WritesThrough); asOfSeen the data set's newest day as its first
	// block write read it, once asOfRead: together they settle its
	// blocks (heads.go).
	through  int32
	asOfSeen int32
	asOfRead bool
}

// legacyOffers reports whether the file's offers are those of version 4
// or 5.
func (t *Tx) legacyOffers() bool { return t.legacy }

// text returns b, a short string read from the file, as a string
// carved from a chunk the transaction shares among its reads: a lookup
// allocates one chunk for its product's strings (both names included)
// and a few dozen SKUs, not a string each.
// Chunks are only ever appended to, and a full one is left to the
// strings that point into it, so a string stays valid, and unchanged,
// after the transaction ends. Long strings get their own allocation.
func (t *Tx) text(b []byte) string {
	const chunk, long = 512, 64
	if len(b) == 0 || len(b) > long {
		return string(b)
	}
	if cap(t.texts)-len(t.texts) < len(b) {
		t.texts = make([]byte, 0, chunk)
	}
	at := len(t.texts)
	t.texts = append(t.texts, b...)
	return unsafe.String(&t.texts[at], len(b))
}

// writeOnlyBuckets are the buckets a read-only open may lack: a file of
// this version written before they existed opens read-only, their readers
// finding no record, and its first writable open creates them.
var writeOnlyBuckets = [][]byte{bucketIdem, bucketIdemExpiry, bucketWebhooks, bucketWebhookDeliveries, bucketWebhookPending, bucketBenchmarks}

// Bucket indexes into Tx.bkts, in the order of allBuckets.
const (
	idMeta = iota
	idStores
	idStoreLoc
	idProducts
	idSKUs
	idGTINSKUs
	idSeries
	idOffers
	idTokens
	idLatest
	idStoreDays
	idAccounts
	idKeys
	idUsage
	idAlertRules
	idAlertWatch
	idAlertEvents
	idAlertFired
	idCatDays
	idShelf
	idPromos
	idPromoDates
	idIdem
	idIdemExpiry
	idWebhooks
	idWebhookDeliveries
	idWebhookPending
	idCatSKUs
	idKinds
	idOfferPrices
	idCatBlocks
	idHeads
)

var bucketIDs = [...]int{idMeta, idStores, idStoreLoc, idProducts, idSKUs, idGTINSKUs, idSeries, idOffers,
	idTokens, idLatest, idStoreDays, idAccounts, idKeys, idUsage, idAlertRules, idAlertWatch, idAlertEvents,
	idAlertFired, idCatDays, idShelf, idPromos, idPromoDates, idIdem, idIdemExpiry, idWebhooks, idWebhookDeliveries, idWebhookPending, idCatSKUs, idKinds, idOfferPrices, idCatBlocks, idHeads}

func (db *DB) newTx(h *handle, tx *bolt.Tx) *Tx {
	return &Tx{tx: tx, names: &db.names, asOf: &h.asOf, legacy: h.legacyOffers.Load(), shared: &h.dicts}
}

// b returns a bucket, resolving it once per transaction: a read needs only
// the one or two buckets it touches.
func (t *Tx) b(id int) *bolt.Bucket {
	if t.bkts[id] == nil {
		t.bkts[id] = t.tx.Bucket(allBuckets[id])
	}
	return t.bkts[id]
}

// get returns the value of key in bucket id (nil when none), as
// bolt.Bucket.Get does. Get makes a cursor and grows its stack on every
// call, a few allocations a read; from its second read of a bucket a
// read-only transaction keeps a cursor for it instead, and seeks it.
func (t *Tx) get(id int, key []byte) []byte {
	if t.tx.Writable() || !t.got[id] {
		t.got[id] = true
		return t.b(id).Get(key)
	}
	k, v := t.keptCursor(id).Seek(key)
	if !bytes.Equal(k, key) {
		return nil
	}
	return v
}

// keptCursor returns the cursor a read-only transaction keeps for its
// point reads of bucket id: a read that seeks it and is done with it
// before any other read of the bucket's point reads, never a scan that
// calls back.
func (t *Tx) keptCursor(id int) *bolt.Cursor {
	if t.curs == nil {
		t.curs = new([len(bucketIDs)]*bolt.Cursor)
	}
	c := t.curs[id]
	if c == nil {
		c = t.b(id).Cursor()
		t.curs[id] = c
	}
	return c
}

// seekCursor returns a cursor of bucket id for one seek and the few
// steps after it: the kept one of a read-only transaction (keptCursor),
// a new one of a writable one.
func (t *Tx) seekCursor(id int) *bolt.Cursor {
	if t.tx.Writable() {
		return t.b(id).Cursor()
	}
	return t.keptCursor(id)
}

// getString is get of a string key.
func (t *Tx) getString(id int, key string) []byte { return t.get(id, []byte(key)) }

func (t *Tx) meta() *bolt.Bucket        { return t.b(idMeta) }
func (t *Tx) stores() *bolt.Bucket      { return t.b(idStores) }
func (t *Tx) storeLoc() *bolt.Bucket    { return t.b(idStoreLoc) }
func (t *Tx) products() *bolt.Bucket    { return t.b(idProducts) }
func (t *Tx) skus() *bolt.Bucket        { return t.b(idSKUs) }
func (t *Tx) gtinSKUs() *bolt.Bucket    { return t.b(idGTINSKUs) }
func (t *Tx) series() *bolt.Bucket      { return t.b(idSeries) }
func (t *Tx) heads() *bolt.Bucket       { return t.b(idHeads) }
func (t *Tx) offers() *bolt.Bucket      { return t.b(idOffers) }
func (t *Tx) tokens() *bolt.Bucket      { return t.b(idTokens) }
func (t *Tx) latest() *bolt.Bucket      { return t.b(idLatest) }
func (t *Tx) storeDays() *bolt.Bucket   { return t.b(idStoreDays) }
func (t *Tx) accounts() *bolt.Bucket    { return t.b(idAccounts) }
func (t *Tx) keys() *bolt.Bucket        { return t.b(idKeys) }
func (t *Tx) usage() *bolt.Bucket       { return t.b(idUsage) }
func (t *Tx) alertRules() *bolt.Bucket  { return t.b(idAlertRules) }
func (t *Tx) alertWatch() *bolt.Bucket  { return t.b(idAlertWatch) }
func (t *Tx) alertEvents() *bolt.Bucket { return t.b(idAlertEvents) }
func (t *Tx) alertFired() *bolt.Bucket  { return t.b(idAlertFired) }
func (t *Tx) catDays() *bolt.Bucket     { return t.b(idCatDays) }
func (t *Tx) catBlocks() *bolt.Bucket   { return t.b(idCatBlocks) }
func (t *Tx) catSKUs() *bolt.Bucket     { return t.b(idCatSKUs) }
func (t *Tx) kinds() *bolt.Bucket       { return t.b(idKinds) }
func (t *Tx) offerPrices() *bolt.Bucket { return t.b(idOfferPrices) }
func (t *Tx) shelf() *bolt.Bucket       { return t.b(idShelf) }
func (t *Tx) promos() *bolt.Bucket      { return t.b(idPromos) }
func (t *Tx) promoDates() *bolt.Bucket  { return t.b(idPromoDates) }
func (t *Tx) idem() *bolt.Bucket        { return t.b(idIdem) }
func (t *Tx) idemExpiry() *bolt.Bucket  { return t.b(idIdemExpiry) }

// alloc returns n bytes that stay valid for the life of the transaction, as
// bbolt requires of the values passed to Put (it copies the keys). Carving
// them from a slab saves an allocation per Put on bulk writes.
func (t *Tx) alloc(n int) []byte {
	if n > 4096 {
		return make([]byte, 0, n)
	}
	if cap(t.slab)-len(t.slab) < n {
		t.slab = make([]byte, 0, 256<<10)
	}
	b := t.slab[len(t.slab) : len(t.slab) : len(t.slab)+n]
	t.slab = t.slab[:len(t.slab)+n]
	return b
}

// put stores k and v, copying v into transaction-lifetime memory (bbolt
// copies k).
func (t *Tx) put(b *bolt.Bucket, k, v []byte) error {
	return b.Put(k, append(t.alloc(len(v)), v...))
}

// AsOf returns the latest observation day stored, or 0.
func (t *Tx) AsOf() int32 {
	// The date is a function of the committed state a reader sees, which
	// bbolt numbers (a read transaction's ID is the last commit's): the
	// latest reader's answer serves every reader of the same state, so
	// most reads skip the meta bucket. A writer reads its own, uncommitted
	// state, and never caches it.
	id := t.tx.ID()
	if c := t.asOf.Load(); c != nil && c.txid == id && !t.tx.Writable() {
		return c.day
	}
	var day int32
	if v := t.meta().Get(keyAsOf); len(v) == 4 {
		day = int32(binary.BigEndian.Uint32(v))
	}
	if !t.tx.Writable() {
		t.asOf.Store(&asOfAt{txid: id, day: day})
	}
	return day
}

// asOfAt is the as-of date of the committed state numbered txid.
type asOfAt struct {
	txid int
	day  int32
}

// SetAsOf records the latest observation day.
func (t *Tx) SetAsOf(day int32) error {
	return t.put(t.meta(), keyAsOf, binary.BigEndian.AppendUint32(nil, uint32(day)))
}

// key builders. Each returns a fresh slice with room to spare.

func appendStr0(b []byte, s string) []byte { return append(append(b, s...), 0) }

func appendDay(b []byte, day int32) []byte { return binary.BigEndian.AppendUint32(b, uint32(day)) }

func seriesPrefix(banner, sku, province string) []byte {
	b := make([]byte, 0, len(banner)+len(sku)+8)
	return append(appendStr0(appendStr0(b, banner), sku), province...)
}

func hasPrefix(k, prefix []byte) bool { return k != nil && bytes.HasPrefix(k, prefix) }

// Packed tells the transaction to fill the pages of the data buckets it
// writes to 90% instead of bbolt's 50%. bbolt splits a node at commit at
// the fill percentage whatever the write order, so at 50% a bulk write
// leaves every page half empty; at 90% a page still takes some growth
// before it splits again.
func (t *Tx) Packed() {
	for _, id := range []int{idStores, idStoreLoc, idProducts, idSKUs, idGTINSKUs, idSeries, idOffers, idTokens, idLatest, idStoreDays, idCatDays, idCatBlocks, idShelf, idPromos, idPromoDates, idKinds} {
		t.b(id).FillPercent = 0.9
	}
}

// AppendOrder tells the transaction that its series writes come in key
// order after every existing series key (a bulk load), so pages are
// packed nearly full instead of split in half.
func (t *Tx) AppendOrder() { t.series().FillPercent = 0.95 }
