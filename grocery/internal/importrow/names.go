package importrow

import "strings"

// Names numbers the distinct strings a file repeats (its SKUs, banners,
// provinces) 0, 1, 2... in the order they are met, keeping each once: a
// row then costs a lookup in a small map and allocates nothing, and the
// rows sort and key on numbers. The zero Names is empty and ready to use.
type Names struct {
	nums  map[string]int32
	names []string
}

// Num returns the number of s and whether it has one.
func (n *Names) Num(s string) (int32, bool) {
	i, ok := n.nums[s]
	return i, ok
}

// Add numbers s, which has no number yet, and returns its number. It
// keeps a copy of s, so that the name does not hold on to the row it
// was read from.
func (n *Names) Add(s string) int32 {
	if n.nums == nil {
		n.nums = map[string]int32{}
	}
	s = strings.Clone(s)
	i := int32(len(n.names))
	n.nums[s] = i
	n.names = append(n.names, s)
	return i
}

// Number returns the number of s, numbering it when it has none.
func (n *Names) Number(s string) int32 {
	if i, ok := n.nums[s]; ok {
		return i
	}
	return n.Add(s)
}

// Name returns the string numbered i.
func (n *Names) Name(i int32) string { return n.names[i] }

// Len returns how many strings are numbered.
func (n *Names) Len() int { return len(n.names) }
