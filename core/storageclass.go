package core

import "slices"

// PutStorageClasses are the storage classes a PUT, a copy or a multipart
// upload may ask for (x-amz-storage-class). MiniS3 keeps every class's
// bytes alike; the class shows in HEAD and listings, changes with
// lifecycle transitions, and makes a GET of GLACIER or DEEP_ARCHIVE
// InvalidObjectState, as an object not restored is on S3.
var PutStorageClasses = []string{"STANDARD", "REDUCED_REDUNDANCY", "STANDARD_IA", "ONEZONE_IA",
	"INTELLIGENT_TIERING", "GLACIER", "DEEP_ARCHIVE", "GLACIER_IR"}

// MaxUserMetadataSize is the most bytes of user metadata an object may
// have: the names (without x-amz-meta-) and values, in UTF-8, together.
const MaxUserMetadataSize = 2048

// checkMeta checks what a write asks to store with an object, its user
// metadata, tags and storage class, and stores STANDARD as "". User
// metadata over MaxUserMetadataSize is MetadataTooLarge. A tag key given
// twice is InvalidArgument here, as S3 answers a PUT's x-amz-tagging
// header; in a PutObjectTagging document it is InvalidTag (ValidateTags).
func checkMeta(meta *ObjectMeta) error {
	size := 0
	for name, value := range meta.User {
		size += len(name) + len(value)
	}
	if size > MaxUserMetadataSize {
		e := newError(MetadataTooLarge, "")
		e.Size, e.MaxSizeAllowed = int64(size), MaxUserMetadataSize
		return e
	}
	keys := make(map[string]bool, len(meta.Tags))
	for _, t := range meta.Tags {
		if keys[t.Key] {
			return errInvalidArgument("x-amz-tagging", t.Key,
				"The header 'x-amz-tagging' shall be encoded as UTF-8 then URLEncoded URL query parameters without tag name duplicates.")
		}
		keys[t.Key] = true
	}
	if err := ValidateTags(meta.Tags); err != nil {
		return err
	}
	if meta.StorageClass != "" && !slices.Contains(PutStorageClasses, meta.StorageClass) {
		return newError(InvalidStorageClass, "")
	}
	if meta.StorageClass == "STANDARD" {
		meta.StorageClass = ""
	}
	return nil
}
