package web

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"minis3/core"
)

// The request documents as xml.Unmarshal read them before parseXML and
// its mappers did: the old struct definitions (the VersioningConfiguration
// one is in responses_test.go), kept here so that the new reading can be
// compared with the old.

type oldAnyXML struct {
	XMLName xml.Name
}

type oldDeleteRequest struct {
	XMLName xml.Name `xml:"Delete"`
	Quiet   bool     `xml:"Quiet"`
	Objects []struct {
		Key       string `xml:"Key"`
		VersionID string `xml:"VersionId"`
	} `xml:"Object"`
}

type oldCompleteMultipartUpload struct {
	XMLName xml.Name `xml:"CompleteMultipartUpload"`
	Parts   []struct {
		PartNumber string `xml:"PartNumber"`
		ETag       string `xml:"ETag"`
	} `xml:"Part"`
}

// oldDecodeXML is the old decodeXML: xml.Unmarshal, and any error is
// MalformedXML.
func oldDecodeXML(body []byte, v any) error {
	if err := xml.Unmarshal(body, v); err != nil {
		return malformedXML()
	}
	return nil
}

// decoded is what a reading of a request document gave: its values (the
// zero values after an error) and its error.
type decoded struct {
	value any
	err   error
}

// readOld reads body as each request document the old way.
func readOld(body []byte) map[string]decoded {
	out := map[string]decoded{}
	var v oldVersioningConfiguration
	err := oldDecodeXML(body, &v)
	out["VersioningConfiguration"] = decoded{[2]*string{v.Status, v.MfaDelete}, err}

	var d oldDeleteRequest
	err = oldDecodeXML(body, &d)
	var ids []core.ObjectIdentifier
	for _, o := range d.Objects {
		ids = append(ids, core.ObjectIdentifier{Key: o.Key, VersionID: o.VersionID})
	}
	out["Delete"] = decoded{[]any{d.Quiet, ids}, err}

	var c oldCompleteMultipartUpload
	err = oldDecodeXML(body, &c)
	var parts []partXML
	for _, p := range c.Parts {
		parts = append(parts, partXML(p))
	}
	out["CompleteMultipartUpload"] = decoded{parts, err}
	return out
}

// readNew reads body as each request document the new way.
func readNew(body []byte) map[string]decoded {
	out := map[string]decoded{}
	status, mfa, err := parseVersioning(body)
	out["VersioningConfiguration"] = decoded{[2]*string{status, mfa}, err}
	quiet, ids, err := parseDelete(body)
	out["Delete"] = decoded{[]any{quiet, ids}, err}
	parts, err := parseComplete(body)
	out["CompleteMultipartUpload"] = decoded{parts, err}
	return out
}

// onceElements are the elements of each request document that may appear
// once in their parent, by their path below the root. The readers refuse a
// second one with MalformedXML, as S3 does, where xml.Unmarshal kept the
// last; Object and Part may repeat.
var onceElements = map[string][]string{
	"VersioningConfiguration": {"Status", "MfaDelete"},
	"Delete":                  {"Quiet", "Object/Key", "Object/VersionId"},
	"CompleteMultipartUpload": {"Part/PartNumber", "Part/ETag"},
}

// repeatsOnceElement reports whether body is a root document that gives
// one of its onceElements twice in one parent, reading it with
// encoding/xml's tokenizer as far as it is well-formed.
func repeatsOnceElement(body []byte, root string) bool {
	type open struct {
		path string
		seen map[string]bool
	}
	var stack []open
	d := xml.NewDecoder(bytes.NewReader(body))
	for {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) == 0 {
				if t.Name.Local != root {
					return false
				}
				stack = append(stack, open{"", map[string]bool{}})
				continue
			}
			parent := stack[len(stack)-1]
			path := strings.TrimPrefix(parent.path+"/"+t.Name.Local, "/")
			if parent.seen[t.Name.Local] && slices.Contains(onceElements[root], path) {
				return true
			}
			parent.seen[t.Name.Local] = true
			stack = append(stack, open{path, map[string]bool{}})
		case xml.EndElement:
			if stack = stack[:len(stack)-1]; len(stack) == 0 {
				return false
			}
		}
	}
}

