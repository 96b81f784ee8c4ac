package storage

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// boltFile writes a bbolt file of nested buckets, inline and not, with
// values of every size up to several pages (overflow pages), and some
// free pages.
func boltFile(t *testing.T) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.db")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	err = db.Update(func(tx *bolt.Tx) error {
		for b := range 6 {
			top, err := tx.CreateBucket(fmt.Appendf(nil, "bucket-%d", b))
			if err != nil {
				return err
			}
			for i := range 2000 {
				v := make([]byte, rnd.IntN(200))
				if i%500 == 0 {
					v = make([]byte, 10000)
				}
				if err := top.Put(fmt.Appendf(nil, "key-%06d", i), v); err != nil {
					return err
				}
			}
			for n := range 3 {
				sub, err := top.CreateBucket(fmt.Appendf(nil, "sub-%d", n))
				if err != nil {
					return err
				}
				for i := range n * 300 { // 0: an empty inline bucket; small ones inline
					if err := sub.Put(fmt.Appendf(nil, "k%d", i), []byte("v")); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err == nil {
		err = db.Update(func(tx *bolt.Tx) error { return tx.DeleteBucket([]byte("bucket-3")) })
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readAll reads every key and value of every bucket, with faults turned
// into panics, and returns what it recovered.
func readAll(path string) (failed any) {
	done := make(chan any)
	go func() {
		defer func() { done <- recover() }()
		debug.SetPanicOnFault(true)
		db, err := bolt.Open(path, 0o400, &bolt.Options{ReadOnly: true})
		if err != nil {
			panic(err)
		}
		defer db.Close()
		var walk func(b *bolt.Bucket)
		sum := 0
		walk = func(b *bolt.Bucket) {
			b.ForEach(func(k, v []byte) error {
				if v == nil {
					walk(b.Bucket(k))
					return nil
				}
				for _, x := range v {
					sum += int(x)
				}
				return nil
			})
		}
		db.View(func(tx *bolt.Tx) error {
			return tx.ForEach(func(_ []byte, b *bolt.Bucket) error { walk(b); return nil })
		})
	}()
	return <-done
}

func TestCheckFile(t *testing.T) {
	t.Parallel() // files of its own
	good := boltFile(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "good.db")
	if err := os.WriteFile(path, good, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := CheckFile(path); err != nil {
		t.Fatalf("CheckFile of a good file: %v", err)
	}
	junk := filepath.Join(dir, "junk.db")
	if err := os.WriteFile(junk, make([]byte, 8192), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := CheckFile(junk); err == nil {
		t.Errorf("CheckFile of zeros: no error")
	}
}

// TestCheckFileDamaged damages a file the way the attacker's probe did
// (random 64-byte runs past the first 16 KiB) with many seeds: CheckFile
// never crashes, and every file it lets through is read whole without a
// fault or a panic.
func TestCheckFileDamaged(t *testing.T) {
	t.Parallel() // files of its own
	good := boltFile(t)
	dir := t.TempDir()
	refused := 0
	for seed := range uint64(60) {
		b := append([]byte(nil), good...)
		rnd := rand.New(rand.NewPCG(seed, 19))
		for range 1 + seed%20 {
			at := 16<<10 + rnd.IntN(len(b)-16<<10-64)
			for i := range 64 {
				b[at+i] = byte(rnd.Uint32())
			}
		}
		path := filepath.Join(dir, fmt.Sprintf("damaged-%d.db", seed))
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		err := CheckFile(path)
		if err != nil {
			if !errors.Is(err, ErrDamaged) && !errors.Is(err, ErrNotDataFile) {
				t.Errorf("seed %d: CheckFile: %v, want ErrDamaged", seed, err)
			}
			refused++
			continue
		}
		if r := readAll(path); r != nil {
			t.Errorf("seed %d: CheckFile passed a file whose reading fails: %v", seed, r)
		}
	}
	if refused == 0 {
		t.Errorf("CheckFile refused none of 60 damaged files")
	}
	t.Logf("refused %d of 60", refused)
}
