package core

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// formatVersion is the layout of what MiniS3 stores. Open refuses data
// written by a newer layout instead of misreading it. Formats 1 and 2
// stored a key's whole version stack as one record item (JSON in format 1,
// the binary layout of decodeRecord in format 2), so a write rewrote the
// stack it touched. Format 3 stores every entry as an item of its own
// (appendEntryItem): a write stores the entries it adds and removes the
// ones it drops, whatever the depth of their stacks. Open upgrades the
// records of formats 1 and 2 to entry items in one commit.
const formatVersion = 3

// storeMeta is the store-wide item: the format and the manual clock.
type storeMeta struct {
	Format int     `json:"format"`
	Clock  float64 `json:"clock"`
}

// bucketMeta is a bucket's metadata item, rewritten by every write. The
// counters only grow: version numbers, entry sequence numbers and upload
// numbers are never reused. The lifecycle configuration, which can be large
// and rarely changes, is an item of its own (lifecycleKey).
type bucketMeta struct {
	Name        string          `json:"name"`
	CreatedAt   float64         `json:"created"`
	Versioning  VersioningState `json:"versioning"`
	NextVersion uint64          `json:"nextVersion"`
	NextSeq     uint64          `json:"nextSeq"`
	NextUpload  uint64          `json:"nextUpload"`
}

// lifecycleKey is the KindBucket key of a bucket's lifecycle
// configuration. Bucket names hold no "/", so it cannot name a bucket.
func lifecycleKey(bucket string) string { return bucket + "/lifecycle" }

// An entry is stored as an item of its own (format 3), under the same ref
// as its body (bodyRef): itemEntry, uvarint len + object key, then the
// entry:
//
//	flags (entryMarker, entryMeta), uvarint len + version ID,
//	8 bytes little-endian float64 creation time, uvarint seq,
//	and for a data version: uvarint len + ETag, varint size, uvarint parts,
//	and with entryMeta: six length-prefixed strings (content type,
//	disposition, encoding, cache control, language, expires), uvarint
//	count and the user metadata pairs in ascending name order.
//
// A record of format 2 is recordBinary, uvarint len + key, uvarint entry
// count and that many entries in the same layout, newest first; a record of
// format 1 is a JSON object, which starts with '{'. Open reads both, once,
// to upgrade them (decodeRecord).
const (
	recordBinary = 0x02
	itemEntry    = 0x03
)

// The entry flags of the binary layout.
const (
	entryMarker = 1 << iota
	entryMeta
)

// appendEntryItem appends the stored item of key's entry e.
func appendEntryItem(b []byte, key string, e Entry) []byte {
	b = append(b, itemEntry)
	b = appendString(b, key)
	return appendEntry(b, e)
}

func appendEntry(b []byte, e Entry) []byte {
	switch e := e.(type) {
	case *Version:
		var flags byte
		if !e.Meta.isZero() {
			flags |= entryMeta
		}
		b = appendEntryHead(b, flags, e.VersionID, e.CreatedAt, e.seq)
		b = appendString(b, e.ETag)
		b = binary.AppendVarint(b, e.Size)
		b = binary.AppendUvarint(b, uint64(e.Parts))
		if flags&entryMeta != 0 {
			b = appendMeta(b, &e.Meta)
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
	names := make([]string, 0, len(m.User))
	for k := range m.User {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		b = appendString(b, k)
		b = appendString(b, m.User[k])
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// decodeRecord reads a record of format 1 or 2, for Open to upgrade.
func decodeRecord(data []byte) (*ObjectRecord, error) {
	if len(data) > 0 && data[0] == '{' {
		return decodeRecordJSON(data)
	}
	if len(data) == 0 || data[0] != recordBinary {
		return nil, errors.New("not a MiniS3 record")
	}
	d := decoder{data: data[1:]}
	r := &ObjectRecord{Key: d.string()}
	n := d.uvarint()
	if d.err == nil && (n == 0 || n > uint64(len(d.data))) {
		return nil, fmt.Errorf("record %q holds %d versions", r.Key, n)
	}
	r.Versions = make([]Entry, 0, n)
	for range n {
		if d.err != nil {
			break
		}
		r.Versions = append(r.Versions, d.entry())
	}
	if d.err == nil && len(d.data) > 0 {
		d.err = errors.New("trailing bytes")
	}
	if d.err != nil {
		return nil, fmt.Errorf("binary record: %w", d.err)
	}
	return newRecord(r.Key, r.Versions), nil
}

// decodeEntryItem reads an item appendEntryItem wrote.
func decodeEntryItem(data []byte) (key string, e Entry, err error) {
	if len(data) == 0 || data[0] != itemEntry {
		return "", nil, errors.New("not a MiniS3 entry")
	}
	d := decoder{data: data[1:]}
	key = d.string()
	e = d.entry()
	if d.err == nil && len(d.data) > 0 {
		d.err = errors.New("trailing bytes")
	}
	if d.err != nil {
		return "", nil, fmt.Errorf("entry: %w", d.err)
	}
	return key, e, nil
}

// decoder reads the binary layout of entries and records; the first error sticks and every
// later read returns a zero value.
type decoder struct {
	data []byte
	err  error
}

var errTruncated = errors.New("truncated")

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errTruncated
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

// entry reads one entry of the binary layout.
func (d *decoder) entry() Entry {
	flags := d.byte()
	id := d.string()
	created := math.Float64frombits(d.uint64())
	seq := d.uvarint()
	if flags&entryMarker != 0 {
		return &DeleteMarker{VersionID: id, CreatedAt: created, seq: seq}
	}
	v := &Version{VersionID: id, CreatedAt: created, seq: seq, ETag: d.string(), Size: d.varint(), Parts: int(d.uvarint())}
	if flags&entryMeta != 0 {
		v.Meta = d.meta()
	}
	return v
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

// appendSeq appends seq as 16 lower-case hex digits, so that refs sort in
// write order.
func appendSeq(b []byte, seq uint64) []byte {
	const digits = "0123456789abcdef"
	var hex [16]byte
	for i := len(hex) - 1; i >= 0; i-- {
		hex[i] = digits[seq&0xf]
		seq >>= 4
	}
	return append(b, hex[:]...)
}

// formatVersionID is the ID of the n-th version of an enabled bucket: "v"
// and at least 8 decimal digits.
func formatVersionID(n uint64) string {
	var b [24]byte
	buf := append(b[:0], 'v')
	digits := 1
	for m := n; m >= 10; m /= 10 {
		digits++
	}
	for ; digits < 8; digits++ {
		buf = append(buf, '0')
	}
	return string(strconv.AppendUint(buf, n, 10))
}

// parseVersionID returns n for an ID formatVersionID(n) made, or ok=false.
func parseVersionID(id string) (n uint64, ok bool) {
	if len(id) < 9 || id[0] != 'v' {
		return 0, false
	}
	for _, c := range id[1:] {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(id[1:], 10, 64)
	if err != nil || n == 0 || formatVersionID(n) != id {
		return 0, false
	}
	return n, true
}
