//go:build js && wasm

package dostore_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"syscall/js"
	"testing"

	"minis3/core"
	"minis3/core/storagetest"
	"minis3/deploy/cloudflare/dostore"
)

// These tests run inside a Durable Object under Miniflare (the
// StorageConformance object of deploy/cloudflare/workertest), which gives
// them its storage through globalThis.context.
var context = js.Global().Get("context")

func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storagetest.Opener {
		context.Call("freshStorage")
		return func() (core.Storage, error) { return dostore.New(context.Call("openStorage")), nil }
	})
}

// TestFailedCommitKeepsNothing makes SQLite refuse the second row of a
// commit: the commit fails, and neither its first row nor anything else
// changes, in this storage or in one opened afresh.
func TestFailedCommitKeepsNothing(t *testing.T) {
	s := dostore.New(context.Call("failingStorage", 3))
	before := core.ChangeSet{{Kind: core.KindRecord, Key: "b/kept", Value: []byte("kept")}}
	if err := s.Commit(before); err != nil {
		t.Fatalf("the first commit (its only INSERT is the first): %v", err)
	}
	err := s.Commit(core.ChangeSet{
		{Kind: core.KindRecord, Key: "b/kept", Value: []byte("changed")},
		{Kind: core.KindBody, Key: "b/new", Value: []byte("body")},
	})
	if err == nil || !strings.Contains(err.Error(), "INSERT number 3 fails") {
		t.Fatalf("Commit = %v, want the third INSERT's error", err)
	}
	for _, s := range []core.Storage{s, dostore.New(context.Call("openStorage"))} {
		var items []string
		if err := s.Load(func(kind core.Kind, key string, value []byte) error {
			items = append(items, fmt.Sprintf("%v %s=%s", kind, key, value))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if len(items) != 1 || items[0] != "record b/kept=kept" {
			t.Errorf("after the failed commit, Load = %q, want only the record before it", items)
		}
		if _, err := s.ReadBody("b/new"); !errors.Is(err, core.ErrBodyNotFound) {
			t.Errorf("ReadBody of the failed commit's body = %v, want ErrBodyNotFound", err)
		}
	}
}

// TestLargeValuesAreKeptInParts stores bodies around the size of one row's
// part and reads them back byte-exact.
func TestLargeValuesAreKeptInParts(t *testing.T) {
	s := dostore.New(context.Call("freshStorage"))
	part := context.Get("partSize").Int()
	sizes := []int{part - 1, part, part + 1, 3 * part}
	for _, n := range sizes {
		body := make([]byte, n)
		for i := range body {
			body[i] = byte(i * 7 / 3)
		}
		ref := fmt.Sprintf("b/%d", n)
		if err := s.Commit(core.ChangeSet{{Kind: core.KindBody, Key: ref, Value: body}}); err != nil {
			t.Fatal(err)
		}
		got, err := s.ReadBody(ref)
		if err != nil || !bytes.Equal(got, body) {
			t.Errorf("ReadBody of %d bytes: %d bytes, %v; want them back", n, len(got), err)
		}
	}
}

// TestClosedStorageRefusesEveryCall checks that a closed storage fails
// instead of reaching the object's storage.
func TestClosedStorageRefusesEveryCall(t *testing.T) {
	s := dostore.New(context.Call("freshStorage"))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(core.ChangeSet{{Kind: core.KindMeta, Key: "store", Value: []byte("{}")}}); err == nil {
		t.Error("Commit after Close succeeded")
	}
	if err := s.Load(func(core.Kind, string, []byte) error { return nil }); err == nil {
		t.Error("Load after Close succeeded")
	}
	if _, err := s.ReadBody("x"); err == nil {
		t.Error("ReadBody after Close succeeded")
	}
}
