package core

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func v(id string, created float64) *Version { return &Version{VersionID: id, CreatedAt: created} }
func dm(id string, created float64) *DeleteMarker {
	return &DeleteMarker{VersionID: id, CreatedAt: created}
}
func rec(key string, entries ...Entry) *ObjectRecord {
	return &ObjectRecord{Key: key, Versions: entries}
}

func actionStrings(actions []LifecycleAction) []string {
	out := []string{}
	for _, a := range actions {
		out = append(out, fmt.Sprintf("%s %s %s %s", a.RuleID, a.Key, a.VersionID, a.Kind))
	}
	return out
}

func TestEvaluateExpiration(t *testing.T) {
	cur := func(id, prefix string, after float64) ExpirationRule {
		return ExpirationRule{ID: id, Prefix: prefix, ExpireCurrentAfter: Seconds(after)}
	}
	non := func(id, prefix string, after float64) ExpirationRule {
		return ExpirationRule{ID: id, Prefix: prefix, ExpireNoncurrentAfter: Seconds(after)}
	}
	both := func(id, prefix string, c, n float64) ExpirationRule {
		return ExpirationRule{ID: id, Prefix: prefix, ExpireCurrentAfter: Seconds(c), ExpireNoncurrentAfter: Seconds(n)}
	}
	chapter := []*ObjectRecord{rec("logs/app.log", v("v00000002", 5), v("v00000001", 0))}
	tests := []struct {
		name    string
		records []*ObjectRecord
		rules   []ExpirationRule
		now     float64
		want    []string
	}{
		{"chapter tick at 12 selects only the noncurrent version", chapter, []ExpirationRule{both("logs", "logs/", 10, 12)}, 12,
			[]string{"logs logs/app.log v00000001 expire_noncurrent"}},
		{"boundary is exclusive just before the threshold", chapter, []ExpirationRule{cur("logs", "logs/", 10)}, 14.999, []string{}},
		{"boundary is inclusive at exactly the threshold", chapter, []ExpirationRule{cur("logs", "logs/", 10)}, 15,
			[]string{"logs logs/app.log v00000002 expire_current"}},
		{"zero threshold selects at once", []*ObjectRecord{rec("k", v("v00000001", 7))}, []ExpirationRule{cur("z", "", 0)}, 7,
			[]string{"z k v00000001 expire_current"}},
		{"unset noncurrent threshold selects no noncurrent version", chapter, []ExpirationRule{cur("c", "", 0)}, 100,
			[]string{"c logs/app.log v00000002 expire_current"}},
		{"unset current threshold selects no current version", chapter, []ExpirationRule{non("n", "", 0)}, 100,
			[]string{"n logs/app.log v00000001 expire_noncurrent"}},
		{"prefix must match the start of the key", []*ObjectRecord{rec("keep/logs/x", v("null", 0)), rec("logs", v("null", 0))},
			[]ExpirationRule{cur("logs", "logs/", 0)}, 10, []string{}},
		{"empty prefix matches every key", []*ObjectRecord{rec("a", v("null", 0)), rec("b", v("null", 0))},
			[]ExpirationRule{cur("all", "", 0)}, 10, []string{"all a null expire_current", "all b null expire_current"}},
		{"a current delete marker is never selected", []*ObjectRecord{rec("k", dm("v00000003", 0), v("v00000002", 0))},
			[]ExpirationRule{cur("c", "", 0)}, 100, []string{}},
		{"noncurrent delete markers are never selected", []*ObjectRecord{rec("k", v("v00000004", 0), dm("v00000003", 0), v("v00000001", 0))},
			[]ExpirationRule{non("n", "", 0)}, 100, []string{"n k v00000001 expire_noncurrent"}},
		{"data under a current marker expires as noncurrent", []*ObjectRecord{rec("k", dm("v00000003", 9), v("v00000002", 5))},
			[]ExpirationRule{both("r", "", 0, 0)}, 9, []string{"r k v00000002 expire_noncurrent"}},
		{"noncurrent age counts from the version's own creation", []*ObjectRecord{rec("k", v("v00000002", 100), v("v00000001", 0))},
			[]ExpirationRule{non("n", "", 50)}, 100, []string{"n k v00000001 expire_noncurrent"}},
		{"order: keys ascending bytewise, current first, noncurrent newest first",
			[]*ObjectRecord{
				rec("b", v("v00000006", 0), v("v00000005", 0), v("v00000004", 0)),
				rec("B", v("v00000003", 0)),
				rec("a", v("v00000002", 0), v("v00000001", 0)),
			},
			[]ExpirationRule{both("r", "", 0, 0)}, 1,
			[]string{"r B v00000003 expire_current", "r a v00000002 expire_current", "r a v00000001 expire_noncurrent",
				"r b v00000006 expire_current", "r b v00000005 expire_noncurrent", "r b v00000004 expire_noncurrent"}},
		{"order: per key, rules in caller order",
			[]*ObjectRecord{rec("logs/x", v("v00000002", 0), v("v00000001", 0))},
			[]ExpirationRule{non("second-in-text", "logs/", 0), cur("first-in-text", "logs/", 0)}, 1,
			[]string{"second-in-text logs/x v00000001 expire_noncurrent", "first-in-text logs/x v00000002 expire_current"}},
		{"overlapping rules report each action once with the first rule's ID",
			[]*ObjectRecord{rec("logs/audit/a", v("v00000002", 0), v("v00000001", 0)), rec("logs/b", v("v00000003", 0))},
			[]ExpirationRule{both("logs", "logs/", 5, 5), both("audit", "logs/audit/", 1, 1)}, 10,
			[]string{"logs logs/audit/a v00000002 expire_current", "logs logs/audit/a v00000001 expire_noncurrent",
				"logs logs/b v00000003 expire_current"}},
		{"a later rule adds what the first did not select",
			[]*ObjectRecord{rec("logs/audit/a", v("v00000002", 0), v("v00000001", 0))},
			[]ExpirationRule{cur("logs", "logs/", 5), non("audit", "logs/audit/", 1)}, 10,
			[]string{"logs logs/audit/a v00000002 expire_current", "audit logs/audit/a v00000001 expire_noncurrent"}},
		{"the same version can be selected for both kinds only by its position",
			[]*ObjectRecord{rec("k", v("v00000001", 0))},
			[]ExpirationRule{both("a", "", 0, 0), both("b", "", 0, 0)}, 0,
			[]string{"a k v00000001 expire_current"}},
		{"no rules select nothing", chapter, nil, 100, []string{}},
		{"no records select nothing", nil, []ExpirationRule{cur("c", "", 0)}, 100, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := fmt.Sprint(tt.records)
			got, err := EvaluateExpiration(tt.records, tt.rules, tt.now)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(actionStrings(got), tt.want) {
				t.Errorf("got  %q\nwant %q", actionStrings(got), tt.want)
			}
			if fmt.Sprint(tt.records) != before {
				t.Errorf("EvaluateExpiration changed its input")
			}
		})
	}
}

