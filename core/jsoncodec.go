package core

import (
	"strconv"

	"minis3/internal/jsonv"
)

// The stored items other than entries and bodies are JSON (format.go): the
// store metadata, bucket metadata, lifecycle configurations and uploads.
// The functions here write and read them without reflection (see package
// jsonv); the json tags of the types define the layouts, and the tests
// hold the functions to encoding/json.

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
