package storage

import (
	"strconv"
	"sync"
	"testing"
	"unsafe"
)

// TestInterner: a string read again is the one first returned, also when
// goroutines read at once, and past the cap a string is returned fresh.
func TestInterner(t *testing.T) {
	t.Parallel()
	var in interner
	first := in.get([]byte("no-frills"))
	if got := in.get([]byte("no-frills")); got != "no-frills" || unsafe.StringData(got) != unsafe.StringData(first) {
		t.Fatalf("second get: got %q at %p, want %q at %p", got, unsafe.StringData(got), first, unsafe.StringData(first))
	}

	var wg sync.WaitGroup
	got := make([][]string, 4)
	for g := range got {
		wg.Go(func() {
			for i := range 200 {
				got[g] = append(got[g], in.get([]byte("b"+strconv.Itoa(i%50))))
			}
		})
	}
	wg.Wait()
	for i := range 200 {
		want := in.get([]byte("b" + strconv.Itoa(i%50)))
		for g := range got {
			if got[g][i] != want || unsafe.StringData(got[g][i]) != unsafe.StringData(want) {
				t.Fatalf("goroutine %d, read %d: got %q at %p, want %q at %p", g, i, got[g][i], unsafe.StringData(got[g][i]), want, unsafe.StringData(want))
			}
		}
	}

	for i := range 5000 { // more than the cap: a lower cap fails below, not hangs
		in.get([]byte("fill" + strconv.Itoa(i)))
	}
	a, b := in.get([]byte("past the cap")), in.get([]byte("past the cap"))
	if a != "past the cap" || unsafe.StringData(a) == unsafe.StringData(b) {
		t.Fatalf("past the cap: got %q and %q sharing %p, want fresh strings", a, b, unsafe.StringData(a))
	}
	if n := len(*in.m.Load()); n != 4096 {
		t.Fatalf("past the cap: %d strings held, want 4096", n)
	}
}
