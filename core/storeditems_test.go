package core

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostileJSON are strings encoding/json escapes or repairs.
var hostileJSON = []string{
	`"quoted" \back\ /slash/`, "\b\f\n\r\t\x00\x1f\x7f", "<a href='x'>&amp;</a>", "line\u2028sep\u2029",
	"ünïcödé 日本語 🎉", "bad \xff byte", "cut \xe6\x97", "\xed\xa0\x80 surrogate as UTF-8",
}

// jsonItemValues are stored items of every JSON kind, with every optional
// part present and absent and hostile strings where strings go.
func jsonItemValues() []any {
	meta := ObjectMeta{ContentType: "text/plain", ContentDisposition: `attachment; filename="a<b>.txt"`, ContentEncoding: "gzip",
		CacheControl: "no-cache", ContentLanguage: "de", Expires: "Thu, 01 Dec 1994 16:00:00 GMT",
		User: map[string]string{"b": "2", "a": "1", "empty": "", "z\xff": "\u2028"}}
	values := []any{
		storeMeta{Format: formatVersion},
		storeMeta{Format: 1, Clock: 14.999},
		storeMeta{Format: -1, Clock: -1e-9},
		upload{ID: "u00000001", Key: "k", Initiated: 5},
		upload{ID: "u00000002", Key: "mp", Initiated: 1764694000.125, Meta: meta, Parts: []part{}},
		upload{ID: "u00000003", Key: "logs/ünïcode", Meta: ObjectMeta{User: map[string]string{}},
			Parts: []part{{Number: 1, ETag: "0123456789abcdef0123456789abcdef", Size: 5 << 20, CreatedAt: 1}, {Number: 10000, ETag: "e", CreatedAt: 2.5}}},
		upload{ID: "u00000004", Key: "done", Completed: &completion{}},
		upload{ID: "u00000007", Key: "written meanwhile", Initiated: 2, KeyChanged: true},
		upload{ID: "u00000005", Key: "done", Parts: []part{{Number: 2, ETag: "e2", Size: 1, CreatedAt: 3}},
			Completed: &completion{Parts: []CompletedPart{{PartNumber: 2, ETag: `"e2"`}},
				Result: PutResult{VersionID: "v00000009", ETag: "abc-1", Size: 1, CreatedAt: 1e21}}},
		upload{ID: "u00000006", Key: "expiring", Completed: &completion{Parts: []CompletedPart{{PartNumber: 1, ETag: "e"}},
			Result: PutResult{VersionID: "v00000010", ETag: "abc-1", Size: 1, CreatedAt: 86399.5, Expiration: &Expiry{Date: 1764979200, RuleID: "r"}}}},
	}
	values = append(values, []Tag{{Key: "team", Value: "blue"}, {Key: "empty", Value: ""}})
	for _, s := range hostileJSON {
		values = append(values, []Tag{{Key: s, Value: s}})
		values = append(values,
			upload{ID: s, Key: s, Meta: ObjectMeta{ContentType: s, Expires: s, User: map[string]string{s: s}},
				Parts: []part{{Number: 1, ETag: s}}, Completed: &completion{Parts: []CompletedPart{{PartNumber: 1, ETag: s}},
					Result: PutResult{VersionID: s, ETag: s, Expiration: &Expiry{RuleID: s}}}})
	}
	return values
}

