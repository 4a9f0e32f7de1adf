package core

import (
	"encoding/base64"
	"slices"
	"strings"
)

// DefaultMaxKeys is the page size of listings that are not given one.
const DefaultMaxKeys = 1000

// ListVersionsOptions filter and page ListObjectVersions, as S3's
// ListObjectVersions parameters.
type ListVersionsOptions struct {
	Prefix          string
	Delimiter       string
	KeyMarker       string // start after this key (all of its versions) ...
	VersionIDMarker string // ... or, with KeyMarker, after this version of it
	MaxKeys         int    // 0 means DefaultMaxKeys; negative means no limit
}

// VersionEntry is one version or delete marker in a version listing.
type VersionEntry struct {
	Key            string
	VersionID      string
	IsLatest       bool
	IsDeleteMarker bool
	CreatedAt      float64
	ETag           string // data versions only
	Size           int64  // data versions only
	StorageClass   string // data versions only: "" is STANDARD
	Tags           []Tag  // data versions only: a copy
}

// ListVersionsResult is one page of ListObjectVersions. Versions holds data
// versions and delete markers together, in listing order.
type ListVersionsResult struct {
	Versions            []VersionEntry
	CommonPrefixes      []string
	IsTruncated         bool
	NextKeyMarker       string // set only when IsTruncated: the last entry returned
	NextVersionIDMarker string // empty when the page ended on a common prefix
}

func limit(max int) int {
	switch {
	case max == 0:
		return DefaultMaxKeys
	case max < 0:
		return int(^uint(0) >> 1)
	}
	return max
}

// commonPrefix folds a key that holds the delimiter after the prefix into
// prefix + everything up to and including the first such delimiter.
func commonPrefix(key, prefix, delimiter string) (string, bool) {
	if delimiter == "" {
		return "", false
	}
	rest := key[len(prefix):]
	i := strings.Index(rest, delimiter)
	if i < 0 {
		return "", false
	}
	return prefix + rest[:i+len(delimiter)], true
}

// ListObjectVersions lists every version and delete marker, keys in
// ascending byte order and each key's entries newest first, exactly as S3's
// ListObjectVersions: MaxKeys counts versions, markers and common prefixes
// together; the next page starts strictly after (KeyMarker,
// VersionIDMarker); KeyMarker alone skips all of that key's versions; a
// common prefix at or before KeyMarker is not repeated.
func (s *Store) ListObjectVersions(bucket string, opts ListVersionsOptions) (ListVersionsResult, error) {
	max := limit(opts.MaxKeys)
	var res ListVersionsResult
	err := s.view(bucket, func(b *bucketState) error {
		if opts.VersionIDMarker != "" && opts.KeyMarker == "" {
			return errInvalidArgument("version-id-marker", opts.VersionIDMarker, "A version-id marker cannot be specified without a key marker.")
		}
		n := 0
		full := func() bool {
			if n == max {
				res.IsTruncated = true
				return true
			}
			n++
			return false
		}
		key, more := b.index.first(maxString(opts.Prefix, opts.KeyMarker))
	scan:
		for more && strings.HasPrefix(key, opts.Prefix) {
			if cp, ok := commonPrefix(key, opts.Prefix, opts.Delimiter); ok {
				if opts.KeyMarker == "" || cp > opts.KeyMarker {
					if full() {
						break
					}
					res.CommonPrefixes = append(res.CommonPrefixes, cp)
					res.NextKeyMarker, res.NextVersionIDMarker = cp, ""
				}
				key, more = b.index.firstAfterPrefix(cp)
				continue
			}
			r, from, listed := b.records[key], 0, true
			if key == opts.KeyMarker {
				from, listed = resumeAfter(r, opts.VersionIDMarker)
			}
			for j := from; listed && j < len(r.Versions); j++ {
				if full() {
					break scan
				}
				res.Versions = append(res.Versions, versionEntry(key, r.Versions[j], j == 0))
				res.NextKeyMarker, res.NextVersionIDMarker = key, r.Versions[j].ID()
			}
			key, more = b.index.after(key)
		}
		if !res.IsTruncated {
			res.NextKeyMarker, res.NextVersionIDMarker = "", ""
		}
		return nil
	})
	return res, err
}

// resumeAfter is the index in r's stack of the first entry strictly after
// version id in listing order; without an id, the key is not listed (ok
// false). The version may be gone (a client deletes each
// page before asking for the next); numbered IDs count up in creation order,
// so the place of a gone one is still known: after every entry with a larger
// number (a null entry in between is listed, as its place is unknown). A
// gone "null" has no place: ok is false and the key is skipped.
func resumeAfter(r *ObjectRecord, id string) (from int, ok bool) {
	if id == "" {
		return 0, false
	}
	if j := r.find(id); j >= 0 {
		return j + 1, true
	}
	n, ok := parseVersionID(id)
	if !ok {
		return 0, false
	}
	for i, e := range r.Versions {
		if m, numbered := parseVersionID(e.ID()); numbered && m > n {
			from = i + 1
		}
	}
	return from, true
}

