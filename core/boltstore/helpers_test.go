package boltstore

import (
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"minis3/core"
	"minis3/core/storagetest"
)

// options are the store options of every test: a manual clock, persisted
// with the data, and parts as small as 5 bytes.
var options = core.Options{ManualClock: true, MinPartSize: 5}

// openStore opens a store on the bolt storage in dir, wrapped in a
// FaultStorage, and closes it when the test ends.
func openStore(t *testing.T, dir string) (*core.Store, *storagetest.FaultStorage) {
	t.Helper()
	bolt, err := Open(dir)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	faults := storagetest.NewFaultStorage(bolt)
	s, err := core.Open(faults, options)
	if err != nil {
		bolt.Close()
		t.Fatalf("core.Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, faults
}

// closeStore checks the invariants of s and closes it.
func closeStore(t *testing.T, s *core.Store) {
	t.Helper()
	if err := s.Check(); err != nil {
		t.Errorf("store invariants before Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// storeDump is everything a store shows through its public API.
type storeDump struct {
	Now     float64
	Buckets []bucketDump
}

type bucketDump struct {
	Info      core.BucketInfo
	Lifecycle *core.LifecycleConfiguration // nil: none
	Tags      []core.Tag                   // nil: none
	Versions  []core.VersionEntry
	Objects   []*core.Object // every data version, with its body, in listing order
	Uploads   []core.ListPartsResult
}

// dump reads everything s holds.
func dump(t *testing.T, s *core.Store) storeDump {
	t.Helper()
	d := storeDump{Now: s.Now()}
	for _, info := range s.ListBuckets() {
		b := bucketDump{Info: info}
		switch cfg, err := s.BucketLifecycle(info.Name); {
		case err == nil:
			b.Lifecycle = &cfg
		case !errors.Is(err, core.NoSuchLifecycleConfiguration):
			t.Fatalf("BucketLifecycle(%s): %v", info.Name, err)
		}
		switch tags, err := s.BucketTagging(info.Name); {
		case err == nil:
			b.Tags = tags
		case !errors.Is(err, core.NoSuchTagSet):
			t.Fatalf("BucketTagging(%s): %v", info.Name, err)
		}
		list, err := s.ListObjectVersions(info.Name, core.ListVersionsOptions{MaxKeys: -1})
		if err != nil {
			t.Fatalf("ListObjectVersions(%s): %v", info.Name, err)
		}
		b.Versions = list.Versions
		for _, v := range list.Versions {
			if v.IsDeleteMarker {
				continue
			}
			obj, err := s.GetObject(info.Name, v.Key, core.GetOptions{VersionID: v.VersionID})
			if err != nil {
				t.Fatalf("GetObject(%s, %q, %s): %v", info.Name, v.Key, v.VersionID, err)
			}
			b.Objects = append(b.Objects, obj)
		}
		uploads, err := s.ListMultipartUploads(info.Name, core.ListUploadsOptions{})
		if err != nil {
			t.Fatalf("ListMultipartUploads(%s): %v", info.Name, err)
		}
		for _, u := range uploads.Uploads {
			parts, err := s.ListParts(info.Name, u.Key, u.UploadID, core.ListPartsOptions{})
			if err != nil {
				t.Fatalf("ListParts(%s, %s): %v", info.Name, u.UploadID, err)
			}
			b.Uploads = append(b.Uploads, parts)
		}
		d.Buckets = append(d.Buckets, b)
	}
	return d
}

// sameDump fails the test when got differs from want, naming the first
// difference it finds.
func sameDump(t *testing.T, what string, got, want storeDump) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	g, w := dumpLines(got), dumpLines(want)
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			t.Fatalf("%s: store differs at line %d:\n got: %s\nwant: %s", what, i, gl, wl)
		}
	}
	t.Fatalf("%s: store differs (in a field the dump does not print):\n got: %+v\nwant: %+v", what, got, want)
}

func dumpLines(d storeDump) []string {
	lines := []string{fmt.Sprintf("now %v", d.Now)}
	for _, b := range d.Buckets {
		lines = append(lines, fmt.Sprintf("bucket %+v", b.Info))
		if b.Lifecycle != nil {
			lines = append(lines, fmt.Sprintf("  lifecycle %+v", *b.Lifecycle))
		}
		if b.Tags != nil {
			lines = append(lines, fmt.Sprintf("  tags %+v", b.Tags))
		}
		for _, v := range b.Versions {
			lines = append(lines, fmt.Sprintf("  version %+v", v))
		}
		for _, o := range b.Objects {
			lines = append(lines, fmt.Sprintf("  object %q %+v body %q", o.Key, *o.Version, o.Body))
		}
		for _, u := range b.Uploads {
			lines = append(lines, fmt.Sprintf("  upload %+v", u))
		}
	}
	return lines
}

func md5hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

// multipartETag is S3's ETag of an object joined from parts.
func multipartETag(parts ...string) string {
	var digests strings.Builder
	for _, p := range parts {
		sum := md5.Sum([]byte(p))
		digests.Write(sum[:])
	}
	return fmt.Sprintf("%s-%d", md5hex(digests.String()), len(parts))
}
