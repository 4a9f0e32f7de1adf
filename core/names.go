package core

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxKeyLength is the longest key, in bytes of UTF-8.
const MaxKeyLength = 1024

// ValidateKey checks an object key: 1 to 1024 bytes of valid UTF-8.
func ValidateKey(key string) error {
	switch {
	case len(key) > MaxKeyLength:
		e := newError(KeyTooLongError, "")
		e.Size, e.MaxSizeAllowed = int64(len(key)), MaxKeyLength
		return e
	case key == "":
		return errInvalidArgument("key", "", "an object key must not be empty")
	case !utf8.ValidString(key):
		return errInvalidArgument("key", strconv.Quote(key), "an object key must be valid UTF-8")
	}
	return nil
}

// ValidateBucketName applies S3's bucket naming rules: 3 to 63 characters of
// lower-case letters, digits, '.' and '-', starting and ending with a letter
// or digit, no "..", not shaped like an IPv4 address, no reserved prefix or
// suffix. It fails with InvalidBucketName.
func ValidateBucketName(name string) error {
	bad := func(why string) error {
		e := newError(InvalidBucketName, "The specified bucket is not valid: %s.", why)
		e.BucketName = name
		return e
	}
	if len(name) < 3 || len(name) > 63 {
		return bad("a bucket name has 3 to 63 characters")
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
			return bad("only lower-case letters, digits, '.' and '-' are allowed")
		}
	}
	if !isAlnum(name[0]) || !isAlnum(name[len(name)-1]) {
		return bad("a bucket name begins and ends with a letter or digit")
	}
	if strings.Contains(name, "..") {
		return bad("a bucket name has no two dots in a row")
	}
	if addr, err := netip.ParseAddr(name); err == nil && addr.Is4() {
		return bad("a bucket name must not look like an IP address")
	}
	for _, p := range []string{"xn--", "sthree-", "amzn-s3-demo-"} {
		if strings.HasPrefix(name, p) {
			return bad("the prefix " + p + " is reserved")
		}
	}
	for _, sfx := range []string{"-s3alias", "--ol-s3", "--x-s3", "--table-s3"} {
		if strings.HasSuffix(name, sfx) {
			return bad("the suffix " + sfx + " is reserved")
		}
	}
	return nil
}

func isAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// formatVersionID is the ID of the n-th version of an enabled bucket: "v"
// and n in at least 8 digits.
func formatVersionID(n uint64) string {
	return fmt.Sprintf("v%08d", n)
}

// parseVersionID returns n for an ID formatVersionID(n) made, or ok=false.
func parseVersionID(id string) (n uint64, ok bool) {
	if len(id) < 9 || id[0] != 'v' || strings.ContainsFunc(id[1:], func(c rune) bool { return c < '0' || c > '9' }) {
		return 0, false
	}
	n, err := strconv.ParseUint(id[1:], 10, 64)
	if err != nil || n == 0 || formatVersionID(n) != id {
		return 0, false
	}
	return n, true
}
