package core

import (
	"reflect"
	"testing"
)

// The chapter ages a noncurrent version from its own creation; S3 from the
// moment it became noncurrent, rounded up to the next midnight UTC. The
// two schedules of one bucket show the difference.
func TestSchedulesCompareTheChapterAndS3(t *testing.T) {
	const day = SecondsPerDay
	const start = 1764806400 // 2025-12-04T00:00:00Z
	s := newTestStore(t)
	s.bucket("demo", Enabled)
	s.at(start+10).put("demo", "k", "one")      // v00000001
	s.at(start+2*day+5).put("demo", "k", "two") // v00000002: v00000001 noncurrent from here
	if err := s.PutBucketLifecycle("demo", LifecycleConfiguration{Rules: []LifecycleRule{{
		ID: "s3", Enabled: true, Filter: &LifecycleFilter{},
		Expiration:                  &LifecycleExpiration{Days: ptr(3)},
		NoncurrentVersionExpiration: &NoncurrentVersionExpiration{NoncurrentDays: ptr(1)},
	}}}); err != nil {
		t.Fatal(err)
	}
	chapter, err := s.ExpirationSchedule("demo", []ExpirationRule{{ID: "ch", ExpireCurrentAfter: Seconds(3 * day), ExpireNoncurrentAfter: Seconds(day)}})
	if err != nil {
		t.Fatal(err)
	}
	wantChapter := []ScheduledAction{
		{LifecycleAction{RuleID: "ch", Key: "k", VersionID: "v00000002", Kind: ExpireCurrent}, start + 5*day + 5},
		{LifecycleAction{RuleID: "ch", Key: "k", VersionID: "v00000001", Kind: ExpireNoncurrent}, start + day + 10},
	}
	if !reflect.DeepEqual(chapter, wantChapter) {
		t.Errorf("chapter schedule = %+v\nwant %+v", chapter, wantChapter)
	}
	s3, err := s.LifecycleSchedule("demo")
	if err != nil {
		t.Fatal(err)
	}
	wantS3 := []ScheduledAction{
		{LifecycleAction{RuleID: "s3", Key: "k", VersionID: "v00000002", Kind: ExpireCurrent}, start + 6*day},
		{LifecycleAction{RuleID: "s3", Key: "k", VersionID: "v00000001", Kind: ExpireNoncurrent}, start + 4*day},
	}
	if !reflect.DeepEqual(s3, wantS3) {
		t.Errorf("S3 schedule = %+v\nwant %+v", s3, wantS3)
	}
}

// When a transition and an expiration that only adds a delete marker fall
// due on the same day, the transition comes first [ref §5.7], and the
// schedule says so; an abort is scheduled for the upload it aborts.
func TestScheduleFollowsS3Precedence(t *testing.T) {
	const start = 1764806400 // 2025-12-04T00:00:00Z
	s := newTestStore(t)
	s.bucket("demo", Enabled)
	v := s.at(start+60).put("demo", "k", "data")
	u, err := s.CreateMultipartUpload("demo", "big", PutOptions{})
	s.must(err)
	s.must(s.PutBucketLifecycle("demo", LifecycleConfiguration{Rules: []LifecycleRule{{
		ID: "both", Enabled: true, Filter: &LifecycleFilter{},
		Transitions:                    []LifecycleTransition{{Days: ptr(30), StorageClass: "GLACIER"}},
		AbortIncompleteMultipartUpload: &AbortIncompleteMultipartUpload{DaysAfterInitiation: 2},
	}, {
		ID: "expire", Enabled: true, Filter: &LifecycleFilter{},
		Expiration: &LifecycleExpiration{Days: ptr(30)},
	}}}))
	got, err := s.LifecycleSchedule("demo")
	s.must(err)
	want := []ScheduledAction{
		{LifecycleAction{RuleID: "both", Key: "k", VersionID: v.VersionID, Kind: Transition, StorageClass: "GLACIER"}, start + 31*SecondsPerDay},
		{LifecycleAction{RuleID: "both", Key: "big", UploadID: u.UploadID, Kind: AbortMultipartUpload}, start + 3*SecondsPerDay},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("schedule = %+v\nwant %+v", got, want)
	}
}
