package workertest

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// TestDurableObjectStorageConformance runs package dostore's tests, among
// them core/storagetest's conformance suite, inside a Durable Object over
// its SQLite storage (testdata/conformance.mjs), and checks that every one
// ran and passed.
func TestDurableObjectStorageConformance(t *testing.T) {
	w := startConformance(t)
	resp, err := w.http.Post(w.URL+"/?arg=-test.v&arg=-test.count=1", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var run struct {
		Code   *int
		Output string
	}
	if err := json.Unmarshal(body, &run); err != nil {
		t.Fatalf("%d %s: %v", resp.StatusCode, body, err)
	}
	if run.Code == nil || *run.Code != 0 || !strings.HasSuffix(run.Output, "PASS\n") {
		t.Fatalf("the dostore tests exited with %v:\n%s", run.Code, run.Output)
	}
	for _, want := range []string{
		"--- PASS: TestConformance/CommitThenLoadSeesEveryNonBodyItem",
		"--- PASS: TestConformance/LargeBodyRoundTrips",
		"--- PASS: TestConformance/ConcurrentReadsAndCommits",
		"--- PASS: TestConformance ",
		"--- PASS: TestFailedCommitKeepsNothing",
		"--- PASS: TestLargeValuesAreKeptInParts",
		"--- PASS: TestClosedStorageRefusesEveryCall",
	} {
		if !strings.Contains(run.Output, want) {
			t.Errorf("no %q in the output:\n%s", want, run.Output)
		}
	}
}
