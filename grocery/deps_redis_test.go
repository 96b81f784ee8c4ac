package grocery_test

import (
	"os/exec"
	"strings"
	"testing"
)

// Package grocery links no Redis client: the Redis stores live in
// redisstore, which a program imports to plug them in (Options.Shared).
func TestDepsNoRedis(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for dep := range strings.FieldsSeq(string(out)) {
		if strings.HasPrefix(dep, "github.com/redis/go-redis") {
			t.Errorf("grocery depends on %s: Redis belongs in redisstore", dep)
		}
	}
}
