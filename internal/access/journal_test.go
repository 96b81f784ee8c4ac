package access

import (
	"crypto/hmac"
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A journal reads back what was written; one of another data file (its
// id) is ignored; a damaged line is an error naming the file, and none
// is no journal.
func TestJournal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := journalPath(filepath.Join(dir, "g.db"))
	id := journalID([]byte("secret"))
	if got, err := readJournal(path, id); got != nil || err != nil {
		t.Fatalf("no journal: got %+v, %v, want nil, nil", got, err)
	}
	j := &journal{usage: map[usageID]int64{{"acme", 203101}: 7, {"beta", 203102}: 1}, lastUsed: map[string]int64{"Ab12Cd34": 1700000000}}
	if err := writeJournal(path, id, j); err != nil {
		t.Fatal(err)
	}
	got, err := readJournal(path, id)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(j, got, cmp.AllowUnexported(journal{}, usageID{})); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	if other, err := readJournal(path, journalID([]byte("another file's secret"))); other != nil || err != nil {
		t.Errorf("a journal of another data file: got %+v, %v, want it ignored", other, err)
	}
	if err := os.WriteFile(path, []byte(journalMagic+" "+id+"\nu acme 203101 many\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := readJournal(path, id); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "bad line") {
		t.Errorf("a damaged journal: %v, want an error naming it and the bad line", err)
	}
}

// A key's form is checked before any lookup: the prefix, the marker, 40
// base62 characters.
func TestKeyringParse(t *testing.T) {
	t.Parallel()
	r := NewKeyring("gro", []Plan{{Name: "starter", Quota: 1}}, []byte("s"))
	id, text, sum, err := r.NewKeyText()
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := r.Parse(text); !ok || got != id {
		t.Errorf("parse(%q) = %q, %v, want %q", text, got, ok, id)
	}
	if r.MAC(text) != sum {
		t.Error("the keyed hash of a new key differs from the one newKeyText gave")
	}
	for _, bad := range []string{"", text[:len(text)-1], "xyz" + text[3:], text[:len(text)-1] + "-", strings.Replace(text, "_pk_", "_sk_", 1)} {
		if _, ok := r.Parse(bad); ok {
			t.Errorf("parse(%q) accepted a malformed key", bad)
		}
	}
}

// The keyed hash is HMAC-SHA256 under the key secret, as the keys stored
// in data files and Redis were hashed: computed here with crypto/hmac,
// not with mac, for keys of two keyrings and for calls in a row (the
// pooled state is reset between them).
func TestKeyringMAC(t *testing.T) {
	t.Parallel()
	want := func(secret, text string) [sha256.Size]byte {
		h := hmac.New(sha256.New, []byte(secret))
		h.Write([]byte(text))
		return [sha256.Size]byte(h.Sum(nil))
	}
	r1 := NewKeyring("gro", nil, []byte("s1"))
	r2 := NewKeyring("gro", nil, []byte("s2"))
	for _, text := range []string{"gro_pk_a", "gro_pk_b", "gro_pk_a", ""} {
		if got := r1.MAC(text); got != want("s1", text) {
			t.Errorf("mac(%q) under s1: got %x, want %x", text, got, want("s1", text))
		}
		if got := r2.MAC(text); got != want("s2", text) {
			t.Errorf("mac(%q) under s2: got %x, want %x", text, got, want("s2", text))
		}
	}
}
