package core

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// MaxPartNumber is the largest multipart part number.
const MaxPartNumber = 10000

// upload is a multipart upload. Once published it is never modified; a
// change stores a new copy.
type upload struct {
	ID        string     `json:"id"`
	Key       string     `json:"key"`
	Initiated float64    `json:"initiated"`
	Meta      ObjectMeta `json:"meta"`
	Parts     []part     `json:"parts,omitempty"` // ascending part numbers
	// KeyChanged records that the key's current entry changed (a write or
	// a delete) while the upload was in progress: see keyChanged.
	KeyChanged bool        `json:"changed,omitempty"`
	Completed  *completion `json:"completed,omitempty"`
}

type part struct {
	Number    int     `json:"n"`
	ETag      string  `json:"e"`
	Size      int64   `json:"s"`
	CreatedAt float64 `json:"c"`
}

// completion remembers how an upload was completed, so that repeating the
// same Complete answers with the same result, as S3 does.
type completion struct {
	Parts  []CompletedPart `json:"parts"`
	Result PutResult       `json:"result"`
}

func (u *upload) info() UploadInfo {
	return UploadInfo{Key: u.Key, UploadID: u.ID, Initiated: u.Initiated, Meta: u.Meta.clone()}
}

// UploadInfo describes a multipart upload in progress.
type UploadInfo struct {
	Key       string
	UploadID  string
	Initiated float64
	Meta      ObjectMeta
	// Abort is when S3's lifecycle will abort the upload, if a stored
	// rule will (CreateMultipartUpload and ListParts say so).
	Abort *Expiry
}

// PartInfo describes an uploaded part.
type PartInfo struct {
	PartNumber int
	ETag       string // hex MD5 of the part
	Size       int64
	CreatedAt  float64
}

// CompletedPart names a part in CompleteMultipartUpload. Quotes around ETag
// are allowed.
type CompletedPart struct {
	PartNumber int    `json:"n"`
	ETag       string `json:"e"`
}

// CreateMultipartUpload starts an upload for key. The metadata given here is
// what the completed object gets. Upload IDs come from a per-bucket counter:
// u00000001, u00000002, ...
func (s *Store) CreateMultipartUpload(bucket, key string, opts PutOptions) (UploadInfo, error) {
	meta := opts.Meta.clone()
	var info UploadInfo
	err := s.update(bucket, func(t *tx) error {
		if err := ValidateKey(key); err != nil {
			return err
		}
		if err := checkMeta(&meta); err != nil {
			return err
		}
		if opts.WriteConditions != (WriteConditions{}) {
			return newError(InvalidRequest, "An upload's write conditions are given when it is completed (CompleteMultipartUploadIf)")
		}
		id := fmt.Sprintf("u%08d", t.meta.NextUpload)
		t.meta.NextUpload++
		t.metaChanged = true
		u := &upload{ID: id, Key: key, Initiated: t.now, Meta: meta}
		t.setUpload(id, u)
		info = u.info()
		info.Abort = t.b.abortOf(key, u.Initiated, s.origin)
		return nil
	})
	return info, err
}

// keyChanged notes on the key's uploads in progress that its current entry
// changed: an upload started before a write or a delete of its key cannot
// be completed with write conditions (ConditionalRequestConflict), as on
// S3, since the conditions were meant for the key as it was. It walks the
// uploads in progress only, never the completed ones.
func (t *tx) keyChanged(key string) {
	for id := range t.b.uploads {
		u := t.upload(id)
		if u != nil && u.Key == key && u.Completed == nil && !u.KeyChanged {
			changed := *u
			changed.KeyChanged = true
			t.setUpload(id, &changed)
		}
	}
}

// inProgress finds an upload that is still open for key.
func (t *tx) inProgress(key, id string) (*upload, error) {
	u := t.upload(id)
	if u == nil || u.Key != key || u.Completed != nil {
		return nil, errNoSuchUpload(id)
	}
	return u, nil
}

// UploadPart stores part number n (1..10000) of an upload. Uploading the
// same number again replaces the part.
func (s *Store) UploadPart(bucket, key, uploadID string, n int, body []byte) (PartInfo, error) {
	sum := md5.Sum(body)
	body = clone(body) // the storage keeps what it commits; the caller keeps body
	var info PartInfo
	err := s.update(bucket, func(t *tx) error {
		if n < 1 || n > MaxPartNumber {
			return errInvalidArgument("partNumber", strconv.Itoa(n), "Part number must be an integer between 1 and %d, inclusive", MaxPartNumber)
		}
		u, err := t.inProgress(key, uploadID)
		if err != nil {
			return err
		}
		p := part{Number: n, ETag: hex.EncodeToString(sum[:]), Size: int64(len(body)), CreatedAt: t.now}
		nu := *u
		nu.Parts = slices.Clone(u.Parts)
		i, found := slices.BinarySearchFunc(nu.Parts, n, func(p part, n int) int { return p.Number - n })
		if found {
			nu.Parts[i] = p
		} else {
			nu.Parts = slices.Insert(nu.Parts, i, p)
		}
		t.setUpload(uploadID, &nu)
		t.putBody(partRef(bucket, uploadID, n), body)
		info = PartInfo{PartNumber: p.Number, ETag: p.ETag, Size: p.Size, CreatedAt: p.CreatedAt}
		return nil
	})
	return info, err
}

