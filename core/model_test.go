package core

import (
	"strings"
	"testing"
)

// A record's creation times and IDs (what lifecycle evaluation reads
// instead of its entries) must match its entries, or evaluation would
// select by a wrong age or name a wrong version; checkScan, which Check
// runs on every record, says which entry disagrees.
func TestCheckScanFindsColumnsThatDisagreeWithEntries(t *testing.T) {
	entries := func() []Entry { return []Entry{dm("v00000003", 9), v("v00000002", 5), v("v00000001", 1)} }
	tests := []struct {
		name   string
		damage func(r *ObjectRecord)
		want   string // in the error; "" for none
	}{
		{"a store-built record", func(*ObjectRecord) {}, ""},
		{"a stack of one", nil, ""},
		{"a record built by a caller", func(r *ObjectRecord) { r.created, r.ids = nil, nil }, "0 creation times and 0 IDs for 3 entries"},
		{"an ID missing", func(r *ObjectRecord) { r.ids = r.ids[:2] }, "3 creation times and 2 IDs"},
		{"a copy given another stack", func(r *ObjectRecord) { r.Versions = entries() }, "filled from this stack: false"},
		{"a copy given part of its stack", func(r *ObjectRecord) { r.Versions = r.Versions[1:] }, "3 creation times and 3 IDs for 2 entries"},
		{"a wrong time", func(r *ObjectRecord) { r.created[2] = 4 }, "entry v00000001 was created at 1, its record says 4"},
		{"a marker's time not NaN", func(r *ObjectRecord) { r.created[0] = 9 }, "entry v00000003 was created at NaN, its record says 9"},
		{"a wrong ID", func(r *ObjectRecord) { r.ids[1] = "v00000001" }, "entry 1 is v00000002, its record says v00000001"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newSingleRecord("k", v("null", 3))
			if tt.damage != nil {
				r = newRecord("k", entries())
				tt.damage(r)
			}
			err := r.checkScan()
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("checkScan: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("checkScan = %v, want an error with %q", err, tt.want)
			}
		})
	}
}