// storedJSONDocs are JSON items as encoding/json wrote them and as it
// still read them: other whitespace, member order and case, escapes,
// numbers in exponent form, repeated members, null, members no version
// wrote; and damaged ones, which both refuse.
var storedJSONDocs = []string{
	`{"format":2,"clock":12}`, ` { "clock" : 1.5e1 , "format" : 1 } `, `{"FORMAT":1,"Clock":-0}`, `null`, `{}`,
	`{"name":"demo","created":1764694000.125,"versioning":"enabled","nextVersion":3,"nextSeq":3,"nextUpload":1}`,
	`{"name":"d\u0065mo","created":1E3,"versioning":"enabled","nextVersion":18446744073709551615,"extra":[{"x":null}]}`,
	`{"rules":[{"id":"r","enabled":true,"prefix":"logs/","expirationDays":1},{"id":"\u003c\u0026\u2028","noncurrentDays":3,"legacyPrefix":true}]}`,
	`{"rules":[{"id":"a","expirationDays":1}],"rules":[{"prefix":"p"}]}`, `{"rules":[]}`, `{"rules":null}`,
	`{"id":"u00000001","key":"k","initiated":5,"meta":{"ct":"text/plain","um":{"a":"1","b":null}},"parts":[{"n":1,"e":"e","s":5242880,"c":1}]}`,
	`{"id":"u1","key":"k","meta":null,"parts":null,"completed":{"parts":[{"n":1,"e":"\"e\""}],"result":{"VersionID":"null","ETag":"x-1","Size":1,"CreatedAt":2}}}`,
	`{"id":"u1","completed":{"parts":null,"result":{"versionid":"v1","etag":"e","size":0,"createdat":1e21}},"completed":{"parts":[]}}`,
	`{"id":"u1","completed":null,"meta":{"um":{}},"meta":{"ct":"x"}}`,
	`{"k":"k","v":[{"id":"null","c":0,"q":1,"e":"e","s":1}]}`,
	`[{"k":"team","v":"blue"},{"v":"","k":"empty"}]`, `[{"K":"a","V":"b","x":1}]`, `[]`, `[null]`,
	`{"k":"k","v":[{"dm":true,"id":"v2","c":5,"q":2},{"id":"v1","c":1e-7,"q":1,"e":"e","s":15728640,"p":3,"m":{"cc":"no-cache","um":{"z":"1","a":"2"}}}]}`,
	`{"k":"pair \ud83c\udf89 lone \ud800","v":[{"id":"\u00e9","m":null,"m":{"ex":"x"}}]}`,
	"{\"k\":\"raw \xff\",\"v\":[{\"id\":\"\xe6\x97\"}]}",
	// damaged
	``, `{`, `{"format":2`, `{"format":"2"}`, `{"format":2.5}`, `{"clock":1e999}`, `{"format":2} x`, `[]`, `"s"`,
	`{"name":1}`, `{"nextSeq":-1}`, `{"nextSeq":1.0}`, `{"versioning":true}`, `{"rules":{}}`, `{"rules":[{"enabled":"yes"}]}`,
	`{"rules":[{"expirationDays":1e2}]}`, `{"meta":[]}`, `{"meta":{"um":{"a":1}}}`, `{"parts":[{"n":"1"}]}`,
	`{"completed":{"result":{"Size":"1"}}}`, `{"completed":"yes"}`, `{"k":"k","v":[{"q":-1}]}`, `{"v":[{"m":{"ct":1}}]}`,
	`{"v":[{"dm":1}]}`, `[{"k":1}]`, `[{"k":"a"},]`, `{"k":"\x"}`, "{\"k\":\"tab\there\"}", `{"k":"k",}`, `{"k":'k'}`,
}

// storedItemValues are the items of jsonItemValues and bucket metadata
// and lifecycle configurations.
func storedItemValues() []any {
	values := []any{
		bucketMeta{Name: "demo", Versioning: Unversioned, NextVersion: 1, NextSeq: 1, NextUpload: 1},
		bucketMeta{Name: "a.b-c", CreatedAt: 1764694000.125, Versioning: Enabled, NextVersion: 1 << 40, NextSeq: 7, NextUpload: 3},
		bucketMeta{Name: "tiny", CreatedAt: 1e-7, Versioning: Suspended},
		bucketMeta{Name: "huge", CreatedAt: -3.5e22, Versioning: Suspended},
		bucketMeta{Name: "frac", CreatedAt: 14.999, Versioning: Enabled, NextVersion: math.MaxUint64},
		richConfiguration(),
		LifecycleConfiguration{},
	}
	return append(values, jsonItemValues()...)
}

// itemKind names the kind of a stored JSON item.
func itemKind(v any) string {
	switch v.(type) {
	case storeMeta:
		return "store"
	case bucketMeta:
		return "bucket"
	case LifecycleConfiguration:
		return "lifecycle"
	case []Tag:
		return "tagging"
	case upload:
		return "upload"
	}
	panic("not a stored JSON item")
}

// itemKinds are the kinds of stored JSON items.
var itemKinds = []string{"store", "bucket", "lifecycle", "tagging", "upload"}

// encodeItem is a stored item's JSON as the store writes it.
func encodeItem(v any) []byte { return itemJSON(v) }

// mustJSON is what encoding/json writes for v.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// decodeItem reads data as the store reads an item of kind.
func decodeItem(kind string, data []byte) (any, error) {
	switch kind {
	case "store":
		var m storeMeta
		return m, json.Unmarshal(data, &m)
	case "bucket":
		var m bucketMeta
		return m, json.Unmarshal(data, &m)
	case "lifecycle":
		return readLifecycleItem(data)
	case "tagging":
		var t []Tag
		return t, json.Unmarshal(data, &t)
	case "upload":
		var u upload
		return u, json.Unmarshal(data, &u)
	}
	panic("not a kind of stored JSON item")
}

