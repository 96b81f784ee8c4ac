// Package opaqueid turns the numbers of a sequence into ids that carry no
// count: a keyed permutation of the 64-bit numbers (a balanced Feistel
// network of four rounds, each round's function SHA-256 keyed with the
// secret, the round and the half), so that consecutive numbers give
// unrelated ids and, without the key, an id tells nothing of the number
// behind it. Decode inverts Encode; both take about a microsecond.
package opaqueid

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"strconv"
)

// KeySize is the size of a Codec's secret, in bytes.
const KeySize = 32

const rounds = 4

// Codec encodes and decodes the numbers of one sequence under one secret.
type Codec struct {
	key [KeySize]byte
}

// New returns the Codec of key, which must hold KeySize random bytes.
func New(key []byte) (*Codec, error) {
	if len(key) != KeySize {
		return nil, errors.New("opaqueid: key of " + strconv.Itoa(len(key)) + " bytes, want " + strconv.Itoa(KeySize))
	}
	c := &Codec{}
	copy(c.key[:], key)
	return c, nil
}

// round is the Feistel function of round r applied to a half.
func (c *Codec) round(r int, half uint32) uint32 {
	var b [KeySize + 5]byte
	copy(b[:], c.key[:])
	b[KeySize] = byte(r)
	binary.BigEndian.PutUint32(b[KeySize+1:], half)
	sum := sha256.Sum256(b[:])
	return binary.BigEndian.Uint32(sum[:4])
}

// Encode returns the id of n.
func (c *Codec) Encode(n uint64) uint64 {
	l, r := uint32(n>>32), uint32(n)
	for i := range rounds {
		l, r = r, l^c.round(i, r)
	}
	return uint64(l)<<32 | uint64(r)
}

// Decode returns the number whose id is v.
func (c *Codec) Decode(v uint64) uint64 {
	l, r := uint32(v>>32), uint32(v)
	for i := rounds - 1; i >= 0; i-- {
		l, r = r^c.round(i, l), l
	}
	return uint64(l)<<32 | uint64(r)
}

// Format writes an id as its 16 lowercase hexadecimal digits.
func Format(v uint64) string {
	const digits = "0123456789abcdef"
	var b [16]byte
	for i := 15; i >= 0; i-- {
		b[i] = digits[v&15]
		v >>= 4
	}
	return string(b[:])
}

// Parse reads what Format writes: exactly 16 hexadecimal digits (either
// case).
func Parse(s string) (uint64, bool) {
	if len(s) != 16 {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | uint64(c)
	}
	return v, true
}