// CompleteMultipartUpload joins the listed parts, in ascending part-number
// order, into a new version of the key, created at the completion time and
// versioned exactly like a PUT. Every listed part but the last must be at
// least the store's MinPartSize. The ETag is the MD5 of the parts' binary
// MD5s, then "-" and the number of parts; the version keeps the parts'
// sizes. Repeating a successful Complete with the same parts returns the
// same result and changes nothing.
func (s *Store) CompleteMultipartUpload(bucket, key, uploadID string, parts []CompletedPart) (PutResult, error) {
	return s.CompleteMultipartUploadIf(bucket, key, uploadID, parts, WriteConditions{})
}

// CompleteMultipartUploadIf is CompleteMultipartUpload with write
// conditions, checked as PutObject checks them. If they hold but the key
// was written or deleted since the upload began, the completion fails with
// ConditionalRequestConflict: the upload must be started again. A repeated
// Complete answers as before, whatever its conditions.
func (s *Store) CompleteMultipartUploadIf(bucket, key, uploadID string, parts []CompletedPart, cond WriteConditions) (PutResult, error) {
	var res PutResult
	err := s.update(bucket, func(t *tx) error {
		if err := ValidateKey(key); err != nil {
			return err
		}
		if len(parts) == 0 {
			return newError(InvalidRequest, "You must specify at least one part")
		}
		if u := t.upload(uploadID); u != nil && u.Key == key && u.Completed != nil && sameParts(u.Completed.Parts, parts) {
			res = u.Completed.Result
			return nil
		}
		u, err := t.inProgress(key, uploadID)
		if err != nil {
			return err
		}
		if err := cond.check(t, key); err != nil {
			return err
		}
		if cond != (WriteConditions{}) && u.KeyChanged {
			return errCondition(ConditionalRequestConflict, key, cond.header())
		}
		for i := 1; i < len(parts); i++ {
			if parts[i].PartNumber <= parts[i-1].PartNumber {
				e := newError(InvalidPartOrder, "")
				e.UploadID = uploadID
				return e
			}
		}
		chosen := make([]part, len(parts))
		for i, cp := range parts {
			j, found := slices.BinarySearchFunc(u.Parts, cp.PartNumber, func(p part, n int) int { return p.Number - n })
			if !found || u.Parts[j].ETag != unquote(cp.ETag) {
				e := newError(InvalidPart, "")
				e.UploadID, e.PartNumber, e.ETag = uploadID, cp.PartNumber, cp.ETag
				return e
			}
			chosen[i] = u.Parts[j]
		}
		for _, p := range chosen[:len(chosen)-1] {
			if p.Size < s.minPartSize {
				e := newError(EntityTooSmall, "")
				e.ProposedSize, e.MinSizeAllowed, e.PartNumber, e.ETag = p.Size, s.minPartSize, p.Number, p.ETag
				return e
			}
		}
		var body bytes.Buffer
		digests := make([]byte, 0, md5.Size*len(chosen))
		sizes := make([]int64, len(chosen))
		for i, p := range chosen {
			sizes[i] = p.Size
			data, err := s.storage.ReadBody(partRef(bucket, uploadID, p.Number))
			if err != nil {
				return storageError(err)
			}
			body.Write(data)
			d, err := hex.DecodeString(p.ETag)
			if err != nil {
				return newError(InternalError, "part %d has a corrupt ETag", p.Number)
			}
			digests = append(digests, d...)
		}
		sum := md5.Sum(digests)
		v := &Version{
			VersionID: t.newVersionID(),
			ETag:      fmt.Sprintf("%s-%d", hex.EncodeToString(sum[:]), len(chosen)),
			Size:      int64(body.Len()),
			CreatedAt: t.now,
			Meta:      u.Meta.clone(),
			Parts:     len(chosen),
			PartSizes: sizes,
			seq:       t.nextSeq(),
		}
		t.putBody(entryRef(bucket, v.seq), body.Bytes())
		t.putEntry(key, v)
		for _, p := range u.Parts {
			t.dropBody(partRef(bucket, uploadID, p.Number))
		}
		res = PutResult{VersionID: v.VersionID, ETag: v.ETag, Size: v.Size, CreatedAt: v.CreatedAt, Expiration: t.b.expiryOf(key, v, s.origin)}
		done := &upload{ID: u.ID, Key: u.Key, Completed: &completion{Parts: slices.Clone(parts), Result: res}}
		t.setUpload(uploadID, done)
		return nil
	})
	return res, err
}

func sameParts(a, b []CompletedPart) bool {
	return slices.EqualFunc(a, b, func(x, y CompletedPart) bool {
		return x.PartNumber == y.PartNumber && unquote(x.ETag) == unquote(y.ETag)
	})
}

func unquote(etag string) string { return strings.Trim(etag, `"`) }

