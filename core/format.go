package core

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
)

// The storage format. A store is kept as items of five kinds (Kind), each
// with a key and a value:
//
//	kind    key                       value
//	meta    "store"                   storeMeta: the format, the manual clock and its origin (JSON)
//	bucket  <bucket>                  the bucket's metadata: bucketMeta (JSON)
//	bucket  <bucket>/lifecycle        its lifecycle configuration (JSON)
//	bucket  <bucket>/tagging          its tags: [{"k": key, "v": value}, ...] (JSON)
//	record  <bucket>/<seq>            one entry of a version stack (binary, below)
//	upload  <bucket>/<upload ID>      a multipart upload (JSON)
//	body    <bucket>/<seq>            a data version's bytes
//	body    <bucket>/<upload ID>/<n>  an uploaded part's bytes
//
// <seq> is the entry's sequence number in 16 lower-case hex digits, so
// that an entry's items sort in write order; a data version's body has the
// same key as its entry. Every version and delete marker is an item of its
// own: a write stores the entries it adds and removes the ones it drops,
// whatever the depth of their stacks. Bodies are read on demand; every
// other item is read when a store opens.
//
// An entry item is itemEntry, the object key (uvarint length + bytes),
// then the entry: a flags byte (entryMarker, entryMeta, entryClass,
// entryTags, entryPartSizes), the version ID, the creation time (8 bytes,
// little-endian float64) and the uvarint sequence number; a data version
// goes on with its ETag, varint size and uvarint part count; with
// entryMeta, six strings (content type, disposition, encoding, cache
// control, language, expires) and the user metadata as a uvarint count of
// name and value strings in name order; with entryClass, its storage class;
// with entryTags, a uvarint count of tag key and value strings in their
// order; with entryPartSizes, the size of each part as a uvarint, as many
// as the part count, adding up to the size. Strings are a uvarint length
// and the bytes. entryPartSizes came later than the rest: a multipart
// version written before it has no such flag, and its part sizes are
// unknown (Version.PartSizes is nil).
//
// This is format 3, the only one: a store of any other format is refused
// with an error that names it. Items were added to it without changing its
// number, since a store without them is still a format 3 store: a bucket's
// tags (a bucket has no tagging item until it is tagged). A MiniS3 older
// than an item refuses to open a store that holds one.
const formatVersion = 3

// storeMeta is the store-wide item: the format, the manual clock (seconds
// after its origin), its origin (seconds since the Unix epoch; 0 in a
// store written before there was one) and when the daily lifecycle run
// last ran (the midnight, seconds since the Unix epoch).
type storeMeta struct {
	Format       int     `json:"format"`
	Clock        float64 `json:"clock"`
	Origin       float64 `json:"origin"`
	LifecycleRun float64 `json:"lifecycleRun"`
}

// bucketMeta is a bucket's metadata item, rewritten by every write. The
// counters only grow: version numbers, entry sequence numbers and upload
// numbers are never reused.
type bucketMeta struct {
	Name        string          `json:"name"`
	CreatedAt   float64         `json:"created"`
	Versioning  VersioningState `json:"versioning"`
	NextVersion uint64          `json:"nextVersion"`
	NextSeq     uint64          `json:"nextSeq"`
	NextUpload  uint64          `json:"nextUpload"`
}

// lifecycleKey is the key of a bucket's lifecycle configuration. Bucket
// names hold no "/", so it cannot name a bucket.
func lifecycleKey(bucket string) string { return bucket + "/lifecycle" }

// taggingKey is the key of a bucket's tags.
func taggingKey(bucket string) string { return bucket + "/tagging" }

// entryRef is the key of the entry with sequence number seq, and of its
// body when it is a data version.
func entryRef(bucket string, seq uint64) string {
	return fmt.Sprintf("%s/%016x", bucket, seq)
}

// partRef is the key of the body of part n of an upload.
func partRef(bucket, uploadID string, n int) string {
	return fmt.Sprintf("%s/%s/%d", bucket, uploadID, n)
}

const itemEntry = 0x03 // the first byte of an entry item

// The flags of an entry.
const (
	entryMarker = 1 << iota
	entryMeta
	entryClass
	entryTags
	entryPartSizes
)

// appendEntryItem appends the stored item of key's entry e.
func appendEntryItem(b []byte, key string, e Entry) []byte {
	b = append(b, itemEntry)
	b = appendString(b, key)
	switch e := e.(type) {
	case *Version:
		var flags byte
		if !e.Meta.headersZero() {
			flags |= entryMeta
		}
		if e.Meta.StorageClass != "" {
			flags |= entryClass
		}
		if len(e.Meta.Tags) > 0 {
			flags |= entryTags
		}
		if len(e.PartSizes) > 0 {
			flags |= entryPartSizes
		}
		b = appendEntryHead(b, flags, e.VersionID, e.CreatedAt, e.seq)
		b = appendString(b, e.ETag)
		b = binary.AppendVarint(b, e.Size)
		b = binary.AppendUvarint(b, uint64(e.Parts))
		if flags&entryMeta != 0 {
			b = appendMeta(b, &e.Meta)
		}
		if flags&entryClass != 0 {
			b = appendString(b, e.Meta.StorageClass)
		}
		if flags&entryTags != 0 {
			b = binary.AppendUvarint(b, uint64(len(e.Meta.Tags)))
			for _, t := range e.Meta.Tags {
				b = appendString(b, t.Key)
				b = appendString(b, t.Value)
			}
		}
		for _, size := range e.PartSizes {
			b = binary.AppendUvarint(b, uint64(size))
		}
	case *DeleteMarker:
		b = appendEntryHead(b, entryMarker, e.VersionID, e.CreatedAt, e.seq)
	}
	return b
}

