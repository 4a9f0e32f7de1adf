package web

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"testing"

	"minis3/core"
	"minis3/web/sigv4"
)

// The response documents as encoding/xml's Marshal wrote them before the
// handler wrote them with xmlWriter: the old struct definitions, kept here
// so that TestResponseDocumentsMatchMarshal can compare byte for byte.

type oldOwner struct {
	ID string `xml:"ID"`
}

type oldListAllMyBucketsResult struct {
	XMLName           xml.Name       `xml:"ListAllMyBucketsResult"`
	NS                string         `xml:"xmlns,attr"`
	Owner             oldOwner       `xml:"Owner"`
	Buckets           []oldBucketXML `xml:"Buckets>Bucket"`
	ContinuationToken string         `xml:"ContinuationToken,omitempty"`
	Prefix            string         `xml:"Prefix,omitempty"`
}

type oldBucketXML struct {
	Name         string `xml:"Name"`
	CreationDate string `xml:"CreationDate"`
	BucketRegion string `xml:"BucketRegion"`
}

type oldLocationConstraint struct {
	XMLName xml.Name `xml:"LocationConstraint"`
	NS      string   `xml:"xmlns,attr"`
}

type oldVersioningConfiguration struct {
	XMLName   xml.Name `xml:"VersioningConfiguration"`
	NS        string   `xml:"xmlns,attr,omitempty"`
	Status    *string  `xml:"Status"`
	MfaDelete *string  `xml:"MfaDelete"`
}

type oldCopyObjectResult struct {
	XMLName      xml.Name `xml:"CopyObjectResult"`
	NS           string   `xml:"xmlns,attr"`
	ETag         string   `xml:"ETag"`
	LastModified string   `xml:"LastModified"`
}

// refCopyPartResult is UploadPartCopy's answer, which came after the
// handler wrote its documents with xmlWriter: the elements in the order
// S3 sends them.
type refCopyPartResult struct {
	XMLName      xml.Name `xml:"CopyPartResult"`
	NS           string   `xml:"xmlns,attr"`
	LastModified string   `xml:"LastModified"`
	ETag         string   `xml:"ETag"`
}

type oldInitiateMultipartUploadResult struct {
	XMLName  xml.Name `xml:"InitiateMultipartUploadResult"`
	NS       string   `xml:"xmlns,attr"`
	Bucket   string   `xml:"Bucket"`
	Key      string   `xml:"Key"`
	UploadID string   `xml:"UploadId"`
}

type oldCompleteMultipartUploadResult struct {
	XMLName  xml.Name `xml:"CompleteMultipartUploadResult"`
	NS       string   `xml:"xmlns,attr"`
	Location string   `xml:"Location"`
	Bucket   string   `xml:"Bucket"`
	Key      string   `xml:"Key"`
	ETag     string   `xml:"ETag"`
}

type oldListPartsResult struct {
	XMLName              xml.Name     `xml:"ListPartsResult"`
	NS                   string       `xml:"xmlns,attr"`
	Bucket               string       `xml:"Bucket"`
	Key                  string       `xml:"Key"`
	UploadID             string       `xml:"UploadId"`
	Initiator            oldOwner     `xml:"Initiator"`
	Owner                oldOwner     `xml:"Owner"`
	StorageClass         string       `xml:"StorageClass"`
	PartNumberMarker     int          `xml:"PartNumberMarker"`
	NextPartNumberMarker int          `xml:"NextPartNumberMarker,omitempty"`
	MaxParts             int          `xml:"MaxParts"`
	IsTruncated          bool         `xml:"IsTruncated"`
	Parts                []oldPartXML `xml:"Part"`
}

type oldPartXML struct {
	PartNumber   int    `xml:"PartNumber"`
	LastModified string `xml:"LastModified"`
	ETag         string `xml:"ETag"`
	Size         int64  `xml:"Size"`
}

