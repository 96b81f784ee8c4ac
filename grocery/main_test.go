package grocery_test

import (
	"os"
	"testing"

	"github.com/grocerydata/grocery/internal/redistest"
)

// TestMain stops the redis-server the tests share (redistest.Shared).
func TestMain(m *testing.M) { os.Exit(redistest.Run(m)) }
