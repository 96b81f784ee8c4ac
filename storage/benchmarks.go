package storage

import (
	"bytes"
	"errors"
)

// Benchmark is one month's published average price of a product in a
// province (Statistics Canada's table 18-10-0245-01): a comparison
// series beside the panel's prices, not an observation.
//
// Key: province 0x00 product 0x00 month ("YYYY-MM"). Value: cents
// (uvarint), unit of measure (string).
type Benchmark struct {
	Province, Product, Month, UOM string
	Cents                         uint64
}

var errNoBenchmarks = errors.New("storage: the benchmarks are written only in a writable transaction")

func benchmarkKey(province, product, month string) []byte {
	return append(appendStr0(appendStr0(nil, province), product), month...)
}

// PutBenchmark stores b, replacing the one of its province, product and
// month. It reports whether the stored value changed.
func (t *Tx) PutBenchmark(b *Benchmark) (bool, error) {
	bk := t.tx.Bucket(bucketBenchmarks)
	if bk == nil {
		return false, errNoBenchmarks
	}
	k := benchmarkKey(b.Province, b.Product, b.Month)
	v := enc(nil).uvarint(b.Cents).str(b.UOM)
	if bytes.Equal(bk.Get(k), v) {
		return false, nil
	}
	return true, bk.Put(k, v)
}

// ForEachBenchmark calls fn with each benchmark of province (every
// province when it is ""), by product then month. A file without the
// bucket (read-only, written before it existed) has none.
func (t *Tx) ForEachBenchmark(province string, fn func(b *Benchmark) error) error {
	bk := t.tx.Bucket(bucketBenchmarks)
	if bk == nil {
		return nil
	}
	var prefix []byte
	if province != "" {
		prefix = appendStr0(nil, province)
	}
	c := bk.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		prov, rest, _ := bytes.Cut(k, []byte{0})
		product, month, _ := bytes.Cut(rest, []byte{0})
		d := dec{b: v}
		b := Benchmark{Province: string(prov), Product: string(product), Month: string(month), Cents: d.uvarint(), UOM: d.str()}
		if d.err != nil {
			return d.err
		}
		if err := fn(&b); err != nil {
			return err
		}
	}
	return nil
}
