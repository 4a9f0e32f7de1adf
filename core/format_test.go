package core

import (
	"bytes"
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
		rec("sized", &Version{VersionID: "null", ETag: "0123456789abcdef0123456789abcdef-3", Size: 10<<20 + 1, Parts: 3,
			PartSizes: []int64{5 << 20, 5 << 20, 1}, Meta: ObjectMeta{StorageClass: "GLACIER"}, seq: 7}),
	}
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
	for _, r := range codecRecords()[2:] {
		data := appendEntryItem(nil, r.Key, r.Versions[0])
		for n := range len(data) {
			if _, _, err := decodeEntryItem(data[:n]); err == nil {
				t.Errorf("entry %s of %q cut to %d of %d bytes decodes without error", r.Versions[0].ID(), r.Key, n, len(data))
			}
		}
		if _, _, err := decodeEntryItem(append(bytes.Clone(data), 0)); err == nil {
			t.Errorf("entry %s of %q with a trailing byte decodes without error", r.Versions[0].ID(), r.Key)
		}
	}
	if _, _, err := decodeEntryItem([]byte{0x02, 1, 'k', 0}); err == nil {
		t.Error("a record of format 2 decodes as an entry item")
	}
}

// A multipart version written before MiniS3 kept part sizes has no
// entryPartSizes flag: it still reads, with its part sizes unknown.
func TestEntryItemWithoutPartSizesReadsAsUnknownSizes(t *testing.T) {
	sized := codecRecords()[3].Versions[0].(*Version)
	old := *sized
	old.PartSizes = nil
	_, e, err := decodeEntryItem(appendEntryItem(nil, "sized", &old))
	if err != nil {
		t.Fatal(err)
	}
	if v := e.(*Version); v.Parts != 3 || v.PartSizes != nil {
		t.Errorf("Parts %d, PartSizes %v; want 3 parts of unknown sizes", v.Parts, v.PartSizes)
	}
}

func TestEntryItemPartSizesMustAddUpToTheSize(t *testing.T) {
	v := *codecRecords()[3].Versions[0].(*Version)
	v.PartSizes = []int64{5 << 20, 5 << 20, 2}
	if _, _, err := decodeEntryItem(appendEntryItem(nil, "sized", &v)); err == nil {
		t.Error("part sizes that add up to more than the size decode without error")
	}
}

func TestIDsAndRefsKeepTheirFormat(t *testing.T) {
	for _, n := range []uint64{1, 9, 10, 12345678, 99999999, 100000000, 1 << 63} {
		if got, want := formatVersionID(n), fmt.Sprintf("v%08d", n); got != want {
			t.Errorf("formatVersionID(%d) = %q, want %q", n, got, want)
		}
		if got, want := entryRef("b", n), fmt.Sprintf("b/%016x", n); got != want {
			t.Errorf("entryRef(b, %d) = %q, want %q", n, got, want)
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
