package core_test

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"minis3/core"
)

// The chapter's "Hands-on experiment", step for step: two versions of
// logs/app.log, one rule, ticks at 12 and 15. It prints exactly what the
// chapter prints.
func Example_chapterWorkedExample() {
	var now float64
	store, err := core.Open(core.NewMemoryStorage(), core.Options{Clock: func() float64 { return now }})
	if err != nil {
		panic(err)
	}
	defer store.Close()

	must(store.CreateBucket("demo"))
	must(store.SetBucketVersioning("demo", core.Enabled))
	_, err = store.PutObject("demo", "logs/app.log", []byte("old"), core.PutOptions{})
	must(err)
	now = 5
	_, err = store.PutObject("demo", "logs/app.log", []byte("current"), core.PutOptions{})
	must(err)
	rule := core.ExpirationRule{ID: "logs", Prefix: "logs/",
		ExpireCurrentAfter: core.Seconds(10), ExpireNoncurrentAfter: core.Seconds(12)}

	now = 12
	fmt.Println(actionTuples(store.LifecycleTick("demo", []core.ExpirationRule{rule})))
	now = 15
	fmt.Println(actionTuples(store.LifecycleTick("demo", []core.ExpirationRule{rule})))
	if _, err := store.GetObject("demo", "logs/app.log", core.GetOptions{}); errors.Is(err, core.NoSuchKey) {
		fmt.Println("current GET: NoSuchKey")
	}
	list, err := store.ListObjectVersions("demo", core.ListVersionsOptions{})
	must(err)
	var versions []string
	for _, v := range list.Versions {
		versions = append(versions, fmt.Sprintf("('%s', %s)", v.VersionID, pyBool(v.IsDeleteMarker)))
	}
	fmt.Printf("[%s]\n", strings.Join(versions, ", "))
	// Output:
	// [('expire_noncurrent', 'v00000001')]
	// [('expire_current', 'v00000002')]
	// current GET: NoSuchKey
	// [('v00000003', True), ('v00000002', False)]
}

// EvaluateExpiration is pure: it reports what a tick would do at a given
// instant and changes nothing. The boundary is inclusive.
func ExampleEvaluateExpiration() {
	records := []*core.ObjectRecord{{
		Key: "logs/app.log",
		Versions: []core.Entry{
			&core.Version{VersionID: "v00000002", CreatedAt: 5},
			&core.Version{VersionID: "v00000001", CreatedAt: 0},
		},
	}}
	rules := []core.ExpirationRule{{ID: "logs", Prefix: "logs/", ExpireCurrentAfter: core.Seconds(10)}}
	for _, now := range []float64{14.999, 15} {
		actions, err := core.EvaluateExpiration(records, rules, now)
		must(err)
		fmt.Print(now, ":")
		for _, a := range actions {
			fmt.Print(" ", a.Kind, " ", a.Key, " ", a.VersionID, " by ", a.RuleID)
		}
		fmt.Println()
	}
	// Output:
	// 14.999:
	// 15: expire_current logs/app.log v00000002 by logs
}

// A rule needs at least one threshold; zero is a valid one.
func ExampleExpirationRule_Validate() {
	fmt.Println(core.ExpirationRule{ID: "none"}.Validate())
	fmt.Println(core.ExpirationRule{ID: "negative", ExpireCurrentAfter: core.Seconds(-1)}.Validate())
	fmt.Println(core.ExpirationRule{ID: "zero", ExpireCurrentAfter: core.Seconds(0)}.Validate())
	// Output:
	// InvalidArgument: lifecycle rule "none" has no threshold: set expireCurrentAfter, expireNoncurrentAfter or both
	// InvalidArgument: lifecycle rule "negative": expireCurrentAfter must be a finite number of seconds >= 0, not -1
	// <nil>
}

// S3's lifecycle, day by day. A configuration stored on a bucket runs at
// every midnight UTC that the manual clock passes, and its days are
// rounded up to a midnight. AWS's own example: an object created
// 2014-01-15 10:30 UTC with Expiration Days 3 expires at the run of
// 2014-01-19 00:00, as the PUT's x-amz-expiration already says. The bucket
// is versioned, so the expiration adds a delete marker and the data stays,
// noncurrent. NoncurrentDays count from that moment: one day, rounded up,
// is Jan 21. The marker, left alone then, goes once it is 3 days old
// itself: Jan 23.
func ExampleStore_SetClock() {
	origin := time.Date(2014, 1, 15, 10, 30, 0, 0, time.UTC)
	store, err := core.Open(core.NewMemoryStorage(), core.Options{ManualClock: true, Origin: float64(origin.Unix())})
	must(err)
	defer store.Close()
	must(store.CreateBucket("demo"))
	must(store.SetBucketVersioning("demo", core.Enabled))
	cfg, err := core.ParseLifecycleJSON([]byte(`{"Rules": [{"ID": "logs", "Status": "Enabled",
		"Filter": {"Prefix": "logs/"}, "Expiration": {"Days": 3}, "NoncurrentVersionExpiration": {"NoncurrentDays": 1}}]}`))
	must(err)
	must(store.PutBucketLifecycle("demo", cfg))

	put, err := store.PutObject("demo", "logs/app.log", []byte("hello"), core.PutOptions{})
	must(err)
	expires := time.Unix(int64(put.Expiration.Date), 0).UTC()
	fmt.Println("PUT", put.VersionID, "expires", expires.Format(time.DateOnly), "by rule", put.Expiration.RuleID)

	// Midnight by midnight, from the first after the PUT.
	for day := time.Date(2014, 1, 16, 0, 0, 0, 0, time.UTC); day.Before(time.Date(2014, 1, 24, 0, 0, 0, 0, time.UTC)); day = day.AddDate(0, 0, 1) {
		runs, err := store.SetClock(float64(day.Unix()) - store.Origin())
		must(err)
		fmt.Print(day.Format(time.DateOnly), ":")
		if len(runs) == 0 {
			fmt.Print(" nothing")
		}
		for _, run := range runs {
			for _, a := range run.Actions {
				fmt.Print(" ", a.Kind, " ", a.Key, " ", a.VersionID)
			}
		}
		fmt.Println()
	}
	list, err := store.ListObjectVersions("demo", core.ListVersionsOptions{})
	must(err)
	fmt.Println("versions left:", len(list.Versions))
	// Output:
	// PUT v00000001 expires 2014-01-19 by rule logs
	// 2014-01-16: nothing
	// 2014-01-17: nothing
	// 2014-01-18: nothing
	// 2014-01-19: expire_current logs/app.log v00000001
	// 2014-01-20: nothing
	// 2014-01-21: expire_noncurrent logs/app.log v00000001
	// 2014-01-22: nothing
	// 2014-01-23: expire_delete_marker logs/app.log v00000002
	// versions left: 0
}

// actionTuples prints actions the way the chapter's Python prints them.
func actionTuples(actions []core.LifecycleAction, err error) string {
	must(err)
	parts := make([]string, len(actions))
	for i, a := range actions {
		parts[i] = fmt.Sprintf("('%s', '%s')", a.Kind, a.VersionID)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