type oldListMultipartUploadsResult struct {
	XMLName            xml.Name             `xml:"ListMultipartUploadsResult"`
	NS                 string               `xml:"xmlns,attr"`
	Bucket             string               `xml:"Bucket"`
	KeyMarker          string               `xml:"KeyMarker"`
	UploadIDMarker     string               `xml:"UploadIdMarker"`
	NextKeyMarker      string               `xml:"NextKeyMarker,omitempty"`
	NextUploadIDMarker string               `xml:"NextUploadIdMarker,omitempty"`
	Prefix             string               `xml:"Prefix"`
	Delimiter          string               `xml:"Delimiter,omitempty"`
	MaxUploads         int                  `xml:"MaxUploads"`
	IsTruncated        bool                 `xml:"IsTruncated"`
	EncodingType       string               `xml:"EncodingType,omitempty"`
	Uploads            []oldUploadXML       `xml:"Upload"`
	CommonPrefixes     []oldCommonPrefixXML `xml:"CommonPrefixes"`
}

type oldUploadXML struct {
	Key          string   `xml:"Key"`
	UploadID     string   `xml:"UploadId"`
	Initiator    oldOwner `xml:"Initiator"`
	Owner        oldOwner `xml:"Owner"`
	StorageClass string   `xml:"StorageClass"`
	Initiated    string   `xml:"Initiated"`
}

type oldCommonPrefixXML struct {
	Prefix string `xml:"Prefix"`
}

type oldDeleteResult struct {
	XMLName xml.Name            `xml:"DeleteResult"`
	NS      string              `xml:"xmlns,attr"`
	Deleted []oldDeletedXML     `xml:"Deleted"`
	Errors  []oldDeleteErrorXML `xml:"Error"`
}

type oldDeletedXML struct {
	Key                   string `xml:"Key"`
	VersionID             string `xml:"VersionId,omitempty"`
	DeleteMarker          bool   `xml:"DeleteMarker,omitempty"`
	DeleteMarkerVersionID string `xml:"DeleteMarkerVersionId,omitempty"`
}

type oldDeleteErrorXML struct {
	Key       string `xml:"Key"`
	VersionID string `xml:"VersionId,omitempty"`
	Code      string `xml:"Code"`
	Message   string `xml:"Message"`
}

// refLifecycle is a LifecycleConfiguration document in S3's schema
// [ref §5.2], as encoding/xml writes it from struct tags.
type refLifecycle struct {
	XMLName xml.Name  `xml:"LifecycleConfiguration"`
	NS      string    `xml:"xmlns,attr"`
	Rules   []refRule `xml:"Rule"`
}

type refRule struct {
	ID                           string                               `xml:"ID"`
	Prefix                       *string                              `xml:"Prefix"`
	Filter                       *refFilter                           `xml:"Filter"`
	Status                       string                               `xml:"Status"`
	Expiration                   *refExpiration                       `xml:"Expiration"`
	Transitions                  []refTransition                      `xml:"Transition"`
	NoncurrentVersionTransitions []core.NoncurrentVersionTransition   `xml:"NoncurrentVersionTransition"`
	NoncurrentVersionExpiration  *core.NoncurrentVersionExpiration    `xml:"NoncurrentVersionExpiration"`
	AbortIncompleteMultipart     *core.AbortIncompleteMultipartUpload `xml:"AbortIncompleteMultipartUpload"`
}

type refFilter struct {
	Prefix                *string   `xml:"Prefix"`
	Tag                   *core.Tag `xml:"Tag"`
	ObjectSizeGreaterThan *int64    `xml:"ObjectSizeGreaterThan"`
	ObjectSizeLessThan    *int64    `xml:"ObjectSizeLessThan"`
	And                   *refAnd   `xml:"And"`
}

type refAnd struct {
	Prefix                *string    `xml:"Prefix"`
	Tags                  []core.Tag `xml:"Tag"`
	ObjectSizeGreaterThan *int64     `xml:"ObjectSizeGreaterThan"`
	ObjectSizeLessThan    *int64     `xml:"ObjectSizeLessThan"`
}

type refExpiration struct {
	Days                      *int    `xml:"Days"`
	Date                      *string `xml:"Date"`
	ExpiredObjectDeleteMarker *bool   `xml:"ExpiredObjectDeleteMarker"`
}

