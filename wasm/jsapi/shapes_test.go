//go:build js && wasm

package jsapi

import (
	"encoding/json"
	"math"
	"testing"

	"minis3/internal/jsonv"
	"minis3/web"
)

// shapeStrings are strings encoding/json escapes or repairs.
var shapeStrings = []string{"", "plain", `"q" \b\`, "<b>&</b>", "line\u2028sep\u2029", "bad \xff \xe6\x97", "\x00\x1f\n\t", "🎉 ü"}

// shapeValues are results of every shape, with each optional field set and
// unset and hostile strings where strings go.
func shapeValues() []any {
	size := int64(5 << 20)
	zero := int64(0)
	values := []any{
		[]bucketJSON{}, []versionJSON{}, []objectJSON{}, []partJSON{}, []uploadJSON{}, []web.ActionJSON{},
		deleteJSON{}, deleteJSON{VersionID: "v00000001", DeleteMarker: true},
		getJSON{objectJSON: objectJSON{Size: math.MaxInt64, CreatedAt: 1e-7}}, putJSON{Size: -1, CreatedAt: math.MaxFloat64},
		[]versionJSON{{IsDeleteMarker: true, IsLatest: true, CreatedAt: 1e21}, {Size: &zero}, {Size: &size, ETag: "e"}},
	}
	for _, s := range shapeStrings {
		values = append(values,
			[]bucketJSON{{Name: s, CreatedAt: 1764694000.125, Versioning: s}},
			putJSON{VersionID: s, ETag: s, Size: 7, CreatedAt: 14.999},
			getJSON{objectJSON{Key: s, VersionID: s, ETag: s, Size: 1, CreatedAt: -0.5}, s},
			deleteJSON{VersionID: s},
			[]versionJSON{{Key: s, VersionID: s, ETag: s, Size: &size}},
			[]objectJSON{{Key: s, VersionID: s, ETag: s, Size: 3, CreatedAt: 2}},
			[]partJSON{{PartNumber: 10000, ETag: s, Size: size, CreatedAt: 1}},
			uploadJSON{Key: s, UploadID: s, Initiated: 5},
			[]uploadJSON{{Key: s, UploadID: s, Initiated: 1e-9}},
			[]web.ActionJSON{{RuleID: s, Key: s, VersionID: s, Kind: s}})
	}
	return values
}

// appendShape writes v with the append function of its shape.
func appendShape(v any) []byte {
	switch v := v.(type) {
	case []bucketJSON:
		return jsonv.AppendArray(nil, v, appendBucket)
	case putJSON:
		return appendPut(nil, v)
	case getJSON:
		return appendGet(nil, v)
	case deleteJSON:
		return appendDelete(nil, v)
	case []versionJSON:
		return jsonv.AppendArray(nil, v, appendVersion)
	case []objectJSON:
		return jsonv.AppendArray(nil, v, appendObject)
	case []partJSON:
		return jsonv.AppendArray(nil, v, appendPart)
	case uploadJSON:
		return appendUpload(nil, v)
	case []uploadJSON:
		return jsonv.AppendArray(nil, v, appendUpload)
	case []web.ActionJSON:
		return web.AppendActions(nil, v)
	}
	panic("no shape")
}

// The results toJS parses are what encoding/json wrote for them, byte for
// byte.
func TestShapesAreEncodingJSON(t *testing.T) {
	for _, v := range shapeValues() {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got := appendShape(v)
		if string(got) != string(want) {
			t.Errorf("%T %+v is written as\n%s\nencoding/json writes\n%s", v, v, got, want)
		}
	}
}
