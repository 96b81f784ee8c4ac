// Package admin is the admin socket of the grocery servers: a server holds
// the data file for writing, so the CLI reaches the data through it, over
// a Unix socket beside the file. Listen serves a *grocery.Service there;
// Dial returns a client whose methods mirror the Service's.
//
// The protocol is HTTP/1.1 with JSON bodies. Its routes are in handler;
// an error answer is {"code","message","next"} with the *grocery.Error's
// fields, and the client returns it as that *grocery.Error, so a caller
// sees the same error through the socket as from the file.
//
// The socket has mode 0600: only the server's user reaches it.
package admin

import (
	"errors"
	"time"

	"github.com/grocerydata/grocery/grocery"
)

// ErrNoAdmin means that no admin server answers on a socket: there is no
// socket file, or nothing listens on it. Calls of a Client return an error
// that wraps it (errors.Is) when they could not connect, so that nothing
// was sent.
var ErrNoAdmin = errors.New("no admin server answers")

// Limits of the protocol.
const (
	maxBody     = 1 << 20 // request bodies, an import's aside
	maxAnswer   = 64 << 20
	dialTimeout = time.Second
	callTimeout = 10 * time.Second
)

// unknownOperation starts the message of an answer to a path the server
// does not serve (every version has said it so): the client is newer than
// the server.
const unknownOperation = "no admin operation at "

// SocketPath returns the admin socket of a data file: dbPath + ".sock".
func SocketPath(dbPath string) string { return dbPath + ".sock" }

// errorBody is the body of an error answer: a *grocery.Error's fields.
// Message is without the follow-up, which travels as Next so that the
// client words it in its own interface's verbs.
type errorBody struct {
	Code    string       `json:"code"`
	Message string       `json:"message"`
	Next    grocery.Next `json:"next,omitempty"`
}

// revokeInput is the body of POST /v1/keys/revoke.
type revokeInput struct {
	Key string `json:"key"` // a key's text or public id
}

// alertID is the body of POST /v1/alerts/get, /v1/alerts/delete and
// /v1/alerts/evaluate_one.
type alertID struct {
	ID string `json:"id"`
}

// alertUpdate is the body of POST /v1/alerts/update.
type alertUpdate struct {
	ID     string              `json:"id"`
	Update grocery.AlertUpdate `json:"update"`
}