type refTransition struct {
	Days         *int    `xml:"Days"`
	Date         *string `xml:"Date"`
	StorageClass string  `xml:"StorageClass"`
}

// refDate is an optional date as S3 writes it.
func refDate(t *float64) *string {
	if t == nil {
		return nil
	}
	return ptr(isoTime(*t))
}

// refLifecycleOf is cfg in refLifecycle's shape.
func refLifecycleOf(cfg core.LifecycleConfiguration) refLifecycle {
	out := refLifecycle{NS: xmlNS}
	for _, r := range cfg.Rules {
		o := refRule{ID: r.ID, Prefix: r.Prefix, Status: "Disabled", NoncurrentVersionTransitions: r.NoncurrentVersionTransitions,
			NoncurrentVersionExpiration: r.NoncurrentVersionExpiration, AbortIncompleteMultipart: r.AbortIncompleteMultipartUpload}
		if r.Enabled {
			o.Status = "Enabled"
		}
		if f := r.Filter; f != nil {
			o.Filter = &refFilter{Prefix: f.Prefix, Tag: f.Tag, ObjectSizeGreaterThan: f.ObjectSizeGreaterThan, ObjectSizeLessThan: f.ObjectSizeLessThan}
			if a := f.And; a != nil {
				o.Filter.And = &refAnd{a.Prefix, a.Tags, a.ObjectSizeGreaterThan, a.ObjectSizeLessThan}
			}
		}
		if x := r.Expiration; x != nil {
			o.Expiration = &refExpiration{Days: x.Days, Date: refDate(x.Date), ExpiredObjectDeleteMarker: x.ExpiredObjectDeleteMarker}
		}
		for _, t := range r.Transitions {
			o.Transitions = append(o.Transitions, refTransition{Days: t.Days, Date: refDate(t.Date), StorageClass: t.StorageClass})
		}
		out.Rules = append(out.Rules, o)
	}
	return out
}

type oldErrorBody struct {
	XMLName             xml.Name `xml:"Error"`
	Code                string   `xml:"Code"`
	Message             string   `xml:"Message"`
	Region              string   `xml:"Region,omitempty"`
	BucketName          string   `xml:"BucketName,omitempty"`
	Key                 string   `xml:"Key,omitempty"`
	VersionID           string   `xml:"VersionId,omitempty"`
	UploadID            string   `xml:"UploadId,omitempty"`
	PartNumber          string   `xml:"PartNumber,omitempty"`
	ETag                string   `xml:"ETag,omitempty"`
	ProposedSize        string   `xml:"ProposedSize,omitempty"`
	MinSizeAllowed      string   `xml:"MinSizeAllowed,omitempty"`
	Size                string   `xml:"Size,omitempty"`
	MaxSizeAllowed      string   `xml:"MaxSizeAllowed,omitempty"`
	ArgumentName        string   `xml:"ArgumentName,omitempty"`
	ArgumentValue       *string  `xml:"ArgumentValue"`
	Method              string   `xml:"Method,omitempty"`
	ResourceType        string   `xml:"ResourceType,omitempty"`
	Header              string   `xml:"Header,omitempty"`
	RangeRequested      string   `xml:"RangeRequested,omitempty"`
	ActualObjectSize    string   `xml:"ActualObjectSize,omitempty"`
	Condition           string   `xml:"Condition,omitempty"`
	PartNumberRequested string   `xml:"PartNumberRequested,omitempty"`
	ActualPartCount     string   `xml:"ActualPartCount,omitempty"`
	StorageClass        string   `xml:"StorageClass,omitempty"`
	RequestID           string   `xml:"RequestId"`
	HostID              string   `xml:"HostId"`
}

