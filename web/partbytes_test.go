package web

import (
	"errors"
	"net/http"
	"testing"

	"minis3/core"
)

// A multipart version completed before MiniS3 kept part sizes has a part
// count but no sizes: its parts cannot be read one by one, and a GET with
// partNumber says so rather than guessing.
func TestPartBytesOfAVersionWithoutPartSizes(t *testing.T) {
	v := &core.Version{Size: 3, Parts: 2}
	_, _, _, err := partBytes(v, 1, http.Header{})
	if !errors.Is(err, core.NotImplemented) {
		t.Errorf("part 1: %v, want NotImplemented", err)
	}
	_, _, _, err = partBytes(v, 3, http.Header{})
	var e *s3Error
	if !errors.As(err, &e) || e.Code != codeInvalidPartNumber || e.PartNumberRequested != 3 || e.ActualPartCount != 2 {
		t.Errorf("part 3: %v, want InvalidPartNumber of 3 of 2 parts", err)
	}
}