// readingDiffers describes how the new reading of body differs from the
// old, document by document; it is empty when they agree. A document
// that repeats one of its onceElements must be MalformedXML instead.
// Values are only compared when there is no error, as xml.Unmarshal
// leaves a partial value behind.
func readingDiffers(body []byte) string {
	var diffs []string
	old, got := readOld(body), readNew(body)
	for doc, o := range old {
		n := got[doc]
		if repeatsOnceElement(body, doc) {
			if !errors.Is(n.err, core.MalformedXML) {
				diffs = append(diffs, fmt.Sprintf("%s repeats an element that may appear once: new %s (%v), want MalformedXML", doc, describe(n.value), n.err))
			}
			continue
		}
		if !reflect.DeepEqual(o.err, n.err) || o.err == nil && !reflect.DeepEqual(o.value, n.value) {
			diffs = append(diffs, fmt.Sprintf("%s: old %s (%v), new %s (%v)", doc, describe(o.value), o.err, describe(n.value), n.err))
		}
	}
	return strings.Join(diffs, "\n")
}

// describe prints a decoded value with its pointers followed.
func describe(v any) string {
	var b strings.Builder
	var walk func(reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() {
				b.WriteString("nil")
				return
			}
			b.WriteString("&")
			walk(v.Elem())
		case reflect.Interface:
			walk(v.Elem())
		case reflect.Struct:
			b.WriteString("{")
			for i := range v.NumField() {
				fmt.Fprintf(&b, "%s:", v.Type().Field(i).Name)
				walk(v.Field(i))
				b.WriteString(" ")
			}
			b.WriteString("}")
		case reflect.Slice, reflect.Array:
			b.WriteString("[")
			for i := range v.Len() {
				walk(v.Index(i))
				b.WriteString(" ")
			}
			b.WriteString("]")
		case reflect.String:
			b.WriteString(strconv.Quote(v.String()))
		default:
			fmt.Fprint(&b, v)
		}
	}
	walk(reflect.ValueOf(v))
	return b.String()
}

