package terminal

import (
	"net/http"
	"sync"
	"time"

	"minis3/core"
	"minis3/internal/undo"
	"minis3/web"
)

// LocalStore is a Store for a terminal in this process: a core store over
// a journal over a storage, and its web handler.
type LocalStore struct {
	journal *undo.Journal
	opts    core.Options

	mu      sync.Mutex
	store   *core.Store
	handler http.Handler
}

// OpenStore opens a store over storage for a terminal.
func OpenStore(storage core.Storage, opts core.Options) (*LocalStore, error) {
	s := &LocalStore{journal: undo.New(storage), opts: opts}
	if err := s.open(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *LocalStore) open() error {
	store, err := core.Open(s.journal, s.opts)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.store, s.handler = store, web.NewHandler(store, web.Options{})
	return nil
}

// Core is the core store as it is now (Restore replaces it).
func (s *LocalStore) Core() *core.Store {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.store
}

// Handler implements Store.
func (s *LocalStore) Handler() http.Handler {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.handler
}

// Now implements Store.
func (s *LocalStore) Now() time.Time {
	store := s.Core()
	return unixTime(store.Origin() + store.Now())
}

// Changes implements Store.
func (s *LocalStore) Changes() ([]core.Change, uint64, error) { return s.journal.Take() }

// Restore implements Store.
func (s *LocalStore) Restore(changes []core.Change) error {
	if err := s.journal.Commit(changes); err != nil {
		return err
	}
	return s.open()
}
