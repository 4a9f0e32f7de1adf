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

// StorageClasses are the storage classes a transition may go to, warmest
// first: a transition only ever moves an object to a colder one.
var StorageClasses = []string{"STANDARD_IA", "INTELLIGENT_TIERING", "ONEZONE_IA", "GLACIER_IR", "GLACIER", "DEEP_ARCHIVE"}

// coldness is the place of a storage class among STANDARD (0) and
// StorageClasses, or -1 for an unknown class.
func coldness(class string) int {
	if class == "" || class == "STANDARD" {
		return 0
	}
	if i := slices.Index(StorageClasses, class); i >= 0 {
		return i + 1
	}
	return -1
}

// preferredClasses are the storage classes in the order S3 prefers them
// when transitions to several fall due together, least preferred first:
// the cheaper class wins, except that "S3 Intelligent-Tiering is favored
// by S3 Lifecycle over any storage class, aside from the S3 Glacier and S3
// Glacier Deep Archive storage classes" (AWS user guide, "How Amazon S3
// handles conflicts in lifecycle configurations").
var preferredClasses = []string{"STANDARD_IA", "ONEZONE_IA", "GLACIER_IR", "INTELLIGENT_TIERING", "GLACIER", "DEEP_ARCHIVE"}

// preference is the place of a transition's storage class in
// preferredClasses: the greater wins.
func preference(class string) int { return slices.Index(preferredClasses, class) }

// minimumStay is the number of days S3 bills an object of a storage class
// for, at least, and so the days a rule must leave it there before a later
// transition moves it on: 30 for STANDARD_IA and ONEZONE_IA ("you can't
// specify a single Lifecycle rule for both an S3 Standard-IA or S3 One
// Zone-IA transition and an S3 Glacier Flexible Retrieval or S3 Glacier
// Deep Archive transition when the S3 Glacier Flexible Retrieval or S3
// Glacier Deep Archive transition occurs less than 30 days after", AWS user
// guide, "Transitioning objects using Amazon S3 Lifecycle"), 90 for
// GLACIER_IR and GLACIER (S3's answer to a DEEP_ARCHIVE transition sooner:
// "... must be 90 days more than ... for StorageClass 'GLACIER'", recorded
// in Terraform's logs), none for INTELLIGENT_TIERING.
func minimumStay(class string) int {
	switch class {
	case "STANDARD_IA", "ONEZONE_IA":
		return 30
	case "GLACIER_IR", "GLACIER":
		return 90
	}
	return 0
}