// quirkBodies are request documents that exercise what xml.Unmarshal
// accepted and refused: each document's ordinary forms, then every root
// with the quirks of XML itself (declarations, comments, namespaces,
// references, CDATA, white space, repetition, unknown and nested elements,
// what precedes and follows the root, malformed input).
func quirkBodies() []string {
	const ns = `xmlns="http://s3.amazonaws.com/doc/2006-03-01/"`
	rule := func(inner string) string {
		return "<LifecycleConfiguration><Rule>" + inner + "</Rule></LifecycleConfiguration>"
	}
	bodies := []string{
		// VersioningConfiguration
		`<VersioningConfiguration ` + ns + `><Status>Enabled</Status></VersioningConfiguration>`,
		`<VersioningConfiguration><Status>Suspended</Status><MfaDelete>Disabled</MfaDelete></VersioningConfiguration>`,
		`<VersioningConfiguration><Status> Enabled </Status><Status>Suspended</Status><MfaDelete/></VersioningConfiguration>`,
		`<VersioningConfiguration><Status/></VersioningConfiguration>`,
		`<VersioningConfiguration><Status>En<b>x</b>abled</Status></VersioningConfiguration>`,
		`<VersioningConfiguration xmlns:x="urn:x"><x:Status>Enabled</x:Status><Other>1</Other></VersioningConfiguration>`,
		`<VersioningConfiguration xmlns="urn:other" NS="a" xmlns:s="urn:s" s:xmlns="b"><Status>Enabled</Status></VersioningConfiguration>`,

		// Delete
		`<Delete><Object><Key>a&amp;b&lt;c&gt;d&quot;e&apos;f&#x41;&#66;</Key><VersionId>v1</VersionId></Object></Delete>`,
		`<Delete><Object><Key><![CDATA[a<b>&c]]>d<![CDATA[]]></Key></Object></Delete>`,
		`<Delete><Object><Key>a<!-- c -->b<?pi x?>c</Key></Object></Delete>`,
		`<Delete><Object><Key>k1</Key><Key>k2</Key><VersionId>v</VersionId><VersionId/></Object><Object/></Delete>`,
		`<Delete><Object><Key>a<Key>nested</Key>b</Key><Unknown><Key>x</Key></Unknown></Object></Delete>`,
		`<Delete>
  <Object>
    <Key>
      spaced key
    </Key>
  </Object>
</Delete>`,
		"<Delete>\r\n<Object><Key>cr\r\nlf\rcr</Key></Object></Delete>",
		`<Delete><Object><Key>🪣 ünï</Key></Object></Delete>`,
		"<Delete><Object><Key>bad\xffutf8</Key></Object></Delete>",
		"<Delete><Object><Key>\ufffe</Key></Object></Delete>",
		`<Delete><Object><Key>&#xFFFE;</Key></Object></Delete>`,
		`<Delete><Object><Key>&#0;</Key></Object></Delete>`,
		`<Delete><Object><Key>&#x10FFFF;&#x110000;</Key></Object></Delete>`,
		`<Delete><Object><Key>&nbsp;</Key></Object></Delete>`,
		`<Delete><Object><Key>&unknown;</Key></Object></Delete>`,
		`<Delete><Object><Key>a & b</Key></Object></Delete>`,
		`<Delete><Object><Key>a < b</Key></Object></Delete>`,
		`<Delete><Object><Key>]]></Key></Object></Delete>`,
		`<Delete><Quiet>true</Quiet><Object><Key>k</Key></Object></Delete>`,
		"<Delete><Quiet> \n\ttrue\n</Quiet><Object><Key>k</Key></Object></Delete>",
		"<Delete><Quiet>\u00a0true\u0085</Quiet><Object><Key>k</Key></Object></Delete>",
		`<Delete><Quiet>1</Quiet><Quiet>F</Quiet><Object><Key>k</Key></Object></Delete>`,
		`<Delete><Quiet>TRUE</Quiet><Quiet></Quiet><Object><Key>k</Key></Object></Delete>`,
		`<Delete><Quiet>maybe</Quiet><Quiet>true</Quiet><Object><Key>k</Key></Object></Delete>`,
		`<Delete><Quiet> </Quiet><Object><Key>k</Key></Object></Delete>`,
		`<Delete><Quiet><![CDATA[true]]></Quiet><Object><Key>k</Key></Object></Delete>`,
		`<Delete><Quiet>tr<x/>ue</Quiet><Object><Key>k</Key></Object></Delete>`,
		`<Delete><Quiet>yes</Quiet></Delete>`,
		`<s3:Delete xmlns:s3="http://s3.amazonaws.com/doc/2006-03-01/"><s3:Object><s3:Key>k</s3:Key></s3:Object></s3:Delete>`,
		`<x:Delete><x:Object><x:Key>undeclared prefix</x:Key></x:Object></x:Delete>`,
		`<Delete><Object a="1" b='2'><Key c="&amp;">k</Key></Object></Delete>`,
		`<Delete><Object><Key a="1" a="2">k</Key></Object></Delete>`,
		`<Delete><Object><Key>k</Key></Object></Delete><Delete><Object><Key>second root</Key></Object></Delete>`,
		`<delete><Object><Key>k</Key></Object></delete>`,
		`<Delete><Object><Key>k</Key></Object></Delete` + ">trailing text &bad; <unclosed",
		`<Delete><Object><Key>k</Key></Object>`,
		`<Delete><Object><Key>k</Object></Key></Delete>`,
		`<Delete><Object><Key>k</Key></Object></Delete2>`,
		`<Delete><Object><Key>k</Key></Object></x:Delete>`,
		`<Delete><Object><Key>k</Key></Object><Object><Key>` + strings.Repeat("<a>", 200) + strings.Repeat("</a>", 200) + `</Key></Object></Delete>`,
		`<Delete>` + strings.Repeat("<Object><Key>k</Key></Object>", 1001) + `</Delete>`,

		// CompleteMultipartUpload
		`<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>&quot;abc&quot;</ETag><ChecksumCRC32>AAAAAA==</ChecksumCRC32></Part><Part><ETag>e</ETag></Part></CompleteMultipartUpload>`,
		`<CompleteMultipartUpload><Part><PartNumber> 2 </PartNumber><PartNumber>3</PartNumber></Part><Other/><Part/></CompleteMultipartUpload>`,
		`<CompleteMultipartUpload ` + ns + `><Part><PartNumber>1</PartNumber><ETag>"e"</ETag><ChecksumSHA256>x</ChecksumSHA256><ChecksumCRC64NVME/></Part></CompleteMultipartUpload>`,
		`<CompleteMultipartUpload></CompleteMultipartUpload>`,

		// LifecycleConfiguration
		rule(`<ID>r</ID><Filter><Prefix>a/</Prefix></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>`),
		rule(`<Prefix></Prefix><Status>Disabled</Status><NoncurrentVersionExpiration><NoncurrentDays> 3 </NoncurrentDays></NoncurrentVersionExpiration>`),
		rule(`<Filter><Prefix>a</Prefix></Filter><Filter><Tag><Key>k</Key></Tag></Filter><Status>Enabled</Status>`),
		rule(`<Expiration><Days>1</Days></Expiration><Expiration><Date>2030-01-01</Date></Expiration><Expiration><Bogus/></Expiration>`),
		rule(`<NoncurrentVersionExpiration/><NoncurrentVersionExpiration><NewerNoncurrentVersions>2</NewerNoncurrentVersions></NoncurrentVersionExpiration>`),
		rule(`<Filter><And><Prefix>p</Prefix></And><ObjectSizeGreaterThan>1</ObjectSizeGreaterThan><ObjectSizeLessThan/><Unknown/></Filter>`),
		rule(`<Transition><Days>1</Days></Transition><Transition/><NoncurrentVersionTransition/><AbortIncompleteMultipartUpload/><AbortIncompleteMultipartUpload/>`),
		rule(`<ID>a</ID><ID>b</ID><Status>Enabled</Status><Status>Disabled</Status><Prefix>x</Prefix><Prefix/>`),
		rule(`<Other/><XMLName/><Transitions/>`),
		rule(`<Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker><Days>1</Days></Expiration><Filter/>`),
		rule(`<Filter><Prefix>a<Prefix>b</Prefix>c</Prefix><Tag/><Tag/></Filter>`),
		`<LifecycleConfiguration><Rule/><Rule><ID>2</ID></Rule><XMLName/></LifecycleConfiguration>`,
		`<LifecycleConfiguration><Other/></LifecycleConfiguration>`,
		`<LifecycleConfiguration>text</LifecycleConfiguration>`,
		`<l:LifecycleConfiguration xmlns:l="urn:l"><l:Rule><l:Filter xmlns:f="urn:f"><f:Prefix>p</f:Prefix></l:Filter></l:Rule></l:LifecycleConfiguration>`,
		rule(`<Filter><Prefix>` + strings.Repeat("<x>", 6000) + strings.Repeat("</x>", 6000) + `</Prefix></Filter>`),
	}
	// Every root, with the quirks of XML around an ordinary document.
	for _, doc := range []string{
		`<VersioningConfiguration><Status>Enabled</Status></VersioningConfiguration>`,
		`<Delete><Object><Key>k</Key></Object></Delete>`,
		`<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>e</ETag></Part></CompleteMultipartUpload>`,
		rule(`<Filter/><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>`),
	} {
		open := doc[:strings.Index(doc, ">")+1]
		bodies = append(bodies,
			doc,
			`<?xml version="1.0" encoding="UTF-8"?>`+"\n"+doc,
			`<?xml version="1.0" encoding="utf-8" standalone="yes"?>`+doc,
			`<?xml version="1.0" encoding="ISO-8859-1"?>`+doc,
			`<?xml version="1.0" encoding="UTF-16"?>`+doc,
			"\ufeff"+doc,
			"<!-- before -->\n"+doc+"\n<!-- after -->",
			`<!DOCTYPE x [<!ENTITY e "v">]>`+doc,
			"  \n\t"+doc+"\n\n",
			"junk "+doc,
			doc+" junk <",
			doc+doc,
			strings.Replace(doc, ">", " "+ns+">", 1),
			strings.Replace(doc, ">", ` xmlns="urn:elsewhere">`, 1),
			strings.ReplaceAll(doc, "><", ">\n  <"),
			strings.ReplaceAll(doc, "><", "><!-- c --><"),
			strings.ReplaceAll(doc, "><", ">&#x20;<"),
			strings.ReplaceAll(doc, "><", "><Unknown>x</Unknown><"),
			strings.ReplaceAll(doc, "><", "><?pi?><"),
			strings.TrimSuffix(doc, doc[strings.LastIndex(doc, "<"):]),
			doc[:len(doc)/2],
			open,
			open+"</x>",
			strings.Replace(doc, "<", "< ", 1),
			strings.Replace(doc, ">", "/>", 1),
			strings.ReplaceAll(doc, "k", "&amp;"),
			strings.ReplaceAll(doc, "e", "<![CDATA[e]]>"),
		)
	}
	return append(bodies, "", " ", "\n", `<?xml version="1.0"?>`, "<!-- only -->", "not xml", "<", "<>", "</Delete>", "\x00")
}