// The chapter's records are a mapping from key to record: two records of
// one key, or a record with no entry, cannot be evaluated.
func TestEvaluateExpirationRefusesRecordsNoStoreHolds(t *testing.T) {
	rules := []ExpirationRule{{ID: "r", ExpireCurrentAfter: Seconds(0)}}
	for name, records := range map[string][]*ObjectRecord{
		"two records of one key": {rec("k", v("v00000002", 0)), rec("j", v("null", 0)), rec("k", v("v00000001", 0))},
		"a record with no entry": {rec("k")},
		"no record at all":       {nil},
	} {
		if got, err := EvaluateExpiration(records, rules, 0); !errors.Is(err, InvalidArgument) {
			t.Errorf("%s: got %q, %v; want InvalidArgument", name, actionStrings(got), err)
		}
	}
}

func TestExpirationRuleValidation(t *testing.T) {
	tests := []struct {
		name string
		rule ExpirationRule
		ok   bool
	}{
		{"no threshold is invalid", ExpirationRule{ID: "r", Prefix: "p/"}, false},
		{"negative current threshold is invalid", ExpirationRule{ExpireCurrentAfter: Seconds(-1)}, false},
		{"negative noncurrent threshold is invalid", ExpirationRule{ExpireCurrentAfter: Seconds(1), ExpireNoncurrentAfter: Seconds(-0.5)}, false},
		{"NaN threshold is invalid", ExpirationRule{ExpireCurrentAfter: Seconds(math.NaN())}, false},
		{"infinite threshold is invalid", ExpirationRule{ExpireNoncurrentAfter: Seconds(math.Inf(1))}, false},
		{"zero current threshold is valid", ExpirationRule{ExpireCurrentAfter: Seconds(0)}, true},
		{"zero noncurrent threshold is valid", ExpirationRule{ExpireNoncurrentAfter: Seconds(0)}, true},
		{"fractional thresholds are valid", ExpirationRule{ExpireCurrentAfter: Seconds(14.999)}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.rule.Validate()
			if tt.ok {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			wantCode(t, err, InvalidArgument)
			if _, err := EvaluateExpiration(nil, []ExpirationRule{tt.rule}, 0); !errors.Is(err, InvalidArgument) {
				t.Errorf("EvaluateExpiration accepted the rule: %v", err)
			}
			ts := newTestStore(t)
			ts.bucket("demo", Enabled)
			ts.put("demo", "k", "x")
			if _, err := ts.LifecycleTick("demo", []ExpirationRule{tt.rule}); !errors.Is(err, InvalidArgument) {
				t.Errorf("LifecycleTick accepted the rule: %v", err)
			}
			if _, err := ts.PreviewExpiration("demo", []ExpirationRule{tt.rule}); !errors.Is(err, InvalidArgument) {
				t.Errorf("PreviewExpiration accepted the rule: %v", err)
			}
		})
	}
}