// The JSON items a store holds keep the bytes of format 3:
// testdata/stored-items.txt has each of storedItemValues as its kind and
// its JSON, one a line. Each reads back as a value written the same, but
// for invalid UTF-8, which is written as the escape \ufffd.
func TestStoredItemsKeepTheirBytes(t *testing.T) {
	f, err := os.Open("testdata/stored-items.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines := bufio.NewScanner(f)
	lines.Buffer(nil, 1<<20)
	values := storedItemValues()
	n := 0
	for ; lines.Scan(); n++ {
		if n >= len(values) {
			t.Fatalf("testdata/stored-items.txt has more lines than the %d items", len(values))
		}
		kind, want, _ := strings.Cut(lines.Text(), " ")
		v := values[n]
		if got := itemKind(v); got != kind {
			t.Fatalf("line %d is a %s item, item %d a %s", n+1, kind, n, got)
		}
		if got := encodeItem(v); !bytes.Equal(got, []byte(want)) {
			t.Errorf("%s %+v is written as\n%s\nformat 3 has\n%s", kind, v, got, want)
		}
		if strings.Contains(want, `\ufffd`) {
			continue // invalid UTF-8, written as U+FFFD, which is written back as itself
		}
		back, err := decodeItem(kind, []byte(want))
		if err != nil {
			t.Errorf("%s %s does not read: %v", kind, want, err)
		} else if again := encodeItem(back); !bytes.Equal(again, []byte(want)) {
			t.Errorf("%s %s reads as %+v, which is written as\n%s", kind, want, back, again)
		}
	}
	if err := lines.Err(); err != nil {
		t.Fatal(err)
	}
	if n != len(values) {
		t.Errorf("testdata/stored-items.txt has %d lines for %d items", n, len(values))
	}
}

// checkItemDecoding reads data as every kind of stored JSON item: an item
// that reads is written again, and that JSON reads and writes as itself.
func checkItemDecoding(t *testing.T, data []byte) {
	t.Helper()
	for _, kind := range itemKinds {
		v, err := decodeItem(kind, data)
		if err != nil {
			continue
		}
		once := encodeItem(v)
		again, err := decodeItem(kind, once)
		if err != nil {
			t.Fatalf("%s %q reads as %+v, whose JSON %s does not read: %v", kind, data, v, once, err)
		}
		if twice := encodeItem(again); !bytes.Equal(twice, once) {
			t.Fatalf("%s %q: written as %s, then read and written as %s", kind, data, once, twice)
		}
	}
}

// Old items (other whitespace, member order and case, escapes, numbers in
// exponent form, repeated members, null, members no version wrote) read
// and write back stably; damaged ones are refused.
func TestStoredItemsReadAndWriteBack(t *testing.T) {
	for _, doc := range storedJSONDocs {
		checkItemDecoding(t, []byte(doc))
	}
	for _, v := range storedItemValues() {
		checkItemDecoding(t, encodeItem(v))
	}
}

func FuzzStoredItemDecoding(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		checkItemDecoding(t, data)
	})
}

// FuzzStoredItemEncoding builds items from the fuzzer's strings and
// numbers: what the store writes reads back as what it was, when the
// strings are valid UTF-8.
func FuzzStoredItemEncoding(f *testing.F) {
	f.Fuzz(func(t *testing.T, s1, s2 string, x float64, n int64, flags uint8) {
		if math.IsNaN(x) || math.IsInf(x, 0) || !utf8.ValidString(s1) || !utf8.ValidString(s2) {
			return
		}
		var c *completion
		if flags&4 != 0 {
			c = &completion{Parts: []CompletedPart{{PartNumber: int(n), ETag: s2}}, Result: PutResult{VersionID: s1, ETag: s2, Size: n, CreatedAt: x}}
		}
		var parts []part
		if flags&8 != 0 {
			parts = []part{{Number: int(n), ETag: s1, Size: -n, CreatedAt: x}, {ETag: s2}}
		}
		for _, v := range []any{
			storeMeta{Format: int(n), Clock: x},
			upload{ID: s1, Key: s2, Initiated: x, Meta: ObjectMeta{ContentType: s1, ContentDisposition: s2, Expires: s1,
				User: map[string]string{s1: s2, s2: s1}}, Parts: parts, Completed: c},
			[]Tag{{Key: s1, Value: s2}},
		} {
			data := encodeItem(v)
			back, err := decodeItem(itemKind(v), data)
			if err != nil || !reflect.DeepEqual(back, v) {
				t.Fatalf("%T %+v is written as %s, which reads back as %+v (%v)", v, v, data, back, err)
			}
		}
	})
}
