package model

import "strings"

// A listing is a sequence of rows in ascending order: each key's entries
// (or, for ListObjectsV2, its current version), and a common prefix in
// place of all the keys it folds. A page is the rows strictly after its
// marker, at most MaxKeys of them; it is truncated when rows remain, and
// its Next markers name the last row returned [ref §2.1, §2.2].

// DefaultMaxKeys is the page size when none is given [ref §2.1].
const DefaultMaxKeys = 1000

// pageSize is a MaxKeys option: 0 is the default, a negative one no limit.
func pageSize(maxKeys int) int {
	switch {
	case maxKeys == 0:
		return DefaultMaxKeys
	case maxKeys < 0:
		return int(^uint(0) >> 1)
	}
	return maxKeys
}

// commonPrefix folds a key under prefix that holds the delimiter after the
// prefix: prefix + the rest up to and including the first delimiter [ref
// §2.1, Delimiter].
func commonPrefix(key, prefix, delimiter string) (string, bool) {
	if delimiter == "" {
		return "", false
	}
	i := strings.Index(key[len(prefix):], delimiter)
	if i < 0 {
		return "", false
	}
	return key[:len(prefix)+i+len(delimiter)], true
}

// ListVersionsOptions are ListObjectVersions' parameters [ref §2.1].
type ListVersionsOptions struct {
	Prefix, Delimiter          string
	KeyMarker, VersionIDMarker string
	MaxKeys                    int
}

// VersionRow is one version or delete marker of a version listing.
type VersionRow struct {
	Key          string
	VersionID    string
	IsLatest     bool
	DeleteMarker bool
	CreatedAt    float64
	ETag         string // data versions only
	Size         int64  // data versions only
	StorageClass string `json:",omitempty"` // data versions only; "" is STANDARD
}

// VersionsPage is one page of ListObjectVersions.
type VersionsPage struct {
	Versions                           []VersionRow // versions and markers, in listing order
	CommonPrefixes                     []string
	IsTruncated                        bool
	NextKeyMarker, NextVersionIDMarker string
}

// ListObjectVersions lists every version and delete marker, keys in byte
// order and each key newest first, IsLatest on the current entry [ref
// §2.1]. MaxKeys counts versions, markers and common prefixes together.
// The page starts strictly after (KeyMarker, VersionIDMarker); KeyMarker
// alone skips all of its key; a common prefix at or before KeyMarker is
// not repeated. A version-id-marker needs a key-marker.
func (s *Store) ListObjectVersions(bucket string, o ListVersionsOptions) (VersionsPage, error) {
	b, err := s.bucket(bucket)
	if err != nil {
		return VersionsPage{}, err
	}
	if o.VersionIDMarker != "" && o.KeyMarker == "" {
		return VersionsPage{}, invalidArgument("A version-id marker cannot be specified without a key marker.")
	}
	type row struct {
		prefix string // a common prefix, or "" for a version
		v      VersionRow
	}
	var rows []row
	for _, key := range sortedKeys(b.Stacks) {
		if !strings.HasPrefix(key, o.Prefix) {
			continue
		}
		if cp, ok := commonPrefix(key, o.Prefix, o.Delimiter); ok {
			if (len(rows) == 0 || rows[len(rows)-1].prefix != cp) && (o.KeyMarker == "" || cp > o.KeyMarker) {
				rows = append(rows, row{prefix: cp})
			}
			continue
		}
		stack := b.Stacks[key]
		from := 0
		switch {
		case o.KeyMarker == "" || key > o.KeyMarker:
		case key < o.KeyMarker || o.VersionIDMarker == "":
			continue
		default:
			var ok bool
			if from, ok = resumeAfter(stack, o.VersionIDMarker); !ok {
				continue
			}
		}
		for i, e := range stack[from:] {
			r := VersionRow{Key: key, VersionID: e.VersionID, IsLatest: from+i == 0, DeleteMarker: e.DeleteMarker, CreatedAt: e.CreatedAt}
			if !e.DeleteMarker {
				r.ETag, r.Size, r.StorageClass = e.ETag, int64(len(e.Body)), e.StorageClass
			}
			rows = append(rows, row{v: r})
		}
	}
	var page VersionsPage
	for i, r := range rows {
		if i == pageSize(o.MaxKeys) {
			page.IsTruncated = true
			break
		}
		if r.prefix != "" {
			page.CommonPrefixes = append(page.CommonPrefixes, r.prefix)
			page.NextKeyMarker, page.NextVersionIDMarker = r.prefix, ""
		} else {
			page.Versions = append(page.Versions, r.v)
			page.NextKeyMarker, page.NextVersionIDMarker = r.v.Key, r.v.VersionID
		}
	}
	if !page.IsTruncated {
		page.NextKeyMarker, page.NextVersionIDMarker = "", ""
	}
	return page, nil
}

