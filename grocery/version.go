package grocery

import (
	"runtime/debug"
	"sync"
)

// Release is this source tree's release version (semantic versioning). It
// is written here, not taken from the build, so that every way of building
// (go build, go install, go run) reports it.
const Release = "0.15.0"

// Version returns the build's version: Release, followed by the VCS
// revision the binary was built from when the build recorded one (go build
// in a git checkout does), as semantic-versioning build metadata:
// "0.15.0+61bbb1a2c3d4", or "0.15.0+61bbb1a2c3d4.dirty" when the checkout
// had uncommitted changes. Without a recorded revision it is Release alone.
// The interfaces report it (MCP's serverInfo.version).
func Version() string { return version() }

var version = sync.OnceValue(func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Release
	}
	return versionOf(bi.Settings)
})

// versionOf builds Version from a build's settings.
func versionOf(settings []debug.BuildSetting) string {
	var rev string
	var dirty bool
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return Release
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	v := Release + "+" + rev
	if dirty {
		v += ".dirty"
	}
	return v
}
