package terminal

import (
	"sort"
	"strings"

	"minis3/internal/terminal/awscli"
)

// Complete lists the words that complete the last word of line (Tab):
// command names first, then what follows aws and minis3, and the names of
// files elsewhere.
func Complete(line string, files []string) []string {
	fields := strings.Fields(line)
	partial := ""
	if len(fields) > 0 && !strings.HasSuffix(line, " ") {
		partial = fields[len(fields)-1]
		fields = fields[:len(fields)-1]
	}
	var candidates []string
	switch {
	case len(fields) == 0:
		candidates = Commands()
	case fields[0] == "aws":
		return awscli.Complete(fields[1:], partial)
	case fields[0] == "minis3" && len(fields) == 1:
		candidates = []string{"clock", "preview", "run", "tick"}
	default:
		candidates = files
	}
	out := []string{}
	for _, c := range candidates {
		if strings.HasPrefix(c, partial) {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

// FileNames are the names of the home folder's files.
func (sh *Shell) FileNames() []string {
	files, _ := sh.folder.save()
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
	}
	return names
}
