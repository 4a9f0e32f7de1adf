package model

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Upload is a multipart upload [ref §3]. Once completed it only remembers
// how, so that a repeated Complete gets the same answer [ref §3.2].
type Upload struct {
	ID          string
	Key         string
	Initiated   float64
	ContentType string
	Tags        []Tag // the object's tags, given when the upload starts
	Parts       map[int]Part
	// KeyChanged: the key's current entry changed (a write or a delete)
	// while the upload was in progress, so a completion with conditions
	// is refused (see CompleteMultipartUpload).
	KeyChanged bool
	Completed  *Completion // nil while in progress
}

// Part is an uploaded part.
type Part struct {
	Number    int
	ETag      string
	Body      string
	CreatedAt float64
}

// Completion is the parts a Complete listed and the version it made.
type Completion struct {
	Parts  []CompletedPart
	Result PutResult
}

// CompletedPart names a part in CompleteMultipartUpload; quotes around the
// ETag are optional [ref §3.2].
type CompletedPart struct {
	Number int
	ETag   string
}

func (u *Upload) clone() *Upload {
	c := *u
	c.Parts = maps.Clone(u.Parts)
	return &c
}

// UploadInfo describes an upload in progress.
type UploadInfo struct {
	Key       string
	UploadID  string
	Initiated float64
	// Abort is when S3's lifecycle will abort the upload, and by which
	// rule (x-amz-abort-date, x-amz-abort-rule-id): CreateMultipartUpload
	// and ListParts say so, listings of uploads do not [ref §5.5].
	Abort *Expiry `json:",omitempty"`
}

// CreateMultipartUpload starts an upload of key. Upload IDs count up per
// bucket: u00000001, u00000002, ... [DIFFERENCES: upload IDs]. The tags
// are checked now, and given to the object the upload completes.
func (s *Store) CreateMultipartUpload(bucket, key string, o PutOptions) (UploadInfo, error) {
	b, err := s.bucket(bucket)
	if err != nil {
		return UploadInfo{}, err
	}
	if err := checkKey(key); err != nil {
		return UploadInfo{}, err
	}
	if err := checkTags(o.Tags, true); err != nil {
		return UploadInfo{}, err
	}
	b.UploadsIssued++
	u := &Upload{ID: fmt.Sprintf("u%08d", b.UploadsIssued), Key: key, Initiated: s.Now, ContentType: o.ContentType,
		Tags: nilIfEmpty(o.Tags), Parts: make(map[int]Part)}
	b.Uploads[u.ID] = u
	info := u.info()
	info.Abort = s.abortDate(b, u)
	return info, nil
}

// keyChanged marks the key's uploads in progress: its current entry
// changed.
func (b *Bucket) keyChanged(key string) {
	for _, u := range b.Uploads {
		if u.Key == key && u.Completed == nil {
			u.KeyChanged = true
		}
	}
}

func (u *Upload) info() UploadInfo {
	return UploadInfo{Key: u.Key, UploadID: u.ID, Initiated: u.Initiated}
}

// inProgress is the upload of key with that ID, or NoSuchUpload: unknown,
// aborted, completed, or of another key [ref §3.2].
func (b *Bucket) inProgress(key, id string) (*Upload, error) {
	u := b.Uploads[id]
	if u == nil || u.Key != key || u.Completed != nil {
		return nil, errorf("NoSuchUpload", id)
	}
	return u, nil
}

// PartInfo describes an uploaded part.
type PartInfo struct {
	Number    int
	ETag      string
	Size      int64
	CreatedAt float64
}

// UploadPart stores part n, 1 to 10000; the same number again replaces the
// part [ref §3.1]. Its ETag is the hex MD5 of its bytes [ref §3.3].
func (s *Store) UploadPart(bucket, key, uploadID string, n int, body string) (PartInfo, error) {
	b, err := s.bucket(bucket)
	if err != nil {
		return PartInfo{}, err
	}
	if n < 1 || n > 10000 {
		return PartInfo{}, invalidArgument("Part number must be an integer between 1 and 10000, inclusive")
	}
	u, err := b.inProgress(key, uploadID)
	if err != nil {
		return PartInfo{}, err
	}
	sum := md5.Sum([]byte(body))
	p := Part{Number: n, ETag: hex.EncodeToString(sum[:]), Body: body, CreatedAt: s.Now}
	u.Parts[n] = p
	return p.info(), nil
}

