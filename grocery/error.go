package grocery

import (
	"errors"
	"fmt"
)

// Error codes. Transports map each code to a status in one place; a code is
// part of the external contract and never changes meaning.
const (
	EINVALID         = "invalid_argument" // an argument is malformed or out of range
	ENOTFOUND        = "not_found"        // the identified thing does not exist
	EUNAUTHENTICATED = "unauthenticated"  // missing, unknown or revoked credentials
	EFORBIDDEN       = "plan_required"    // the account's plan does not allow this
	EQUOTA           = "quota_exceeded"   // the plan quota of the window is spent
	ECONFLICT        = "conflict"         // the data file is held by another process
	EINTERNAL        = "internal"         // anything else; its text is never shown
)

// Error is the one error type of the package. Code is machine-readable,
// Message is written for the caller and never carries internals.
type Error struct {
	Code    string
	Message string
}

// Error implements the error interface.
func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
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
// an *Error, and a generic text for any other error so that internals never
// reach a client.
func ErrorMessage(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Message
	default:
		return "internal error"
	}
}
