package snapshot

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// cachePrefix begins the name of every replica's cache directory:
// grocery-replica-<pid>-<random digits>.
const cachePrefix = "grocery-replica-"

// Cache is a replica's private directory for its snapshot copies, named
// after its process and locked while it runs, so that a later replica can
// tell it from a live one's and remove it once its process is gone.
type Cache struct {
	Dir  string
	lock *os.File // the directory, locked (nil where locks are not taken)
}

// NewCache makes a cache directory under parent (the system's temporary
// directory when empty), grocery-replica-<pid>-<random digits>, and locks
// it for as long as the process runs or until Remove.
func NewCache(parent string) (*Cache, error) {
	dir, err := os.MkdirTemp(parent, cachePrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return nil, err
	}
	lock, err := lockDir(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &Cache{Dir: dir, lock: lock}, nil
}

// Remove removes the cache directory and its files, then lets go of its
// lock.
func (c *Cache) Remove() error {
	err := os.RemoveAll(c.Dir)
	if c.lock != nil {
		c.lock.Close()
		c.lock = nil
	}
	return err
}

// RemoveStale removes the cache directories under parent (the system's
// temporary directory when empty) that replicas killed before their
// Close left: only directories named exactly as NewCache names them,
// never this process's, and only when their process no longer runs and
// nothing holds their lock (a live replica in another PID namespace
// sharing parent holds it). Where that cannot be told (not a Unix
// system), it removes nothing. It returns the directories removed and
// the errors of those it could not remove.
func RemoveStale(parent string) ([]string, error) {
	if parent == "" {
		parent = os.TempDir()
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for _, e := range entries {
		pid, ok := cachePID(e.Name())
		if !ok || !e.Type().IsDir() || pid == os.Getpid() {
			continue
		}
		dir := filepath.Join(parent, e.Name())
		if !abandoned(pid, dir) {
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, dir)
	}
	if len(errs) > 0 {
		return removed, errs[0]
	}
	return removed, nil
}

// cachePID returns the process id in a cache directory's name,
// grocery-replica-<pid>-<digits>.
func cachePID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, cachePrefix)
	if !ok {
		return 0, false
	}
	p, r, ok := strings.Cut(rest, "-")
	if !ok || !digits(p) || !digits(r) {
		return 0, false
	}
	pid, err := strconv.Atoi(p)
	return pid, err == nil && pid > 0
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
