package awscli

import (
	"sort"
	"strings"
)

// Complete lists the words that complete partial after the words of an
// aws command line (those after "aws"): the commands, the operations of
// s3api and the subcommands of s3, and the options of each, global ones
// included.
func Complete(words []string, partial string) []string {
	var candidates []string
	for _, a := range globalParser().actions {
		if a.option != "" && strings.HasPrefix(partial, "-") {
			candidates = append(candidates, a.option)
		}
	}
	var positional []string
	for _, w := range words {
		if !strings.HasPrefix(w, "-") {
			positional = append(positional, w)
		}
	}
	switch {
	case len(positional) == 0:
		candidates = append(candidates, "s3api", "s3")
	case positional[0] == "s3api":
		m, err := s3Model()
		if err != nil {
			return nil
		}
		if len(positional) == 1 {
			for _, op := range m.Operations {
				candidates = append(candidates, op.CLIName)
			}
		} else if op := m.Operation(positional[1]); op != nil && strings.HasPrefix(partial, "-") {
			for _, a := range argTable(m, op) {
				if a.action.option != "" {
					candidates = append(candidates, a.action.option)
				}
			}
		}
	case positional[0] == "s3":
		if len(positional) == 1 {
			for _, sc := range s3Subcommands {
				candidates = append(candidates, sc.name)
			}
		} else if strings.HasPrefix(partial, "-") {
			for _, sc := range s3Subcommands {
				if sc.name == positional[1] {
					for _, a := range sc.args {
						if !a.positional {
							candidates = append(candidates, "--"+a.name)
						}
					}
				}
			}
		}
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
