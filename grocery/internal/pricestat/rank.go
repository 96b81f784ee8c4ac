package pricestat

import (
	"cmp"
	"slices"
)

// Rank gives ranks to the rows that may be ranked, cheapest first
// by their index as written (to 0.1): equal written indexes share a rank
// (1, 2, 2, 4). Rows are sorted by written index, then by name; rank 0
// marks a row that is not ranked. index, name and setRank read and write
// a row.
func Rank[T any](rows []T, ranked func(*T) bool, index func(*T) float64, name func(*T) string, setRank func(*T, int)) {
	slices.SortStableFunc(rows, func(a, b T) int {
		ra, rb := ranked(&a), ranked(&b)
		if ra != rb {
			if ra {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(Round1(index(&a)), Round1(index(&b))), cmp.Compare(name(&a), name(&b)))
	})
	rank := 0
	for i := range rows {
		r := &rows[i]
		if !ranked(r) {
			setRank(r, 0)
			continue
		}
		if i == 0 || Round1(index(r)) != Round1(index(&rows[i-1])) {
			rank = i + 1
		}
		setRank(r, rank)
	}
}
