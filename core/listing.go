package core

import (
	"encoding/base64"
	"sort"
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

// groupEnd is the index after the run of keys, starting at i, that begin
// with cp.
func groupEnd(keys []string, i int, cp string) int {
	return i + sort.Search(len(keys)-i, func(j int) bool {
		k := keys[i+j]
		return k > cp && !strings.HasPrefix(k, cp)
	})
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
		keys := b.index.keys(b.records)
		n := 0
		full := func() bool {
			if n == max {
				res.IsTruncated = true
				return true
			}
			n++
			return false
		}
		i := sort.SearchStrings(keys, maxString(opts.Prefix, opts.KeyMarker))
	scan:
		for i < len(keys) {
			key := keys[i]
			if !strings.HasPrefix(key, opts.Prefix) {
				break
			}
			if cp, ok := commonPrefix(key, opts.Prefix, opts.Delimiter); ok {
				i = groupEnd(keys, i, cp)
				if opts.KeyMarker != "" && cp <= opts.KeyMarker {
					continue
				}
				if full() {
					break
				}
				res.CommonPrefixes = append(res.CommonPrefixes, cp)
				res.NextKeyMarker, res.NextVersionIDMarker = cp, ""
				continue
			}
			i++
			r := b.records[key]
			from := 0
			if key == opts.KeyMarker {
				if opts.VersionIDMarker == "" {
					continue
				}
				j, ok := resumeAfter(r, opts.VersionIDMarker)
				if !ok {
					continue
				}
				from = j
			}
			for j := from; j < len(r.Versions); j++ {
				if full() {
					break scan
				}
				res.Versions = append(res.Versions, versionEntry(key, r.Versions[j], j == 0))
				res.NextKeyMarker, res.NextVersionIDMarker = key, r.Versions[j].ID()
			}
		}
		if !res.IsTruncated {
			res.NextKeyMarker, res.NextVersionIDMarker = "", ""
		}
		return nil
	})
	return res, err
}

// resumeAfter is the index in r's stack of the first entry strictly after
// version id in listing order. The version may be gone (a client deletes each
// page before asking for the next); numbered IDs count up in creation order,
// so the place of a gone one is still known: after every entry with a larger
// number (a null entry in between is listed, as its place is unknown). A
// gone "null" has no place: ok is false and the key is skipped.
func resumeAfter(r *ObjectRecord, id string) (from int, ok bool) {
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
		out.ETag, out.Size = e.ETag, e.Size
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
	marker := opts.StartAfter
	if opts.ContinuationToken != "" {
		m, err := base64.RawURLEncoding.DecodeString(opts.ContinuationToken)
		if err != nil || len(m) == 0 {
			return ListObjectsResult{}, errInvalidArgument("continuation-token", opts.ContinuationToken, "The continuation token provided is incorrect")
		}
		marker = string(m)
	}
	max := limit(opts.MaxKeys)
	var res ListObjectsResult
	err := s.view(bucket, func(b *bucketState) error {
		keys := b.index.keys(b.records)
		visible := func(key string) bool {
			_, ok := b.records[key].Current().(*Version)
			return ok
		}
		last := ""
		i := sort.SearchStrings(keys, maxString(opts.Prefix, marker))
		for i < len(keys) {
			key := keys[i]
			if !strings.HasPrefix(key, opts.Prefix) {
				break
			}
			if cp, ok := commonPrefix(key, opts.Prefix, opts.Delimiter); ok {
				end := groupEnd(keys, i, cp)
				group := keys[i:end]
				i = end
				if marker != "" && cp <= marker {
					continue
				}
				if !containsFunc(group, visible) {
					continue
				}
				if res.KeyCount == max {
					res.IsTruncated = true
					break
				}
				res.CommonPrefixes = append(res.CommonPrefixes, cp)
				res.KeyCount++
				last = cp
				continue
			}
			i++
			if key <= marker || !visible(key) {
				continue
			}
			if res.KeyCount == max {
				res.IsTruncated = true
				break
			}
			v := b.records[key].Current().(*Version)
			res.Objects = append(res.Objects, ObjectEntry{Key: key, VersionID: v.VersionID, ETag: v.ETag, Size: v.Size, CreatedAt: v.CreatedAt})
			res.KeyCount++
			last = key
		}
		if res.IsTruncated {
			res.NextContinuationToken = base64.RawURLEncoding.EncodeToString([]byte(last))
		}
		return nil
	})
	return res, err
}

func containsFunc(keys []string, f func(string) bool) bool {
	for _, k := range keys {
		if f(k) {
			return true
		}
	}
	return false
}

// Snapshot is a read-only view of the bucket's records in ascending key
// order, as EvaluateExpiration takes it. The records never change after the
// call; later writes publish new records instead.
func (s *Store) Snapshot(bucket string) ([]*ObjectRecord, error) {
	var out []*ObjectRecord
	err := s.view(bucket, func(b *bucketState) error {
		out = b.snapshot()
		return nil
	})
	return out, err
}
