package access

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"hash"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/grocerydata/grocery/internal/fault"
	"github.com/grocerydata/grocery/storage"
)

// Key text is <prefix>_pk_<id><secret>: an 8-character public id, used to
// find the key and shown by ListKeys, then 32 secret characters, all base62
// from crypto/rand.
const (
	KeyIDLen     = 8
	KeySecretLen = 32
	KeyMarker    = "_pk_"
)

// Keyring is the in-memory copy of accounts and keys that authentication
// reads: a request never touches the data file to authenticate.
type Keyring struct {
	prefix string
	plans  []Plan
	macs   sync.Pool // *macState: HMAC-SHA256 keyed with the data file's key secret

	// admin serializes key administration, which holds it across its
	// write transaction; the request path never takes it.
	admin sync.Mutex

	// mu guards the maps and keyEntry.revoked. It is held only to read or
	// swap memory, never across a transaction: an import holds the write
	// transaction for a whole file, and authentication must not wait.
	mu       sync.RWMutex
	keys     map[string]*keyEntry // by public id
	accounts map[string]*account  // by name
}

type keyEntry struct {
	id, account string
	hash        [sha256.Size]byte
	created     int64
	revoked     int64 // guarded by Keyring.mu
	lastUsed    atomic.Int64
	flushedUsed int64 // lastUsed as last written; only the flusher touches it
}

// NewKeyring returns the keyring of keys starting with prefix, on plans,
// whose hashes are keyed with secret.
func NewKeyring(prefix string, plans []Plan, secret []byte) *Keyring {
	r := &Keyring{prefix: prefix, plans: slices.Clone(plans), keys: map[string]*keyEntry{}, accounts: map[string]*account{}}
	r.macs.New = func() any { return &macState{h: hmac.New(sha256.New, secret)} }
	return r
}

// load reads every account and key into the ring, with each account's
// count for the current window; j, when not nil, is a usage journal whose
// larger counts and last-used times win.
func (r *Keyring) load(tx *storage.Tx, window uint32, j *journal) error {
	err := tx.ForEachAccount(func(a *storage.Account) error {
		plan, _ := r.Plan(a.Plan)
		stored, err := tx.Usage(a.Name, window)
		if err != nil {
			return err
		}
		used := int64(stored)
		if j != nil {
			used = max(used, j.usage[usageID{a.Name, window}])
		}
		r.accounts[a.Name] = &account{name: a.Name, plan: plan, quota: a.Quota, created: a.Created, window: window, used: used}
		return nil
	})
	if err != nil {
		return err
	}
	return tx.ForEachKey(func(k *storage.Key) error {
		e := &keyEntry{id: k.ID, account: k.Account, created: k.Created, revoked: k.Revoked}
		copy(e.hash[:], k.Hash)
		if j != nil {
			k.LastUsed = max(k.LastUsed, j.lastUsed[k.ID])
		}
		e.lastUsed.Store(k.LastUsed)
		e.flushedUsed = k.LastUsed
		r.keys[k.ID] = e
		return nil
	})
}

// Plan returns the named plan. An account whose plan was removed from the
// configuration keeps its name with no quota and no REST access.
// Plans returns the keyring's plans; the caller must not change them.
func (r *Keyring) Plans() []Plan { return r.plans }

// Prefix returns the text that starts every key of the keyring.
func (r *Keyring) Prefix() string { return r.prefix }

func (r *Keyring) Plan(name string) (Plan, bool) {
	for _, p := range r.plans {
		if p.Name == name {
			return p, true
		}
	}
	return Plan{Name: name}, false
}