func TestEvaluateExpirationSortsUnsortedSnapshots(t *testing.T) {
	records := []*ObjectRecord{rec("b", v("null", 0)), rec("a", v("null", 0))}
	got, err := EvaluateExpiration(records, []ExpirationRule{{ID: "r", ExpireCurrentAfter: Seconds(0)}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"r a null expire_current", "r b null expire_current"}; !slices.Equal(actionStrings(got), want) {
		t.Errorf("got %q, want %q", actionStrings(got), want)
	}
	if records[0].Key != "b" {
		t.Errorf("EvaluateExpiration reordered the caller's slice")
	}
}

// A caller may copy a snapshot's record and give the copy other entries ("what
// if this version were older?"); evaluation reads the entries it is given.
func TestEvaluateExpirationReadsTheEntriesOfACopiedRecord(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	ts.at(10).put("demo", "k", "old")
	ts.at(20).put("demo", "k", "new")
	snapshot, err := ts.Snapshot("demo")
	if err != nil {
		t.Fatal(err)
	}
	copied := *snapshot[0]
	copied.Versions = []Entry{v("v-renamed", 0), v("v-older", 0)} // as many entries as the store's record
	rules := []ExpirationRule{{ID: "r", ExpireCurrentAfter: Seconds(25)}}
	got, err := EvaluateExpiration([]*ObjectRecord{&copied}, rules, 30)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"r k v-renamed expire_current"}; !slices.Equal(actionStrings(got), want) {
		t.Errorf("the copy: got %q, want %q", actionStrings(got), want)
	}
	if got, _ := EvaluateExpiration(snapshot, rules, 30); len(got) != 0 {
		t.Errorf("the store's record (current version 10 s old): got %q, want none", actionStrings(got))
	}
}

// tick runs a lifecycle tick at now and returns its actions as strings.
func (ts *testStore) tick(bucket string, now float64, rules ...ExpirationRule) []string {
	ts.t.Helper()
	ts.at(now)
	actions, err := ts.LifecycleTick(bucket, rules)
	ts.must(err)
	return actionStrings(actions)
}

