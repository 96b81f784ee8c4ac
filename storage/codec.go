package storage

import (
	"encoding/binary"
	"errors"
	"math"
)

var errCorrupt = errors.New("storage: corrupt value")

// enc appends varint-encoded fields to a byte slice.
type enc []byte

func (e enc) uvarint(v uint64) enc { return binary.AppendUvarint(e, v) }
func (e enc) varint(v int64) enc   { return binary.AppendVarint(e, v) }
func (e enc) str(s string) enc     { return append(binary.AppendUvarint(e, uint64(len(s))), s...) }
func (e enc) f64(v float64) enc    { return binary.BigEndian.AppendUint64(e, math.Float64bits(v)) }
func (e enc) bool(v bool) enc {
	if v {
		return append(e, 1)
	}
	return append(e, 0)
}

// dec reads what enc wrote. The first error sticks; callers check err once.
type dec struct {
	b   []byte
	err error
	tx  *Tx // when set, str carves short strings from its chunk (Tx.text)
}

func (d *dec) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errCorrupt
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errCorrupt
		return 0
	}
	d.b = d.b[n:]
	return v
}

// u32 reads a uvarint that must fit 32 bits: a larger one is errCorrupt,
// not a value truncated into another.
func (d *dec) u32() uint32 {
	v := d.uvarint()
	if v > math.MaxUint32 {
		if d.err == nil {
			d.err = errCorrupt
		}
		return 0
	}
	return uint32(v)
}

// raw returns the next string's bytes without copying them: valid only
// as long as the transaction that read them.
func (d *dec) raw() []byte {
	n := d.uvarint()
	if d.err != nil {
		return nil
	}
	if uint64(len(d.b)) < n {
		d.err = errCorrupt
		return nil
	}
	s := d.b[:n:n]
	d.b = d.b[n:]
	return s
}

func (d *dec) str() string {
	n := d.uvarint()
	if d.err != nil {
		return ""
	}
	if uint64(len(d.b)) < n {
		d.err = errCorrupt
		return ""
	}
	var s string
	if d.tx != nil {
		s = d.tx.text(d.b[:n])
	} else {
		s = string(d.b[:n])
	}
	d.b = d.b[n:]
	return s
}

func (d *dec) f64() float64 {
	if d.err != nil {
		return 0
	}
	if len(d.b) < 8 {
		d.err = errCorrupt
		return 0
	}
	v := math.Float64frombits(binary.BigEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}

func (d *dec) bool() bool {
	if d.err != nil {
		return false
	}
	if len(d.b) < 1 {
		d.err = errCorrupt
		return false
	}
	v := d.b[0] != 0
	d.b = d.b[1:]
	return v
}
