package boltstore

import (
	"errors"
	"slices"
	"testing"

	"minis3/core"
)

// A completed upload's part sizes, which GET ?partNumber reads, and an
// upload's knowledge that its key changed, which a conditional completion
// reads, are stored: a reopened store still has them.
func TestPartSizesAndKeyChangesSurviveAReopen(t *testing.T) {
	dir := t.TempDir()
	s, _ := openStore(t, dir)
	sc := scenario{t, s}
	sc.must(s.CreateBucket("bkt"))
	done := sc.upload("bkt", "done")
	sc.part("bkt", "done", done, 1, "hello ")
	sc.part("bkt", "done", done, 2, "world")
	_, err := s.CompleteMultipartUpload("bkt", "done", done, []core.CompletedPart{{PartNumber: 1, ETag: md5hex("hello ")}, {PartNumber: 2, ETag: md5hex("world")}})
	sc.must(err)
	pending := sc.upload("bkt", "pending")
	sc.part("bkt", "pending", pending, 1, "data")
	sc.put("bkt", "pending", "written meanwhile", core.ObjectMeta{})
	sc.del("bkt", "pending", "")
	closeStore(t, s)

	s, _ = openStore(t, dir)
	obj, err := s.HeadObject("bkt", "done", core.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(obj.Version.PartSizes, []int64{6, 5}) {
		t.Errorf("part sizes after reopen = %v, want [6 5]", obj.Version.PartSizes)
	}
	_, err = s.CompleteMultipartUploadIf("bkt", "pending", pending, []core.CompletedPart{{PartNumber: 1, ETag: md5hex("data")}},
		core.WriteConditions{IfNoneMatch: true})
	if !errors.Is(err, core.ConditionalRequestConflict) {
		t.Errorf("completing the upload whose key was deleted, after reopen: %v, want ConditionalRequestConflict", err)
	}
	if err := s.Check(); err != nil {
		t.Errorf("store invariants after reopen: %v", err)
	}
}
