package grocery_test

import (
	"os"
	"testing"

	"github.com/grocerydata/grocery/grocery"

	"github.com/grocerydata/grocery/internal/redistest"
)

// TestMain stops the redis-server the tests share (redistest.Shared) and
// removes the demo file they copy (grocery.DemoCopy).
func TestMain(m *testing.M) {
	code := redistest.Run(m)
	grocery.RemoveDemoFile()
	os.Exit(code)
}
