package core

import (
	"fmt"
	"strconv"

	"minis3/internal/jsonv"
)

// The stored items other than records and bodies are JSON: the store
// metadata, bucket metadata, lifecycle configurations and uploads (and the
// records of format 1). Earlier versions wrote them with encoding/json from
// the tagged types; the functions here write the same bytes and read
// everything encoding/json read, without reflection (see package jsonv).
// The tags still define the layouts, and the tests hold the functions to
// encoding/json.

// appendStoreMeta appends m as JSON.
func appendStoreMeta(b []byte, m storeMeta) []byte {
	b = append(b, `{"format":`...)
	b = strconv.AppendInt(b, int64(m.Format), 10)
	b = append(b, `,"clock":`...)
	b = jsonv.AppendFloat(b, m.Clock)
	return append(b, '}')
}

func readStoreMeta(d *jsonv.Decoder, m *storeMeta) error {
	return d.Object([]string{"format", "clock"}, func(name string) error {
		switch name {
		case "format":
			return d.Int(&m.Format)
		case "clock":
			return d.Float(&m.Clock)
		}
		return nil
	})
}

// appendBucketMeta appends m as JSON. It is rewritten by every write; bucket
// names and versioning states never need escaping (ValidateBucketName).
func appendBucketMeta(b []byte, m bucketMeta) []byte {
	b = append(b, `{"name":"`...)
	b = append(b, m.Name...)
	b = append(b, `","created":`...)
	b = jsonv.AppendFloat(b, m.CreatedAt)
	b = append(b, `,"versioning":"`...)
	b = append(b, m.Versioning...)
	b = append(b, `","nextVersion":`...)
	b = strconv.AppendUint(b, m.NextVersion, 10)
	b = append(b, `,"nextSeq":`...)
	b = strconv.AppendUint(b, m.NextSeq, 10)
	b = append(b, `,"nextUpload":`...)
	b = strconv.AppendUint(b, m.NextUpload, 10)
	return append(b, '}')
}

func readBucketMeta(d *jsonv.Decoder, m *bucketMeta) error {
	return d.Object([]string{"name", "created", "versioning", "nextVersion", "nextSeq", "nextUpload"}, func(name string) error {
		switch name {
		case "name":
			return d.String(&m.Name)
		case "created":
			return d.Float(&m.CreatedAt)
		case "versioning":
			return d.String((*string)(&m.Versioning))
		case "nextVersion":
			return d.Uint64(&m.NextVersion)
		case "nextSeq":
			return d.Uint64(&m.NextSeq)
		case "nextUpload":
			return d.Uint64(&m.NextUpload)
		}
		return nil
	})
}

// appendLifecycle appends c as JSON.
func appendLifecycle(b []byte, c *LifecycleConfiguration) []byte {
	b = append(b, `{"rules":`...)
	b = jsonv.AppendArray(b, c.Rules, appendLifecycleRule)
	return append(b, '}')
}

func appendLifecycleRule(b []byte, r LifecycleRule) []byte {
	b = append(b, `{"id":`...)
	b = jsonv.AppendString(b, r.ID)
	b = append(b, `,"enabled":`...)
	b = strconv.AppendBool(b, r.Enabled)
	b = append(b, `,"prefix":`...)
	b = jsonv.AppendString(b, r.Prefix)
	if r.LegacyPrefix {
		b = append(b, `,"legacyPrefix":true`...)
	}
	if r.ExpirationDays != 0 {
		b = append(b, `,"expirationDays":`...)
		b = strconv.AppendInt(b, int64(r.ExpirationDays), 10)
	}
	if r.NoncurrentDays != 0 {
		b = append(b, `,"noncurrentDays":`...)
		b = strconv.AppendInt(b, int64(r.NoncurrentDays), 10)
	}
	return append(b, '}')
}

func readLifecycle(d *jsonv.Decoder, c *LifecycleConfiguration) error {
	return d.Object([]string{"rules"}, func(string) error {
		return jsonv.Slice(d, &c.Rules, readLifecycleRule)
	})
}

