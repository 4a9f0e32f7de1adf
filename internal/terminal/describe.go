package terminal

import (
	"errors"

	"minis3/internal/terminal/awscli"
)

// Command is what a command line asks for, whatever its spelling: for an
// aws line, its invocation (awscli.Describe); for another, its name and
// arguments.
type Command struct {
	Name string             `json:"name"` // "aws", "echo", "minis3", …
	Args []string           `json:"args"` // the words after the name
	AWS  *awscli.Invocation `json:"aws,omitempty"`
}

// Describe reads a command line without running it, so that an exercise
// can check the commands a student ran (the operation and options, not
// their spelling), with the files its file://… values name in files (a
// shell's Folder). It fails for a line the shell or the aws CLI would
// refuse to read.
func Describe(line string, files awscli.Files) (*Command, error) {
	cl, err := parseLine(line, 0)
	if err != nil {
		return nil, err
	}
	if len(cl.words) == 0 {
		return nil, errors.New("an empty line")
	}
	c := &Command{Name: cl.words[0], Args: cl.words[1:]}
	if c.Name == "aws" {
		if c.AWS, err = awscli.Describe(c.Args, files); err != nil {
			return nil, err
		}
	}
	return c, nil
}
