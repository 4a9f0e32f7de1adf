package core

import "slices"

// Applying lifecycle actions: the one place where both lifecycles, the
// chapter's tick (lifecycle.go) and S3's runs (s3lifecycle_run.go), change
// a bucket. An action changes its key only through the versioning
// transitions every write goes through (versioning.go), and only if the
// entry it selected is still where it was: an earlier action of the same
// tick or run may have removed it, and then the action deletes nothing
// else [DESIGN: "must not delete something else"; ref §5.6].

// applyAll runs an evaluation, which calls pick with each action it
// selects and the entry the action selected, and then applies the actions
// in order. It returns them. The evaluation reads the bucket as it was
// before any of them.
func (t *tx) applyAll(evaluation func(pick func(LifecycleAction, Entry))) []LifecycleAction {
	var actions []LifecycleAction
	var targets []Entry
	evaluation(func(a LifecycleAction, e Entry) {
		actions, targets = append(actions, a), append(targets, e)
	})
	for i, a := range actions {
		t.apply(a, targets[i])
	}
	return actions
}

// apply applies action a, which selected entry target (nil for an
// upload), within the transaction.
func (t *tx) apply(a LifecycleAction, target Entry) {
	if a.Kind == AbortMultipartUpload {
		if u := t.upload(a.UploadID); u != nil && u.Completed == nil {
			for _, p := range u.Parts {
				t.dropBody(partRef(t.meta.Name, u.ID, p.Number))
			}
			t.setUpload(u.ID, nil)
		}
		return
	}
	r := t.record(a.Key)
	if r == nil {
		return
	}
	at := slices.Index(r.Versions, target)
	switch {
	case at < 0:
	case a.Kind == ExpireCurrent && at == 0:
		// Confirmed current: a DELETE without a version ID, which adds a
		// marker in an enabled bucket, removes the object in an
		// unversioned one and follows the null rules in a suspended one.
		t.deleteCurrent(a.Key)
	case a.Kind == ExpireNoncurrent && at > 0, a.Kind == ExpireDeleteMarker:
		t.removeAt(t.edit(a.Key), at)
	case a.Kind == Transition || a.Kind == TransitionNoncurrent:
		moved := target.(*Version).clone()
		moved.Meta.StorageClass = a.StorageClass
		t.replace(a.Key, target.(*Version), moved)
	}
}
