package core

import (
	"strconv"

	"minis3/internal/jsonv"
)

// The stored items other than entries and bodies are JSON (format.go): the
// store metadata, bucket metadata and tags, lifecycle configurations and
// uploads.
// The functions here write and read them without reflection (see package
// jsonv); the json tags of the types define the layouts, and the tests
// hold the functions to encoding/json.

// appendStoreMeta appends m as JSON.
func appendStoreMeta(b []byte, m storeMeta) []byte {
	b = append(b, `{"format":`...)
	b = strconv.AppendInt(b, int64(m.Format), 10)
	b = append(b, `,"clock":`...)
	b = jsonv.AppendFloat(b, m.Clock)
	b = append(b, `,"origin":`...)
	b = jsonv.AppendFloat(b, m.Origin)
	b = append(b, `,"lifecycleRun":`...)
	b = jsonv.AppendFloat(b, m.LifecycleRun)
	return append(b, '}')
}

func readStoreMeta(d *jsonv.Decoder, m *storeMeta) error {
	return d.Object([]string{"format", "clock", "origin", "lifecycleRun"}, func(name string) error {
		switch name {
		case "format":
			return d.Int(&m.Format)
		case "clock":
			return d.Float(&m.Clock)
		case "origin":
			return d.Float(&m.Origin)
		case "lifecycleRun":
			return d.Float(&m.LifecycleRun)
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

// appendBucketTags appends a bucket's tags as JSON, in their order.
func appendBucketTags(b []byte, tags []Tag) []byte {
	return jsonv.AppendArray(b, tags, appendTag)
}

func readBucketTags(d *jsonv.Decoder, tags *[]Tag) error {
	return jsonv.Slice(d, tags, readTag)
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
	if u.KeyChanged {
		b = append(b, `,"changed":true`...)
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
		if e := c.Result.Expiration; e != nil {
			b = append(b, `,"Expiration":{"Date":`...)
			b = jsonv.AppendFloat(b, e.Date)
			b = append(b, `,"RuleID":`...)
			b = jsonv.AppendString(b, e.RuleID)
			b = append(b, '}')
		}
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
	if m.StorageClass != "" {
		b = append(b, `,"sc":`...)
		b = jsonv.AppendString(b, m.StorageClass)
	}
	if len(m.Tags) > 0 {
		b = append(b, `,"tg":`...)
		b = jsonv.AppendArray(b, m.Tags, appendTag)
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
	return d.Object([]string{"id", "key", "initiated", "meta", "parts", "changed", "completed"}, func(name string) error {
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
		case "changed":
			return d.Bool(&u.KeyChanged)
		case "completed":
			return jsonv.Pointer(d, &u.Completed, readCompletion)
		}
		return nil
	})
}

func appendTag(b []byte, t Tag) []byte {
	b = append(b, `{"k":`...)
	b = jsonv.AppendString(b, t.Key)
	b = append(b, `,"v":`...)
	b = jsonv.AppendString(b, t.Value)
	return append(b, '}')
}

func readTag(d *jsonv.Decoder, t *Tag) error {
	return d.Object([]string{"k", "v"}, func(name string) error {
		if name == "k" {
			return d.String(&t.Key)
		}
		return d.String(&t.Value)
	})
}

func readObjectMeta(d *jsonv.Decoder, m *ObjectMeta) error {
	return d.Object([]string{"ct", "cd", "ce", "cc", "cl", "ex", "um", "sc", "tg"}, func(name string) error {
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
		case "sc":
			return d.String(&m.StorageClass)
		case "tg":
			return jsonv.Slice(d, &m.Tags, readTag)
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
	return d.Object([]string{"VersionID", "ETag", "Size", "CreatedAt", "Expiration"}, func(name string) error {
		switch name {
		case "VersionID":
			return d.String(&r.VersionID)
		case "ETag":
			return d.String(&r.ETag)
		case "Size":
			return d.Int64(&r.Size)
		case "CreatedAt":
			return d.Float(&r.CreatedAt)
		case "Expiration":
			return jsonv.Pointer(d, &r.Expiration, readExpiry)
		}
		return nil
	})
}

func readExpiry(d *jsonv.Decoder, e *Expiry) error {
	return d.Object([]string{"Date", "RuleID"}, func(name string) error {
		if name == "Date" {
			return d.Float(&e.Date)
		}
		return d.String(&e.RuleID)
	})
}
