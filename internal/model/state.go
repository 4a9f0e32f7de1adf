package model

// State is everything a client can observe of a store, in a canonical
// order: after the same operations, the model and every face of MiniS3
// must show the same State.
type State struct {
	Now     float64
	Origin  float64
	Buckets []BucketState // by name
}

// BucketState is what a client can observe of one bucket.
type BucketState struct {
	Info      BucketInfo
	Keys      []KeyState    // by key
	Uploads   []UploadState // in progress, by ID
	Lifecycle *LifecycleConfiguration
	Tags      []Tag `json:",omitempty"` // the bucket's own
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
	// Body is a data version's bytes, as GET reads them: none for a
	// version in GLACIER or DEEP_ARCHIVE, whose bytes cannot be read.
	Body         string
	ETag         string
	ContentType  string
	StorageClass string `json:",omitempty"`
	Tags         []Tag  `json:",omitempty"`
}

// UploadState is an upload in progress and its parts, by number. (A
// part's bytes are read only through the object it completes.)
type UploadState struct {
	UploadInfo
	Parts []PartInfo
}

// State is the model's observable state.
func (s *Store) State() State {
	st := State{Now: s.Now, Origin: s.Origin}
	for _, name := range sortedKeys(s.Buckets) {
		b := s.Buckets[name]
		bs := BucketState{Info: b.info(), Tags: b.Tags}
		if b.Lifecycle != nil {
			bs.Lifecycle = &LifecycleConfiguration{Rules: append([]LifecycleRule(nil), b.Lifecycle.Rules...)}
		}
		for _, key := range sortedKeys(b.Stacks) {
			ks := KeyState{Key: key}
			for _, e := range b.Stacks[key] {
				es := EntryState{VersionID: e.VersionID, DeleteMarker: e.DeleteMarker, CreatedAt: e.CreatedAt,
					Body: e.Body, ETag: e.ETag, ContentType: e.ContentType, StorageClass: e.StorageClass, Tags: e.Tags}
				if archived(e.StorageClass) {
					es.Body = ""
				}
				ks.Entries = append(ks.Entries, es)
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