// AbortMultipartUpload discards an upload in progress and its parts.
func (s *Store) AbortMultipartUpload(bucket, key, uploadID string) error {
	return s.update(bucket, func(t *tx) error {
		u, err := t.inProgress(key, uploadID)
		if err != nil {
			return err
		}
		for _, p := range u.Parts {
			t.dropBody(partRef(bucket, uploadID, p.Number))
		}
		t.setUpload(uploadID, nil)
		return nil
	})
}

// ListPartsOptions page through ListParts.
type ListPartsOptions struct {
	PartNumberMarker int // list parts after this number
	MaxParts         int // 0 means 1000, the most S3 returns
}

// ListPartsResult is one page of ListParts.
type ListPartsResult struct {
	Upload               UploadInfo
	Parts                []PartInfo
	IsTruncated          bool
	NextPartNumberMarker int
}

// ListParts lists the parts of an upload in progress, by part number.
func (s *Store) ListParts(bucket, key, uploadID string, opts ListPartsOptions) (ListPartsResult, error) {
	max := opts.MaxParts
	if max <= 0 || max > 1000 {
		max = 1000
	}
	var res ListPartsResult
	err := s.view(bucket, func(b *bucketState) error {
		u := b.uploads[uploadID]
		if u == nil || u.Key != key {
			return errNoSuchUpload(uploadID)
		}
		res.Upload = u.info()
		res.Upload.Abort = b.abortOf(key, u.Initiated, s.origin)
		for _, p := range u.Parts {
			if p.Number <= opts.PartNumberMarker {
				continue
			}
			if len(res.Parts) == max {
				res.IsTruncated = true
				break
			}
			res.Parts = append(res.Parts, PartInfo{PartNumber: p.Number, ETag: p.ETag, Size: p.Size, CreatedAt: p.CreatedAt})
		}
		if res.IsTruncated {
			res.NextPartNumberMarker = res.Parts[len(res.Parts)-1].PartNumber
		}
		return nil
	})
	return res, err
}

// ListUploadsOptions filter and page ListMultipartUploads.
type ListUploadsOptions struct {
	Prefix, Delimiter         string
	KeyMarker, UploadIDMarker string
	MaxUploads                int // 0 means 1000
}

// ListUploadsResult is one page of ListMultipartUploads.
type ListUploadsResult struct {
	Uploads                           []UploadInfo
	CommonPrefixes                    []string
	IsTruncated                       bool
	NextKeyMarker, NextUploadIDMarker string
}

// ListMultipartUploads lists the uploads in progress, by key and then by
// initiation, oldest first.
func (s *Store) ListMultipartUploads(bucket string, opts ListUploadsOptions) (ListUploadsResult, error) {
	max := opts.MaxUploads
	if max <= 0 {
		max = 1000
	}
	var res ListUploadsResult
	err := s.view(bucket, func(b *bucketState) error {
		var open []*upload
		for _, u := range b.uploads {
			if strings.HasPrefix(u.Key, opts.Prefix) {
				open = append(open, u)
			}
		}
		sort.Slice(open, func(i, j int) bool {
			x, y := open[i], open[j]
			if x.Key != y.Key {
				return x.Key < y.Key
			}
			if x.Initiated != y.Initiated {
				return x.Initiated < y.Initiated
			}
			return x.ID < y.ID
		})
		// With an upload-id marker, the marker key's uploads after that ID
		// come first; without one, the marker key is skipped entirely. A
		// marker upload no longer in progress (completed or aborted between
		// pages) has no position: then, as S3 says, the key's uploads with
		// a greater upload ID follow.
		markerOpen := slices.ContainsFunc(open, func(u *upload) bool {
			return u.Key == opts.KeyMarker && u.ID == opts.UploadIDMarker
		})
		passed := false
		n := 0
		lastPrefix := ""
		for _, u := range open {
			if opts.KeyMarker != "" {
				if u.Key < opts.KeyMarker {
					continue
				}
				if u.Key == opts.KeyMarker && !passed {
					if opts.UploadIDMarker == "" {
						continue
					}
					if markerOpen {
						passed = u.ID == opts.UploadIDMarker
						continue
					}
					if u.ID <= opts.UploadIDMarker {
						continue
					}
				}
			}
			cp, folded := commonPrefix(u.Key, opts.Prefix, opts.Delimiter)
			if folded && (cp == lastPrefix || (opts.KeyMarker != "" && cp <= opts.KeyMarker)) {
				continue
			}
			if n == max {
				res.IsTruncated = true
				break
			}
			n++
			if folded {
				lastPrefix = cp
				res.CommonPrefixes = append(res.CommonPrefixes, cp)
				res.NextKeyMarker, res.NextUploadIDMarker = cp, ""
				continue
			}
			res.Uploads = append(res.Uploads, u.info())
			res.NextKeyMarker, res.NextUploadIDMarker = u.Key, u.ID
		}
		if !res.IsTruncated {
			res.NextKeyMarker, res.NextUploadIDMarker = "", ""
		}
		return nil
	})
	return res, err
}
