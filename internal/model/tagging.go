package model

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Tag is one of an object's tags, a key and a value.
type Tag struct {
	Key   string
	Value string
}

// checkTags applies S3's limits on an object's tag set [S3 UG
// object-tagging: "You can associate up to 10 tags with an object. Tags
// that are associated with an object must have unique tag keys. A tag key
// can be up to 128 Unicode characters in length, and tag values can be up
// to 256"]. More than ten is BadRequest ("Object tags cannot be greater
// than 10"), as S3 conformance suites expect (one of them, Ceph's, has
// InvalidTag). The other faults are InvalidTag [LS test_tagging_validation,
// recorded from AWS: "Your TagKey cannot be prefixed with aws:", "Cannot
// provide multiple Tags with the same key"], but for a key given twice in
// the x-amz-tagging header of a PUT (inHeader), which is InvalidArgument
// [LS test_object_tagging_exc: "The header 'x-amz-tagging' shall be
// encoded as UTF-8 then URLEncoded URL query parameters without tag name
// duplicates"].
func checkTags(tags []Tag, inHeader bool) error {
	if len(tags) > 10 {
		return errorf("BadRequest", "Object tags cannot be greater than 10")
	}
	return checkTagSet(tags, inHeader)
}

// checkTagSet applies checkTags' rules but the count.
func checkTagSet(tags []Tag, inHeader bool) error {
	seen := map[string]bool{}
	for _, t := range tags {
		switch {
		case seen[t.Key] && inHeader:
			return invalidArgument("x-amz-tagging names a tag twice")
		case seen[t.Key]:
			return errorf("InvalidTag", "Cannot provide multiple Tags with the same key")
		case t.Key == "" || utf8.RuneCountInString(t.Key) > 128 || utf8.RuneCountInString(t.Value) > 256:
			return errorf("InvalidTag", "a tag key is 1 to 128 characters, a value at most 256")
		case strings.HasPrefix(t.Key, "aws:"):
			return errorf("InvalidTag", "Your TagKey cannot be prefixed with aws:")
		}
		seen[t.Key] = true
	}
	return nil
}

// Tagging is a version's tags, and the version they belong to.
type Tagging struct {
	VersionID string
	Tags      []Tag
}

// tagged is the data version a tagging request addresses: found as GET
// finds it [ref §1.2, GET rows], but a delete marker, which has no tags,
// is MethodNotAllowed whether the request names it or finds it current
// [LS test_object_tagging_versioned, recorded from AWS:
// "put-object-tags-delete-marker-latest" and the others are 405
// MethodNotAllowed]; the error names the marker as GET's do. The key and
// tags are checked first; lookup is the version's index in the key's
// stack.
func (s *Store) tagged(bucket, key, versionID string, tags []Tag) (b *Bucket, lookup int, err error) {
	b, err = s.bucket(bucket)
	if err != nil {
		return nil, 0, err
	}
	if err := checkKey(key); err != nil {
		return nil, 0, err
	}
	if err := checkTags(tags, false); err != nil {
		return nil, 0, err
	}
	obj, err := s.HeadObject(bucket, key, versionID)
	if e, ok := err.(*Error); ok && e.DeleteMarker {
		return nil, 0, &Error{Code: "MethodNotAllowed", DeleteMarker: true, VersionID: e.VersionID}
	}
	if err != nil {
		return nil, 0, err
	}
	return b, b.find(key, obj.VersionID), nil
}

// PutObjectTagging replaces the tags of a version, the current one
// without a version ID; an empty set removes them. Nothing else of the
// version changes: not its creation time, not its ID [S3 API
// PutObjectTagging: "Sets the supplied tag-set to an object that already
// exists"]. It answers the version's ID.
func (s *Store) PutObjectTagging(bucket, key, versionID string, tags []Tag) (string, error) {
	b, i, err := s.tagged(bucket, key, versionID, tags)
	if err != nil {
		return "", err
	}
	stack := slices.Clone(b.Stacks[key])
	stack[i].Tags = slices.Clone(tags)
	if len(tags) == 0 {
		stack[i].Tags = nil
	}
	b.Stacks[key] = stack
	return stack[i].VersionID, nil
}

// DeleteObjectTagging removes every tag of a version, and answers its ID.
func (s *Store) DeleteObjectTagging(bucket, key, versionID string) (string, error) {
	return s.PutObjectTagging(bucket, key, versionID, nil)
}

// ObjectTagging is the tags of a version, the current one without a
// version ID.
func (s *Store) ObjectTagging(bucket, key, versionID string) (Tagging, error) {
	b, i, err := s.tagged(bucket, key, versionID, nil)
	if err != nil {
		return Tagging{}, err
	}
	e := b.Stacks[key][i]
	return Tagging{VersionID: e.VersionID, Tags: slices.Clone(e.Tags)}, nil
}

// PutBucketTagging replaces a bucket's own tags [S3 API PutBucketTagging].
// They follow the rules of an object's tags but their number: a bucket
// may have 50, more is BadRequest [S3 UG: a bucket takes up to 50 tags].
// An empty set removes them, as DeleteBucketTagging does [DIFFERENCES].
func (s *Store) PutBucketTagging(bucket string, tags []Tag) error {
	b, err := s.bucket(bucket)
	if err != nil {
		return err
	}
	if len(tags) > 50 {
		return errorf("BadRequest", "Bucket tag count cannot be greater than 50")
	}
	if err := checkTagSet(tags, false); err != nil {
		return err
	}
	b.Tags = nilIfEmpty(tags)
	return nil
}

// BucketTagging is a bucket's tags in the order given, or NoSuchTagSet
// when it has none [S3 API GetBucketTagging].
func (s *Store) BucketTagging(bucket string) ([]Tag, error) {
	b, err := s.bucket(bucket)
	if err != nil {
		return nil, err
	}
	if b.Tags == nil {
		return nil, errorf("NoSuchTagSet", bucket)
	}
	return slices.Clone(b.Tags), nil
}

// DeleteBucketTagging removes a bucket's tags; a bucket without any is no
// error [S3 API DeleteBucketTagging: 204].
func (s *Store) DeleteBucketTagging(bucket string) error {
	b, err := s.bucket(bucket)
	if err != nil {
		return err
	}
	b.Tags = nil
	return nil
}
