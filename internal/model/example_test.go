package model_test

import (
	"fmt"
	"time"

	"minis3/internal/model"
)

// The chapter's worked example, on the model: it prints what the chapter
// prints.
func Example_workedExample() {
	s := model.New(5<<20, 1764806400) // 2025-12-04T00:00:00Z
	s.CreateBucket("demo")
	s.SetBucketVersioning("demo", model.Enabled)
	s.PutObject("demo", "logs/app.log", "old", model.PutOptions{})
	s.SetClock(5)
	s.PutObject("demo", "logs/app.log", "current", model.PutOptions{})
	ten, twelve := 10.0, 12.0
	rule := model.Rule{ID: "logs", Prefix: "logs/", ExpireCurrentAfter: &ten, ExpireNoncurrentAfter: &twelve}
	tick := func() {
		actions, _ := s.Tick("demo", []model.Rule{rule})
		fmt.Print("[")
		for i, a := range actions {
			if i > 0 {
				fmt.Print(", ")
			}
			fmt.Printf("('%s', '%s')", a.Kind, a.VersionID)
		}
		fmt.Println("]")
	}
	s.SetClock(12)
	tick()
	s.SetClock(15)
	tick()
	if _, err := s.GetObject("demo", "logs/app.log", ""); err.(*model.Error).Code == "NoSuchKey" {
		fmt.Println("current GET: NoSuchKey")
	}
	page, _ := s.ListObjectVersions("demo", model.ListVersionsOptions{})
	fmt.Print("[")
	for i, v := range page.Versions {
		if i > 0 {
			fmt.Print(", ")
		}
		marker := "False"
		if v.DeleteMarker {
			marker = "True"
		}
		fmt.Printf("('%s', %s)", v.VersionID, marker)
	}
	fmt.Println("]")
	// Output:
	// [('expire_noncurrent', 'v00000001')]
	// [('expire_current', 'v00000002')]
	// current GET: NoSuchKey
	// [('v00000003', True), ('v00000002', False)]
}

// AWS's example of S3's lifecycle, on the model [ref §5.5]: an object
// created 2014-01-15 at 10:30 UTC under a rule of Expiration Days 3 is due
// at 2014-01-19 00:00 UTC, which its PUT already says. The daily run at
// that midnight expires it; those before do nothing, and a run that does
// nothing is not reported.
func Example_s3Lifecycle() {
	const jan15 = 1389744000 // 2014-01-15T00:00:00Z
	day := func(d float64) float64 { return d * 86400 }
	s := model.New(5<<20, jan15)
	s.CreateBucket("demo")
	days := 3
	s.PutBucketLifecycle("demo", model.LifecycleConfiguration{Rules: []model.LifecycleRule{
		{ID: "tmp", Enabled: true, Filter: &model.LifecycleFilter{}, Expiration: &model.Expiration{Days: &days}},
	}})
	s.SetClock(10.5 * 3600)
	put, _ := s.PutObject("demo", "report", "x", model.PutOptions{})
	fmt.Println("expires", time.Unix(int64(put.Expiration.Date), 0).UTC().Format(time.RFC3339), "by", put.Expiration.RuleID)
	for _, now := range []float64{day(4) - 0.001, day(4)} {
		runs, _ := s.SetClock(now)
		fmt.Printf("clock %v: %d runs", now, len(runs))
		for _, r := range runs {
			for _, a := range r.Actions {
				fmt.Printf(", at %v %s %s of %s", r.At, a.Kind, a.VersionID, a.Key)
			}
		}
		fmt.Println()
	}
	// Output:
	// expires 2014-01-19T00:00:00Z by tmp
	// clock 345599.999: 0 runs
	// clock 345600: 1 runs, at 345600 expire_current null of report
}
