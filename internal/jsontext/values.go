package jsontext

import (
	"math"
	"strconv"
)

// AppendFloat appends f as encoding/json writes a float64 (null for an
// infinity or NaN, which encoding/json refuses).
func AppendFloat(b []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return append(b, "null"...)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// AppendList appends a JSON array of list, each element by each, or null
// for a nil slice as encoding/json does.
func AppendList[T any](b []byte, list []T, each func(*T, []byte) []byte) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = each(&list[i], b)
	}
	return append(b, ']')
}

// AppendCents appends an amount in cents as a decimal number with two
// digits after the point: 499 as 4.99, -5 as -0.05.
func AppendCents(b []byte, c int64) []byte {
	if c < 0 {
		b, c = append(b, '-'), -c
	}
	b = strconv.AppendInt(b, c/100, 10)
	return append(b, '.', byte('0'+c%100/10), byte('0'+c%10))
}

// AppendISODate appends day (days since 1970-01-01) as YYYY-MM-DD,
// computing the civil date from the day number directly (the
// days-from-civil inverse of H. Hinnant's chrono algorithms) rather than
// through time.Time formatting.
func AppendISODate(b []byte, day int64) []byte {
	z := day + 719468
	era := z / 146097
	if z < 0 {
		era = (z - 146096) / 146097
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if mp >= 10 {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return append(b, byte('0'+y/1000%10), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+m/10), byte('0'+m%10), '-', byte('0'+d/10), byte('0'+d%10))
}
