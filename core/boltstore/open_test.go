package boltstore

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// childDirEnv makes the test binary a child process that opens the storage
// in the named directory and reports the outcome; see TestMain.
const childDirEnv = "BOLTSTORE_TEST_CHILD_OPEN"

func TestMain(m *testing.M) {
	if dir := os.Getenv(childDirEnv); dir != "" {
		s, err := Open(dir)
		if err != nil {
			fmt.Fprint(os.Stderr, err)
			os.Exit(3)
		}
		s.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// openElsewhere opens dir from a second process.
func openElsewhere(dir string) error {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childDirEnv+"="+dir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%w: %s", err, stderr.String())
	}
	return nil
}

func TestOpenCreatesTheDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "data")
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if want := filepath.Join(dir, FileName); s.Path() != want {
		t.Errorf("Path() = %s, want %s", s.Path(), want)
	}
	if _, err := os.Stat(s.Path()); err != nil {
		t.Errorf("database file: %v", err)
	}
}

func TestSecondOpenFailsWhileOpen(t *testing.T) {
	tests := []struct {
		name string
		open func(dir string) error
	}{
		{"in another process", openElsewhere},
		{"in the same process", func(dir string) error {
			s, err := Open(dir)
			if err == nil {
				s.Close()
			}
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			err = tt.open(dir)
			if err == nil {
				t.Fatal("second Open succeeded while the storage was open")
			}
			path := filepath.Join(dir, FileName)
			for _, want := range []string{path, "in use by another MiniS3", bolt.ErrTimeout.Error()} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("second Open: %q does not say %q", err, want)
				}
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if err := tt.open(dir); err != nil {
				t.Errorf("Open after the first one closed: %v", err)
			}
		})
	}
}

func TestOpenFailsClearly(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, root string) (dir string)
		says    []string // besides the path
		cause   error    // nil: no particular cause
	}{
		{"dir is a regular file", func(t *testing.T, root string) string {
			return writeFile(t, filepath.Join(root, "file"), "not a dir")
		}, []string{"data directory"}, syscall.ENOTDIR},
		{"dir is under a regular file", func(t *testing.T, root string) string {
			return filepath.Join(writeFile(t, filepath.Join(root, "file"), "not a dir"), "data")
		}, []string{"data directory"}, syscall.ENOTDIR},
		{"database file is a directory", func(t *testing.T, root string) string {
			if err := os.MkdirAll(filepath.Join(root, FileName), 0o755); err != nil {
				t.Fatal(err)
			}
			return root
		}, []string{FileName}, syscall.EISDIR},
		{"database file is not a bolt file", func(t *testing.T, root string) string {
			writeFile(t, filepath.Join(root, FileName), strings.Repeat("not bolt ", 2000))
			return root
		}, []string{FileName}, bolt.ErrInvalid},
		{"bolt file of another program", func(t *testing.T, root string) string {
			db, err := bolt.Open(filepath.Join(root, FileName), 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := db.Update(func(tx *bolt.Tx) error {
				_, err := tx.CreateBucket([]byte("theirs"))
				return err
			}); err != nil {
				t.Fatal(err)
			}
			return root
		}, []string{FileName, "without a MiniS3 format marker"}, nil},
		{"file from a newer format", func(t *testing.T, root string) string {
			setFormat(t, root, fmt.Sprint(Format+1))
			return root
		}, []string{FileName, fmt.Sprintf("format %d, from a newer MiniS3", Format+1), fmt.Sprintf("up to format %d", Format)}, nil},
		{"unreadable format marker", func(t *testing.T, root string) string {
			setFormat(t, root, "one")
			return root
		}, []string{FileName, `format marker "one" is not a format number`}, nil},
		{"format marker 0", func(t *testing.T, root string) string {
			setFormat(t, root, "0")
			return root
		}, []string{FileName, `format marker "0" is not a format number`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.prepare(t, t.TempDir())
			s, err := Open(dir)
			if err == nil {
				s.Close()
				t.Fatalf("Open(%s) succeeded", dir)
			}
			for _, want := range append([]string{dir}, tt.says...) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("Open: %q does not say %q", err, want)
				}
			}
			if tt.cause != nil && !errors.Is(err, tt.cause) {
				t.Errorf("Open: %v does not wrap %v", err, tt.cause)
			}
		})
	}
}

// TestOpenKeepsTheFormat opens a file again: its marker stays as written.
func TestOpenKeepsTheFormat(t *testing.T) {
	dir := t.TempDir()
	for range 2 {
		s, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		var marker string
		if err := s.db.View(func(tx *bolt.Tx) error {
			marker = string(tx.Bucket(schemaBucket).Get(formatKey))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if marker != fmt.Sprint(Format) {
			t.Errorf("format marker = %q, want %q", marker, fmt.Sprint(Format))
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func writeFile(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// setFormat creates a storage in dir and overwrites its format marker.
func setFormat(t *testing.T, dir, marker string) {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(schemaBucket).Put(formatKey, []byte(marker))
	}); err != nil {
		t.Fatal(err)
	}
}
