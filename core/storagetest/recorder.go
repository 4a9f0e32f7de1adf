package storagetest

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"minis3/core"
)

// Recorder is a memory storage that also keeps the latest change of every
// item, bodies included, so that a store filled quickly in memory can be
// copied into a durable storage in a few large commits (benchmarks prefill
// buckets of 100,000 records that way).
type Recorder struct {
	*core.MemoryStorage
	latest map[core.Kind]map[string]core.Change
}

// NewRecorder returns an empty Recorder.
func NewRecorder() *Recorder {
	return &Recorder{MemoryStorage: core.NewMemoryStorage(), latest: make(map[core.Kind]map[string]core.Change)}
}

// Commit commits cs to memory and remembers its changes.
func (r *Recorder) Commit(cs core.ChangeSet) error {
	if err := r.MemoryStorage.Commit(cs); err != nil {
		return err
	}
	for _, c := range cs {
		if r.latest[c.Kind] == nil {
			r.latest[c.Kind] = make(map[string]core.Change)
		}
		c.Value = bytes.Clone(c.Value)
		r.latest[c.Kind][c.Key] = c
	}
	return nil
}

// Changes is everything the recorder holds as one change set sorted by
// kind and key: bolt and IndexedDB (LevelDB) insert sorted keys faster.
func (r *Recorder) Changes() core.ChangeSet {
	var cs core.ChangeSet
	for _, items := range r.latest {
		for _, c := range items {
			cs = append(cs, c)
		}
	}
	slices.SortFunc(cs, func(a, b core.Change) int {
		if a.Kind != b.Kind {
			return int(a.Kind) - int(b.Kind)
		}
		return strings.Compare(a.Key, b.Key)
	})
	return cs
}

// Prefill returns a Recorder holding an enabled bucket named bucket with
// records objects of 100 bytes, keys "prefill/00000000" on, put through a
// store with a manual clock: the content benchmarks copy into durable
// storage before they measure writes into a large bucket.
func Prefill(bucket string, records int) (*Recorder, error) {
	rec := NewRecorder()
	s, err := core.Open(rec, core.Options{ManualClock: true})
	if err != nil {
		return nil, err
	}
	if err := s.CreateBucket(bucket); err != nil {
		return nil, err
	}
	if err := s.SetBucketVersioning(bucket, core.Enabled); err != nil {
		return nil, err
	}
	body := bytes.Repeat([]byte("x"), 100)
	for i := range records {
		if _, err := s.PutObject(bucket, fmt.Sprintf("prefill/%08d", i), body, core.PutOptions{}); err != nil {
			return nil, err
		}
	}
	return rec, nil
}
