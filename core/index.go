package core

import (
	"strings"

	"github.com/google/btree"
)

// keyIndex keeps a bucket's keys in ascending byte order, in a B-tree, so
// that a listing or a tick finds the keys it wants (those after a marker,
// those under a prefix) without reading the others, and a new key costs
// O(log n) whatever the bucket holds.
type keyIndex struct {
	tree *btree.BTreeG[string]
}

func newKeyIndex() keyIndex {
	return keyIndex{btree.NewOrderedG[string](32)}
}

func (x keyIndex) add(key string)    { x.tree.ReplaceOrInsert(key) }
func (x keyIndex) remove(key string) { x.tree.Delete(key) }
func (x keyIndex) len() int          { return x.tree.Len() }

// ascend calls fn for every key from the first at or after from, in
// order, until fn returns false.
func (x keyIndex) ascend(from string, fn func(key string) bool) {
	x.tree.AscendGreaterOrEqual(from, fn)
}

// first is the first key at or after from.
func (x keyIndex) first(from string) (key string, ok bool) {
	x.ascend(from, func(k string) bool {
		key, ok = k, true
		return false
	})
	return key, ok
}

// after is the first key after key.
func (x keyIndex) after(key string) (string, bool) {
	return x.first(key + "\x00")
}

// under calls fn for every key that starts with prefix, in order, until
// fn returns false.
func (x keyIndex) under(prefix string, fn func(key string) bool) {
	x.ascend(prefix, func(k string) bool {
		return strings.HasPrefix(k, prefix) && fn(k)
	})
}

// firstAfterPrefix is the first key that neither starts with prefix nor
// comes before it: where a listing goes on after a common prefix.
func (x keyIndex) firstAfterPrefix(prefix string) (key string, ok bool) {
	// The least string after every one that starts with prefix: prefix with
	// its last byte below 0xff raised by one and what follows it cut off.
	for i := len(prefix) - 1; i >= 0; i-- {
		if prefix[i] != 0xff {
			return x.first(prefix[:i] + string([]byte{prefix[i] + 1}))
		}
	}
	return "", false
}
