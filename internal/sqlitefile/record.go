package sqlitefile

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Kind is a value's storage class.
type Kind uint8

// The storage classes.
const (
	Null Kind = iota
	Integer
	Real
	Text
	Blob
)

var kindNames = [...]string{"null", "integer", "real", "text", "blob"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is one value of a row, of any storage class: Int for an Integer,
// Float for a Real, Bytes for Text (UTF-8) and a Blob. Bytes is valid
// until the next call to Rows.Next.
type Value struct {
	Kind  Kind
	Int   int64
	Float float64
	Bytes []byte
}

// AppendText appends v as a CSV file carries it: an integer in decimal, a
// real in the fewest digits that read back as it (strconv's 'f' format,
// so 4.99 is "4.99" and 1e21 "1000000000000000000000"), text and a blob's
// bytes as they are, NULL as nothing.
func (v Value) AppendText(dst []byte) []byte {
	switch v.Kind {
	case Integer:
		return strconv.AppendInt(dst, v.Int, 10)
	case Real:
		return strconv.AppendFloat(dst, v.Float, 'f', -1, 64)
	case Text, Blob:
		return append(dst, v.Bytes...)
	}
	return dst
}

// String returns v's text as AppendText writes it.
func (v Value) String() string { return string(v.AppendText(nil)) }

// maxFields is the most values a record may hold: SQLite's own limit on
// a table's columns.
const maxFields = 32767

// decodeRecord appends the values of the record p (a header of serial
// types, then their values) to out. The header must describe exactly the
// payload's bytes. Text in a UTF-16 database (enc not nil) is converted
// to UTF-8.
func decodeRecord(p []byte, out []Value, enc binary.ByteOrder) ([]Value, error) {
	hsize, n := uvarint(p)
	if n == 0 || hsize < uint64(n) || hsize > uint64(len(p)) {
		return out, fmt.Errorf("%w: a record header of %d bytes in a payload of %d", ErrCorrupt, hsize, len(p))
	}
	hdr, body := p[n:hsize], p[hsize:]
	for len(hdr) > 0 {
		st, k := uvarint(hdr)
		if k == 0 {
			return out, fmt.Errorf("%w: a record's serial type runs past its header", ErrCorrupt)
		}
		hdr = hdr[k:]
		size, err := serialSize(st)
		if err != nil {
			return out, err
		}
		if size > uint64(len(body)) {
			return out, fmt.Errorf("%w: a record header describes values past its payload of %d bytes", ErrCorrupt, len(p))
		}
		if len(out) == maxFields {
			return out, fmt.Errorf("%w: a record of more than %d values", ErrCorrupt, maxFields)
		}
		out = append(out, decodeValue(st, body[:size], enc))
		body = body[size:]
	}
	if len(body) > 0 {
		return out, fmt.Errorf("%w: a record header describes %d bytes of values, its payload holds %d", ErrCorrupt, len(p)-int(hsize)-len(body), len(p)-int(hsize))
	}
	return out, nil
}

// serialSize returns the size of the value of serial type st.
func serialSize(st uint64) (uint64, error) {
	switch {
	case st <= 4:
		return [...]uint64{0, 1, 2, 3, 4}[st], nil
	case st == 5:
		return 6, nil
	case st == 6, st == 7:
		return 8, nil
	case st == 8, st == 9:
		return 0, nil
	case st == 10, st == 11:
		return 0, fmt.Errorf("%w: serial type %d is reserved", ErrCorrupt, st)
	}
	return (st - 12) / 2, nil
}

// decodeValue decodes the bytes b of a value of serial type st.
func decodeValue(st uint64, b []byte, enc binary.ByteOrder) Value {
	switch {
	case st == 0:
		return Value{}
	case st <= 6:
		v := int64(int8(b[0])) // sign-extended big-endian integer
		for _, c := range b[1:] {
			v = v<<8 | int64(c)
		}
		return Value{Kind: Integer, Int: v}
	case st == 7:
		return Value{Kind: Real, Float: math.Float64frombits(binary.BigEndian.Uint64(b))}
	case st == 8, st == 9:
		return Value{Kind: Integer, Int: int64(st - 8)}
	case st%2 == 0:
		return Value{Kind: Blob, Bytes: b}
	}
	if enc != nil {
		b = utf16ToUTF8(b, enc)
	}
	return Value{Kind: Text, Bytes: b}
}

// utf16ToUTF8 converts UTF-16 text in byte order enc to UTF-8 (a lone
// trailing byte and unpaired surrogates as U+FFFD).
func utf16ToUTF8(b []byte, enc binary.ByteOrder) []byte {
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = enc.Uint16(b[2*i:])
	}
	out := make([]byte, 0, len(b)+len(b)/2)
	for _, r := range utf16.Decode(u) {
		out = utf8.AppendRune(out, r)
	}
	if len(b)%2 == 1 {
		out = utf8.AppendRune(out, utf8.RuneError)
	}
	return out
}