// oldAuthError is the error document of RequireSigV4; the SigV4 tests read
// answers with it too.
type oldAuthError struct {
	XMLName                    xml.Name  `xml:"Error"`
	Code                       core.Code `xml:"Code"`
	Message                    string    `xml:"Message"`
	Region                     string    `xml:"Region,omitempty"`
	AWSAccessKeyID             string    `xml:"AWSAccessKeyId,omitempty"`
	StringToSign               string    `xml:"StringToSign,omitempty"`
	SignatureProvided          string    `xml:"SignatureProvided,omitempty"`
	StringToSignBytes          string    `xml:"StringToSignBytes,omitempty"`
	CanonicalRequest           string    `xml:"CanonicalRequest,omitempty"`
	CanonicalRequestBytes      string    `xml:"CanonicalRequestBytes,omitempty"`
	RequestTime                string    `xml:"RequestTime,omitempty"`
	ServerTime                 string    `xml:"ServerTime,omitempty"`
	MaxAllowedSkewMilliseconds string    `xml:"MaxAllowedSkewMilliseconds,omitempty"`
	XAmzExpires                string    `xml:"X-Amz-Expires,omitempty"`
	Expires                    string    `xml:"Expires,omitempty"`
	HeadersNotSigned           string    `xml:"HeadersNotSigned,omitempty"`
	RequestID                  string    `xml:"RequestId"`
	HostID                     string    `xml:"HostId"`
}

// hostileStrings put the XML writer's escaping to the test: markup
// characters, a CDATA end, whitespace that encoding/xml writes as
// character references, control characters, invalid UTF-8, noncharacters,
// astral characters and the empty string (which omitempty leaves out).
var hostileStrings = []string{
	"", "plain/key-1.txt", `<&>"'`, "]]>", "a\tb\nc\rd", "nul\x00", "ctl\x01\x1f", "del\x7f",
	"bad\xffutf8", "\xc3", "ünï cödé", "emoji 🪣", "\ufffe\uffff", "\u2028", "rtl \u202e override",
	`"d41d8cd98f00b204e9800998ecf8427e"`, "\U0010FFFF\U0001F600", " lead and trail ",
}

// isoTime is the old handlers' formatting of clock seconds for the
// documents, which xmlWriter.time replaced.
func isoTime(sec float64) string {
	return clockTime(sec).Format(isoTimeLayout)
}

// sent is the body send writes for w.
func sent(w *xmlWriter) []byte {
	rec := httptest.NewRecorder()
	w.send(rec, http.StatusOK)
	return rec.Body.Bytes()
}

// fillStrings sets every string field of the struct *p to its field name
// and suffix, or, when only is not empty, only the field called only; it
// returns p.
func fillStrings[T any](p *T, only, suffix string) *T {
	v := reflect.ValueOf(p).Elem()
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		if f := v.Field(i); f.Kind() == reflect.String && (only == "" || only == name) {
			f.SetString(name + suffix)
		}
	}
	return p
}

// copyFields copies the fields of the struct src into the fields of the
// same name of the struct *dst, and returns *dst.
func copyFields[T any](dst *T, src any) T {
	s := reflect.ValueOf(src).Elem()
	d := reflect.ValueOf(dst).Elem()
	for i := range s.NumField() {
		f := d.FieldByName(s.Type().Field(i).Name)
		f.Set(s.Field(i).Convert(f.Type()))
	}
	return *dst
}