func versionEntry(key string, e Entry, latest bool) VersionEntry {
	out := VersionEntry{Key: key, VersionID: e.ID(), IsLatest: latest, CreatedAt: e.Created()}
	switch e := e.(type) {
	case *Version:
		out.ETag, out.Size, out.StorageClass = e.ETag, e.Size, e.Meta.StorageClass
		out.Tags = slices.Clone(e.Meta.Tags)
	case *DeleteMarker:
		out.IsDeleteMarker = true
	}
	return out
}

func maxString(a, b string) string {
	if a > b {
		return a
	}
	return b
}

// ListObjectsOptions filter and page ListObjectsV2.
type ListObjectsOptions struct {
	Prefix            string
	Delimiter         string
	StartAfter        string // list keys strictly after this one
	ContinuationToken string // from a previous page; overrides StartAfter
	MaxKeys           int    // 0 means DefaultMaxKeys; negative means no limit
}

// ObjectEntry is one key in ListObjectsV2: its current data version.
type ObjectEntry struct {
	Key       string
	VersionID string
	ETag      string
	Size      int64
	CreatedAt float64
	// StorageClass is where the bytes are kept: "" is STANDARD.
	StorageClass string
}

// ListObjectsResult is one page of ListObjectsV2.
type ListObjectsResult struct {
	Objects               []ObjectEntry
	CommonPrefixes        []string
	KeyCount              int // len(Objects) + len(CommonPrefixes)
	IsTruncated           bool
	NextContinuationToken string // set only when IsTruncated
}

// ListObjectsV2 lists the keys whose current entry is a data version, in
// ascending byte order. Keys under a delete marker are hidden, and a common
// prefix appears only if some key under it is visible.
func (s *Store) ListObjectsV2(bucket string, opts ListObjectsOptions) (ListObjectsResult, error) {
	max := limit(opts.MaxKeys)
	var res ListObjectsResult
	err := s.view(bucket, func(b *bucketState) error {
		marker := opts.StartAfter
		if opts.ContinuationToken != "" {
			m, err := base64.RawURLEncoding.DecodeString(opts.ContinuationToken)
			if err != nil || len(m) == 0 {
				return errInvalidArgument("continuation-token", opts.ContinuationToken, "The continuation token provided is incorrect")
			}
			marker = string(m)
		}
		visible := func(key string) bool {
			_, ok := b.records[key].Current().(*Version)
			return ok
		}
		last := ""
		add := func(name string) bool {
			if res.KeyCount == max {
				res.IsTruncated = true
				return false
			}
			res.KeyCount++
			last = name
			return true
		}
		key, more := b.index.first(maxString(opts.Prefix, marker))
		for more && strings.HasPrefix(key, opts.Prefix) {
			if cp, ok := commonPrefix(key, opts.Prefix, opts.Delimiter); ok {
				// A common prefix shows when a key it folds does.
				shown := false
				if marker == "" || cp > marker {
					b.index.under(cp, func(k string) bool {
						shown = visible(k)
						return !shown
					})
				}
				if shown {
					if !add(cp) {
						break
					}
					res.CommonPrefixes = append(res.CommonPrefixes, cp)
				}
				key, more = b.index.firstAfterPrefix(cp)
				continue
			}
			if key > marker && visible(key) {
				if !add(key) {
					break
				}
				v := b.records[key].Current().(*Version)
				res.Objects = append(res.Objects, ObjectEntry{Key: key, VersionID: v.VersionID, ETag: v.ETag, Size: v.Size, CreatedAt: v.CreatedAt, StorageClass: v.Meta.StorageClass})
			}
			key, more = b.index.after(key)
		}
		if res.IsTruncated {
			res.NextContinuationToken = base64.RawURLEncoding.EncodeToString([]byte(last))
		}
		return nil
	})
	return res, err
}

// Snapshot is a copy of the bucket's records in ascending key order, as
// EvaluateExpiration takes it. It shares nothing with the store: changing
// it changes nothing there.
func (s *Store) Snapshot(bucket string) ([]*ObjectRecord, error) {
	var out []*ObjectRecord
	err := s.view(bucket, func(b *bucketState) error {
		b.index.ascend("", func(key string) bool {
			out = append(out, b.records[key].clone())
			return true
		})
		return nil
	})
	return out, err
}
