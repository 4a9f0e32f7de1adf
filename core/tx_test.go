package core

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// checkChangeOrder fails t unless cs lists the bucket's metadata, then
// entries, uploads and bodies, each group by key.
func checkChangeOrder(t *testing.T, cs ChangeSet) {
	t.Helper()
	group := map[Kind]int{KindBucket: 0, KindRecord: 1, KindUpload: 2, KindBody: 3}
	sorted := slices.IsSortedFunc(cs, func(a, b Change) int {
		if group[a.Kind] != group[b.Kind] {
			return group[a.Kind] - group[b.Kind]
		}
		return strings.Compare(a.Key, b.Key)
	})
	if !sorted {
		var summary []string
		for _, c := range cs {
			summary = append(summary, fmt.Sprintf("%v:%s", c.Kind, c.Key))
		}
		t.Errorf("the change set is out of order:\n%s", strings.Join(summary, "\n"))
	}
}

// A commit lists its changes in a fixed order, whatever the order of the
// writes that made them, so that two runs commit the same bytes.
func TestChangeSetIsInKeyOrder(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	// Keys written in descending order, so that body refs (by sequence
	// number) and record keys run in opposite directions.
	for round := range 2 {
		for i := 19; i >= 0; i-- {
			ts.put("demo", fmt.Sprintf("k/%02d", i), fmt.Sprint(round))
		}
	}
	rule := ExpirationRule{ID: "r", ExpireCurrentAfter: Seconds(0), ExpireNoncurrentAfter: Seconds(0)}
	if got := ts.tick("demo", 1, rule); len(got) != 40 {
		t.Fatalf("tick selected %d actions, want 40", len(got))
	}
	cs := ts.faults.LastCommit()
	checkChangeOrder(t, cs)
	// 20 markers added, 20 versions removed with their bodies.
	if cs.Count(KindBucket) != 1 || cs.Count(KindRecord) != 40 || cs.Count(KindBody) != 20 {
		t.Errorf("the commit changes %d bucket items, %d entries, %d bodies; want 1, 40, 20",
			cs.Count(KindBucket), cs.Count(KindRecord), cs.Count(KindBody))
	}
}

// An entry a transaction adds and removes again (a DeleteObjects that
// marks a key and deletes the marker) is never stored.
func TestEntriesAddedAndRemovedInOneTransactionAreNotStored(t *testing.T) {
	for _, tc := range []struct {
		name    string
		state   VersioningState
		objects []ObjectIdentifier
		want    string
	}{
		{"a null marker replaced by the next", Suspended, []ObjectIdentifier{{Key: "k"}, {Key: "k"}}, "null:marker v00000001:data"},
		{"a marker deleted by its version ID", Enabled, []ObjectIdentifier{{Key: "k"}, {Key: "k", VersionID: "v00000002"}}, "v00000001:data"},
		{"a marker and the version under it", Enabled, []ObjectIdentifier{{Key: "k"}, {Key: "k", VersionID: "v00000002"}, {Key: "k", VersionID: "v00000001"}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestStore(t)
			ts.bucket("demo", Enabled)
			ts.put("demo", "k", "1")
			ts.must(ts.SetBucketVersioning("demo", tc.state))
			res, err := ts.DeleteObjects("demo", tc.objects)
			ts.must(err)
			if len(res.Errors) > 0 {
				t.Fatalf("DeleteObjects errors: %+v", res.Errors)
			}
			if got := ts.stack("demo", "k"); got != tc.want {
				t.Errorf("stack %q, want %q", got, tc.want)
			}
			if n, want := ts.memory.Len(KindRecord), strings.Count(tc.want, ":"); n != want {
				t.Errorf("%d entry items stored, want %d", n, want)
			}
		})
	}
}
