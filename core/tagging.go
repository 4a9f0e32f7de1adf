package core

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxObjectTags is the most tags an object may have.
const MaxObjectTags = 10

// ValidateTags checks an object's tag set as S3 does: at most 10 tags,
// keys of 1 to 128 characters and values of at most 256, each key once and
// none starting with "aws:", and only letters, digits, spaces and
// + - = . _ : / @. Too many tags is BadRequest, anything else InvalidTag.
func ValidateTags(tags []Tag) error {
	if len(tags) > MaxObjectTags {
		return newError(BadRequest, "Object tags cannot be greater than %d", MaxObjectTags)
	}
	return checkTagSet(tags)
}

// checkTagSet checks the tags of a set, objects' and buckets' alike: every
// rule of ValidateTags but their number.
func checkTagSet(tags []Tag) error {
	keys := make(map[string]bool, len(tags))
	for _, t := range tags {
		switch {
		case !tagText(t.Key, 1, 128):
			return newError(InvalidTag, "The TagKey you have provided is invalid")
		case !tagText(t.Value, 0, 256):
			return newError(InvalidTag, "The TagValue you have provided is invalid")
		case strings.HasPrefix(t.Key, "aws:"):
			return newError(InvalidTag, "Your TagKey cannot be prefixed with aws:")
		case keys[t.Key]:
			return newError(InvalidTag, "Cannot provide multiple Tags with the same key")
		}
		keys[t.Key] = true
	}
	return nil
}

// tagText reports whether s is a tag key or value of min to max characters
// of the kinds S3 allows.
func tagText(s string, min, max int) bool {
	n := utf8.RuneCountInString(s)
	if !utf8.ValidString(s) || n < min || n > max {
		return false
	}
	for _, c := range s {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) && !unicode.IsSpace(c) && !strings.ContainsRune("+-=._:/@", c) {
			return false
		}
	}
	return true
}

// PutObjectTagging replaces the tags of a version (the current one without
// a version ID) and returns its version ID. A delete marker has no tags:
// addressing one, by its version ID or as the key's current entry, is
// MethodNotAllowed (AWS's recorded answers, in LocalStack's
// test_object_tagging_versioned [ref §1]).
func (s *Store) PutObjectTagging(bucket, key, versionID string, tags []Tag) (string, error) {
	return s.setTags(bucket, key, versionID, tags, "PUT")
}

// DeleteObjectTagging removes every tag of a version and returns its
// version ID.
func (s *Store) DeleteObjectTagging(bucket, key, versionID string) (string, error) {
	return s.setTags(bucket, key, versionID, nil, "DELETE")
}

// setTags replaces the tags of a version for a request of method.
func (s *Store) setTags(bucket, key, versionID string, tags []Tag, method string) (string, error) {
	tags = append([]Tag(nil), tags...)
	var id string
	err := s.update(bucket, func(t *tx) error {
		if err := ValidateKey(key); err != nil {
			return err
		}
		if err := ValidateTags(tags); err != nil {
			return err
		}
		v, err := t.taggedVersion(key, versionID, method)
		if err != nil {
			return err
		}
		changed := v.clone()
		changed.Meta.Tags = tags
		if len(tags) == 0 {
			changed.Meta.Tags = nil
		}
		t.replace(key, v, changed)
		id = v.VersionID
		return nil
	})
	return id, err
}

// ObjectTagging is the tags of a version (the current one without a
// version ID) and its version ID.
func (s *Store) ObjectTagging(bucket, key, versionID string) (string, []Tag, error) {
	var id string
	var tags []Tag
	err := s.view(bucket, func(b *bucketState) error {
		if err := ValidateKey(key); err != nil {
			return err
		}
		v, err := b.taggedVersion(key, versionID, "GET")
		if err != nil {
			return err
		}
		id, tags = v.VersionID, append([]Tag(nil), v.Meta.Tags...)
		return nil
	})
	return id, tags, err
}

// taggedVersion finds the data version a tagging request of method
// addresses, as GET finds it (lookup), except that a current delete marker
// is MethodNotAllowed too, not NoSuchKey.
func (b *bucketState) taggedVersion(key, versionID, method string) (*Version, error) {
	v, err := b.lookup(key, versionID, method)
	if e, ok := err.(*Error); ok && e.Code == NoSuchKey && e.DeleteMarker {
		na := newError(MethodNotAllowed, "")
		na.Key, na.VersionID, na.DeleteMarker, na.LastModified = key, e.VersionID, true, e.LastModified
		na.Method, na.ResourceType = method, "DeleteMarker"
		return nil, na
	}
	return v, err
}

// taggedVersion is bucketState.taggedVersion through the transaction's
// records.
func (t *tx) taggedVersion(key, versionID, method string) (*Version, error) {
	view := &bucketState{meta: t.meta, records: map[string]*ObjectRecord{}}
	if r := t.record(key); r != nil {
		view.records[key] = r
	}
	return view.taggedVersion(key, versionID, method)
}

// replace puts version changed in the place of old in key's stack: the
// same version, described anew.
func (t *tx) replace(key string, old, changed *Version) {
	r := t.edit(key)
	for i, e := range r.Versions {
		if e == Entry(old) {
			r.Versions[i] = changed
		}
	}
	t.store(key, changed)
}
