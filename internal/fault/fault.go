// Package fault is the error of grocery's internal packages: a kind that
// grocery converts to its own error code at the edge, and a message
// written for the caller.
package fault

import (
	"errors"
	"fmt"
)

// Kind is what went wrong, in the terms of grocery's error codes.
type Kind int

// The kinds; grocery maps each to the code of the same name.
const (
	Internal        Kind = iota // anything else
	Invalid                     // EINVALIDARGUMENT
	NotFound                    // ENOTFOUND
	Unauthenticated             // EUNAUTHENTICATED
	Forbidden                   // EPLANREQUIRED
	Quota                       // EQUOTA
	Conflict                    // ECONFLICT
	Unavailable                 // EUNAVAILABLE
)

// Error is an error of a kind, with a message for the caller.
type Error struct {
	Kind    Kind
	Message string
}

func (e *Error) Error() string { return e.Message }

// New returns an *Error of kind with a formatted message.
func New(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// KindOf returns the kind of err if it is, or wraps, an *Error, and
// whether it is one.
func KindOf(err error) (Kind, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind, true
	}
	return Internal, false
}

// Refused ends the message of a fault.Unavailable of a shared store that
// does not answer (Redis).
const Refused = ": the call is refused; try again shortly"
