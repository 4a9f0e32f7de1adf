package core

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// formatVersion is the layout of what MiniS3 stores. Open refuses data
// written by a newer layout instead of misreading it.
const formatVersion = 1

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

type entryJSON struct {
	DeleteMarker bool        `json:"dm,omitempty"`
	ID           string      `json:"id"`
	Created      float64     `json:"c"`
	Seq          uint64      `json:"q"`
	ETag         string      `json:"e,omitempty"`
	Size         int64       `json:"s,omitempty"`
	Parts        int         `json:"p,omitempty"`
	Meta         *ObjectMeta `json:"m,omitempty"`
}

type recordJSON struct {
	Key      string      `json:"k"`
	Versions []entryJSON `json:"v"`
}

func encodeRecord(r *ObjectRecord) []byte {
	out := recordJSON{Key: r.Key, Versions: make([]entryJSON, len(r.Versions))}
	for i, e := range r.Versions {
		switch e := e.(type) {
		case *Version:
			j := entryJSON{ID: e.VersionID, Created: e.CreatedAt, Seq: e.seq, ETag: e.ETag, Size: e.Size, Parts: e.Parts}
			if !e.Meta.isZero() {
				m := e.Meta
				j.Meta = &m
			}
			out.Versions[i] = j
		case *DeleteMarker:
			out.Versions[i] = entryJSON{DeleteMarker: true, ID: e.VersionID, Created: e.CreatedAt, Seq: e.seq}
		}
	}
	return mustJSON(out)
}

func decodeRecord(data []byte) (*ObjectRecord, error) {
	var in recordJSON
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, err
	}
	if len(in.Versions) == 0 {
		return nil, fmt.Errorf("record %q has no versions", in.Key)
	}
	r := &ObjectRecord{Key: in.Key, Versions: make([]Entry, len(in.Versions))}
	for i, j := range in.Versions {
		if j.DeleteMarker {
			r.Versions[i] = &DeleteMarker{VersionID: j.ID, CreatedAt: j.Created, seq: j.Seq}
			continue
		}
		v := &Version{VersionID: j.ID, CreatedAt: j.Created, seq: j.Seq, ETag: j.ETag, Size: j.Size, Parts: j.Parts}
		if j.Meta != nil {
			v.Meta = *j.Meta
		}
		r.Versions[i] = v
	}
	return r, nil
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		// Only plain structs of strings and numbers are encoded here; the
		// numbers are finite because every input is validated first.
		panic(fmt.Sprintf("minis3: encoding %T: %v", v, err))
	}
	return b
}

// formatSeq writes a sequence number so that refs sort in write order.
func formatSeq(seq uint64) string {
	s := strconv.FormatUint(seq, 16)
	const width = 16
	if len(s) < width {
		s = "0000000000000000"[:width-len(s)] + s
	}
	return s
}

// formatVersionID is the ID of the n-th version of an enabled bucket.
func formatVersionID(n uint64) string {
	return fmt.Sprintf("v%08d", n)
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
