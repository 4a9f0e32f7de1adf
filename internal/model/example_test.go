package model_test

import (
	"fmt"

	"minis3/internal/model"
)

// The chapter's worked example, on the model: it prints what the chapter
// prints.
func Example_workedExample() {
	s := model.New(5 << 20)
	s.CreateBucket("demo")
	s.SetBucketVersioning("demo", model.Enabled)
	s.PutObject("demo", "logs/app.log", "old", "")
	s.SetClock(5)
	s.PutObject("demo", "logs/app.log", "current", "")
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
