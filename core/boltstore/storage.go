// Package boltstore is MiniS3's native durable storage: a core.Storage on
// go.etcd.io/bbolt.
//
// A data directory holds one file, minis3.db. Inside it every kind of item
// has its own bolt bucket, named after the kind ("meta", "bucket", "record",
// "upload", "body"), so Load reads the metadata with one cursor per bucket
// and never touches a body; a body is read on demand by ReadBody. A commit is
// one bolt read-write transaction, so it lands whole or not at all, and it is
// synced to disk before Commit returns.
//
// The file is locked while open: a second process (or a second Open in the
// same process) fails after a short wait instead of hanging or sharing it.
package boltstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"

	"minis3/core"
)

// FileName is the name of the database file in the data directory.
const FileName = "minis3.db"

// LockTimeout is how long Open waits for another holder of the file to let
// go of it before it gives up.
const LockTimeout = time.Second

// Storage is a core.Storage on one bbolt file. It is safe for concurrent use.
// Keys are 1 to 32,768 bytes long (bolt's limit); a commit holding another
// key fails whole.
type Storage struct {
	db   *bolt.DB
	path string
}

var _ core.Storage = (*Storage)(nil)

// Open opens the storage in dir, creating dir and an empty database when
// they do not exist yet.
func Open(dir string) (*Storage, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("boltstore: cannot use data directory %s: %w", dir, err)
	}
	path := filepath.Join(dir, FileName)
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: LockTimeout})
	switch {
	case errors.Is(err, bolt.ErrTimeout):
		return nil, fmt.Errorf("boltstore: %s is in use by another MiniS3 (gave up waiting %v for its lock): %w", path, LockTimeout, err)
	case err != nil:
		return nil, fmt.Errorf("boltstore: cannot open %s: %w", path, err)
	}
	if err := db.Update(prepare); err != nil {
		db.Close()
		return nil, fmt.Errorf("boltstore: %s: %w", path, err)
	}
	return &Storage{db: db, path: path}, nil
}

// Path is the database file.
func (s *Storage) Path() string { return s.path }

// Load implements core.Storage. It visits items inside one read transaction,
// so visit must not call the storage.
func (s *Storage) Load(visit func(kind core.Kind, key string, value []byte) error) error {
	return s.db.View(func(tx *bolt.Tx) error {
		for _, kind := range metadataKinds {
			c := tx.Bucket(kindBuckets[kind]).Cursor()
			for k, v := c.First(); k != nil; k, v = c.Next() {
				// v lives in bolt's memory map only while tx is open.
				if err := visit(kind, string(k), clone(v)); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// Commit implements core.Storage: one read-write transaction, all or
// nothing.
func (s *Storage) Commit(changes core.ChangeSet) error {
	if len(changes) == 0 {
		return nil
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		for _, c := range changes {
			name, ok := kindBuckets[c.Kind]
			if !ok {
				return fmt.Errorf("%q has unknown kind %d", c.Key, c.Kind)
			}
			b := tx.Bucket(name)
			var err error
			if c.Delete {
				err = b.Delete([]byte(c.Key))
			} else {
				// bolt keeps the value until the transaction ends: after
				// Update returns, nothing refers to c.Value.
				err = b.Put([]byte(c.Key), c.Value)
			}
			if err != nil {
				return fmt.Errorf("%v %q: %w", c.Kind, c.Key, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("boltstore: commit to %s: %w", s.path, err)
	}
	return nil
}

// ReadBody implements core.Storage.
func (s *Storage) ReadBody(ref string) ([]byte, error) {
	var body []byte
	err := s.db.View(func(tx *bolt.Tx) error {
		k, v := tx.Bucket(kindBuckets[core.KindBody]).Cursor().Seek([]byte(ref))
		if k == nil || string(k) != ref {
			return fmt.Errorf("boltstore: body %q: %w", ref, core.ErrBodyNotFound)
		}
		body = clone(v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return body, nil
}

// Close implements core.Storage. It releases the file's lock.
func (s *Storage) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("boltstore: closing %s: %w", s.path, err)
	}
	return nil
}

func clone(b []byte) []byte {
	return append(make([]byte, 0, len(b)), b...)
}
