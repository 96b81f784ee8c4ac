package storage

import (
	"io"
	"os"
	"sync/atomic"
	"unsafe"

	bolt "go.etcd.io/bbolt"
)

// preloadSink keeps the bytes preload reads, so that the compiler does
// not drop the reads.
var preloadSink atomic.Uint32

// preload reads one byte of every memory page of b's file in use, in one
// read transaction (which a commit that grows the file, and so maps it
// again, waits for). A page of the file is then mapped into this process
// and in the page cache, so that no later read of it pays its first
// touch: a page fault, and a disk read when the page cache did not hold
// the page. It reads the file's first size bytes in order first, so that
// a file the page cache does not hold is read at the disk's sequential
// speed: bbolt maps it for random access, in which a page fault reads its
// page alone (the 1.6 GB national demo file: 13 s so, 1.6-2.8 s read in
// order first). A file shorter than the pages its meta page claims is
// ErrInconsistent, found by that read: those pages are not there to
// touch. It reads the file
// at b's path, which names the file b maps (snapshots are never
// replaced under their names).
func preload(b *bolt.DB) error {
	return b.View(func(tx *bolt.Tx) error {
		size := tx.Size()
		if err := readAhead(b.Path(), size); err != nil {
			return err
		}
		// The mapping is not Go memory, and its address holds while the
		// transaction holds the mapping. Data is a uintptr: reading it
		// through a pointer to it makes the unsafe.Pointer without a
		// uintptr conversion.
		info := b.Info()
		data := unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&info.Data))), size)
		step := os.Getpagesize()
		var sum byte
		for i := 0; i < len(data); i += step {
			sum += data[i]
		}
		preloadSink.Add(uint32(sum))
		return nil
	})
}

// readAhead reads the first size bytes of the file at path, in order,
// into the page cache, a megabyte a read; a file shorter than that is
// ErrInconsistent.
func readAhead(path string, size int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	for size > 0 {
		n, err := f.Read(buf[:min(int64(len(buf)), size)])
		size -= int64(n)
		if err == io.EOF {
			return inconsistent("the file ended %d bytes before its pages in use", size)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
