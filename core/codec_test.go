package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

func codecRecords() []*ObjectRecord {
	return []*ObjectRecord{
		rec("k", v("null", 0)),
		rec("logs/ünïcode key", v("v00000004", 14.999), dm("v00000003", 9), v("v00000002", 5), dm("null", 1)),
		{Key: "meta", Versions: []Entry{
			&Version{VersionID: "v00000009", ETag: "0123456789abcdef0123456789abcdef-3", Size: 15 << 20, CreatedAt: -2.5, Parts: 3, seq: 1 << 50,
				Meta: ObjectMeta{ContentType: "text/plain", ContentDisposition: "inline", ContentEncoding: "gzip", CacheControl: "no-cache",
					ContentLanguage: "de", Expires: "Thu, 01 Dec 1994 16:00:00 GMT", User: map[string]string{"b": "2", "a": "1", "empty": ""}}},
			&Version{VersionID: "v00000008", ETag: "d41d8cd98f00b204e9800998ecf8427e", Meta: ObjectMeta{ContentType: "x/y"}, seq: 2},
		}},
	}
}

// sameRecord reports whether got holds want's key and entries, and carries
// their creation times as a store-built record does.
func sameRecord(got, want *ObjectRecord) bool {
	if got.Key != want.Key || !reflect.DeepEqual(got.Versions, want.Versions) || !got.scanCreated() {
		return false
	}
	for i, e := range got.Versions {
		if c := createdOf(e); c != got.created[i] && !(math.IsNaN(c) && math.IsNaN(got.created[i])) {
			return false
		}
	}
	return true
}

func TestRecordCodecRoundTrips(t *testing.T) {
	for _, r := range codecRecords() {
		data := encodeRecord(r)
		if data[0] != recordBinary {
			t.Fatalf("record %q starts with %#x, want the binary format byte", r.Key, data[0])
		}
		got, err := decodeRecord(data)
		if err != nil {
			t.Fatalf("decoding record %q: %v", r.Key, err)
		}
		if !sameRecord(got, r) {
			t.Errorf("record %q reads back as %#v, want %#v", r.Key, got, r)
		}
		if again := encodeRecord(got); !bytes.Equal(again, data) {
			t.Errorf("record %q encodes differently after a round trip", r.Key)
		}
	}
}

// Records written by format 1 are JSON; they must still load.
func TestRecordCodecReadsFormat1JSON(t *testing.T) {
	for _, r := range codecRecords() {
		in := recordJSON{Key: r.Key}
		for _, e := range r.Versions {
			switch e := e.(type) {
			case *Version:
				j := entryJSON{ID: e.VersionID, Created: e.CreatedAt, Seq: e.seq, ETag: e.ETag, Size: e.Size, Parts: e.Parts}
				if !e.Meta.isZero() {
					m := e.Meta
					j.Meta = &m
				}
				in.Versions = append(in.Versions, j)
			case *DeleteMarker:
				in.Versions = append(in.Versions, entryJSON{DeleteMarker: true, ID: e.VersionID, Created: e.CreatedAt, Seq: e.seq})
			}
		}
		data, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeRecord(data)
		if err != nil {
			t.Fatalf("decoding JSON record %q: %v", r.Key, err)
		}
		if !sameRecord(got, r) {
			t.Errorf("JSON record %q reads back as %#v, want %#v", r.Key, got, r)
		}
	}
}

func TestRecordCodecRejectsDamagedRecords(t *testing.T) {
	data := encodeRecord(codecRecords()[2])
	for n := range len(data) {
		if _, err := decodeRecord(data[:n]); err == nil {
			t.Errorf("a record cut to %d of %d bytes decodes without error", n, len(data))
		}
	}
	if _, err := decodeRecord(append(bytes.Clone(data), 0)); err == nil {
		t.Error("a record with a trailing byte decodes without error")
	}
	if _, err := decodeRecord([]byte{recordBinary, 1, 'k', 0}); err == nil {
		t.Error("a binary record with no versions decodes without error")
	}
	if _, err := decodeRecord([]byte{0x7f}); err == nil {
		t.Error("an item of an unknown format decodes without error")
	}
}

func TestIDsAndRefsKeepTheirFormat(t *testing.T) {
	for _, n := range []uint64{1, 9, 10, 12345678, 99999999, 100000000, 1 << 63} {
		if got, want := formatVersionID(n), fmt.Sprintf("v%08d", n); got != want {
			t.Errorf("formatVersionID(%d) = %q, want %q", n, got, want)
		}
		if got, want := bodyRef("b", n), fmt.Sprintf("b/%016x", n); got != want {
			t.Errorf("bodyRef(b, %d) = %q, want %q", n, got, want)
		}
	}
}

// encodeRecordOnto must write what encodeRecord writes, including where
// the key's or the count's varint grows by a byte.
func TestEncodeRecordOntoIsEncodeRecord(t *testing.T) {
	stack := func(n int) []Entry {
		var out []Entry
		for i := n; i >= 1; i-- {
			if i%3 == 0 {
				out = append(out, &DeleteMarker{VersionID: formatVersionID(uint64(i)), CreatedAt: float64(i), seq: uint64(i)})
				continue
			}
			v := &Version{VersionID: formatVersionID(uint64(i)), ETag: "etag", Size: int64(i), CreatedAt: float64(i) + 0.5, seq: uint64(i)}
			if i%2 == 0 {
				v.Meta = ObjectMeta{ContentType: "text/plain", User: map[string]string{"b": "2", "a": "1"}}
			}
			out = append(out, v)
		}
		return out
	}
	top := &Version{VersionID: "v99999999", ETag: "top", Size: 7, CreatedAt: 1e9, seq: 99999999,
		Meta: ObjectMeta{CacheControl: "no-store"}}
	for _, tc := range []struct {
		name  string
		key   string
		below int // entries under the new top
	}{
		{"one below", "k", 1},
		{"the count's varint grows (127 → 128)", "k", 127},
		{"many below", "logs/app.log", 300},
		{"a 127-byte key", strings.Repeat("k", 127), 2},
		{"a 128-byte key", strings.Repeat("k", 128), 2},
		{"a 1024-byte key", strings.Repeat("k", 1024), 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			below := newRecord(tc.key, stack(tc.below))
			below.enc = encodeRecord(below)
			r := newRecord(tc.key, append([]Entry{top}, below.Versions...))
			if got, want := encodeRecordOnto(r, below), encodeRecord(r); !bytes.Equal(got, want) {
				t.Errorf("encodeRecordOnto: %d bytes, encodeRecord: %d bytes; they differ", len(got), len(want))
			}
		})
	}
}
