package storagetest

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"minis3/core"
)

// The upgrade from core's format 2, whose records held a key's whole
// version stack in one item, to format 3's entry items.
//
// testdata/format2.txt holds every item a store of format 2 kept after
// Format2Scenario (written by commit 686837c, the last of format 2): a
// line per item, its kind, then its key and value quoted as Go strings.
//
//go:embed testdata/format2.txt
var format2 string

// Format2Items is what a store of format 2 stored after Format2Scenario,
// as one change set, bodies included.
func Format2Items() (core.ChangeSet, error) {
	kinds := make(map[string]core.Kind)
	for _, k := range []core.Kind{core.KindMeta, core.KindBucket, core.KindRecord, core.KindUpload, core.KindBody} {
		kinds[k.String()] = k
	}
	var cs core.ChangeSet
	for line := range strings.Lines(format2) {
		line = strings.TrimSuffix(line, "\n")
		kind, rest, _ := strings.Cut(line, " ")
		quotedKey, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return nil, fmt.Errorf("format2.txt: %q: %w", line, err)
		}
		key, _ := strconv.Unquote(quotedKey)
		value, err := strconv.Unquote(strings.TrimPrefix(rest[len(quotedKey):], " "))
		if _, known := kinds[kind]; !known || err != nil {
			return nil, fmt.Errorf("format2.txt: %q is not a stored item", line)
		}
		cs = append(cs, core.Change{Kind: kinds[kind], Key: key, Value: []byte(value)})
	}
	return cs, nil
}

// Format2Options are the options Format2Scenario's stores are opened with.
func Format2Options() core.Options { return core.Options{ManualClock: true, MinPartSize: 1} }

// Format2Scenario writes, through the store's API only, one of everything a
// store keeps: an unversioned bucket with an overwritten and a deleted key
// and object metadata; a versioned bucket with deep stacks, delete markers,
// a suspended period's null versions and null delete marker, a key that is
// spelled like a sequence number, a key with control and non-ASCII
// characters, a completed multipart object and one in progress; a lifecycle
// configuration and the manual clock.
func Format2Scenario(s *core.Store) error {
	var err error
	step := func(e error) {
		if err == nil && e != nil {
			err = e
		}
	}
	put := func(bucket, key, body string, meta core.ObjectMeta) {
		_, e := s.PutObject(bucket, key, []byte(body), core.PutOptions{Meta: meta})
		step(e)
	}
	del := func(bucket, key, id string) {
		_, e := s.DeleteObject(bucket, key, core.DeleteOptions{VersionID: id})
		step(e)
	}
	step(s.SetClock(0))
	step(s.CreateBucket("plain"))
	put("plain", "a.txt", "hello", core.ObjectMeta{ContentType: "text/plain"})
	put("plain", "a.txt", "hello again", core.ObjectMeta{CacheControl: "no-cache", Expires: "Thu, 01 Dec 1994 16:00:00 GMT", User: map[string]string{"who": "me", "a": "1"}})
	put("plain", "b", "gone soon", core.ObjectMeta{})
	del("plain", "b", "")
	step(s.CreateBucket("demo"))
	step(s.SetBucketVersioning("demo", core.Enabled))
	for i := range 5 {
		step(s.SetClock(float64(i) + 0.5))
		put("demo", "logs/x", fmt.Sprint("x", i), core.ObjectMeta{})
		put("demo", "0000000000000005", fmt.Sprint("seq-like ", i), core.ObjectMeta{})
	}
	step(s.SetClock(6))
	del("demo", "logs/x", "")
	del("demo", "logs/x", "v00000003")
	put("demo", "k", "k1", core.ObjectMeta{})
	put("demo", "dir/ünïcode key\x01", "", core.ObjectMeta{ContentLanguage: "fr"})
	step(s.SetBucketVersioning("demo", core.Suspended))
	step(s.SetClock(7.25))
	put("demo", "k", "null-1", core.ObjectMeta{})
	put("demo", "k", "null-2", core.ObjectMeta{ContentEncoding: "gzip"})
	del("demo", "m", "")
	step(s.SetBucketVersioning("demo", core.Enabled))
	step(s.SetClock(8))
	put("demo", "k", "k3", core.ObjectMeta{})
	up, e := s.CreateMultipartUpload("demo", "mp", core.PutOptions{Meta: core.ObjectMeta{ContentType: "application/octet-stream"}})
	step(e)
	p1, e := s.UploadPart("demo", "mp", up.UploadID, 1, []byte("part one "))
	step(e)
	p2, e := s.UploadPart("demo", "mp", up.UploadID, 2, []byte("part two"))
	step(e)
	_, e = s.CompleteMultipartUpload("demo", "mp", up.UploadID, []core.CompletedPart{{PartNumber: 1, ETag: p1.ETag}, {PartNumber: 2, ETag: p2.ETag}})
	step(e)
	open, e := s.CreateMultipartUpload("demo", "pending", core.PutOptions{})
	step(e)
	_, e = s.UploadPart("demo", "pending", open.UploadID, 1, []byte("half"))
	step(e)
	step(s.PutBucketLifecycle("demo", core.LifecycleConfiguration{Rules: []core.LifecycleRule{{ID: "logs", Enabled: true, Prefix: "logs/", NoncurrentDays: 1}}}))
	step(s.SetClock(9))
	return err
}

// aStoreOfFormat2OpensUpgraded commits what a store of format 2 stored
// (Format2Items) and opens a core.Store on it: the store upgrades it in one
// commit to exactly the items the same operations store in format 3, keeps
// every body, and opens again without committing. On a durable storage this
// is the upgrade a user's data goes through: one commit of deletes and
// puts, among them a record whose key is spelled like the ref of an entry
// that replaces it.
func aStoreOfFormat2OpensUpgraded(h *harness) {
	items, err := Format2Items()
	if err != nil {
		h.t.Fatal(err)
	}
	h.commit(items)
	h.reopen()
	h.openStore(1)

	mem := core.NewMemoryStorage()
	replayed, err := core.Open(mem, Format2Options())
	if err != nil {
		h.t.Fatal(err)
	}
	if err := Format2Scenario(replayed); err != nil {
		h.t.Fatal(err)
	}
	want := make(map[item][]byte)
	if err := mem.Load(func(kind core.Kind, key string, value []byte) error {
		want[item{kind, key}] = value
		return nil
	}); err != nil {
		h.t.Fatal(err)
	}
	for range 2 {
		h.reopen()
		h.wantLoad(want)
		for _, c := range items {
			if c.Kind == core.KindBody {
				h.wantBody(c.Key, c.Value)
			}
		}
		h.openStore(0)
	}
}

// openStore opens a core.Store on the harness's storage, which must make
// commits commits and pass Check. The store is not closed: the harness
// closes the storage.
func (h *harness) openStore(commits int) {
	h.t.Helper()
	faults := core.NewFaultStorage(h.s)
	s, err := core.Open(faults, Format2Options())
	if err != nil {
		h.t.Fatalf("core.Open: %v", err)
	}
	if n := faults.Commits(); n != commits {
		h.t.Errorf("core.Open made %d commits, want %d", n, commits)
	}
	if err := s.Check(); err != nil {
		h.t.Errorf("the opened store: %v", err)
	}
}