func (r *Keyring) PlanNames() string {
	names := make([]string, len(r.plans))
	for i, p := range r.plans {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// NewKeyText draws a new key: its public id, its whole text, and the
// keyed hash that is all the store keeps of it.
func (r *Keyring) NewKeyText() (id, text string, sum [sha256.Size]byte, err error) {
	if id, err = RandomBase62(KeyIDLen); err != nil {
		return "", "", sum, err
	}
	secret, err := RandomBase62(KeySecretLen)
	if err != nil {
		return "", "", sum, err
	}
	text = r.prefix + KeyMarker + id + secret
	return id, text, r.MAC(text), nil
}

// macState is a keyed hash with buffers for the text it hashes and for
// its sum: the hash is an interface, so a key's string converted for it,
// or the caller's array handed to Sum, would each allocate on every
// request.
type macState struct {
	h        hash.Hash
	text, to []byte
}

// MAC returns the keyed hash of a key's text.
func (r *Keyring) MAC(key string) (sum [sha256.Size]byte) {
	m := r.macs.Get().(*macState)
	m.text = append(m.text[:0], key...)
	m.h.Reset()
	m.h.Write(m.text)
	m.to = m.h.Sum(m.to[:0])
	copy(sum[:], m.to)
	r.macs.Put(m)
	return sum
}

// Parse checks a key's form and returns its public id, without touching
// any stored state.
func (r *Keyring) Parse(key string) (id string, ok bool) {
	rest, found := strings.CutPrefix(key, r.prefix+KeyMarker)
	if !found || len(rest) != KeyIDLen+KeySecretLen {
		return "", false
	}
	for i := 0; i < len(rest); i++ {
		if !isBase62(rest[i]) {
			return "", false
		}
	}
	return rest[:KeyIDLen], true
}

func isBase62(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// RandomBase62 returns n characters drawn uniformly from base62 with
// crypto/rand (bytes of 248 or more are rejected to avoid a bias).
func RandomBase62(n int) (string, error) {
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/4+8)
	for len(out) < n {
		if _, err := rand.Read(buf); err != nil {
			return "", err
		}
		for _, b := range buf {
			if b < 248 && len(out) < n {
				out = append(out, base62[b%62])
			}
		}
	}
	return string(out), nil
}

var ErrBadKey = fault.New(fault.Unauthenticated, "API key is missing or malformed: want the key you were given, of the form PREFIX_pk_...")

// Authenticate checks a key against the data file's Keyring; call.Charge
// is ignored: the call is charged by Consume.
func (b *Bolt) Authenticate(ctx context.Context, key string, call Call) (*Principal, error) {
	r := b.ring
	id, ok := r.Parse(key)
	if !ok {
		return nil, ErrBadKey
	}
	sum := r.MAC(key)
	r.mu.RLock()
	e := r.keys[id]
	var acct *account
	revoked := int64(0)
	if e != nil {
		acct, revoked = r.accounts[e.account], e.revoked
	}
	r.mu.RUnlock()
	want := unknownKeyHash
	if e != nil {
		want = e.hash
	}
	if !hmac.Equal(sum[:], want[:]) || e == nil || acct == nil {
		return nil, fault.New(fault.Unauthenticated, "API key is not known: check it, or ask for a new one")
	}
	if revoked != 0 {
		return nil, fault.New(fault.Unauthenticated, "API key %s was revoked: ask for a new one", id)
	}
	plan := acct.currentPlan()
	if call.REST && !plan.REST {
		return nil, fault.New(fault.Forbidden, "the %s plan does not include the REST interface: it needs the integration plan", plan.Name)
	}
	e.lastUsed.Store(b.now().Unix())
	return &Principal{KeyID: id, Account: acct.name, Plan: plan, acct: acct}, nil
}

// unknownKeyHash is compared against when no key has the id, so that an
// unknown id costs the same as a wrong secret.
var unknownKeyHash [sha256.Size]byte

// CreateKey creates a key in the data file, creating its account when it
// is new.
func (b *Bolt) CreateKey(ctx context.Context, in KeyInput) (*NewKey, error) {
	r := b.ring
	name := strings.TrimSpace(in.Account)
	if err := CheckAccountName(name); err != nil {
		return nil, err
	}
	if in.Quota < 0 {
		return nil, fault.New(fault.Invalid, "quota %d is negative: want a number of calls a month, or 0 for the plan's", in.Quota)
	}
	var plan Plan
	if in.Plan != "" {
		p, ok := r.Plan(strings.ToLower(strings.TrimSpace(in.Plan)))
		if !ok {
			return nil, fault.New(fault.Invalid, "plan %q is unknown: want one of %s", in.Plan, r.PlanNames())
		}
		plan = p
	}
	id, text, sum, err := r.NewKeyText()
	if err != nil {
		return nil, err
	}
	now := b.now().UTC().Truncate(time.Second)

	// Key administration is serialized by r.admin, so what is read here
	// still holds after the commit; r.mu is taken only to read and then to
	// swap the in-memory state, never while waiting for the write
	// transaction.
	r.admin.Lock()
	defer r.admin.Unlock()
	r.mu.RLock()
	_, taken := r.keys[id]
	acct := r.accounts[name]
	r.mu.RUnlock()
	if taken {
		return nil, fault.New(fault.Internal, "key id collision; try again")
	}
	if acct == nil && plan.Name == "" {
		return nil, fault.New(fault.Invalid, "account %q is new: a plan is required, one of %s", name, r.PlanNames())
	}
	rec := storage.Account{Name: name, Created: now.Unix()}
	if acct != nil {
		cur := acct.currentPlan()
		rec.Plan, rec.Quota, rec.Created = cur.Name, acct.quotaOverride(), acct.created
	}
	if plan.Name != "" {
		rec.Plan = plan.Name
	}
	if in.Quota > 0 {
		rec.Quota = in.Quota
	}
	key := storage.Key{ID: id, Account: name, Hash: sum[:], Created: now.Unix()}
	err = b.db.Update(func(tx *storage.Tx) error {
		if err := tx.PutAccount(&rec); err != nil {
			return err
		}
		return tx.PutKey(&key)
	})
	if err != nil {
		return nil, err
	}
	recPlan, _ := r.Plan(rec.Plan)
	if acct == nil {
		acct = &account{name: name, created: rec.Created, window: MonthOf(now)}
	}
	acct.setPlan(recPlan, rec.Quota)
	e := &keyEntry{id: id, account: name, hash: sum, created: key.Created}
	r.mu.Lock()
	r.accounts[name] = acct
	r.keys[id] = e
	r.mu.Unlock()
	return &NewKey{Key: text, ID: id, Account: name, Plan: rec.Plan, Limit: acct.limit(), Created: now}, nil
}

func CheckAccountName(name string) error {
	if name == "" || len(name) > 64 {
		return fault.New(fault.Invalid, "account %q: want a name of 1 to 64 letters, digits, '.', '_', '-' or '@'", name)
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !isBase62(c) && c != '.' && c != '_' && c != '-' && c != '@' {
			return fault.New(fault.Invalid, "account %q: want a name of 1 to 64 letters, digits, '.', '_', '-' or '@'", name)
		}
	}
	return nil
}

// RevokeKey revokes a key in the data file.
func (b *Bolt) RevokeKey(ctx context.Context, keyOrID string) (*KeyInfo, error) {
	r := b.ring
	id := strings.TrimSpace(keyOrID)
	full := false
	if kid, ok := r.Parse(id); ok {
		id, full = kid, true
	} else if listed, ok := strings.CutPrefix(id, r.prefix+KeyMarker); ok && len(listed) == KeyIDLen {
		id = listed // the form ListKeys shows: gro_pk_<id>
	}
	// As in CreateKey: r.admin across the commit, r.mu only to read and
	// then to swap the in-memory state.
	r.admin.Lock()
	defer r.admin.Unlock()
	r.mu.RLock()
	e := r.keys[id]
	revoked := e != nil && e.revoked != 0
	r.mu.RUnlock()
	if e != nil && full {
		if sum := r.MAC(strings.TrimSpace(keyOrID)); !hmac.Equal(sum[:], e.hash[:]) {
			e = nil
		}
	}
	if e == nil {
		return nil, fault.New(fault.NotFound, "no key matches %q: give a key id from 'keys list' or the whole key", Redact(keyOrID, r.prefix))
	}
	if !revoked {
		now := b.now().Unix()
		err := b.db.Update(func(tx *storage.Tx) error {
			var k storage.Key
			if _, err := tx.Key(id, &k); err != nil {
				return err
			}
			k.Revoked = now
			k.LastUsed = max(k.LastUsed, e.lastUsed.Load())
			return tx.PutKey(&k)
		})
		if err != nil {
			return nil, err
		}
		r.mu.Lock()
		e.revoked = now
		r.mu.Unlock()
	}
	r.mu.RLock()
	info := r.info(e)
	r.mu.RUnlock()
	return &info, nil
}

// Redact shortens what might be a key's text so that an error never
// repeats a secret.
func Redact(s, prefix string) string {
	if strings.HasPrefix(s, prefix+KeyMarker) && len(s) > len(prefix)+len(KeyMarker)+KeyIDLen {
		return s[:len(prefix)+len(KeyMarker)+KeyIDLen] + "..."
	}
	if len(s) > 16 {
		return s[:8] + "..."
	}
	return s
}

// info describes a key; the caller holds r.mu.
func (r *Keyring) info(e *keyEntry) KeyInfo {
	k := KeyInfo{ID: e.id, Prefix: r.prefix + KeyMarker + e.id, Account: e.account, Created: time.Unix(e.created, 0).UTC()}
	if a := r.accounts[e.account]; a != nil {
		k.Plan = a.currentPlan().Name
	}
	if t := e.lastUsed.Load(); t != 0 {
		u := time.Unix(t, 0).UTC()
		k.LastUsed = &u
	}
	if e.revoked != 0 {
		u := time.Unix(e.revoked, 0).UTC()
		k.Revoked = &u
	}
	return k
}

// ListKeys returns the data file's keys, by account and creation time.
func (b *Bolt) ListKeys(ctx context.Context) ([]KeyInfo, error) {
	r := b.ring
	r.mu.RLock()
	out := make([]KeyInfo, 0, len(r.keys))
	for _, e := range r.keys {
		out = append(out, r.info(e))
	}
	r.mu.RUnlock()
	slices.SortFunc(out, ByAccountCreated)
	return out, nil
}
