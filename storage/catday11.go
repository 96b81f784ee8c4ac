package storage

import "math"

// The category days' SKUs as versions 9 to 11 wrote them: each SKU's
// number, prices and Lookback one after the other (the links last, when
// it has one), so that a read of the links alone decoded every field. A
// writable Open of such a file rewrites its days in this version's
// encoding (encodeSKUs), reading them with these.

// decodeSKUNums11 appends the SKU days at d, in version 11's encoding
// and numbered in dict, to c.SKUNums.
func decodeSKUNums11(d *dec, c *CatDay, dict *skuDict) error {
	b := d.b
	n, i := uvarintAt(b, 0)
	if i < 0 || n > uint64(len(b)) {
		return errCorrupt
	}
	for ; n > 0; n-- {
		var num, p, r uint64
		if num, i = uvarintAt(b, i); i < 0 || num >= uint64(len(dict.skus)) {
			return errCorrupt
		}
		if p, i = uvarintAt(b, i); i < 0 || p > math.MaxUint32 {
			return errCorrupt
		}
		if r, i = uvarintAt(b, i); i < 0 || r > math.MaxUint32 {
			return errCorrupt
		}
		s := SKUNum{Num: uint32(num), Price: uint32(p), Regular: uint32(p) + uint32(r)}
		if i = lookbackInto(b, i, &s.Lookback); i < 0 {
			return errCorrupt
		}
		c.SKUNums = append(c.SKUNums, s)
	}
	d.b = b[i:]
	return nil
}

// lookbackInto decodes the Lookback at b[i:] (enc.lookback, as version 11
// wrote it after each SKU day) into lb,
// setting each of its fields, returning the index after it, or -1 when there is none.
func lookbackInto(b []byte, i int, lb *Lookback) int {
	var x uint64
	if x, i = uvarintAt(b, i); i < 0 || x > math.MaxUint32 {
		return -1
	}
	lb.Low = uint32(x)
	if x, i = uvarintAt(b, i); i < 0 || x>>2 > math.MaxUint32 {
		return -1
	}
	lb.Fell, lb.PrevGap = x&1 == 1, uint32(x>>2)
	lb.PrevRegular, lb.Link, lb.RegularLink = 0, 0, 0
	linked := x&2 == 2
	if lb.PrevGap != 0 {
		if x, i = uvarintAt(b, i); i < 0 || x > math.MaxUint32 {
			return -1
		}
		lb.PrevRegular = uint32(x)
	}
	if linked {
		return linksInto(b, i, lb)
	}
	return i
}

// linksInto decodes Link and RegularLink at b[i:] into lb (enc.lookback),
// returning the index after them, or -1 when they are not there.
func linksInto(b []byte, i int, lb *Lookback) int {
	var p, r uint64
	if p, i = uvarintAt(b, i); i < 0 || p > math.MaxUint32 {
		return -1
	}
	if r, i = uvarintAt(b, i); i < 0 || r > math.MaxUint32 {
		return -1
	}
	lb.Link, lb.RegularLink = int32(unzigzag(p)), int32(unzigzag(r))
	return i
}
