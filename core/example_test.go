package core_test

import (
	"errors"
	"fmt"
	"strings"

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
		fmt.Println(now, actions)
	}
	// Output:
	// 14.999 []
	// 15 [{logs logs/app.log v00000002 expire_current}]
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