// resumeAfter is where a page resumes in a stack after the version ID
// marker: after the marker's entry. A marker deleted since the last page
// still has a place when it is numbered, as numbers count up in creation
// order: after every entry with a larger number. A deleted "null" has
// none, and the key is skipped (ok false) [DIFFERENCES: version-id-marker
// naming a deleted version].
func resumeAfter(stack []Entry, marker string) (from int, ok bool) {
	for i, e := range stack {
		if e.VersionID == marker {
			return i + 1, true
		}
	}
	n := versionNumber(marker)
	if n == 0 {
		return 0, false
	}
	for i, e := range stack {
		if versionNumber(e.VersionID) > n {
			from = i + 1
		}
	}
	return from, true
}

// ListObjectsOptions are ListObjectsV2's parameters [ref §2.2]. After is
// where a continuation token says the last page ended; it overrides
// StartAfter.
type ListObjectsOptions struct {
	Prefix, Delimiter string
	StartAfter        string
	After             string
	MaxKeys           int
}

// ObjectRow is one key of ListObjectsV2: its current data version.
type ObjectRow struct {
	Key          string
	VersionID    string
	ETag         string
	Size         int64
	CreatedAt    float64
	StorageClass string `json:",omitempty"` // "" is STANDARD
}

// ObjectsPage is one page of ListObjectsV2. Next is the last row returned
// when the page is truncated: what its continuation token stands for.
type ObjectsPage struct {
	Objects        []ObjectRow
	CommonPrefixes []string
	KeyCount       int
	IsTruncated    bool
	Next           string
}

// ListObjectsV2 lists the keys whose current entry is a data version:
// keys under a delete marker are hidden, noncurrent versions never show,
// and a common prefix shows only if a key under it does [ref §2.2].
func (s *Store) ListObjectsV2(bucket string, o ListObjectsOptions) (ObjectsPage, error) {
	b, err := s.bucket(bucket)
	if err != nil {
		return ObjectsPage{}, err
	}
	marker := o.StartAfter
	if o.After != "" {
		marker = o.After
	}
	type row struct {
		prefix string
		obj    ObjectRow
	}
	var rows []row
	for _, key := range sortedKeys(b.Stacks) {
		cur := b.Stacks[key][0]
		if !strings.HasPrefix(key, o.Prefix) || cur.DeleteMarker {
			continue
		}
		if cp, ok := commonPrefix(key, o.Prefix, o.Delimiter); ok {
			if (len(rows) == 0 || rows[len(rows)-1].prefix != cp) && cp > marker {
				rows = append(rows, row{prefix: cp})
			}
			continue
		}
		if key > marker {
			rows = append(rows, row{obj: ObjectRow{Key: key, VersionID: cur.VersionID, ETag: cur.ETag, Size: int64(len(cur.Body)),
				CreatedAt: cur.CreatedAt, StorageClass: cur.StorageClass}})
		}
	}
	var page ObjectsPage
	for i, r := range rows {
		if i == pageSize(o.MaxKeys) {
			page.IsTruncated = true
			break
		}
		if r.prefix != "" {
			page.CommonPrefixes = append(page.CommonPrefixes, r.prefix)
			page.Next = r.prefix
		} else {
			page.Objects = append(page.Objects, r.obj)
			page.Next = r.obj.Key
		}
		page.KeyCount++
	}
	if !page.IsTruncated {
		page.Next = ""
	}
	return page, nil
}
