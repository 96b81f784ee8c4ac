package jsontext

import (
	"encoding/json"
	"testing"
	"time"
)

// AppendISODate agrees with time's formatting across eras, leap days and
// the epoch.
func TestAppendISODate(t *testing.T) {
	for day := int64(-719162); day <= 2932000; day += 997 { // years 1 to 9999
		for _, d := range []int64{day, day + 59, day + 365} {
			want := time.Unix(d*86400, 0).UTC().Format("2006-01-02")
			if got := string(AppendISODate(nil, d)); got != want {
				t.Fatalf("day %d: got %s, want %s", d, got, want)
			}
		}
	}
}

// AppendFloat writes what encoding/json writes; AppendCents two decimals.
func TestAppendNumbers(t *testing.T) {
	for _, f := range []float64{0, -0.5, 1e-7, 123456.789, 1e21, -3.25e-9} {
		want, _ := json.Marshal(f)
		if got := string(AppendFloat(nil, f)); got != string(want) {
			t.Errorf("%v: got %s, want %s", f, got, want)
		}
	}
	for c, want := range map[int64]string{0: "0.00", 499: "4.99", -5: "-0.05", 100000: "1000.00"} {
		if got := string(AppendCents(nil, c)); got != want {
			t.Errorf("%d: got %s, want %s", c, got, want)
		}
	}
}
