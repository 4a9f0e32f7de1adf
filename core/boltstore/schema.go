package boltstore

import (
	"errors"
	"fmt"
	"strconv"

	bolt "go.etcd.io/bbolt"

	"minis3/core"
)

// Format is the layout of the database file this package writes. Open
// refuses a file of a newer format instead of misreading it.
const Format = 1

// The file's own bucket holds the format marker.
var (
	schemaBucket = []byte("minis3")
	formatKey    = []byte("format")
)

// kindBuckets names the bolt bucket of every kind of item.
var kindBuckets = map[core.Kind][]byte{
	core.KindMeta:   []byte("meta"),
	core.KindBucket: []byte("bucket"),
	core.KindRecord: []byte("record"),
	core.KindUpload: []byte("upload"),
	core.KindBody:   []byte("body"),
}

// metadataKinds are the kinds Load reads: all but bodies.
var metadataKinds = []core.Kind{core.KindMeta, core.KindBucket, core.KindRecord, core.KindUpload}

// prepare checks the format marker of an existing file, or lays out a new
// one: the marker and a bucket per kind.
func prepare(tx *bolt.Tx) error {
	if schema := tx.Bucket(schemaBucket); schema != nil {
		marker := schema.Get(formatKey)
		format, err := strconv.Atoi(string(marker))
		switch {
		case err != nil || format < 1:
			return fmt.Errorf("format marker %q is not a format number", marker)
		case format > Format:
			return fmt.Errorf("the file has format %d, from a newer MiniS3; this one reads up to format %d", format, Format)
		}
	} else {
		if first, _ := tx.Cursor().First(); first != nil {
			return errors.New("the file is a bolt database without a MiniS3 format marker")
		}
		schema, err := tx.CreateBucket(schemaBucket)
		if err != nil {
			return err
		}
		if err := schema.Put(formatKey, []byte(strconv.Itoa(Format))); err != nil {
			return err
		}
	}
	for _, name := range kindBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	return nil
}
