// Package jsonv reads and writes the few JSON shapes MiniS3 uses, without
// reflection, so that the WebAssembly build need not link encoding/json.
//
// Writing is append-style: AppendString and AppendFloat write exactly the
// bytes encoding/json writes for a string (HTML-safe escaping included) and
// a finite float64, AppendArray and AppendStringMap those of a slice and a
// map[string]string; the callers write the object keys and the integers
// (strconv) themselves.
//
// Reading takes two passes over one JSON document, as encoding/json's
// Unmarshal does: NewDecoder checks the whole document first and reports a
// *SyntaxError with its offset, then the caller reads it into Go values
// with the Decoder's methods and Slice, Pointer and Unmarshal, which follow
// encoding/json's rules: object member names match field names exactly or
// under case folding, the last of repeated members wins, null leaves a
// string, number or bool as it is and sets a slice, map or pointer to nil,
// unknown members are skipped (refused with Strict), and a value of the
// wrong type or a number that does not fit is a *TypeError.
package jsonv
