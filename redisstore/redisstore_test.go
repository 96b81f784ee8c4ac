package redisstore_test

import (
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/redisstore"
)

var _ grocery.SharedStore = (*redisstore.Store)(nil)

// A malformed URL is refused at Dial with a message that names the form
// wanted and never repeats the password.
func TestDialMalformedURL(t *testing.T) {
	_, err := redisstore.Dial("redis://:secret@host:notaport/0", nil)
	if err == nil {
		t.Fatal("Dial of a malformed URL: got no error")
	}
	if msg := err.Error(); !strings.Contains(msg, "want redis://") || strings.Contains(msg, "secret") {
		t.Errorf("got %q, want the form wanted and no password", msg)
	}
}