func (p Part) info() PartInfo {
	return PartInfo{Number: p.Number, ETag: p.ETag, Size: int64(len(p.Body)), CreatedAt: p.CreatedAt}
}

// CompleteMultipartUpload joins the listed parts into a new version of the
// key, made and versioned exactly as a PUT at the completion time [ref
// §3.2]. The list must not be empty (InvalidRequest), must ascend
// (InvalidPartOrder; a repeated number too [DIFFERENCES]), must name
// uploaded parts with their ETags (InvalidPart), and every part but the
// last listed must be at least MinPartSize (EntityTooSmall). The ETag is
// the MD5 of the parts' binary MD5s, "-", and the number of parts [ref
// §3.3]. Repeating a successful Complete with the same parts answers the
// same and changes nothing, whatever its conditions [ref §3.2]. With
// conditions (PutOptions'), it completes only if they hold, and not if the
// key was written or deleted since the upload began: that is
// ConditionalRequestConflict, and the upload must start again [S3 API
// CompleteMultipartUpload: "409 ConditionalRequestConflict"].
func (s *Store) CompleteMultipartUpload(bucket, key, uploadID string, parts []CompletedPart, cond Conditions) (PutResult, error) {
	b, err := s.bucket(bucket)
	if err != nil {
		return PutResult{}, err
	}
	if err := checkKey(key); err != nil {
		return PutResult{}, err
	}
	if len(parts) == 0 {
		return PutResult{}, errorf("InvalidRequest", "You must specify at least one part")
	}
	if u := b.Uploads[uploadID]; u != nil && u.Key == key && u.Completed != nil && sameParts(u.Completed.Parts, parts) {
		return u.Completed.Result, nil
	}
	u, err := b.inProgress(key, uploadID)
	if err != nil {
		return PutResult{}, err
	}
	if err := cond.check(b, key); err != nil {
		return PutResult{}, err
	}
	if cond != (Conditions{}) && u.KeyChanged {
		return PutResult{}, errorf("ConditionalRequestConflict", key)
	}
	for i := 1; i < len(parts); i++ {
		if parts[i].Number <= parts[i-1].Number {
			return PutResult{}, errorf("InvalidPartOrder", "")
		}
	}
	var chosen []Part
	for _, cp := range parts {
		p, ok := u.Parts[cp.Number]
		if !ok || p.ETag != strings.Trim(cp.ETag, `"`) {
			return PutResult{}, errorf("InvalidPart", fmt.Sprint(cp.Number))
		}
		chosen = append(chosen, p)
	}
	for _, p := range chosen[:len(chosen)-1] {
		if int64(len(p.Body)) < s.MinPartSize {
			return PutResult{}, errorf("EntityTooSmall", fmt.Sprint(p.Number))
		}
	}
	var body strings.Builder
	var digests []byte
	for _, p := range chosen {
		body.WriteString(p.Body)
		d, _ := hex.DecodeString(p.ETag)
		digests = append(digests, d...)
	}
	sum := md5.Sum(digests)
	v := s.newEntry(Entry{VersionID: b.newVersionID(), Body: body.String(),
		ETag: fmt.Sprintf("%s-%d", hex.EncodeToString(sum[:]), len(chosen)), ContentType: u.ContentType, Tags: u.Tags, Parts: len(chosen)})
	b.push(key, v)
	u.Parts = nil
	u.Completed = &Completion{Parts: slices.Clone(parts), Result: s.putResult(b, key, v)}
	return u.Completed.Result, nil
}

func sameParts(a, b []CompletedPart) bool {
	return slices.EqualFunc(a, b, func(x, y CompletedPart) bool {
		return x.Number == y.Number && strings.Trim(x.ETag, `"`) == strings.Trim(y.ETag, `"`)
	})
}

// AbortMultipartUpload discards an upload in progress and its parts [ref
// §3.1]; later calls with its ID are NoSuchUpload.
func (s *Store) AbortMultipartUpload(bucket, key, uploadID string) error {
	b, err := s.bucket(bucket)
	if err != nil {
		return err
	}
	if _, err := b.inProgress(key, uploadID); err != nil {
		return err
	}
	delete(b.Uploads, uploadID)
	return nil
}

// PartsPage is one page of ListParts.
type PartsPage struct {
	Upload               UploadInfo
	Parts                []PartInfo
	IsTruncated          bool
	NextPartNumberMarker int
}

