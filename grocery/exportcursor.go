package grocery

import (
	"encoding/base64"
	"encoding/binary"
	"strings"

	"github.com/grocerydata/grocery/storage"
)

// An export cursor names the data an export was read from: the data
// file's identity and the number of its latest write then. Its text is
// opaque to clients (base64url of a version byte, the identity and the
// write number); only ExportInput.ChangedSince reads it back.
type exportCursor struct {
	file  uint64 // storage.Tx.FileID
	write uint64 // storage.Tx.LastWrite
}

// cursorVersion is the first byte of a cursor's bytes.
const cursorVersion = 1

// cursorOf returns the cursor of the data tx reads.
func cursorOf(tx *storage.Tx) exportCursor {
	return exportCursor{file: tx.FileID(), write: tx.LastWrite()}
}

// String returns the cursor's text.
func (c exportCursor) String() string {
	b := []byte{cursorVersion}
	b = binary.BigEndian.AppendUint64(b, c.file)
	b = binary.AppendUvarint(b, c.write)
	return base64.RawURLEncoding.EncodeToString(b)
}

// parseCursor reads a cursor's text. It returns EINVALIDARGUMENT naming
// changed_since for a text that is not a cursor.
func parseCursor(s string) (exportCursor, error) {
	bad := Errorf(EINVALIDARGUMENT, "changed_since %q is not an export cursor: want the cursor of an earlier export, as it came", s)
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) < 10 || b[0] != cursorVersion {
		return exportCursor{}, bad
	}
	c := exportCursor{file: binary.BigEndian.Uint64(b[1:9])}
	var n int
	if c.write, n = binary.Uvarint(b[9:]); n <= 0 || 9+n != len(b) {
		return exportCursor{}, bad
	}
	return c, nil
}

// check returns EGONE when c cannot select the changes since it from the
// data now: its file was replaced (by a rebuilt file, another data set),
// or the data is older than it (restored from an older copy, or a replica
// that has not yet taken the snapshot it was read from).
func (c exportCursor) check(now exportCursor) error {
	switch {
	case c.file != now.file:
		return Errorf(EGONE, "changed_since is a cursor of another data file: the data was replaced since (rebuilt or reloaded), so the changes since it cannot be told; export again in full, without changed_since, and pull the changes since that export's cursor from then on")
	case c.write > now.write:
		return Errorf(EGONE, "changed_since is a cursor of later data than this data file holds (it was restored from an older copy, or a replica has not caught up): retry later, or export again in full, without changed_since")
	}
	return nil
}
