package core

import "sync"

// MemoryStorage is a Storage that keeps everything in memory. It is the
// storage of tests and of the browser when IndexedDB is unavailable.
type MemoryStorage struct {
	mu    sync.Mutex
	items map[Kind]map[string][]byte
}

// NewMemoryStorage returns an empty MemoryStorage.
func NewMemoryStorage() *MemoryStorage {
	return &MemoryStorage{items: make(map[Kind]map[string][]byte)}
}

// Load implements Storage.
func (m *MemoryStorage) Load(visit func(Kind, string, []byte) error) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for kind, items := range m.items {
		if kind == KindBody {
			continue
		}
		for key, value := range items {
			if err := visit(kind, key, clone(value)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Commit implements Storage. It cannot fail. It keeps the committed values
// themselves, which the Storage contract allows, and copies only on the way
// out (Load, ReadBody).
func (m *MemoryStorage) Commit(changes ChangeSet) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, c := range changes {
		items := m.items[c.Kind]
		if items == nil {
			items = make(map[string][]byte)
			m.items[c.Kind] = items
		}
		if c.Delete {
			delete(items, c.Key)
		} else {
			items[c.Key] = c.Value
		}
	}
	return nil
}

// ReadBody implements Storage.
func (m *MemoryStorage) ReadBody(ref string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	body, ok := m.items[KindBody][ref]
	if !ok {
		return nil, ErrBodyNotFound
	}
	return clone(body), nil
}

// Len is the number of items of kind k it holds.
func (m *MemoryStorage) Len(k Kind) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.items[k])
}

// Close implements Storage.
func (m *MemoryStorage) Close() error { return nil }

func clone(b []byte) []byte {
	return append(make([]byte, 0, len(b)), b...)
}
