package storage

import (
	"os"
	"sync/atomic"
	"unsafe"

	bolt "go.etcd.io/bbolt"
)

// preloadSink keeps the bytes preload reads, so that the compiler does
// not drop the reads.
var preloadSink atomic.Uint32

// preload reads one byte of every memory page of b's file, in one read
// transaction (which a commit that grows the file, and so maps it again,
// waits for). A page of the file is then mapped into this process and in
// the page cache, so that no later read pays its first touch: a page
// fault, and a disk read when the page cache did not hold the page. It
// returns the bytes of the file it covered.
func preload(b *bolt.DB) (int64, error) {
	var size int64
	err := b.View(func(tx *bolt.Tx) error {
		info := b.Info()
		size = tx.Size() // the pages in use; the mapping may be larger than the file
		// The mapping is not Go memory: its address is stable while the
		// transaction holds the mapping.
		data := unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&info.Data))), size)
		step := os.Getpagesize()
		var sum byte
		for i := 0; i < len(data); i += step {
			sum += data[i]
		}
		preloadSink.Add(uint32(sum))
		return nil
	})
	return size, err
}
