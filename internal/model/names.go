package model

import (
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"
)

// checkBucketName applies S3's bucket naming rules [ref §4.3]: 3 to 63
// characters of lower-case letters, digits, '.' and '-', beginning and
// ending with a letter or digit, no "..", not an IPv4 address, none of the
// reserved prefixes and suffixes.
func checkBucketName(name string) error {
	bad := errorf("InvalidBucketName", "bucket name "+strconv.Quote(name))
	if len(name) < 3 || len(name) > 63 {
		return bad
	}
	for _, c := range name {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '-') {
			return bad
		}
	}
	alnum := func(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }
	if !alnum(name[0]) || !alnum(name[len(name)-1]) || strings.Contains(name, "..") {
		return bad
	}
	if a, err := netip.ParseAddr(name); err == nil && a.Is4() {
		return bad
	}
	for _, p := range []string{"xn--", "sthree-", "amzn-s3-demo-"} {
		if strings.HasPrefix(name, p) {
			return bad
		}
	}
	for _, p := range []string{"-s3alias", "--ol-s3", "--x-s3", "--table-s3"} {
		if strings.HasSuffix(name, p) {
			return bad
		}
	}
	return nil
}

// checkKey: a key is 1 to 1024 bytes of UTF-8 [ref §4.4]; longer is
// KeyTooLongError; empty or not UTF-8 is InvalidArgument [DIFFERENCES].
func checkKey(key string) error {
	switch {
	case len(key) > 1024:
		return errorf("KeyTooLongError", "key of "+strconv.Itoa(len(key))+" bytes")
	case key == "":
		return invalidArgument("empty key")
	case !utf8.ValidString(key):
		return invalidArgument("key is not UTF-8")
	}
	return nil
}

// versionID is the ID of the n-th version of a bucket: "v" and n in at
// least eight digits [DESIGN: v00000001, v00000002, ...].
func versionID(n int) string {
	s := strconv.Itoa(n)
	for len(s) < 8 {
		s = "0" + s
	}
	return "v" + s
}

// versionNumber is n for versionID(n), or 0 when id is not one.
func versionNumber(id string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(id, "v"))
	if err != nil || n < 1 || versionID(n) != id {
		return 0
	}
	return n
}

// checkVersionID refuses a version ID that can name nothing in b: one
// MiniS3 never makes, or any but "null" in a bucket never versioned [ref
// §1.2: "Any other X → 400 InvalidArgument"; DIFFERENCES: DELETE too].
func checkVersionID(b *Bucket, id string) error {
	if id == NullVersionID {
		return nil
	}
	if versionNumber(id) == 0 || b.Versioning == Unversioned {
		return invalidArgument("version ID " + strconv.Quote(id))
	}
	return nil
}