func readLifecycleRule(d *jsonv.Decoder, r *LifecycleRule) error {
	return d.Object([]string{"id", "enabled", "prefix", "legacyPrefix", "expirationDays", "noncurrentDays"}, func(name string) error {
		switch name {
		case "id":
			return d.String(&r.ID)
		case "enabled":
			return d.Bool(&r.Enabled)
		case "prefix":
			return d.String(&r.Prefix)
		case "legacyPrefix":
			return d.Bool(&r.LegacyPrefix)
		case "expirationDays":
			return d.Int(&r.ExpirationDays)
		case "noncurrentDays":
			return d.Int(&r.NoncurrentDays)
		}
		return nil
	})
}

// appendUpload appends u as JSON.
func appendUpload(b []byte, u *upload) []byte {
	b = append(b, `{"id":`...)
	b = jsonv.AppendString(b, u.ID)
	b = append(b, `,"key":`...)
	b = jsonv.AppendString(b, u.Key)
	b = append(b, `,"initiated":`...)
	b = jsonv.AppendFloat(b, u.Initiated)
	b = append(b, `,"meta":`...)
	b = appendObjectMeta(b, &u.Meta)
	if len(u.Parts) > 0 {
		b = append(b, `,"parts":`...)
		b = jsonv.AppendArray(b, u.Parts, appendPart)
	}
	if c := u.Completed; c != nil {
		b = append(b, `,"completed":{"parts":`...)
		b = jsonv.AppendArray(b, c.Parts, appendCompletedPart)
		b = append(b, `,"result":{"VersionID":`...)
		b = jsonv.AppendString(b, c.Result.VersionID)
		b = append(b, `,"ETag":`...)
		b = jsonv.AppendString(b, c.Result.ETag)
		b = append(b, `,"Size":`...)
		b = strconv.AppendInt(b, c.Result.Size, 10)
		b = append(b, `,"CreatedAt":`...)
		b = jsonv.AppendFloat(b, c.Result.CreatedAt)
		b = append(b, "}}"...)
	}
	return append(b, '}')
}

// appendObjectMeta appends m as JSON, leaving out what is unset.
func appendObjectMeta(b []byte, m *ObjectMeta) []byte {
	start := len(b)
	for _, f := range [...]struct{ key, value string }{
		{`,"ct":`, m.ContentType}, {`,"cd":`, m.ContentDisposition}, {`,"ce":`, m.ContentEncoding},
		{`,"cc":`, m.CacheControl}, {`,"cl":`, m.ContentLanguage}, {`,"ex":`, m.Expires},
	} {
		if f.value != "" {
			b = append(b, f.key...)
			b = jsonv.AppendString(b, f.value)
		}
	}
	if len(m.User) > 0 {
		b = append(b, `,"um":`...)
		b = jsonv.AppendStringMap(b, m.User)
	}
	if len(b) == start {
		return append(b, "{}"...)
	}
	b[start] = '{' // the first member's comma
	return append(b, '}')
}

func appendPart(b []byte, p part) []byte {
	b = append(b, `{"n":`...)
	b = strconv.AppendInt(b, int64(p.Number), 10)
	b = append(b, `,"e":`...)
	b = jsonv.AppendString(b, p.ETag)
	b = append(b, `,"s":`...)
	b = strconv.AppendInt(b, p.Size, 10)
	b = append(b, `,"c":`...)
	b = jsonv.AppendFloat(b, p.CreatedAt)
	return append(b, '}')
}

func appendCompletedPart(b []byte, p CompletedPart) []byte {
	b = append(b, `{"n":`...)
	b = strconv.AppendInt(b, int64(p.PartNumber), 10)
	b = append(b, `,"e":`...)
	b = jsonv.AppendString(b, p.ETag)
	return append(b, '}')
}

