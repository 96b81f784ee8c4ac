package main

import (
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// TestVersion: 'grocery version', 'grocery --version' and '-v' print the
// same line, naming grocery.Version (the release, with the revision when
// the build carries one).
func TestVersion(t *testing.T) {
	want := "grocery version " + grocery.Version() + "\n"
	if !strings.HasPrefix(grocery.Version(), grocery.Release) {
		t.Fatalf("grocery.Version() %q does not start with Release %q", grocery.Version(), grocery.Release)
	}
	for _, args := range [][]string{{"version"}, {"--version"}, {"-v"}} {
		r := cli(t, nil, args...)
		ok(t, r)
		if r.stdout != want {
			t.Errorf("grocery %s: %q, want %q", strings.Join(args, " "), r.stdout, want)
		}
	}
	if r := cli(t, nil, "version", "extra"); r.code != exitUsage {
		t.Errorf("grocery version extra: exit %d, want %d", r.code, exitUsage)
	}
}
