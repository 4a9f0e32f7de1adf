package core

import (
	"encoding/json"
	"fmt"
)

// The stored items other than entries and bodies are JSON (format.go): the
// store metadata, bucket metadata and tags, lifecycle configurations
// (lifecycle_json.go) and uploads. encoding/json writes and reads them as
// the json tags of their types say; testdata/stored-items.txt keeps the
// bytes of each kind.

// itemJSON is v, a stored item, as JSON. The items hold strings, integers,
// bools, maps of strings and finite numbers (the clock refuses others),
// all of which encoding/json writes: a failure is a bug in the store.
func itemJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("minis3: a stored item of type %T cannot be written as JSON: %v", v, err))
	}
	return b
}
