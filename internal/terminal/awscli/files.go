package awscli

import (
	"errors"
	"io/fs"
)

// The errors a Files returns beside fs.ErrNotExist, as Python's OSError
// names them.
var (
	ErrIsDir  = errors.New("is a directory")
	ErrNotDir = errors.New("not a directory")
)

// osErrorText is Python's text of the OSError of a file operation on
// name: "[Errno 2] No such file or directory: 'name'".
func osErrorText(err error, name string) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "[Errno 2] No such file or directory: " + pyReprString(name)
	case errors.Is(err, ErrIsDir):
		return "[Errno 21] Is a directory: " + pyReprString(name)
	case errors.Is(err, ErrNotDir):
		return "[Errno 20] Not a directory: " + pyReprString(name)
	case errors.Is(err, fs.ErrExist):
		return "[Errno 17] File exists: " + pyReprString(name)
	}
	return err.Error()
}