// corpusBodies are the seed bodies in testdata/fuzz of the fuzz targets
// that send request documents.
func corpusBodies(t *testing.T) []string {
	var bodies []string
	for _, target := range []string{"FuzzPutBucketVersioning", "FuzzPutBucketLifecycle", "FuzzDeleteObjects", "FuzzCompleteMultipartUpload"} {
		files, err := filepath.Glob(filepath.Join("testdata", "fuzz", target, "*"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no seeds for %s (%v)", target, err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			lit, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "go test fuzz v1\n[]byte(")
			body, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
			if !ok || err != nil {
				t.Fatalf("%s is not a []byte seed (%v)", f, err)
			}
			bodies = append(bodies, body)
		}
	}
	return bodies
}

// TestXMLReaderMatchesUnmarshal reads every quirk body and every seed of
// the request-document fuzz targets as each request document, with
// parseXML and the mappers and with the old xml.Unmarshal decoding, and
// requires the same values and the same errors, or MalformedXML where the
// document repeats an element that may appear once.
func TestXMLReaderMatchesUnmarshal(t *testing.T) {
	for _, body := range append(quirkBodies(), corpusBodies(t)...) {
		if d := readingDiffers([]byte(body)); d != "" {
			t.Errorf("%q:\n%s", body, d)
		}
	}
}

// FuzzXMLReaderMatchesUnmarshal is TestXMLReaderMatchesUnmarshal for any
// body:
//
//	go test -run '^$' -fuzz '^FuzzXMLReaderMatchesUnmarshal$' -fuzztime 60s ./web/
func FuzzXMLReaderMatchesUnmarshal(f *testing.F) {
	for _, body := range quirkBodies() {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if d := readingDiffers(body); d != "" {
			t.Fatalf("%q:\n%s", body, d)
		}
	})
}

// The readers refuse a document that gives an element twice where S3's
// schema has it once, and read the elements that may repeat (Object,
// Part) in order; repeatsOnceElement, which spares such documents the
// comparison with xml.Unmarshal, tells them apart the same way.
func TestXMLReadersRefuseRepeatedElements(t *testing.T) {
	read := map[string]func([]byte) error{
		"VersioningConfiguration": func(b []byte) error { _, _, err := parseVersioning(b); return err },
		"Delete":                  func(b []byte) error { _, _, err := parseDelete(b); return err },
		"CompleteMultipartUpload": func(b []byte) error { _, err := parseComplete(b); return err },
	}
	refused := []struct{ root, body string }{
		{"VersioningConfiguration", `<VersioningConfiguration><Status>Enabled</Status><Status>Enabled</Status></VersioningConfiguration>`},
		{"VersioningConfiguration", `<VersioningConfiguration><MfaDelete>Disabled</MfaDelete><Status>Enabled</Status><MfaDelete>Disabled</MfaDelete></VersioningConfiguration>`},
		{"Delete", `<Delete><Quiet>true</Quiet><Object><Key>k</Key></Object><Quiet>true</Quiet></Delete>`},
		{"Delete", `<Delete><Object><Key>a</Key><Key>b</Key></Object></Delete>`},
		{"Delete", `<Delete><Object><Key>a</Key><VersionId>v00000001</VersionId><VersionId>v00000002</VersionId></Object></Delete>`},
		{"CompleteMultipartUpload", `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><PartNumber>2</PartNumber><ETag>e</ETag></Part></CompleteMultipartUpload>`},
		{"CompleteMultipartUpload", `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>e</ETag><ETag>f</ETag></Part></CompleteMultipartUpload>`},
		{"Delete", `<s3:Delete xmlns:s3="urn:x"><s3:Object><s3:Key>a</s3:Key><Key>b</Key></s3:Object></s3:Delete>`},
	}
	for _, tt := range refused {
		if err := read[tt.root]([]byte(tt.body)); !errors.Is(err, core.MalformedXML) {
			t.Errorf("%s: %v, want MalformedXML", tt.body, err)
		}
		if !repeatsOnceElement([]byte(tt.body), tt.root) {
			t.Errorf("%s: repeatsOnceElement is false", tt.body)
		}
	}

	quiet, objects, err := parseDelete([]byte(`<Delete><Object><Key>a</Key></Object><Unknown/><Unknown/>` +
		`<Object><Key>b</Key><VersionId>v00000001</VersionId><ETag>e</ETag><ETag>e</ETag></Object></Delete>`))
	want := []core.ObjectIdentifier{{Key: "a"}, {Key: "b", VersionID: "v00000001"}}
	if err != nil || quiet || !reflect.DeepEqual(objects, want) {
		t.Errorf("two Objects = %v %+v (%v), want %+v", quiet, objects, err, want)
	}
	parts, err := parseComplete([]byte(`<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>a</ETag></Part>` +
		`<Part><PartNumber>2</PartNumber><ETag>b</ETag></Part></CompleteMultipartUpload>`))
	if want := []partXML{{"1", "a"}, {"2", "b"}}; err != nil || !reflect.DeepEqual(parts, want) {
		t.Errorf("two Parts = %+v (%v), want %+v", parts, err, want)
	}
	for _, body := range []string{
		`<Delete><Object><Key>a</Key></Object><Object><Key>b</Key></Object></Delete>`,
		`<Delete><Object><Key>a</Key><ETag>e</ETag><ETag>e</ETag></Object></Delete>`,
	} {
		if repeatsOnceElement([]byte(body), "Delete") {
			t.Errorf("%s: repeatsOnceElement is true", body)
		}
	}
}
