package model

// BucketInfo describes a bucket.
type BucketInfo struct {
	Name       string
	CreatedAt  float64
	Versioning Versioning
}

// CreateBucket makes an empty, unversioned bucket [ref §1.1: "unversioned
// (the default)"]. There is one owner, so an existing name is always
// BucketAlreadyOwnedByYou [DIFFERENCES].
func (s *Store) CreateBucket(name string) error {
	if err := checkBucketName(name); err != nil {
		return err
	}
	if s.Buckets[name] != nil {
		return errorf("BucketAlreadyOwnedByYou", name)
	}
	s.Buckets[name] = &Bucket{
		Name: name, CreatedAt: s.Now, Versioning: Unversioned,
		Stacks: make(map[string][]Entry), Uploads: make(map[string]*Upload),
	}
	return nil
}

// DeleteBucket removes a bucket that holds no version and no delete marker
// [ref §1.2: "while any version or DM is left"]. Uploads still in progress
// go with it [DIFFERENCES].
func (s *Store) DeleteBucket(name string) error {
	b, err := s.bucket(name)
	if err != nil {
		return err
	}
	if len(b.Stacks) > 0 {
		return errorf("BucketNotEmpty", name)
	}
	delete(s.Buckets, name)
	return nil
}

// ListBuckets lists the buckets by name.
func (s *Store) ListBuckets() []BucketInfo {
	out := []BucketInfo{}
	for _, name := range sortedKeys(s.Buckets) {
		out = append(out, s.Buckets[name].info())
	}
	return out
}

// HeadBucket describes one bucket.
func (s *Store) HeadBucket(name string) (BucketInfo, error) {
	b, err := s.bucket(name)
	if err != nil {
		return BucketInfo{}, err
	}
	return b.info(), nil
}

func (b *Bucket) info() BucketInfo {
	return BucketInfo{Name: b.Name, CreatedAt: b.CreatedAt, Versioning: b.Versioning}
}

// SetBucketVersioning enables or suspends versioning. Nothing stored
// changes; only later writes behave differently [ref §1.1]. Suspending a
// never-versioned bucket is allowed [ref §1.1]; asking for unversioned is
// not (the API has no such status).
func (s *Store) SetBucketVersioning(name string, state Versioning) error {
	b, err := s.bucket(name)
	if err != nil {
		return err
	}
	if state != Enabled && state != Suspended {
		return invalidArgument("versioning can only be enabled or suspended")
	}
	b.Versioning = state
	return nil
}
