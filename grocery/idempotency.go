package grocery

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/grocerydata/grocery/internal/idemstore"
	"github.com/grocerydata/grocery/storage"
)

// IdempotencyWindow is how long the first answer to a request made with
// an idempotency key is kept and given again (Idempotent): 24 hours on
// the Service's clock.
const IdempotencyWindow = 24 * time.Hour

// idempotencyStale is how long a first request may run before a retry
// with its key takes it as abandoned (its process died) and runs again.
const idempotencyStale = time.Minute

// MaxIdempotencyKey is the longest idempotency key, in characters.
const MaxIdempotencyKey = 255

// IdempotentRequest is a request made with an idempotency key
// (Idempotent).
type IdempotentRequest struct {
	Key       string // the client's key: 1 to 255 visible ASCII characters, such as a UUID
	Operation string // what the request does, such as "POST /b2b/alerts": the same key on another operation is another request
	Body      []byte // the request's body: a JSON body compares by value (member order and spacing aside), another byte for byte
}

// Idempotent runs do once for the account in ctx and req.Key, as an API
// that takes an Idempotency-Key header does, and returns do's answer (an
// encoding of the transport's choice, not empty). Within
// IdempotencyWindow of the first request with a key:
//
//   - the same request again (same Operation, same Body) does not run do:
//     it returns the first answer, with replayed true;
//   - another request with that key is ECONFLICT, saying so;
//   - while the first request runs (up to a minute, after which it is
//     taken as abandoned), another with that key is ECONFLICT too.
//
// A creation do makes (CreateAlert, CreateWebhook) records its object in
// the key's record in the transaction that creates it: when the process
// dies before the answer is kept, a retry with the key (at once, or
// later) creates nothing and answers with that object; a key never
// creates twice. A request still running after a minute whose key was
// taken over creates nothing (ECONFLICT).
//
// Keys are per account: another account's same key is another record.
// An error of do is returned as it is and not kept: the request may be
// retried with the same key. After the window, a key is new again.
// Records are kept where the alert rules are: in the data file, or in
// shared store of Options.Shared, so every server on it shares them.
//
// It returns EINVALIDARGUMENT for a key that is empty, longer than 255
// characters or not visible ASCII, ECONFLICT as above, EUNAUTHENTICATED
// or ENOTFOUND for a missing or unknown account, and EUNAVAILABLE when
// the shared store does not answer.
func (s *Service) Idempotent(ctx context.Context, req IdempotentRequest, do func(ctx context.Context) ([]byte, error)) (answer []byte, replayed bool, err error) {
	account, err := s.accountOf(ctx)
	if err != nil {
		return nil, false, err
	}
	if err := checkIdempotencyKey(req.Key); err != nil {
		return nil, false, err
	}
	now := s.now()
	rec := &storage.IdempotencyRecord{Account: account, Key: req.Key, Hash: idemstore.RequestHash(req.Operation, req.Body), Created: now.UnixMilli()}
	cur, claimed, err := s.idem.Begin(ctx, rec, now.Add(-IdempotencyWindow).UnixMilli()+1, now.Add(-idempotencyStale).UnixMilli()+1)
	if err != nil {
		return nil, false, fromFault(err)
	}
	if !claimed {
		switch {
		case !bytes.Equal(cur.Hash, rec.Hash):
			return nil, false, Errorf(ECONFLICT, "Idempotency-Key %q was used at %s for another request (another path or body): a key names one request for 24 hours; send a new key for a new request",
				req.Key, time.UnixMilli(cur.Created).UTC().Format(time.RFC3339))
		case cur.Done:
			return cur.Response, true, nil
		case cur.Object == "":
			return nil, false, Errorf(ECONFLICT, "a request with Idempotency-Key %q is still being answered: retry once it is", req.Key)
		}
		// The first request created its object, in the transaction that
		// recorded it in the claim, and its answer was not kept (its
		// process died, or is about to keep it): this one answers with
		// that object (the creation, seeing the claim's object, creates
		// nothing) and keeps that answer.
		rec = &cur
	}
	answer, err = do(context.WithValue(ctx, idemClaimKey{}, rec))
	if err == nil && len(answer) == 0 {
		err = Errorf(EINTERNAL, "idempotent request answered nothing")
	}
	if err != nil {
		if aerr := s.idem.Abandon(context.WithoutCancel(ctx), rec); aerr != nil && s.log != nil {
			s.log.Warn("idempotency key left claimed for a minute", "err", aerr)
		}
		return nil, false, err
	}
	rec.Response = answer
	if err := s.idem.Finish(context.WithoutCancel(ctx), rec); err != nil {
		// The request was done: its answer is given, only not kept.
		if s.log != nil {
			s.log.Warn("idempotent request answered; its answer could not be kept", "code", ErrorCode(fromFault(err)), "err", err)
		}
	}
	return answer, false, nil
}

// idemClaimKey is the context key of the idempotency claim a request
// made with a key runs under (Idempotent's do): a creation records its
// object in it, in its own transaction, or, when it names one already,
// answers with that object instead of creating.
type idemClaimKey struct{}

// idemClaim returns the claim ctx runs under for account, or nil.
func idemClaim(ctx context.Context, account string) *storage.IdempotencyRecord {
	c, _ := ctx.Value(idemClaimKey{}).(*storage.IdempotencyRecord)
	if c == nil || c.Account != account {
		return nil
	}
	return c
}

// claimedObject returns the id of the object of kind ("alert",
// "webhook") a claim names: ok is false when it names none. A claim
// naming another kind (a key reused across creations, which its hash
// prevents) is ECONFLICT.
func claimedObject(c *storage.IdempotencyRecord, kind string) (id uint64, ok bool, err error) {
	if c == nil || c.Object == "" {
		return 0, false, nil
	}
	k, n, _ := strings.Cut(c.Object, ":")
	id, perr := strconv.ParseUint(n, 10, 64)
	if k != kind || perr != nil {
		return 0, false, Errorf(ECONFLICT, "Idempotency-Key %q created a %s, not a %s: send a new key for a new request", c.Key, k, kind)
	}
	return id, true, nil
}

// claimedGone is the error of a request resuming a key whose object was
// deleted since it was created.
func claimedGone(c *storage.IdempotencyRecord, kind string) error {
	return Errorf(ECONFLICT, "the %s the first request with Idempotency-Key %q created was deleted before its answer was kept: send a new key to create another", kind, c.Key)
}

func checkIdempotencyKey(key string) error {
	if key == "" || len(key) > MaxIdempotencyKey {
		return Errorf(EINVALIDARGUMENT, "Idempotency-Key: want 1 to %d visible ASCII characters, such as a UUID; got %d characters", MaxIdempotencyKey, len(key))
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; c <= ' ' || c > '~' {
			return Errorf(EINVALIDARGUMENT, "Idempotency-Key: want visible ASCII characters only (no spaces or control characters), such as a UUID")
		}
	}
	return nil
}
