package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The playground's files, where make wasm builds the wasm the checker runs.
const staticDir = "../../static"

// checkScenarios runs "minis3 scenario check" on files and returns its
// exit status and what it printed on stdout, line by line.
func checkScenarios(t *testing.T, files ...string) (int, []string) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("minis3 scenario check runs Node.js, and there is no node on the PATH (make test-native installs it)")
	}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), append([]string{"scenario", "check", "--static", staticDir}, files...), &stdout, &stderr)
	if stderr.Len() > 0 {
		t.Logf("stderr: %s", stderr.String())
	}
	return code, strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
}

// TestScenarioCheckRefusesUnsoundExercises checks that the checker names
// what is wrong with each file, in one line each: a solution that does not
// solve its task, a task solved on the stage alone, a stage step that
// fails, a misspelt field in a check's pattern, a file that is not JSON.
func TestScenarioCheckRefusesUnsoundExercises(t *testing.T) {
	dir := filepath.Join("testdata", "scenarios")
	want := map[string]string{
		"unsolvable.json":      `the solution does not pass "The versions of a": not yet as asked: a: delete marker (current, on top) should be there; a: v00000001 should be noncurrent, below the top`,
		"solved-at-start.json": "the task is solved on the stage alone: every check passes before the student does anything",
		"stage-fails.json":     `steps[1] (PUT demo/a ("one")): failed with NoSuchBucket: The specified bucket does not exist`,
		"misspelt.json":        `task.checks[0].versions[1]: unknown field "versionID" (did you mean "versionId"?)`,
		"not-json.json":        "not valid JSON: Unexpected end of JSON input",
	}
	var files, lines []string
	for name, problem := range want {
		files = append(files, filepath.Join(dir, name))
		lines = append(lines, filepath.Join(dir, name)+": "+problem)
	}
	code, got := checkScenarios(t, files...)
	if code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	lines = append(lines, "5 file(s) checked: 0 sound, 5 not")
	slices.Sort(lines)
	slices.Sort(got)
	if !slices.Equal(got, lines) {
		t.Errorf("report:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(lines, "\n"))
	}
}

// TestScenarioCheckNamesEveryMisspeltField misspells, one at a time, each
// kind of field of a sound exercise that has them all, and checks that the
// checker refuses it with the field's path and the name meant.
func TestScenarioCheckNamesEveryMisspeltField(t *testing.T) {
	sound, err := os.ReadFile(filepath.Join("testdata", "scenarios", "every-field.json"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, spelt, misspelt, want string
	}{
		{"top level", `"title":`, `"titel":`, `unknown field "titel" (did you mean "title"?)`},
		{"op", `"op": "createBucket"`, `"op": "createbucket"`, `steps[1].op: unknown op "createbucket" (did you mean "createBucket"?)`},
		{"step", `"body": "two"`, `"bodi": "two"`, `steps[4]: unknown field "bodi" (did you mean "body"?)`},
		{"expect", `"expect": {"versionId"`, `"expcet": {"versionId"`, `steps[3]: unknown field "expcet" (did you mean "expect"?)`},
		{"expectation", `"expect": {"body"`, `"expect": {"Body"`, `steps[10].expect: unknown field "Body" (did you mean "body"?)`},
		{"tag", `"value": "web"`, `"Value": "web"`, `steps[3].tags[0]: unknown field "Value" (did you mean "value"?)`},
		{"rule", `"expireNoncurrentAfter": 10`, `"expireNonCurrentAfter": 10`, `steps[6].rules[0]: unknown field "expireNonCurrentAfter" (did you mean "expireNoncurrentAfter"?)`},
		{"action pattern", `"key": "logs/a", "versionId": "v00000001"}]`, `"key": "logs/a", "versionID": "v00000001"}]`, `steps[8].expect.actions[0]: unknown field "versionID" (did you mean "versionId"?)`},
		{"counted pattern", `"count": 1`, `"cuont": 1`, `steps[8].expect.include[0]: unknown field "cuont" (did you mean "count"?)`},
		{"version pattern", `"isLatest": false`, `"islatest": false`, `steps[11].expect.versions[1]: unknown field "islatest" (did you mean "isLatest"?)`},
		{"task", `"hints":`, `"hint":`, `task: unknown field "hint" (did you mean "hints"?)`},
		{"answer", `{"label": "Versions left:"}`, `{"lable": "Versions left:"}`, `task.answer: unknown field "lable" (did you mean "label"?)`},
		{"check", `"hint": "Press Tick."`, `"hnit": "Press Tick."`, `task.checks[0]: unknown field "hnit" (did you mean "hint"?)`},
		{"did", `"at": 10}`, `"At": 10}`, `task.checks[0].did: unknown field "At" (did you mean "at"?)`},
		{"check's expect", `"expect": {"include"`, `"expect": {"inclued"`, `task.checks[0].expect: unknown field "inclued" (did you mean "include"?)`},
		{"check's pattern", `{"versionId": "v00000002", "key": "logs/a"}`, `{"versionID": "v00000002", "key": "logs/a"}`, `task.checks[2].versions[0]: unknown field "versionID" (did you mean "versionId"?)`},
		{"s3Rules, nested", `{"Expiration": {"Days": 3}, "Filter"`, `{"Expiration": {"days": 3}, "Filter"`, `task.checks[3].s3Rules[0].Expiration: unknown field "days" (did you mean "Days"?)`},
		{"solution", `"answer": "1"`, `"answr": "1"`, `task.solution: unknown field "answr" (did you mean "answer"?)`},
		{"solution step", `[{"op": "tick"}]`, `[{"op": "tick", "buckt": "demo"}]`, `task.solution.steps[0]: unknown field "buckt" (did you mean "bucket"?)`},
	}
	dir := t.TempDir()
	var files, want []string
	for i, tt := range tests {
		if !bytes.Contains(sound, []byte(tt.spelt)) {
			t.Fatalf("%s: every-field.json has no %s", tt.name, tt.spelt)
		}
		file := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json")
		if err := os.WriteFile(file, bytes.Replace(sound, []byte(tt.spelt), []byte(tt.misspelt), 1), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, file)
		want = append(want, file+": "+tests[i].want)
	}
	code, got := checkScenarios(t, files...)
	if code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	want = append(want, "19 file(s) checked: 0 sound, 19 not")
	if !slices.Equal(got, want) {
		t.Errorf("report:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestScenarioCheckAcceptsSoundExercise checks the exercise with every
// kind of field as written: it is sound, and the status is 0.
func TestScenarioCheckAcceptsSoundExercise(t *testing.T) {
	file := filepath.Join("testdata", "scenarios", "every-field.json")
	code, got := checkScenarios(t, file)
	want := []string{file + ": OK", "1 file(s) checked: 1 sound, 0 not"}
	if code != 0 || !slices.Equal(got, want) {
		t.Errorf("exit status %d, report %q; want 0, %q", code, got, want)
	}
}

// TestScenarioCheckCannotRead checks that a file that cannot be read is a
// status of 2, named on stderr.
func TestScenarioCheckCannotRead(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"scenario", "check", "--static", staticDir, filepath.Join(t.TempDir(), "missing.json")}, &stdout, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "missing.json: cannot read it") {
		t.Errorf("exit status %d, stderr %q; want 2 naming missing.json", code, stderr.String())
	}
}

// TestScenarioCheckWithoutNode checks that the command says it needs
// Node.js when there is no node on the PATH.
func TestScenarioCheckWithoutNode(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"scenario", "check", "--static", staticDir, "x.json"}, &stdout, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "Node.js") {
		t.Errorf("exit status %d, stderr %q; want 2 naming Node.js", code, stderr.String())
	}
}

// TestNodeDOMParser checks the DOMParser that scenario-check.mjs gives
// the page's S3 client under Node (static/node-domparser.mjs): S3's XML
// read as a browser reads it, and text that is not well formed read as a
// document holding a parsererror.
func TestNodeDOMParser(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("the DOMParser is Node's: there is no node on the PATH (make test-native installs it)")
	}
	const script = `
		const { DOMParser } = await import(process.argv[1]);
		const read = (xml) => new DOMParser().parseFromString(xml, "application/xml");
		const doc = read('<?xml version="1.0" encoding="UTF-8"?>\n<!-- S3 --><Tagging xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><TagSet>' +
			'<Tag><Key>a&amp;b</Key><Value>&#x263A;&lt;&#65;</Value></Tag><Tag><Key><![CDATA[<c>]]></Key><Value/></Tag></TagSet></Tagging>');
		const root = doc.documentElement;
		const tags = doc.getElementsByTagName("Tag").map((t) => t.children.map((c) => c.localName + "=" + c.textContent).join(","));
		const out = [root.nodeName, root.localName, root.getAttribute("xmlns"), doc.nodeType, root.nodeType, root.childNodes[0].childNodes.length, ...tags,
			read("<s3:Error xmlns:s3='x'><s3:Code>NoSuchKey</s3:Code>\n</s3:Error>").documentElement.children[0].localName,
			read("<a> x </a>").documentElement.childNodes[0].nodeType];
		for (const bad of ["<a>", "<a></b>", "<a>&bogus;</a>", "<a/><b/>", "text", "", "<a x=1/>", "<a>&</a>"]) {
			const d = read(bad);
			out.push(d.getElementsByTagName("parsererror").length + ":" + d.documentElement.nodeName);
		}
		console.log(JSON.stringify(out));`
	parser, err := filepath.Abs(filepath.Join(staticDir, "node-domparser.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("node", "--input-type=module", "-e", script, parser).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	want := `["Tagging","Tagging","http://s3.amazonaws.com/doc/2006-03-01/",9,1,2,"Key=a&b,Value=☺<A","Key=<c>,Value=","Code",3,` +
		`"1:parsererror","1:parsererror","1:parsererror","1:parsererror","1:parsererror","1:parsererror","1:parsererror","1:parsererror"]`
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
