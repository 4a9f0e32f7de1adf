package core

import (
	"fmt"
	"testing"
)

// A tick, a preview and a schedule take at most 1000 of the chapter's
// rules, as a stored configuration holds at most 1000: one more is
// InvalidArgument, and the tick changes nothing.
func TestChapterRulesAreAtMost1000(t *testing.T) {
	ts := newTestStore(t)
	ts.bucket("demo", Unversioned)
	ts.put("demo", "k", "x")
	rules := make([]ExpirationRule, MaxLifecycleRules+1)
	for i := range rules {
		rules[i] = ExpirationRule{ID: fmt.Sprint("r", i), ExpireCurrentAfter: Seconds(0)}
	}
	e := wantCode(t, ValidateRules(rules), InvalidArgument)
	if e.ArgumentName != "rules" || e.ArgumentValue != "1001" {
		t.Errorf("InvalidArgument %+v, want ArgumentName rules, ArgumentValue 1001", e)
	}
	wantCode(t, second(ts.LifecycleTick("demo", rules)), InvalidArgument)
	wantCode(t, second(ts.PreviewExpiration("demo", rules)), InvalidArgument)
	wantCode(t, second(ts.ExpirationSchedule("demo", rules)), InvalidArgument)
	wantCode(t, second(EvaluateExpiration(nil, rules, 0)), InvalidArgument)
	if s := ts.stack("demo", "k"); s != "null:data" {
		t.Errorf("k = %q after the refused tick, want null:data", s)
	}
	actions, err := ts.LifecycleTick("demo", rules[:MaxLifecycleRules])
	if err != nil || len(actions) != 1 {
		t.Errorf("a tick of 1000 rules: %+v, %v; want the one expiry", actions, err)
	}
}
