package grocery

import (
	"errors"
	"fmt"
)

// Error codes. Transports map each code to a status in one place; a code is
// part of the external contract and never changes meaning. Each name is
// its value in capitals, after E.
const (
	EINVALIDARGUMENT = "invalid_argument" // an argument is malformed or out of range
	ENOTFOUND        = "not_found"        // the identified thing does not exist
	EUNAUTHENTICATED = "unauthenticated"  // missing, unknown or revoked credentials
	EPLANREQUIRED    = "plan_required"    // the account's plan does not allow this
	EQUOTA           = "quota_exceeded"   // the plan quota of the window is spent
	ECONFLICT        = "conflict"         // the current state forbids it: the data file is held by another process, an account holds its most alert rules
	EUNAVAILABLE     = "unavailable"      // a store the service needs (a shared store such as Redis) does not answer: the call is refused; try again shortly
	EGONE            = "gone"             // what an argument refers to is no longer there to answer from (an export cursor of a replaced data file): start over
	EINTERNAL        = "internal"         // anything else; its text is never shown
)

// Error is the one error type of the package. Code is machine-readable,
// Message is written for the caller and never carries internals. Next,
// when set, names what the caller can do instead; each interface words it
// with its own verbs (ErrorMessageIn), so that a CLI user is told to run
// 'grocery search' and a model to call search_products.
type Error struct {
	Code    string
	Message string
	Next    Next
}

// Next is a follow-up an error suggests, named by the queries it involves.
type Next int

// The follow-ups.
const (
	NextNone   Next = iota
	NextSearch      // search the products by name instead
	NextSKU         // take an external_sku from a lookup or a search
)

// Verbs are an interface's names for the queries a Next refers to.
type Verbs struct {
	Lookup string // LookupProduct's: "lookup_product", "'grocery lookup'"
	Search string // SearchProducts's
}

// libraryVerbs names the queries as the Go API does: ErrorMessage and
// Error use them.
var libraryVerbs = Verbs{Lookup: "LookupProduct", Search: "SearchProducts"}

// words returns the follow-up n in the words of v, "" for NextNone.
func (n Next) words(v Verbs) string {
	switch n {
	case NextSearch:
		return "search by name with " + v.Search
	case NextSKU:
		return "take the external_sku of an offer or a search hit from " + v.Lookup + " or " + v.Search
	}
	return ""
}

// Error implements the error interface.
func (e *Error) Error() string {
	return e.Code + ": " + e.message(libraryVerbs)
}

func (e *Error) message(v Verbs) string {
	if w := e.Next.words(v); w != "" {
		return e.Message + "; " + w
	}
	return e.Message
}

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err if it is, or wraps, an *Error;
// EINTERNAL for any other non-nil error, and "" for nil.
func ErrorCode(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Code
	default:
		return EINTERNAL
	}
}

// ErrorMessage returns the human-readable message of err if it is, or wraps,
// an *Error (with its follow-up named by the Go API's methods), and a generic text for
// any other error so that internals never reach a client.
func ErrorMessage(err error) string { return ErrorMessageIn(err, libraryVerbs) }

// ErrorMessageIn is ErrorMessage with the follow-up worded in an
// interface's own verbs.
func ErrorMessageIn(err error, v Verbs) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.message(v)
	default:
		return "internal error"
	}
}