// TestResponseDocumentsMatchMarshal pins the bytes of every response
// document written with xmlWriter to the bytes xml.Marshal wrote for the
// old structs, for ordinary values and hostile strings, with and without
// the optional (omitempty) elements.
func TestResponseDocumentsMatchMarshal(t *testing.T) {
	type docCase struct {
		name string
		got  *xmlWriter
		want any
	}
	var cases []docCase
	add := func(name string, got *xmlWriter, want any) {
		cases = append(cases, docCase{fmt.Sprintf("%s/%d", name, len(cases)), got, want})
	}
	owner := oldOwner{ID: ownerID}
	const created = 1700000000.25
	const origin = -86400.5 // a clock whose 0 is the day before the epoch
	for _, s := range hostileStrings {
		// ListBuckets: an empty page, and a page of two with a token.
		add("ListAllMyBucketsResult", bucketsDocument(nil, 0, s, s), oldListAllMyBucketsResult{NS: xmlNS, Owner: owner, ContinuationToken: s, Prefix: s})
		buckets := []core.BucketInfo{{Name: s, CreatedAt: created}, {Name: "b" + s, CreatedAt: 0}}
		add("ListAllMyBucketsResult", bucketsDocument(buckets, origin, "b"+s, s), oldListAllMyBucketsResult{NS: xmlNS, Owner: owner, ContinuationToken: "b" + s, Prefix: s,
			Buckets: []oldBucketXML{{s, isoTime(origin + created), region}, {"b" + s, isoTime(origin), region}}})

		add("CopyObjectResult", copyResultDocument(s, created), oldCopyObjectResult{NS: xmlNS, ETag: quoteETag(s), LastModified: isoTime(created)})
		add("CopyPartResult", copyPartDocument(s, created), refCopyPartResult{NS: xmlNS, LastModified: isoTime(created), ETag: quoteETag(s)})
		add("InitiateMultipartUploadResult", initiateDocument("b"+s, "k"+s, s), oldInitiateMultipartUploadResult{NS: xmlNS, Bucket: "b" + s, Key: "k" + s, UploadID: s})
		add("CompleteMultipartUploadResult", completeDocument("l"+s, "b"+s, "k"+s, s),
			oldCompleteMultipartUploadResult{NS: xmlNS, Location: "l" + s, Bucket: "b" + s, Key: "k" + s, ETag: quoteETag(s)})

		// ListParts: a page with parts, and an empty one (max-parts=0).
		parts := core.ListPartsResult{Parts: []core.PartInfo{{PartNumber: 1, ETag: s, Size: 5, CreatedAt: created}, {PartNumber: 10000, ETag: "e" + s, Size: 1 << 40}},
			IsTruncated: true, NextPartNumberMarker: 10000}
		add("ListPartsResult", partsDocument("b"+s, "k"+s, s, origin, 7, 2, parts), oldListPartsResult{NS: xmlNS, Bucket: "b" + s, Key: "k" + s, UploadID: s,
			Initiator: owner, Owner: owner, StorageClass: "STANDARD", PartNumberMarker: 7, NextPartNumberMarker: 10000, MaxParts: 2, IsTruncated: true,
			Parts: []oldPartXML{{1, isoTime(origin + created), quoteETag(s), 5}, {10000, isoTime(origin), quoteETag("e" + s), 1 << 40}}})
		add("ListPartsResult", partsDocument(s, s, s, 0, 0, 0, core.ListPartsResult{}), oldListPartsResult{NS: xmlNS, Bucket: s, Key: s, UploadID: s,
			Initiator: owner, Owner: owner, StorageClass: "STANDARD"})

		// ListMultipartUploads, plain and URL-encoded, full and empty.
		for _, p := range []listParams{{prefix: s, delimiter: s}, {prefix: "p" + s, delimiter: "/", urlEncode: true}, {}} {
			opts := core.ListUploadsOptions{Prefix: p.prefix, Delimiter: p.delimiter, KeyMarker: "m" + s, UploadIDMarker: s}
			res := core.ListUploadsResult{Uploads: []core.UploadInfo{{Key: s, UploadID: "u" + s, Initiated: created}, {Key: "k" + s, UploadID: s}},
				CommonPrefixes: []string{s, "c" + s}, IsTruncated: true, NextKeyMarker: "n" + s, NextUploadIDMarker: s}
			for _, max := range []int{1000, 0} {
				if max == 0 {
					res = core.ListUploadsResult{}
				}
				old := oldListMultipartUploadsResult{NS: xmlNS, Bucket: s, KeyMarker: p.enc(opts.KeyMarker), UploadIDMarker: opts.UploadIDMarker,
					Prefix: p.enc(p.prefix), Delimiter: p.enc(p.delimiter), MaxUploads: max, EncodingType: p.encodingType(),
					IsTruncated: res.IsTruncated, NextKeyMarker: p.enc(res.NextKeyMarker), NextUploadIDMarker: res.NextUploadIDMarker}
				for _, cp := range res.CommonPrefixes {
					old.CommonPrefixes = append(old.CommonPrefixes, oldCommonPrefixXML{Prefix: p.enc(cp)})
				}
				for _, u := range res.Uploads {
					old.Uploads = append(old.Uploads, oldUploadXML{Key: p.enc(u.Key), UploadID: u.UploadID, Initiator: owner, Owner: owner,
						StorageClass: "STANDARD", Initiated: isoTime(u.Initiated)})
				}
				add("ListMultipartUploadsResult", p.uploadsDocument(s, opts, max, res), old)
			}
		}

		// DeleteObjects: successes of every shape and errors, loud and
		// quiet.
		res := core.DeleteObjectsResult{
			Deleted: []core.DeletedObject{{Key: s}, {Key: "k" + s, VersionID: s}, {Key: s, DeleteMarker: true, DeleteMarkerVersionID: s},
				{Key: s, VersionID: "v" + s, DeleteMarker: true, DeleteMarkerVersionID: "d" + s}},
			Errors: []core.DeleteObjectError{{Key: s, VersionID: s, Code: core.NoSuchVersion, Message: s}, {Key: "k" + s, Code: core.InternalError, Message: "m" + s}},
		}
		for _, quiet := range []bool{false, true} {
			old := oldDeleteResult{NS: xmlNS}
			if !quiet {
				for _, d := range res.Deleted {
					old.Deleted = append(old.Deleted, oldDeletedXML(d))
				}
			}
			for _, e := range res.Errors {
				old.Errors = append(old.Errors, oldDeleteErrorXML{Key: e.Key, VersionID: e.VersionID, Code: string(e.Code), Message: e.Message})
			}
			add("DeleteResult", deleteResultDocument(res, quiet), old)
		}
		add("DeleteResult", deleteResultDocument(core.DeleteObjectsResult{}, false), oldDeleteResult{NS: xmlNS})

		// GetBucketLifecycleConfiguration: every element of the schema.
		add("LifecycleConfiguration", lifecycleDocument(richLifecycle(s)), refLifecycleOf(richLifecycle(s)))

		// Error documents: every element set, then each optional one
		// alone, so that both the order and omitempty are pinned.
		for _, only := range append([]string{""}, "Region", "BucketName", "Key", "VersionID", "UploadID", "PartNumber", "ETag", "ProposedSize", "MinSizeAllowed",
			"Size", "MaxSizeAllowed", "ArgumentName", "Method", "ResourceType", "Header", "RangeRequested", "ActualObjectSize", "Condition",
			"PartNumberRequested", "ActualPartCount", "StorageClass") {
			b := fillStrings(&errorBody{}, only, s)
			add("Error", b.document(), copyFields(&oldErrorBody{}, b))
		}
		for _, v := range []*string{nil, ptr(""), ptr(s)} {
			b := errorBody{Code: s, ArgumentValue: v}
			add("Error", b.document(), copyFields(&oldErrorBody{}, &b))
		}
		for _, only := range []string{"", "Region", "AWSAccessKeyID", "StringToSign", "SignatureProvided", "StringToSignBytes", "CanonicalRequest",
			"CanonicalRequestBytes", "RequestTime", "ServerTime", "MaxAllowedSkewMilliseconds", "XAmzExpires", "Expires", "HeadersNotSigned"} {
			e := fillStrings(&sigv4.Error{}, only, s)
			e.Code = core.Code("c" + s)
			want := copyFields(&oldAuthError{}, e)
			if only == "" {
				want.RequestID, want.HostID = "RequestID"+s, "HostID"+s
			}
			add("Error", authDocument(e, want.RequestID, want.HostID), want)
		}
	}
	for _, s := range []core.VersioningState{core.Unversioned, core.Enabled, core.Suspended} {
		old := oldVersioningConfiguration{NS: xmlNS}
		switch s {
		case core.Enabled:
			old.Status = ptr("Enabled")
		case core.Suspended:
			old.Status = ptr("Suspended")
		}
		add("VersioningConfiguration", versioningDocument(s), old)
	}
	add("LocationConstraint", newXMLWriter("LocationConstraint", 0), oldLocationConstraint{NS: xmlNS})

	for _, c := range cases {
		out, err := xml.Marshal(c.want)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := append([]byte(xml.Header), out...)
		if got := sent(c.got); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", c.name, strconv.Quote(string(got)), strconv.Quote(string(want)))
		}
	}
}
