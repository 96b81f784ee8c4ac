package storage

import (
	"encoding/binary"
	"fmt"
	"testing"
)

// TestPutReusedBuffers: put copies the value and bbolt copies the key, so
// a caller may reuse both buffers at once: 200 puts through one key and
// one value buffer read back as 200 distinct entries.
func TestPutReusedBuffers(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	err := db.Update(func(tx *Tx) error {
		var k, v [8]byte
		for i := range uint64(200) {
			binary.BigEndian.PutUint64(k[:], i)
			binary.BigEndian.PutUint64(v[:], i*3)
			if err := tx.put(tx.meta(), k[:], v[:]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.View(func(tx *Tx) error {
		for i := range uint64(200) {
			k := binary.BigEndian.AppendUint64(nil, i)
			if v := tx.meta().Get(k); len(v) != 8 || binary.BigEndian.Uint64(v) != i*3 {
				return fmt.Errorf("key %d: value %x, want %d", i, v, i*3)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