func appendEntryHead(b []byte, flags byte, id string, created float64, seq uint64) []byte {
	b = append(b, flags)
	b = appendString(b, id)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(created))
	return binary.AppendUvarint(b, seq)
}

func appendMeta(b []byte, m *ObjectMeta) []byte {
	for _, s := range [...]string{m.ContentType, m.ContentDisposition, m.ContentEncoding, m.CacheControl, m.ContentLanguage, m.Expires} {
		b = appendString(b, s)
	}
	b = binary.AppendUvarint(b, uint64(len(m.User)))
	for _, k := range slices.Sorted(maps.Keys(m.User)) {
		b = appendString(b, k)
		b = appendString(b, m.User[k])
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// decodeEntryItem reads an item appendEntryItem wrote.
func decodeEntryItem(data []byte) (key string, e Entry, err error) {
	if len(data) == 0 || data[0] != itemEntry {
		return "", nil, errors.New("not an entry of format 3")
	}
	d := decoder{data: data[1:]}
	key = d.string()
	flags := d.byte()
	id := d.string()
	created := math.Float64frombits(d.uint64())
	seq := d.uvarint()
	if flags&entryMarker != 0 {
		e = &DeleteMarker{VersionID: id, CreatedAt: created, seq: seq}
	} else {
		v := &Version{VersionID: id, CreatedAt: created, seq: seq, ETag: d.string(), Size: d.varint(), Parts: int(d.uvarint())}
		if flags&entryMeta != 0 {
			v.Meta = d.meta()
		}
		if flags&entryClass != 0 {
			v.Meta.StorageClass = d.string()
		}
		if flags&entryTags != 0 {
			n := d.uvarint()
			if n > uint64(len(d.data)) {
				d.fail()
			}
			for i := uint64(0); i < n && d.err == nil; i++ {
				v.Meta.Tags = append(v.Meta.Tags, Tag{Key: d.string(), Value: d.string()})
			}
		}
		if flags&entryPartSizes != 0 {
			v.PartSizes = d.partSizes(v.Parts, v.Size)
		}
		e = v
	}
	if d.err == nil && len(d.data) > 0 {
		d.err = errors.New("trailing bytes")
	}
	if d.err != nil {
		return "", nil, fmt.Errorf("entry: %w", d.err)
	}
	return key, e, nil
}

// decoder reads the binary layout of entries; the first error sticks and
// every later read returns a zero value.
type decoder struct {
	data []byte
	err  error
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errors.New("truncated")
	}
	d.data = nil
}

func (d *decoder) byte() byte {
	if len(d.data) < 1 {
		d.fail()
		return 0
	}
	c := d.data[0]
	d.data = d.data[1:]
	return c
}

func (d *decoder) uint64() uint64 {
	if len(d.data) < 8 {
		d.fail()
		return 0
	}
	v := binary.LittleEndian.Uint64(d.data)
	d.data = d.data[8:]
	return v
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.data)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.data = d.data[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.data)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.data = d.data[n:]
	return v
}

func (d *decoder) string() string {
	n := d.uvarint()
	if n > uint64(len(d.data)) {
		d.fail()
		return ""
	}
	s := string(d.data[:n])
	d.data = d.data[n:]
	return s
}

// partSizes reads the sizes of the n parts of a multipart version of size
// bytes; they must add up to it.
func (d *decoder) partSizes(n int, size int64) []int64 {
	if n <= 0 || n > len(d.data) {
		d.fail()
		return nil
	}
	sizes := make([]int64, n)
	var sum int64
	for i := range sizes {
		s := d.uvarint()
		if s > uint64(size) {
			d.fail()
			return nil
		}
		sizes[i] = int64(s)
		sum += sizes[i]
	}
	if d.err == nil && sum != size {
		d.err = errors.New("the part sizes do not add up to the size")
	}
	return sizes
}

func (d *decoder) meta() ObjectMeta {
	m := ObjectMeta{ContentType: d.string(), ContentDisposition: d.string(), ContentEncoding: d.string(),
		CacheControl: d.string(), ContentLanguage: d.string(), Expires: d.string()}
	n := d.uvarint()
	if n > uint64(len(d.data)) {
		d.fail()
		return m
	}
	if n > 0 {
		m.User = make(map[string]string, n)
		for range n {
			k := d.string()
			m.User[k] = d.string()
		}
	}
	return m
}
