package access

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/grocerydata/grocery/internal/atomicfile"
	"github.com/grocerydata/grocery/storage"
)

// The usage journal, <data file>.usage, keeps README's promise that a
// crash loses at most a second of quota counts when the data file's write
// transaction is busy: an import holds it for a whole file, and the
// once-a-second flush must not wait for it. Such a flush writes every
// count not yet in the data file to the journal instead (a small text
// file, replaced atomically and synced); the next flush that gets the
// write transaction writes them to the data file and removes the journal.
// Counts are absolute, so applying a journal twice, or one older than the
// data file, changes nothing: the larger count wins.
//
// Format, one record a line:
//
//	grocery usage journal 1 <file id>
//	u <account> <window yyyymm, or a day yyyymmdd> <calls>
//	k <key id> <last used, Unix seconds>
//
// The file id ties the journal to its data file (a keyed hash with the
// file's key secret), so a journal left beside a replaced file is ignored.
type journal struct {
	usage    map[usageID]int64
	lastUsed map[string]int64
}

// usageID names a count: an account's in a month (window yyyymm) or on
// a day (window yyyymmdd).
type usageID struct {
	account string
	window  uint32
}

const journalMagic = "grocery usage journal 1"

// journalPath returns the journal's path beside the data file.
func journalPath(dataFile string) string { return dataFile + ".usage" }

// journalID returns the id of the data file with the given key secret.
func journalID(secret []byte) string {
	h := hmac.New(sha256.New, secret)
	h.Write([]byte("usage journal"))
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// writeJournal replaces the journal at path with j: written to a
// temporary file, synced, renamed over the old one and the directory
// synced, so a crash leaves the old journal or the new one.
func writeJournal(path, id string, j *journal) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s\n", journalMagic, id)
	for u, n := range j.usage {
		fmt.Fprintf(&b, "u %s %d %d\n", u.account, u.window, n)
	}
	for k, t := range j.lastUsed {
		fmt.Fprintf(&b, "k %s %d\n", k, t)
	}
	// atomicfile writes a new file of its own (O_EXCL), never one that is
	// there: a link planted at a fixed name would make the server write
	// where it points.
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(b.Bytes())
		return err
	})
}

// readJournal reads the journal at path. It returns nil, nil when there
// is none or when it belongs to another data file.
func readJournal(path, id string) (*journal, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	if !sc.Scan() || sc.Text() != journalMagic+" "+id {
		return nil, nil
	}
	j := &journal{usage: map[usageID]int64{}, lastUsed: map[string]int64{}}
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 4 && f[0] == "u":
			w, err1 := strconv.ParseUint(f[2], 10, 32)
			n, err2 := strconv.ParseInt(f[3], 10, 64)
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("usage journal %s: bad line %q", path, sc.Text())
			}
			u := usageID{f[1], uint32(w)}
			j.usage[u] = max(j.usage[u], n)
		case len(f) == 3 && f[0] == "k":
			t, err := strconv.ParseInt(f[2], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("usage journal %s: bad line %q", path, sc.Text())
			}
			j.lastUsed[f[1]] = max(j.lastUsed[f[1]], t)
		default:
			return nil, fmt.Errorf("usage journal %s: bad line %q", path, sc.Text())
		}
	}
	return j, nil
}

// applyJournal writes j's counts and last-used times to the data file
// where they are larger than the stored ones.
func applyJournal(tx *storage.Tx, j *journal) error {
	for u, n := range j.usage {
		stored, err := tx.Usage(u.account, u.window)
		if err != nil {
			return err
		}
		if uint64(n) > stored {
			if err := tx.PutUsage(u.account, u.window, uint64(n)); err != nil {
				return err
			}
		}
	}
	var k storage.Key
	for id, t := range j.lastUsed {
		found, err := tx.Key(id, &k)
		if err != nil {
			return err
		}
		if found && k.LastUsed < t {
			k.LastUsed = t
			if err := tx.PutKey(&k); err != nil {
				return err
			}
		}
	}
	return nil
}
