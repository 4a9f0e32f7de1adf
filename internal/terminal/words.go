package terminal

import (
	"errors"
	"strconv"
	"strings"
)

// A command line is read as a POSIX shell reads a simple command: words
// split at unquoted blanks; 'single quotes' keep everything; "double
// quotes" keep everything but \", \\, \$ and \` escapes and $?; a
// backslash outside quotes keeps the next character; $? is the last exit
// status; an unquoted # starts a comment; > FILE and >> FILE send the
// standard output to a file. Pipes, lists (;, &&, ||), other variables,
// globbing and the other redirections are not this shell's.

// commandLine is one parsed line: its words and where its output goes.
type commandLine struct {
	words  []string
	output string // "" for the terminal
	append bool   // >> rather than >
}

// errUnsupported is a line using what this shell does not have.
type errUnsupported string

func (e errUnsupported) Error() string { return string(e) }

var errUnterminated = errors.New("unexpected end of line: a quote is not closed")

// parseLine reads a command line; status is what $? expands to.
func parseLine(line string, status int) (*commandLine, error) {
	cl := &commandLine{}
	var word strings.Builder
	inWord := false // a word has started (even an empty quoted one)
	redirect := ""  // ">" or ">>" waiting for its file
	flush := func() error {
		if !inWord {
			return nil
		}
		w := word.String()
		word.Reset()
		inWord = false
		if redirect != "" {
			cl.output, cl.append = w, redirect == ">>"
			redirect = ""
			return nil
		}
		cl.words = append(cl.words, w)
		return nil
	}
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == ' ' || c == '\t':
			if err := flush(); err != nil {
				return nil, err
			}
		case c == '#' && !inWord:
			i = len(rs)
		case c == '\'':
			inWord = true
			end := indexRune(rs, i+1, '\'')
			if end < 0 {
				return nil, errUnterminated
			}
			word.WriteString(string(rs[i+1 : end]))
			i = end
		case c == '"':
			inWord = true
			j := i + 1
			for ; j < len(rs) && rs[j] != '"'; j++ {
				switch {
				case rs[j] == '\\' && j+1 < len(rs) && strings.ContainsRune("\"\\$`", rs[j+1]):
					word.WriteRune(rs[j+1])
					j++
				case rs[j] == '$' && j+1 < len(rs) && rs[j+1] == '?':
					word.WriteString(strconv.Itoa(status))
					j++
				case rs[j] == '`' || rs[j] == '$' && j+1 < len(rs) && (rs[j+1] == '(' || rs[j+1] == '{' || isNameStart(rs[j+1])):
					return nil, errUnsupported("minis3: this shell has no variables or command substitution")
				default:
					word.WriteRune(rs[j])
				}
			}
			if j >= len(rs) {
				return nil, errUnterminated
			}
			i = j
		case c == '\\':
			inWord = true
			if i+1 < len(rs) {
				word.WriteRune(rs[i+1])
				i++
			}
		case c == '$' && i+1 < len(rs) && rs[i+1] == '?':
			inWord = true
			word.WriteString(strconv.Itoa(status))
			i++
		case c == '$' && i+1 < len(rs) && (rs[i+1] == '(' || rs[i+1] == '{' || isNameStart(rs[i+1])), c == '`':
			return nil, errUnsupported("minis3: this shell has no variables or command substitution")
		case c == '>':
			if inWord && word.String() == "2" {
				return nil, errUnsupported("minis3: only the standard output can be redirected (> FILE, >> FILE)")
			}
			if err := flush(); err != nil {
				return nil, err
			}
			if redirect != "" {
				return nil, errUnsupported("minis3: syntax error near unexpected token `>'")
			}
			redirect = ">"
			if i+1 < len(rs) && rs[i+1] == '>' {
				redirect = ">>"
				i++
			}
		case c == '|' || c == ';' || c == '&' || c == '<' || c == '(' || c == ')':
			return nil, errUnsupported("minis3: this shell runs one command at a time: no pipes, lists, input redirections or subshells")
		default:
			inWord = true
			word.WriteRune(c)
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if redirect != "" {
		return nil, errUnsupported("minis3: syntax error near unexpected token `newline'")
	}
	return cl, nil
}

func indexRune(rs []rune, from int, r rune) int {
	for i := from; i < len(rs); i++ {
		if rs[i] == r {
			return i
		}
	}
	return -1
}

func isNameStart(r rune) bool {
	return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}
