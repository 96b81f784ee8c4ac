package grocery

// storeSet is a set of store ordinals (small, dense numbers).
type storeSet struct {
	bits []uint64
	n    int
}

func (s *storeSet) add(ord uint32) {
	i := int(ord >> 6)
	if i >= len(s.bits) {
		s.bits = append(s.bits, make([]uint64, i+1-len(s.bits))...)
	}
	if m := uint64(1) << (ord & 63); s.bits[i]&m == 0 {
		s.bits[i] |= m
		s.n++
	}
}
