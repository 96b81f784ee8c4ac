package grocery

import "testing"

func TestDateISO(t *testing.T) {
	// Every day from 1970 to 2199 against time's own formatting.
	for d := Date(0); d < Date(84000); d++ {
		if got, want := d.String(), d.Time().Format("2006-01-02"); got != want {
			t.Fatalf("day %d: got %s, want %s", d, got, want)
		}
	}
}
