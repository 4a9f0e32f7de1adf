package core

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"reflect"
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
// their creation times and IDs as a store-built record does.
func sameRecord(got, want *ObjectRecord) bool {
	return got.Key == want.Key && reflect.DeepEqual(got.Versions, want.Versions) && got.checkScan() == nil
}

func TestEntryItemCodecRoundTrips(t *testing.T) {
	for _, r := range codecRecords() {
		for _, e := range r.Versions {
			data := appendEntryItem(nil, r.Key, e)
			if data[0] != itemEntry {
				t.Fatalf("entry %s of %q starts with %#x, want the entry format byte", e.ID(), r.Key, data[0])
			}
			key, got, err := decodeEntryItem(data)
			if err != nil {
				t.Fatalf("decoding entry %s of %q: %v", e.ID(), r.Key, err)
			}
			if key != r.Key || !reflect.DeepEqual(got, e) {
				t.Errorf("entry %s of %q reads back as %q %#v, want %#v", e.ID(), r.Key, key, got, e)
			}
			if again := appendEntryItem(nil, key, got); !bytes.Equal(again, data) {
				t.Errorf("entry %s of %q encodes differently after a round trip", e.ID(), r.Key)
			}
		}
	}
}

func TestEntryItemCodecRejectsDamagedItems(t *testing.T) {
	r := codecRecords()[2]
	data := appendEntryItem(nil, r.Key, r.Versions[0])
	for n := range len(data) {
		if _, _, err := decodeEntryItem(data[:n]); err == nil {
			t.Errorf("an entry item cut to %d of %d bytes decodes without error", n, len(data))
		}
	}
	if _, _, err := decodeEntryItem(append(bytes.Clone(data), 0)); err == nil {
		t.Error("an entry item with a trailing byte decodes without error")
	}
	if _, _, err := decodeEntryItem(encodeFormat2Record(r)); err == nil {
		t.Error("a format 2 record decodes as an entry item")
	}
}

// encodeFormat2Record writes r in the record layout of format 2, as MiniS3
// did before format 3, for the tests of the upgrade.
func encodeFormat2Record(r *ObjectRecord) []byte {
	b := appendString([]byte{recordBinary}, r.Key)
	b = binary.AppendUvarint(b, uint64(len(r.Versions)))
	for _, e := range r.Versions {
		b = appendEntry(b, e)
	}
	return b
}

// Records written by format 2 must still decode, for Open to upgrade them.
func TestRecordCodecReadsFormat2(t *testing.T) {
	for _, r := range codecRecords() {
		got, err := decodeRecord(encodeFormat2Record(r))
		if err != nil {
			t.Fatalf("decoding record %q: %v", r.Key, err)
		}
		if !sameRecord(got, r) {
			t.Errorf("record %q reads back as %#v, want %#v", r.Key, got, r)
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
	data := encodeFormat2Record(codecRecords()[2])
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

// FuzzEntryItemDecoding feeds decodeEntryItem arbitrary bytes: it must not
// panic, and what it accepts must survive a round trip (compared as bytes:
// a creation time may be NaN).
func FuzzEntryItemDecoding(f *testing.F) {
	for _, r := range codecRecords() {
		for _, e := range r.Versions {
			f.Add(appendEntryItem(nil, r.Key, e))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		key, e, err := decodeEntryItem(data)
		if err != nil {
			return
		}
		once := appendEntryItem(nil, key, e)
		key2, e2, err := decodeEntryItem(once)
		if err != nil {
			t.Fatalf("%q decodes to %q %#v, whose encoding does not decode: %v", data, key, e, err)
		}
		if twice := appendEntryItem(nil, key2, e2); !bytes.Equal(twice, once) {
			t.Fatalf("%q decodes to %q %#v, which reads back as %q %#v", data, key, e, key2, e2)
		}
	})
}
