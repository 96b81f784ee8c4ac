package idemstore

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// RequestHash is the hex SHA-256 of a request's operation and body, a
// JSON body in a canonical form (members sorted, no spaces), another body
// as it is: the Hash of its record.
func RequestHash(operation string, body []byte) []byte {
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if dec.Decode(&v) == nil && !dec.More() {
		if b, err := json.Marshal(v); err == nil {
			body = b
		}
	}
	h := sha256.New()
	h.Write([]byte(operation))
	h.Write([]byte{0})
	h.Write(body)
	return []byte(hex.EncodeToString(h.Sum(nil)))
}
