package terminal

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"

	"minis3/internal/terminal/awscli"
)

// The file commands print what bash and GNU coreutils print (in the C
// locale), for the options a learner needs.

// shellErrorText is the C library's text of a file error.
func shellErrorText(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	case errors.Is(err, awscli.ErrIsDir):
		return "Is a directory"
	case errors.Is(err, awscli.ErrNotDir):
		return "Not a directory"
	case errors.Is(err, fs.ErrExist):
		return "File exists"
	case errors.Is(err, errNotEmpty):
		return "Directory not empty"
	}
	return "Permission denied"
}

// echo is bash's echo: its arguments joined by spaces, with -n (no
// newline) and -e (backslash escapes).
func (r *run) echo(args []string) int {
	newline, escapes := true, false
	for len(args) > 0 && isEchoOption(args[0]) {
		for _, c := range args[0][1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	out := strings.Join(args, " ")
	if escapes {
		var stop bool
		out, stop = echoEscapes(out)
		if stop {
			newline = false
		}
	}
	r.stdout.WriteString(out)
	if newline {
		r.stdout.WriteString("\n")
	}
	return 0
}

func isEchoOption(s string) bool {
	if len(s) < 2 || s[0] != '-' {
		return false
	}
	return strings.Trim(s[1:], "neE") == ""
}

// echoEscapes interprets echo -e's escapes; stop is \c (no more output).
func echoEscapes(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case '\\':
			b.WriteByte('\\')
		case 'c':
			return b.String(), true
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String(), false
}

// cat prints files.
func (r *run) cat(args []string) int {
	status := 0
	for _, name := range args {
		data, err := r.sh.folder.ReadFile(name)
		if err != nil {
			r.stderr.WriteString("cat: " + name + ": " + shellErrorText(err) + "\n")
			status = 1
			continue
		}
		r.stdout.Write(data)
	}
	return status
}

// ls lists files and directories, one name a line, as ls does when its
// output is not a terminal.
func (r *run) ls(args []string) int {
	all := false
	var operands []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			if strings.Trim(a[1:], "a1") != "" {
				r.stderr.WriteString("ls: invalid option -- '" + strings.Trim(a[1:], "a1")[:1] + "'\nTry 'ls --help' for more information.\n")
				return 2
			}
			all = all || strings.Contains(a, "a")
			continue
		}
		operands = append(operands, a)
	}
	if len(operands) == 0 {
		operands = []string{"."}
	}
	status := 0
	var files, dirs []string
	for _, name := range operands {
		info, err := r.sh.folder.Stat(name)
		if err != nil {
			r.stderr.WriteString("ls: cannot access '" + name + "': " + shellErrorText(err) + "\n")
			status = 2
			continue
		}
		if info.IsDir() {
			dirs = append(dirs, name)
		} else {
			files = append(files, name)
		}
	}
	sort.Strings(files)
	sort.Strings(dirs)
	for _, f := range files {
		r.stdout.WriteString(f + "\n")
	}
	for i, d := range dirs {
		if len(operands) > 1 {
			if i > 0 || len(files) > 0 {
				r.stdout.WriteString("\n")
			}
			r.stdout.WriteString(d + ":\n")
		}
		entries, _ := r.sh.folder.ReadDir(d)
		if all {
			r.stdout.WriteString(".\n..\n")
		}
		for _, e := range entries {
			if all || !strings.HasPrefix(e.Name(), ".") {
				r.stdout.WriteString(e.Name() + "\n")
			}
		}
	}
	return status
}

// rm removes files; -r removes directories and what they hold; -f is
// silent about missing ones.
func (r *run) rm(args []string) int {
	recursive, force := false, false
	var names []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			for _, c := range a[1:] {
				switch c {
				case 'r', 'R':
					recursive = true
				case 'f':
					force = true
				default:
					r.stderr.WriteString("rm: invalid option -- '" + string(c) + "'\nTry 'rm --help' for more information.\n")
					return 1
				}
			}
			continue
		}
		names = append(names, a)
	}
	if len(names) == 0 && !force {
		r.stderr.WriteString("rm: missing operand\nTry 'rm --help' for more information.\n")
		return 1
	}
	status := 0
	for _, name := range names {
		info, err := r.sh.folder.Stat(name)
		switch {
		case err != nil:
			if !force {
				r.stderr.WriteString("rm: cannot remove '" + name + "': " + shellErrorText(err) + "\n")
				status = 1
			}
		case info.IsDir() && !recursive:
			r.stderr.WriteString("rm: cannot remove '" + name + "': Is a directory\n")
			status = 1
		case info.IsDir():
			if p, _ := clean(name); p == "" {
				r.stderr.WriteString("rm: refusing to remove '.' or '..' directory: skipping '" + name + "'\n")
				status = 1
				continue
			}
			r.sh.folder.RemoveAll(name)
		default:
			_ = r.sh.folder.Remove(name)
		}
	}
	return status
}

// mkdir makes directories; -p makes their parents and is silent about
// existing ones.
func (r *run) mkdir(args []string) int {
	parents := false
	var names []string
	for _, a := range args {
		if a == "-p" {
			parents = true
			continue
		}
		names = append(names, a)
	}
	if len(names) == 0 {
		r.stderr.WriteString("mkdir: missing operand\nTry 'mkdir --help' for more information.\n")
		return 1
	}
	status := 0
	for _, name := range names {
		var err error
		if parents {
			err = r.sh.folder.MkdirAll(name)
		} else {
			err = r.sh.folder.Mkdir(name)
		}
		if err != nil {
			r.stderr.WriteString("mkdir: cannot create directory '" + name + "': " + shellErrorText(err) + "\n")
			status = 1
		}
	}
	return status
}

// save lists the folder's files and directories for a State.
func (f *Folder) save() ([]FileState, []string) {
	files := make([]FileState, 0, len(f.files))
	for name, fl := range f.files {
		files = append(files, FileState{Name: name, Data: fl.data, Modified: float64(fl.modified.UnixNano()) / 1e9})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	dirs := make([]string, 0, len(f.dirs))
	for d := range f.dirs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	return files, dirs
}

// restore fills the folder from a State.
func (f *Folder) restore(files []FileState, dirs []string) {
	for _, d := range dirs {
		if p, ok := clean(d); ok && p != "" {
			for q := p; q != "."; q = path.Dir(q) {
				f.dirs[q] = true
			}
		}
	}
	for _, fs := range files {
		if p, ok := clean(fs.Name); ok && p != "" {
			f.files[p] = &file{data: fs.Data, modified: unixTime(fs.Modified)}
		}
	}
}
