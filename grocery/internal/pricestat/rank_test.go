package pricestat

import "testing"

// TestRank: ranks follow the written index, equal written indexes
// share a rank, and rows that may not be ranked come last with rank 0.
func TestRank(t *testing.T) {
	t.Parallel()
	type row struct {
		name  string
		index float64
		items int
		rank  int
	}
	rows := []row{{"e", 90, 5, -1}, {"d", 101.04, 30, -1}, {"c", 100.96, 30, -1}, {"b", 99.2, 25, -1}, {"a", 101, 40, -1}}
	Rank(rows, func(r *row) bool { return r.items >= 20 }, func(r *row) float64 { return r.index },
		func(r *row) string { return r.name }, func(r *row, k int) { r.rank = k })
	want := []struct {
		name string
		rank int
	}{{"b", 1}, {"a", 2}, {"c", 2}, {"d", 2}, {"e", 0}}
	for i, w := range want {
		if rows[i].name != w.name || rows[i].rank != w.rank {
			t.Errorf("row %d: got %s rank %d, want %s rank %d", i, rows[i].name, rows[i].rank, w.name, w.rank)
		}
	}
}