func TestLifecycleTick(t *testing.T) {
	logs := ExpirationRule{ID: "logs", Prefix: "logs/", ExpireCurrentAfter: Seconds(10), ExpireNoncurrentAfter: Seconds(12)}
	// The chapter's worked example: a version at 0, replaced at 5.
	workedExample := func(ts *testStore) {
		ts.at(0).put("demo", "logs/app.log", "old")
		ts.at(5).put("demo", "logs/app.log", "current")
	}
	type step struct {
		now        float64
		wantAction []string
		wantStack  string // of key "logs/app.log" after the tick
	}
	tests := []struct {
		name  string
		state VersioningState
		setup func(ts *testStore)
		rules []ExpirationRule
		steps []step
	}{
		{
			name: "enabled bucket: chapter worked example", state: Enabled,
			setup: workedExample,
			rules: []ExpirationRule{logs},
			steps: []step{
				{12, []string{"logs logs/app.log v00000001 expire_noncurrent"}, "v00000002:data"},
				{15, []string{"logs logs/app.log v00000002 expire_current"}, "v00000003:marker v00000002:data"},
				// The marker is not a data version: repeated ticks stack nothing.
				{16, []string{}, "v00000003:marker v00000002:data"},
				// The hidden version is noncurrent; at 17 it is 12 old.
				{17, []string{"logs logs/app.log v00000002 expire_noncurrent"}, "v00000003:marker"},
				{100, []string{}, "v00000003:marker"},
			},
		},
		{
			name: "exercise: nothing at 14.999, one expire_current at 15", state: Enabled,
			setup: workedExample,
			rules: []ExpirationRule{{ID: "logs", Prefix: "logs/", ExpireCurrentAfter: Seconds(10)}},
			steps: []step{
				{14.999, []string{}, "v00000002:data v00000001:data"},
				{15, []string{"logs logs/app.log v00000002 expire_current"}, "v00000003:marker v00000002:data v00000001:data"},
			},
		},
		{
			name: "unversioned bucket: current expiration removes the object", state: Unversioned,
			setup: func(ts *testStore) { ts.at(0).put("demo", "logs/app.log", "x") },
			rules: []ExpirationRule{logs},
			steps: []step{
				{9, []string{}, "null:data"},
				{10, []string{"logs logs/app.log null expire_current"}, ""},
			},
		},
		{
			name: "suspended bucket: expiring the current null version destroys it", state: Suspended,
			setup: func(ts *testStore) { ts.at(0).put("demo", "logs/app.log", "x") },
			rules: []ExpirationRule{logs},
			steps: []step{
				{10, []string{"logs logs/app.log null expire_current"}, "null:marker"},
				{50, []string{}, "null:marker"},
			},
		},
		{
			name: "suspended bucket: a non-null current version stays as noncurrent", state: Enabled,
			setup: func(ts *testStore) {
				ts.at(0).put("demo", "logs/app.log", "x")
				ts.must(ts.SetBucketVersioning("demo", Suspended))
			},
			rules: []ExpirationRule{{ID: "c", Prefix: "logs/", ExpireCurrentAfter: Seconds(10)}},
			steps: []step{
				{10, []string{"c logs/app.log v00000001 expire_current"}, "null:marker v00000001:data"},
			},
		},
		{
			// The current expiry of v00000001 replaces the key's null entry
			// (the old noncurrent null version) with a null marker. The
			// noncurrent action selected for "null" must then not remove the
			// new null marker.
			name: "suspended bucket: no collateral deletion of the new null marker", state: Unversioned,
			setup: func(ts *testStore) {
				ts.at(0).put("demo", "logs/app.log", "null data")
				ts.must(ts.SetBucketVersioning("demo", Enabled))
				ts.at(1).put("demo", "logs/app.log", "v1")
				ts.must(ts.SetBucketVersioning("demo", Suspended))
			},
			rules: []ExpirationRule{{ID: "both", Prefix: "logs/", ExpireCurrentAfter: Seconds(5), ExpireNoncurrentAfter: Seconds(5)}},
			steps: []step{
				{10, []string{"both logs/app.log v00000001 expire_current", "both logs/app.log null expire_noncurrent"},
					"null:marker v00000001:data"},
			},
		},
		{
			// Rule a selects v3, v2 and v1; b repeats those and adds v4, which
			// sits above them in the stack.
			name: "enabled bucket: two rules' noncurrent selections interleave", state: Enabled,
			setup: func(ts *testStore) {
				for i := range 5 {
					ts.at(float64(i)).put("demo", "logs/app.log", fmt.Sprint(i))
				}
			},
			rules: []ExpirationRule{
				{ID: "a", Prefix: "logs/", ExpireNoncurrentAfter: Seconds(12.5)},
				{ID: "b", Prefix: "logs/", ExpireNoncurrentAfter: Seconds(11)},
			},
			steps: []step{
				{15, []string{"a logs/app.log v00000003 expire_noncurrent", "a logs/app.log v00000002 expire_noncurrent",
					"a logs/app.log v00000001 expire_noncurrent", "b logs/app.log v00000004 expire_noncurrent"},
					"v00000005:data"},
			},
		},
		{
			name: "enabled bucket: current then noncurrent expiry of one key in one tick", state: Enabled,
			setup: workedExample,
			rules: []ExpirationRule{logs},
			steps: []step{
				{15, []string{"logs logs/app.log v00000002 expire_current", "logs logs/app.log v00000001 expire_noncurrent"},
					"v00000003:marker v00000002:data"},
			},
		},
		{
			name: "enabled bucket: noncurrent then current expiry of one key in one tick", state: Enabled,
			setup: workedExample,
			rules: []ExpirationRule{
				{ID: "n", Prefix: "logs/", ExpireNoncurrentAfter: Seconds(12)},
				{ID: "c", Prefix: "logs/", ExpireCurrentAfter: Seconds(10)},
			},
			steps: []step{
				{15, []string{"n logs/app.log v00000001 expire_noncurrent", "c logs/app.log v00000002 expire_current"},
					"v00000003:marker v00000002:data"},
			},
		},
		{
			name: "enabled bucket: a marker over older data is left alone by current expiry", state: Enabled,
			setup: func(ts *testStore) {
				ts.at(0).put("demo", "logs/app.log", "x")
				ts.del("demo", "logs/app.log", "")
			},
			rules: []ExpirationRule{{ID: "c", Prefix: "logs/", ExpireCurrentAfter: Seconds(0)}},
			steps: []step{{100, []string{}, "v00000002:marker v00000001:data"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTestStore(t)
			ts.bucket("demo", tt.state)
			tt.setup(ts)
			for _, st := range tt.steps {
				got := ts.tick("demo", st.now, tt.rules...)
				if !slices.Equal(got, st.wantAction) {
					t.Errorf("tick at %v: got %q, want %q", st.now, got, st.wantAction)
				}
				if s := ts.stack("demo", "logs/app.log"); s != st.wantStack {
					t.Errorf("after tick at %v: stack %q, want %q", st.now, s, st.wantStack)
				}
				// The only key's data versions are the only bodies: a
				// removed version's body is gone too.
				if n, want := ts.memory.Len(KindBody), strings.Count(st.wantStack, ":data"); n != want {
					t.Errorf("after tick at %v: %d bodies stored, want %d", st.now, n, want)
				}
			}
		})
	}
}

// The chapter's second exercise: an object outside the rule's prefix is
// untouched by both ticks.
func TestLifecycleTickLeavesOtherPrefixesAlone(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	ts.at(0).put("demo", "logs/app.log", "old")
	ts.put("demo", "keep/item", "kept")
	ts.at(5).put("demo", "logs/app.log", "current")
	rule := ExpirationRule{ID: "logs", Prefix: "logs/", ExpireCurrentAfter: Seconds(10), ExpireNoncurrentAfter: Seconds(12)}
	for _, now := range []float64{12, 15} {
		for _, a := range ts.tick("demo", now, rule) {
			if containsField(a, "keep/item") {
				t.Errorf("tick at %v named keep/item: %s", now, a)
			}
		}
	}
	obj, err := ts.GetObject("demo", "keep/item", GetOptions{})
	if err != nil || string(obj.Body) != "kept" {
		t.Fatalf("GET keep/item = %v, %v; want body kept", obj, err)
	}
}

func containsField(s, field string) bool {
	return slices.Contains(strings.Fields(s), field)
}

func TestLifecycleTickWritesOnce(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	for i := range 50 {
		ts.put("demo", fmt.Sprintf("logs/%02d", i), "a")
		ts.put("demo", fmt.Sprintf("logs/%02d", i), "b")
	}
	rule := ExpirationRule{ID: "r", Prefix: "logs/", ExpireCurrentAfter: Seconds(0), ExpireNoncurrentAfter: Seconds(0)}

	before := ts.faults.Commits()
	if got := ts.tick("demo", 1, rule); len(got) != 100 {
		t.Fatalf("tick selected %d actions, want 100", len(got))
	}
	if n := ts.faults.Commits() - before; n != 1 {
		t.Errorf("a tick with 100 actions made %d commits, want 1", n)
	}
	cs := ts.faults.LastCommit()
	// 50 markers added, 50 versions removed with their bodies.
	if cs.Count(KindRecord) != 100 || cs.Count(KindBody) != 50 {
		t.Errorf("the tick's commit wrote %d entry changes and %d body changes, want 100 and 50", cs.Count(KindRecord), cs.Count(KindBody))
	}

	// The versions the markers hid are noncurrent now: the next tick
	// removes them, and the one after that finds only markers and writes
	// nothing.
	if got := ts.tick("demo", 2, rule); len(got) != 50 {
		t.Fatalf("second tick selected %d actions, want 50", len(got))
	}
	before = ts.faults.Commits()
	if got := ts.tick("demo", 3, rule); len(got) != 0 {
		t.Fatalf("third tick selected %q", got)
	}
	if n := ts.faults.Commits() - before; n != 0 {
		t.Errorf("a tick with no actions made %d commits, want 0", n)
	}
}

// A tick that only expires current versions of an enabled bucket adds a
// marker per key and drops no body, though it made room for one per
// action.
func TestLifecycleTickThatOnlyAddsMarkersDropsNoBody(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	for i := range 20 {
		ts.put("demo", fmt.Sprintf("logs/%02d", i), "a")
	}
	rule := ExpirationRule{ID: "r", Prefix: "logs/", ExpireCurrentAfter: Seconds(0)}
	if got := ts.tick("demo", 1, rule); len(got) != 20 {
		t.Fatalf("tick selected %d actions, want 20", len(got))
	}
	cs := ts.faults.LastCommit()
	if cs.Count(KindRecord) != 20 || cs.Count(KindBody) != 0 {
		t.Errorf("the tick's commit wrote %d entry changes and %d body changes, want 20 and 0", cs.Count(KindRecord), cs.Count(KindBody))
	}
	for i := range 20 {
		_, err := ts.GetObject("demo", fmt.Sprintf("logs/%02d", i), GetOptions{})
		if e := wantCode(t, err, NoSuchKey); !e.DeleteMarker {
			t.Errorf("logs/%02d after the tick: %v, want NoSuchKey behind a delete marker", i, err)
		}
	}
}

func TestLifecycleTickSamplesTheClockOnce(t *testing.T) {
	calls := 0
	now := 0.0
	s, err := Open(NewMemoryStorage(), Options{Clock: func() float64 { calls++; return now }})
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []error{s.CreateBucket("demo"), s.SetBucketVersioning("demo", Enabled)} {
		if op != nil {
			t.Fatal(op)
		}
	}
	for i := range 5 {
		if _, err := s.PutObject("demo", fmt.Sprint("k", i), nil, PutOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	calls, now = 0, 100
	actions, err := s.LifecycleTick("demo", []ExpirationRule{{ID: "r", ExpireCurrentAfter: Seconds(1)}})
	if err != nil || len(actions) != 5 {
		t.Fatalf("tick: %v, %v", actions, err)
	}
	if calls != 1 {
		t.Errorf("a tick read the clock %d times, want 1", calls)
	}
	// Every marker the tick created carries that one instant.
	recs, _ := s.Snapshot("demo")
	for _, r := range recs {
		if r.Current().Created() != 100 {
			t.Errorf("marker on %s created at %v, want 100", r.Key, r.Current().Created())
		}
	}
}

func TestLifecycleTickOnMissingBucket(t *testing.T) {
	ts := newTestStore(t)
	_, err := ts.LifecycleTick("nobucket", []ExpirationRule{{ID: "r", ExpireCurrentAfter: Seconds(1)}})
	wantCode(t, err, NoSuchBucket)
}

func TestPreviewExpirationChangesNothing(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	ts.at(0).put("demo", "logs/app.log", "old")
	ts.at(5).put("demo", "logs/app.log", "current")
	rule := ExpirationRule{ID: "logs", Prefix: "logs/", ExpireCurrentAfter: Seconds(10), ExpireNoncurrentAfter: Seconds(12)}
	ts.at(15)
	commits := ts.faults.Commits()
	preview, err := ts.PreviewExpiration("demo", []ExpirationRule{rule})
	if err != nil {
		t.Fatal(err)
	}
	if ts.faults.Commits() != commits || ts.stack("demo", "logs/app.log") != "v00000002:data v00000001:data" {
		t.Fatalf("preview changed the store")
	}
	applied, err := ts.LifecycleTick("demo", []ExpirationRule{rule})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(preview, applied) {
		t.Errorf("preview %v differs from the tick's actions %v", preview, applied)
	}
}

// PreviewExpiration takes only the records under the rules' prefixes; what
// it selects must be what an evaluation of the whole bucket selects.
func TestPreviewExpirationMatchesEvaluationOfTheWholeBucket(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Enabled)
	keys := []string{"a", "logs", "logs/", "logs/app", "logs/app/1", "logs0", "logt", "tmp/x", "tmp/y", "z"}
	for at := range 3 {
		for _, k := range keys {
			ts.at(float64(at)).put("demo", k, "v")
		}
	}
	ts.at(100)
	tests := []struct {
		name  string
		rules []ExpirationRule
	}{
		{"one prefix", []ExpirationRule{{ID: "logs", Prefix: "logs/", ExpireNoncurrentAfter: Seconds(0)}}},
		{"a prefix no key has", []ExpirationRule{{ID: "none", Prefix: "nothing/", ExpireCurrentAfter: Seconds(0)}}},
		{"nested and disjoint prefixes", []ExpirationRule{
			{ID: "tmp", Prefix: "tmp/", ExpireCurrentAfter: Seconds(0)},
			{ID: "app", Prefix: "logs/app", ExpireCurrentAfter: Seconds(50), ExpireNoncurrentAfter: Seconds(0)},
			{ID: "logs", Prefix: "logs", ExpireNoncurrentAfter: Seconds(0)},
		}},
		{"an empty prefix with another", []ExpirationRule{
			{ID: "logs", Prefix: "logs/", ExpireCurrentAfter: Seconds(0)},
			{ID: "all", ExpireNoncurrentAfter: Seconds(99)},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snapshot, err := ts.Snapshot("demo")
			if err != nil {
				t.Fatal(err)
			}
			want, err := EvaluateExpiration(snapshot, tt.rules, 100)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ts.PreviewExpiration("demo", tt.rules)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(actionStrings(got), actionStrings(want)) {
				t.Errorf("preview %q\nwhole bucket %q", actionStrings(got), actionStrings(want))
			}
		})
	}
}

func FuzzEvaluateExpiration(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, uint8(3), uint8(12), uint8(10))
	f.Add([]byte("logs/app.log"), uint8(0), uint8(0), uint8(0))
	f.Add([]byte{255, 0, 128, 7, 7, 7, 3, 1}, uint8(200), uint8(1), uint8(255))
	f.Fuzz(func(t *testing.T, data []byte, nowByte, curByte, nonByte uint8) {
		records := fuzzRecords(data)
		now := float64(nowByte) / 4
		rules := []ExpirationRule{
			{ID: "a", Prefix: "", ExpireCurrentAfter: Seconds(float64(curByte) / 8)},
			{ID: "b", Prefix: "k1", ExpireNoncurrentAfter: Seconds(float64(nonByte) / 8)},
			{ID: "c", Prefix: "k", ExpireCurrentAfter: Seconds(float64(nonByte) / 16), ExpireNoncurrentAfter: Seconds(float64(curByte) / 16)},
		}
		byID := map[string]ExpirationRule{"a": rules[0], "b": rules[1], "c": rules[2]}
		before := fmt.Sprint(records)
		got, err := EvaluateExpiration(records, rules, now)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := EvaluateExpiration(records, rules, now)
		if !reflect.DeepEqual(got, again) {
			t.Fatalf("not deterministic: %v vs %v", got, again)
		}
		if fmt.Sprint(records) != before {
			t.Fatalf("input changed")
		}
		byKey := map[string]*ObjectRecord{}
		for _, r := range records {
			byKey[r.Key] = r
		}
		seen := map[string]bool{}
		for i, a := range got {
			if i > 0 && got[i-1].Key > a.Key {
				t.Fatalf("actions not in key order: %v", got)
			}
			id := a.Key + "\x00" + a.VersionID + "\x00" + a.Kind.String()
			if seen[id] {
				t.Fatalf("duplicate action %v", a)
			}
			seen[id] = true
			r := byKey[a.Key]
			j := r.find(a.VersionID)
			if j < 0 {
				t.Fatalf("action names a missing version: %v", a)
			}
			ver, ok := r.Versions[j].(*Version)
			if !ok {
				t.Fatalf("action selects a delete marker: %v", a)
			}
			rule := byID[a.RuleID]
			th := rule.ExpireCurrentAfter
			if a.Kind == ExpireNoncurrent {
				th = rule.ExpireNoncurrentAfter
			}
			if (a.Kind == ExpireCurrent) != (j == 0) {
				t.Fatalf("action kind %s at position %d", a.Kind, j)
			}
			if th == nil || now-ver.CreatedAt < *th {
				t.Fatalf("action selects a version younger than its rule's threshold: %v", a)
			}
			if len(a.Key) < len(rule.Prefix) || a.Key[:len(rule.Prefix)] != rule.Prefix {
				t.Fatalf("rule %s does not cover key %q", rule.ID, a.Key)
			}
		}
	})
}

// fuzzRecords builds distinct-keyed records from bytes: each byte makes an
// entry (a marker when odd) with a creation time from its value, and
// starts a new key every third byte.
func fuzzRecords(data []byte) []*ObjectRecord {
	var out []*ObjectRecord
	var cur *ObjectRecord
	for i, b := range data {
		if i%3 == 0 {
			cur = &ObjectRecord{Key: fmt.Sprintf("k%d-%03d", b%4, i)}
			out = append(out, cur)
		}
		id := formatVersionID(uint64(i + 1))
		if b%2 == 1 {
			cur.Versions = append(cur.Versions, &DeleteMarker{VersionID: id, CreatedAt: float64(b) / 4})
		} else {
			cur.Versions = append(cur.Versions, &Version{VersionID: id, CreatedAt: float64(b) / 4})
		}
	}
	return out
}

func TestActionKindStringIsTheChaptersName(t *testing.T) {
	for _, tc := range []struct {
		kind ActionKind
		want string
	}{
		{ExpireCurrent, "expire_current"},
		{ExpireNoncurrent, "expire_noncurrent"},
		{0, "ActionKind(0)"},
		{7, "ActionKind(7)"},
	} {
		if got := tc.kind.String(); got != tc.want {
			t.Errorf("ActionKind(%d).String() = %q, want %q", uint8(tc.kind), got, tc.want)
		}
	}
}
