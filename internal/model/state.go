package model

// State is everything a client can observe of a store, in a canonical
// order: after the same operations, the model and every face of MiniS3
// must show the same State.
type State struct {
	Now     float64
	Buckets []BucketState // by name
}

// BucketState is what a client can observe of one bucket.
type BucketState struct {
	Info      BucketInfo
	Keys      []KeyState    // by key
	Uploads   []UploadState // in progress, by ID
	Lifecycle *LifecycleConfiguration
}

// KeyState is one key's version stack, newest first.
type KeyState struct {
	Key     string
	Entries []EntryState
}

// EntryState is one entry as a client reads it.
type EntryState struct {
	VersionID    string
	DeleteMarker bool
	CreatedAt    float64
	Body         string // data versions only
	ETag         string
	ContentType  string
}

// UploadState is an upload in progress and its parts, by number. (A
// part's bytes are read only through the object it completes.)
type UploadState struct {
	UploadInfo
	Parts []PartInfo
}

// State is the model's observable state.
func (s *Store) State() State {
	st := State{Now: s.Now}
	for _, name := range sortedKeys(s.Buckets) {
		b := s.Buckets[name]
		bs := BucketState{Info: b.info()}
		if b.Lifecycle != nil {
			bs.Lifecycle = &LifecycleConfiguration{Rules: append([]LifecycleRule(nil), b.Lifecycle.Rules...)}
		}
		for _, key := range sortedKeys(b.Stacks) {
			ks := KeyState{Key: key}
			for _, e := range b.Stacks[key] {
				ks.Entries = append(ks.Entries, EntryState{VersionID: e.VersionID, DeleteMarker: e.DeleteMarker,
					CreatedAt: e.CreatedAt, Body: e.Body, ETag: e.ETag, ContentType: e.ContentType})
			}
			bs.Keys = append(bs.Keys, ks)
		}
		for _, id := range sortedKeys(b.Uploads) {
			u := b.Uploads[id]
			if u.Completed != nil {
				continue
			}
			us := UploadState{UploadInfo: u.info()}
			page, _ := s.ListParts(name, u.Key, id, 0, 0)
			us.Parts = page.Parts
			bs.Uploads = append(bs.Uploads, us)
		}
		st.Buckets = append(st.Buckets, bs)
	}
	return st
}