// ListParts lists an upload's parts by number, after PartNumberMarker, at
// most maxParts (0 or more than 1000: 1000) [ref §3.1].
func (s *Store) ListParts(bucket, key, uploadID string, partNumberMarker, maxParts int) (PartsPage, error) {
	if maxParts <= 0 || maxParts > 1000 {
		maxParts = 1000
	}
	b, err := s.bucket(bucket)
	if err != nil {
		return PartsPage{}, err
	}
	u, err := b.inProgress(key, uploadID)
	if err != nil {
		return PartsPage{}, err
	}
	page := PartsPage{Upload: u.info()}
	page.Upload.Abort = s.abortDate(b, u)
	numbers := slices.Sorted(func(yield func(int) bool) {
		for n := range u.Parts {
			if !yield(n) {
				return
			}
		}
	})
	for _, n := range numbers {
		if n <= partNumberMarker {
			continue
		}
		if len(page.Parts) == maxParts {
			page.IsTruncated = true
			break
		}
		page.Parts = append(page.Parts, u.Parts[n].info())
		page.NextPartNumberMarker = n
	}
	if !page.IsTruncated {
		page.NextPartNumberMarker = 0
	}
	return page, nil
}

// ListUploadsOptions are ListMultipartUploads' parameters [ref §3.1].
type ListUploadsOptions struct {
	Prefix, Delimiter         string
	KeyMarker, UploadIDMarker string
	MaxUploads                int // 0: 1000
}

// UploadsPage is one page of ListMultipartUploads.
type UploadsPage struct {
	Uploads                           []UploadInfo
	CommonPrefixes                    []string
	IsTruncated                       bool
	NextKeyMarker, NextUploadIDMarker string
}

// ListMultipartUploads lists the uploads in progress by key, then by
// initiation, oldest first [ref §3.1], as rows after the markers: with
// only a key-marker, after every upload of that key; with an upload-id
// marker too, after that upload of the key, or, when it is no longer in
// progress, after those of the key with smaller IDs. Keys holding the
// delimiter fold into common prefixes, each once, none at or before the
// key-marker, as in listings [ref §2.1].
func (s *Store) ListMultipartUploads(bucket string, o ListUploadsOptions) (UploadsPage, error) {
	max := o.MaxUploads
	if max <= 0 {
		max = 1000
	}
	b, err := s.bucket(bucket)
	if err != nil {
		return UploadsPage{}, err
	}
	var open []*Upload
	for _, u := range b.Uploads {
		if u.Completed == nil && strings.HasPrefix(u.Key, o.Prefix) {
			open = append(open, u)
		}
	}
	slices.SortFunc(open, func(x, y *Upload) int {
		switch {
		case x.Key != y.Key:
			return strings.Compare(x.Key, y.Key)
		case x.Initiated < y.Initiated:
			return -1
		case x.Initiated > y.Initiated:
			return 1
		}
		return strings.Compare(x.ID, y.ID)
	})
	markerAt := slices.IndexFunc(open, func(u *Upload) bool { return u.Key == o.KeyMarker && u.ID == o.UploadIDMarker })
	var page UploadsPage
	n := 0
	for i, u := range open {
		switch {
		case o.KeyMarker == "" || u.Key > o.KeyMarker:
		case u.Key < o.KeyMarker || o.UploadIDMarker == "":
			continue
		case markerAt >= 0 && i <= markerAt:
			continue
		case markerAt < 0 && u.ID <= o.UploadIDMarker:
			continue
		}
		cp, folded := commonPrefix(u.Key, o.Prefix, o.Delimiter)
		if folded && (len(page.CommonPrefixes) > 0 && page.CommonPrefixes[len(page.CommonPrefixes)-1] == cp || o.KeyMarker != "" && cp <= o.KeyMarker) {
			continue
		}
		if n == max {
			page.IsTruncated = true
			break
		}
		n++
		if folded {
			page.CommonPrefixes = append(page.CommonPrefixes, cp)
			page.NextKeyMarker, page.NextUploadIDMarker = cp, ""
			continue
		}
		page.Uploads = append(page.Uploads, u.info())
		page.NextKeyMarker, page.NextUploadIDMarker = u.Key, u.ID
	}
	if !page.IsTruncated {
		page.NextKeyMarker, page.NextUploadIDMarker = "", ""
	}
	return page, nil
}
