package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"testing"
	"unicode/utf8"

	"minis3/internal/jsonv"
)

// mustJSON is what encoding/json writes for v: what earlier versions of
// MiniS3 stored, and the reference the JSON codecs are held to.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("encoding %T: %v", v, err))
	}
	return b
}

// hostileJSON are strings encoding/json escapes or repairs.
var hostileJSON = []string{
	`"quoted" \back\ /slash/`, "\b\f\n\r\t\x00\x1f\x7f", "<a href='x'>&amp;</a>", "line\u2028sep\u2029",
	"ünïcödé 日本語 🎉", "bad \xff byte", "cut \xe6\x97", "\xed\xa0\x80 surrogate as UTF-8",
}

func TestBucketMetaEncodesAsEncodingJSON(t *testing.T) {
	for _, m := range []bucketMeta{
		{Name: "demo", Versioning: Unversioned, NextVersion: 1, NextSeq: 1, NextUpload: 1},
		{Name: "a.b-c", CreatedAt: 1764694000.125, Versioning: Enabled, NextVersion: 1 << 40, NextSeq: 7, NextUpload: 3},
		{Name: "tiny", CreatedAt: 1e-7, Versioning: Suspended},
		{Name: "huge", CreatedAt: -3.5e22, Versioning: Suspended},
		{Name: "frac", CreatedAt: 14.999, Versioning: Enabled, NextVersion: math.MaxUint64},
	} {
		if got, want := appendBucketMeta(nil, m), mustJSON(m); !bytes.Equal(got, want) {
			t.Errorf("appendBucketMeta(%+v) = %s, encoding/json writes %s", m, got, want)
		}
	}
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

// encodeItem encodes a stored item with its codec; ok is false for a
// value the JSON codecs do not write.
func encodeItem(v any) (data []byte, ok bool) {
	switch v := v.(type) {
	case storeMeta:
		return appendStoreMeta(nil, v), true
	case upload:
		return appendUpload(nil, &v), true
	case []Tag:
		return appendBucketTags(nil, v), true
	}
	return nil, false
}

func TestStoredItemsEncodeAsEncodingJSON(t *testing.T) {
	for _, v := range jsonItemValues() {
		if got, ok := encodeItem(v); ok && !bytes.Equal(got, mustJSON(v)) {
			t.Errorf("%T %+v encodes as\n%s\nencoding/json writes\n%s", v, v, got, mustJSON(v))
		}
	}
}

// A storedItem reads one kind of JSON item with its codec and, for
// reference, with encoding/json.
type storedItem struct {
	name            string
	read, reference func(data []byte) (any, error)
}

func codecItem[T any](name string, read func(*jsonv.Decoder, *T) error) storedItem {
	return storedItem{name,
		func(data []byte) (any, error) {
			var v T
			err := jsonv.Unmarshal(data, &v, read)
			return v, err
		},
		func(data []byte) (any, error) {
			var v T
			err := json.Unmarshal(data, &v)
			return v, err
		}}
}

var storedItems = []storedItem{
	codecItem("store metadata", readStoreMeta),
	codecItem("bucket metadata", readBucketMeta),
	codecItem("upload", readUpload),
	codecItem("bucket tags", readBucketTags),
}

// checkItemDecoding reads data as every kind of JSON item and fails unless
// the codec and encoding/json both refuse it or both read the same value.
func checkItemDecoding(t *testing.T, data []byte) {
	t.Helper()
	for _, it := range storedItems {
		got, err := it.read(data)
		want, wantErr := it.reference(data)
		switch {
		case (err == nil) != (wantErr == nil):
			t.Fatalf("%s %q: the codec says %v, encoding/json says %v", it.name, data, err, wantErr)
		case err == nil && (!reflect.DeepEqual(got, want) || !bytes.Equal(mustJSON(got), mustJSON(want))):
			t.Fatalf("%s %q: the codec reads\n%+v\nencoding/json reads\n%+v", it.name, data, got, want)
		}
	}
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

func TestStoredItemsDecodeAsEncodingJSON(t *testing.T) {
	for _, doc := range storedJSONDocs {
		checkItemDecoding(t, []byte(doc))
	}
	for _, v := range jsonItemValues() {
		checkItemDecoding(t, mustJSON(v))
	}
}

func FuzzStoredItemDecoding(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		checkItemDecoding(t, data)
	})
}

// FuzzStoredItemEncoding builds items from the fuzzer's strings and
// numbers: the codecs must write what encoding/json writes, and read back
// what they wrote.
func FuzzStoredItemEncoding(f *testing.F) {
	f.Fuzz(func(t *testing.T, s1, s2 string, x float64, n int64, flags uint8) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
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
		values := []any{
			storeMeta{Format: int(n), Clock: x},
			upload{ID: s1, Key: s2, Initiated: x, Meta: ObjectMeta{ContentType: s1, ContentDisposition: s2, Expires: s1,
				User: map[string]string{s1: s2, s2: s1}}, Parts: parts, Completed: c},
		}
		for i, v := range values {
			got, _ := encodeItem(v)
			if want := mustJSON(v); !bytes.Equal(got, want) {
				t.Fatalf("%T %+v encodes as\n%s\nencoding/json writes\n%s", v, v, got, want)
			}
			if !utf8.ValidString(s1) || !utf8.ValidString(s2) {
				continue
			}
			back, err := storedItems[[]int{0, 2}[i]].read(got)
			if err != nil || !reflect.DeepEqual(back, v) {
				t.Fatalf("%T %+v reads back as %+v (%v)", v, v, back, err)
			}
		}
	})
}