func readUpload(d *jsonv.Decoder, u *upload) error {
	return d.Object([]string{"id", "key", "initiated", "meta", "parts", "completed"}, func(name string) error {
		switch name {
		case "id":
			return d.String(&u.ID)
		case "key":
			return d.String(&u.Key)
		case "initiated":
			return d.Float(&u.Initiated)
		case "meta":
			return readObjectMeta(d, &u.Meta)
		case "parts":
			return jsonv.Slice(d, &u.Parts, readPart)
		case "completed":
			return jsonv.Pointer(d, &u.Completed, readCompletion)
		}
		return nil
	})
}

func readObjectMeta(d *jsonv.Decoder, m *ObjectMeta) error {
	return d.Object([]string{"ct", "cd", "ce", "cc", "cl", "ex", "um"}, func(name string) error {
		switch name {
		case "ct":
			return d.String(&m.ContentType)
		case "cd":
			return d.String(&m.ContentDisposition)
		case "ce":
			return d.String(&m.ContentEncoding)
		case "cc":
			return d.String(&m.CacheControl)
		case "cl":
			return d.String(&m.ContentLanguage)
		case "ex":
			return d.String(&m.Expires)
		case "um":
			return d.StringMap(&m.User)
		}
		return nil
	})
}

func readPart(d *jsonv.Decoder, p *part) error {
	return d.Object([]string{"n", "e", "s", "c"}, func(name string) error {
		switch name {
		case "n":
			return d.Int(&p.Number)
		case "e":
			return d.String(&p.ETag)
		case "s":
			return d.Int64(&p.Size)
		case "c":
			return d.Float(&p.CreatedAt)
		}
		return nil
	})
}

func readCompletion(d *jsonv.Decoder, c *completion) error {
	return d.Object([]string{"parts", "result"}, func(name string) error {
		switch name {
		case "parts":
			return jsonv.Slice(d, &c.Parts, readCompletedPart)
		case "result":
			return readPutResult(d, &c.Result)
		}
		return nil
	})
}

func readCompletedPart(d *jsonv.Decoder, p *CompletedPart) error {
	return d.Object([]string{"n", "e"}, func(name string) error {
		switch name {
		case "n":
			return d.Int(&p.PartNumber)
		case "e":
			return d.String(&p.ETag)
		}
		return nil
	})
}

func readPutResult(d *jsonv.Decoder, r *PutResult) error {
	return d.Object([]string{"VersionID", "ETag", "Size", "CreatedAt"}, func(name string) error {
		switch name {
		case "VersionID":
			return d.String(&r.VersionID)
		case "ETag":
			return d.String(&r.ETag)
		case "Size":
			return d.Int64(&r.Size)
		case "CreatedAt":
			return d.Float(&r.CreatedAt)
		}
		return nil
	})
}

// The format 1 record layout, read for data written before format 2.
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

func decodeRecordJSON(data []byte) (*ObjectRecord, error) {
	var in recordJSON
	if err := jsonv.Unmarshal(data, &in, readRecordJSON); err != nil {
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
	return newRecord(r.Key, r.Versions), nil
}

func readRecordJSON(d *jsonv.Decoder, r *recordJSON) error {
	return d.Object([]string{"k", "v"}, func(name string) error {
		switch name {
		case "k":
			return d.String(&r.Key)
		case "v":
			return jsonv.Slice(d, &r.Versions, readEntryJSON)
		}
		return nil
	})
}

func readEntryJSON(d *jsonv.Decoder, e *entryJSON) error {
	return d.Object([]string{"dm", "id", "c", "q", "e", "s", "p", "m"}, func(name string) error {
		switch name {
		case "dm":
			return d.Bool(&e.DeleteMarker)
		case "id":
			return d.String(&e.ID)
		case "c":
			return d.Float(&e.Created)
		case "q":
			return d.Uint64(&e.Seq)
		case "e":
			return d.String(&e.ETag)
		case "s":
			return d.Int64(&e.Size)
		case "p":
			return d.Int(&e.Parts)
		case "m":
			return jsonv.Pointer(d, &e.Meta, readObjectMeta)
		}
		return nil
	})
}
