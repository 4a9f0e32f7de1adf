package boltstore

import (
	"errors"
	"testing"

	"minis3/core"
	"minis3/core/storagetest"
)

// TestFailedCommitLeavesStoreAsBefore fails the commit of one mutation of a
// filled store: the mutation returns the storage's error, the live store is
// unchanged, and so is the store reopened from disk.
func TestFailedCommitLeavesStoreAsBefore(t *testing.T) {
	rules := []core.ExpirationRule{{ID: "all", ExpireCurrentAfter: core.Seconds(0), ExpireNoncurrentAfter: core.Seconds(0)}}
	days := 2
	tests := []struct {
		name string
		do   func(s *core.Store) error
	}{
		{"PUT of a new key", func(s *core.Store) error {
			_, err := s.PutObject("versioned", "new", []byte("new"), core.PutOptions{})
			return err
		}},
		{"PUT over a versioned key", func(s *core.Store) error {
			_, err := s.PutObject("versioned", "doc", []byte("three"), core.PutOptions{})
			return err
		}},
		{"PUT replacing a suspended null entry", func(s *core.Store) error {
			_, err := s.PutObject("suspended", "k", []byte("other null"), core.PutOptions{})
			return err
		}},
		{"DELETE adding a marker", func(s *core.Store) error {
			_, err := s.DeleteObject("versioned", "bin", core.DeleteOptions{})
			return err
		}},
		{"DELETE of a version", func(s *core.Store) error {
			_, err := s.DeleteObject("versioned", "doc", core.DeleteOptions{VersionID: "v00000002"})
			return err
		}},
		{"DELETE in an unversioned bucket", func(s *core.Store) error {
			_, err := s.DeleteObject("aging", "old/a", core.DeleteOptions{})
			return err
		}},
		{"UploadPart", func(s *core.Store) error {
			_, err := s.UploadPart("versioned", "pending", "u00000002", 3, []byte("p3"))
			return err
		}},
		{"CompleteMultipartUpload", func(s *core.Store) error {
			_, err := s.CompleteMultipartUpload("versioned", "pending", "u00000002", []core.CompletedPart{
				{PartNumber: 1, ETag: md5hex("part-one")}, {PartNumber: 2, ETag: md5hex("p2")},
			})
			return err
		}},
		{"AbortMultipartUpload", func(s *core.Store) error {
			return s.AbortMultipartUpload("versioned", "pending", "u00000002")
		}},
		{"CreateMultipartUpload", func(s *core.Store) error {
			_, err := s.CreateMultipartUpload("versioned", "another", core.PutOptions{})
			return err
		}},
		{"LifecycleTick", func(s *core.Store) error {
			_, err := s.LifecycleTick("versioned", rules)
			return err
		}},
		{"SetBucketVersioning", func(s *core.Store) error {
			return s.SetBucketVersioning("versioned", core.Suspended)
		}},
		{"PutBucketLifecycle", func(s *core.Store) error {
			return s.PutBucketLifecycle("suspended", core.LifecycleConfiguration{Rules: []core.LifecycleRule{{ID: "x", Enabled: true, Filter: &core.LifecycleFilter{}, Expiration: &core.LifecycleExpiration{Days: &days}}}})
		}},
		{"CreateBucket", func(s *core.Store) error { return s.CreateBucket("new-bucket") }},
		{"PutBucketTagging", func(s *core.Store) error {
			return s.PutBucketTagging("suspended", []core.Tag{{Key: "team", Value: "red"}})
		}},
		{"DeleteBucketTagging", func(s *core.Store) error { return s.DeleteBucketTagging("versioned") }},
		{"SetClock", func(s *core.Store) error {
			_, err := s.SetClock(70000) // before the next midnight: one commit
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s, faults := openStore(t, dir)
			scenario{t, s}.fill()
			before := dump(t, s)
			commits := faults.Commits()

			faults.FailCommits(nil)
			err := tt.do(s)
			if !errors.Is(err, storagetest.ErrInjected) || !errors.Is(err, core.InternalError) {
				t.Fatalf("with the commit failing: %v; want an InternalError wrapping storagetest.ErrInjected", err)
			}
			if n := faults.Commits(); n != commits {
				t.Errorf("%d commits reached the storage, want none", n-commits)
			}
			sameDump(t, "live store after the failed commit", dump(t, s), before)
			closeStore(t, s)

			s, _ = openStore(t, dir)
			sameDump(t, "store reopened after the failed commit", dump(t, s), before)
			if err := tt.do(s); err != nil {
				t.Errorf("after reopening, with a working storage: %v", err)
			}
		})
	}
}

// TestCommitIsAllOrNothing commits change sets whose last change bolt
// refuses: nothing of them is written.
func TestCommitIsAllOrNothing(t *testing.T) {
	tests := []struct {
		name string
		bad  core.Change
	}{
		{"unknown kind", core.Change{Kind: 99, Key: "k", Value: []byte("v")}},
		{"empty key", core.Change{Kind: core.KindRecord, Key: "", Value: []byte("v")}},
		{"key longer than bolt allows", core.Change{Kind: core.KindBody, Key: string(make([]byte, 40000)), Value: []byte("v")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { s.Close() }()
			if err := s.Commit(core.ChangeSet{
				{Kind: core.KindRecord, Key: "b/kept", Value: []byte("old")},
				{Kind: core.KindBody, Key: "b/kept", Value: []byte("old body")},
			}); err != nil {
				t.Fatal(err)
			}
			err = s.Commit(core.ChangeSet{
				{Kind: core.KindRecord, Key: "b/kept", Value: []byte("new")},
				{Kind: core.KindRecord, Key: "b/added", Value: []byte("added")},
				{Kind: core.KindBody, Key: "b/kept", Delete: true},
				{Kind: core.KindBody, Key: "b/added", Value: []byte("added body")},
				tt.bad,
			})
			if err == nil {
				t.Fatal("Commit succeeded, want an error")
			}
			for range 2 {
				got := make(map[string]string)
				if err := s.Load(func(kind core.Kind, key string, value []byte) error {
					got[kind.String()+" "+key] = string(value)
					return nil
				}); err != nil {
					t.Fatal(err)
				}
				if len(got) != 1 || got["record b/kept"] != "old" {
					t.Errorf("after the failed commit, Load = %q; want only record b/kept = old", got)
				}
				if body, err := s.ReadBody("b/kept"); err != nil || string(body) != "old body" {
					t.Errorf("after the failed commit, body b/kept = %q, %v; want old body", body, err)
				}
				if _, err := s.ReadBody("b/added"); !errors.Is(err, core.ErrBodyNotFound) {
					t.Errorf("after the failed commit, body b/added: %v, want ErrBodyNotFound", err)
				}
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
				if s, err = Open(dir); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
