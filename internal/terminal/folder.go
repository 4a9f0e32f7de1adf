package terminal

import (
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"minis3/internal/terminal/awscli"
)

// Folder is the home folder: files and directories in memory, kept with
// the terminal's state. Paths are relative to it ("notes.txt",
// "dir/a.txt"); "./", "~/" and "/home/student/" name it too.
type Folder struct {
	files map[string]*file
	dirs  map[string]bool
	now   func() time.Time
}

type file struct {
	data     []byte
	modified time.Time
}

// Home is the home folder's absolute path, as the shell shows it.
const Home = awscli.Home

func newFolder(now func() time.Time) *Folder {
	return &Folder{files: map[string]*file{}, dirs: map[string]bool{}, now: now}
}

// clean turns a path into the folder's name for it: "" is the folder
// itself; ok is false for a path outside it.
func clean(name string) (string, bool) {
	switch {
	case name == "~" || name == Home:
		return "", true
	case strings.HasPrefix(name, "~/"):
		name = name[2:]
	case strings.HasPrefix(name, Home+"/"):
		name = name[len(Home)+1:]
	case strings.HasPrefix(name, "/"):
		return "", false
	}
	p := path.Clean(name)
	if p == "." {
		return "", true
	}
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

// isDir reports whether p (clean) is a directory: the folder itself, one
// made, or one holding files.
func (f *Folder) isDir(p string) bool {
	if p == "" || f.dirs[p] {
		return true
	}
	return false
}

// parentOK reports whether p's directory exists.
func (f *Folder) parentOK(p string) bool {
	dir := path.Dir(p)
	if dir == "." {
		return true
	}
	return f.isDir(dir)
}

func pathError(op, name string, err error) error {
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// ReadFile implements awscli.Files.
func (f *Folder) ReadFile(name string) ([]byte, error) {
	p, ok := clean(name)
	if !ok {
		return nil, pathError("open", name, fs.ErrPermission)
	}
	if f.isDir(p) {
		return nil, pathError("read", name, awscli.ErrIsDir)
	}
	fl, ok := f.files[p]
	if !ok {
		return nil, pathError("open", name, fs.ErrNotExist)
	}
	return append([]byte(nil), fl.data...), nil
}

// WriteFile implements awscli.Files: the file gets the store's time.
func (f *Folder) WriteFile(name string, data []byte) error {
	return f.writeFile(name, data, f.now())
}

func (f *Folder) writeFile(name string, data []byte, modified time.Time) error {
	p, ok := clean(name)
	if !ok {
		return pathError("open", name, fs.ErrPermission)
	}
	if f.isDir(p) {
		return pathError("open", name, awscli.ErrIsDir)
	}
	if !f.parentOK(p) {
		if _, isFile := f.files[path.Dir(p)]; isFile {
			return pathError("open", name, awscli.ErrNotDir)
		}
		return pathError("open", name, fs.ErrNotExist)
	}
	f.files[p] = &file{data: append([]byte(nil), data...), modified: modified}
	return nil
}

// Chtimes sets a file's modification time, as the aws CLI does to a
// downloaded file.
func (f *Folder) Chtimes(name string, modified time.Time) error {
	p, _ := clean(name)
	fl, ok := f.files[p]
	if !ok {
		return pathError("utime", name, fs.ErrNotExist)
	}
	fl.modified = modified
	return nil
}

// Stat implements awscli.Files.
func (f *Folder) Stat(name string) (fs.FileInfo, error) {
	p, ok := clean(name)
	if !ok {
		return nil, pathError("stat", name, fs.ErrPermission)
	}
	if f.isDir(p) {
		return fileInfo{name: path.Base(name), dir: true}, nil
	}
	fl, ok := f.files[p]
	if !ok {
		return nil, pathError("stat", name, fs.ErrNotExist)
	}
	return fileInfo{name: path.Base(p), size: int64(len(fl.data)), modified: fl.modified}, nil
}

// ReadDir implements awscli.Files: the entries of a directory, by name.
func (f *Folder) ReadDir(name string) ([]fs.DirEntry, error) {
	p, ok := clean(name)
	if !ok {
		return nil, pathError("open", name, fs.ErrPermission)
	}
	if !f.isDir(p) {
		if _, isFile := f.files[p]; isFile {
			return nil, pathError("open", name, awscli.ErrNotDir)
		}
		return nil, pathError("open", name, fs.ErrNotExist)
	}
	prefix := ""
	if p != "" {
		prefix = p + "/"
	}
	var out []fs.DirEntry
	for fp, fl := range f.files {
		if rest, ok := strings.CutPrefix(fp, prefix); ok && !strings.Contains(rest, "/") {
			out = append(out, fs.FileInfoToDirEntry(fileInfo{name: rest, size: int64(len(fl.data)), modified: fl.modified}))
		}
	}
	for dp := range f.dirs {
		if rest, ok := strings.CutPrefix(dp, prefix); ok && !strings.Contains(rest, "/") {
			out = append(out, fs.FileInfoToDirEntry(fileInfo{name: rest, dir: true}))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

// MkdirAll implements awscli.Files.
func (f *Folder) MkdirAll(name string) error {
	p, ok := clean(name)
	if !ok {
		return pathError("mkdir", name, fs.ErrPermission)
	}
	for d := p; d != "" && d != "."; d = path.Dir(d) {
		if _, isFile := f.files[d]; isFile {
			return pathError("mkdir", name, fs.ErrExist)
		}
	}
	for d := p; d != "" && d != "."; d = path.Dir(d) {
		f.dirs[d] = true
	}
	return nil
}

// Mkdir makes one directory, whose parent must exist.
func (f *Folder) Mkdir(name string) error {
	p, ok := clean(name)
	if !ok {
		return pathError("mkdir", name, fs.ErrPermission)
	}
	if _, isFile := f.files[p]; isFile || f.isDir(p) {
		return pathError("mkdir", name, fs.ErrExist)
	}
	if !f.parentOK(p) {
		return pathError("mkdir", name, fs.ErrNotExist)
	}
	f.dirs[p] = true
	return nil
}

// Remove implements awscli.Files: a file, or an empty directory.
func (f *Folder) Remove(name string) error {
	p, ok := clean(name)
	if !ok {
		return pathError("remove", name, fs.ErrPermission)
	}
	if _, isFile := f.files[p]; isFile {
		delete(f.files, p)
		return nil
	}
	if f.dirs[p] {
		entries, _ := f.ReadDir(name)
		if len(entries) > 0 {
			return pathError("remove", name, errNotEmpty)
		}
		delete(f.dirs, p)
		return nil
	}
	return pathError("remove", name, fs.ErrNotExist)
}

// RemoveAll removes a file, or a directory and everything in it.
func (f *Folder) RemoveAll(name string) {
	p, _ := clean(name)
	delete(f.files, p)
	delete(f.dirs, p)
	for fp := range f.files {
		if strings.HasPrefix(fp, p+"/") {
			delete(f.files, fp)
		}
	}
	for dp := range f.dirs {
		if strings.HasPrefix(dp, p+"/") {
			delete(f.dirs, dp)
		}
	}
}

type errString string

func (e errString) Error() string { return string(e) }

const errNotEmpty = errString("directory not empty")

// fileInfo is an fs.FileInfo of the folder.
type fileInfo struct {
	name     string
	size     int64
	modified time.Time
	dir      bool
}

func (i fileInfo) Name() string       { return i.name }
func (i fileInfo) Size() int64        { return i.size }
func (i fileInfo) ModTime() time.Time { return i.modified }
func (i fileInfo) IsDir() bool        { return i.dir }
func (i fileInfo) Sys() any           { return nil }
func (i fileInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o755
	}
	return 0o644
}
