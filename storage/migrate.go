package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Format version 1 kept one record per series day in the "series" bucket
// (series key -> Day, the v1 encoding below). Version 2 keeps blocks of
// blockDays days in "dayblocks". A writable Open converts a version 1 file
// in one transaction; a read-only Open refuses it with ErrFormat.

var bucketSeriesV1 = []byte("series")

// decodeDayV1 decodes a version 1 day value.
func decodeDayV1(date int32, v []byte, d *Day) error {
	r := dec{b: v}
	d.Date = date
	d.Count, d.Min, d.Median, d.Max = r.u32(), r.u32(), r.u32(), r.u32()
	d.Entries = d.Entries[:0]
	prev := uint32(0)
	for i := uint32(0); i < d.Count && r.err == nil; i++ {
		x := Entry{Store: prev + r.u32(), Price: r.u32()}
		x.Regular = x.Price + r.u32()
		if pe := r.uvarint(); pe != 0 {
			x.PromoEnd = date + int32(pe) - 1
		}
		prev = x.Store
		d.Entries = append(d.Entries, x)
	}
	return r.err
}

// migrateV1 rewrites a version 1 file's series as version 2 blocks.
func migrateV1(tx *bolt.Tx) error {
	old := tx.Bucket(bucketSeriesV1)
	nb, err := tx.CreateBucketIfNotExists(bucketSeries)
	if err != nil {
		return err
	}
	nb.FillPercent = 0.95 // written in key order
	if old != nil {
		var (
			prefix []byte // series key prefix of the block being built
			blk    Block
			n      int
			buf    []byte
		)
		flush := func() error {
			if n == 0 {
				return nil
			}
			buf = buf[:0]
			for i := range n {
				buf = encodeDay(buf, blk.Start, &blk.Days[i])
			}
			k := binary.BigEndian.AppendUint32(bytes.Clone(prefix), uint32(blk.Start))
			n = 0
			return nb.Put(k, bytes.Clone(buf))
		}
		c := old.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if len(k) < 4 {
				return fmt.Errorf("%w: series key %q", errCorrupt, k)
			}
			p, date := k[:len(k)-4], int32(binary.BigEndian.Uint32(k[len(k)-4:]))
			if n > 0 && (!bytes.Equal(p, prefix) || blockStart(date) != blk.Start) {
				if err := flush(); err != nil {
					return err
				}
			}
			if n == 0 {
				prefix, blk.Start = append(prefix[:0], p...), blockStart(date)
			}
			if n == len(blk.Days) {
				blk.Days = append(blk.Days, Day{})
			}
			if err := decodeDayV1(date, v, &blk.Days[n]); err != nil {
				return err
			}
			n++
		}
		if err := flush(); err != nil {
			return err
		}
		if err := tx.DeleteBucket(bucketSeriesV1); err != nil {
			return err
		}
	}
	return tx.Bucket(bucketMeta).Put(keyFormat, binary.BigEndian.AppendUint32(nil, FormatVersion))
}
