package terminal_test

import (
	"encoding/json"
	"encoding/xml"
	"slices"
	"strings"
	"testing"

	"minis3/internal/terminal"
)

// TestDescribeGivesAStructuredValueInOneFormWhateverItsSpelling: the
// spellings of each group (shorthand, JSON in any key order and spacing,
// file://) send the same request (but for the order of a structure's
// members, which the CLI sends as they were typed and S3 reads in any
// order), and Describe gives their options the same value, the parameter
// the CLI sends with its keys in order; groups that send different
// requests get different values.
func TestDescribeGivesAStructuredValueInOneFormWhateverItsSpelling(t *testing.T) {
	sh, _ := newShell(t)
	run(t, sh,
		"aws s3api create-bucket --bucket demo",
		`echo '{
    "Status": "Enabled"
}' > versioning.json`,
		`echo '{"Rules": [{"Status": "Enabled", "ID": "logs", "Expiration": {"Days": 30}, "Filter": {"Prefix": "logs/"}}]}' > lifecycle.json`,
		"echo body > body.txt",
	)
	groups := []struct {
		lines   []string
		options string // the options as JSON
	}{
		{[]string{
			"aws s3api put-bucket-versioning --bucket demo --versioning-configuration Status=Enabled",
			"aws s3api put-bucket-versioning --bucket demo --versioning-configuration=Status=Enabled",
			`aws s3api put-bucket-versioning --bucket demo --versioning-configuration '{"Status":"Enabled"}'`,
			`aws s3api put-bucket-versioning --versioning-configuration ' { "Status" :  "Enabled" } ' --bucket demo`,
			"aws s3api put-bucket-versioning --bucket demo --versioning-configuration file://versioning.json",
		}, `{"bucket":"demo","versioning-configuration":{"Status":"Enabled"}}`},
		{[]string{
			"aws s3api put-bucket-versioning --bucket demo --versioning-configuration Status=Suspended",
			`aws s3api put-bucket-versioning --bucket demo --versioning-configuration '{"Status": "Suspended"}'`,
		}, `{"bucket":"demo","versioning-configuration":{"Status":"Suspended"}}`},
		{[]string{
			"aws s3api put-bucket-lifecycle-configuration --bucket demo --lifecycle-configuration 'Rules=[{ID=logs,Status=Enabled,Filter={Prefix=logs/},Expiration={Days=30}}]'",
			`aws s3api put-bucket-lifecycle-configuration --bucket demo --lifecycle-configuration '{"Rules":[{"ID":"logs","Filter":{"Prefix":"logs/"},"Status":"Enabled","Expiration":{"Days":30}}]}'`,
			"aws s3api put-bucket-lifecycle-configuration --bucket demo --lifecycle-configuration file://lifecycle.json",
		}, `{"bucket":"demo","lifecycle-configuration":{"Rules":[{"Expiration":{"Days":30},"Filter":{"Prefix":"logs/"},"ID":"logs","Status":"Enabled"}]}}`},
		{[]string{
			"aws s3api put-bucket-lifecycle-configuration --bucket demo --lifecycle-configuration 'Rules=[{ID=logs,Status=Enabled,Filter={Prefix=logs/},Expiration={Days=31}}]'",
			`aws s3api put-bucket-lifecycle-configuration --bucket demo --lifecycle-configuration '{"Rules":[{"ID":"logs","Status":"Enabled","Filter":{"Prefix":"logs/"},"Expiration":{"Days":31}}]}'`,
		}, `{"bucket":"demo","lifecycle-configuration":{"Rules":[{"Expiration":{"Days":31},"Filter":{"Prefix":"logs/"},"ID":"logs","Status":"Enabled"}]}}`},
		{[]string{
			"aws s3api delete-objects --bucket demo --delete 'Objects=[{Key=a},{Key=b}],Quiet=true'",
			`aws s3api delete-objects --bucket demo --delete '{"Quiet": true, "Objects": [{"Key": "a"}, {"Key": "b"}]}'`,
		}, `{"bucket":"demo","delete":{"Objects":[{"Key":"a"},{"Key":"b"}],"Quiet":true}}`},
		{[]string{
			"aws s3api put-object --bucket demo --key k --body body.txt --metadata owner=me,team=ops",
			`aws s3api put-object --bucket demo --key k --body body.txt --metadata '{"team": "ops", "owner": "me"}'`,
		}, `{"body":"body.txt","bucket":"demo","key":"k","metadata":{"owner":"me","team":"ops"}}`},
		{[]string{
			"aws s3api list-objects-v2 --bucket demo --max-keys 5",
			"aws s3api list-objects-v2 --bucket demo --max-keys 05",
		}, `{"bucket":"demo","max-keys":5}`},
		{[]string{
			"aws s3 cp body.txt s3://demo/k --metadata owner=me,team=ops",
			`aws s3 cp body.txt s3://demo/k --metadata '{"team":"ops","owner":"me"}'`,
		}, `{"metadata":{"owner":"me","team":"ops"},"paths":["body.txt","s3://demo/k"]}`},
	}
	seen := map[string]bool{}
	for _, g := range groups {
		var first string
		for _, line := range g.lines {
			c, err := terminal.Describe(line, sh.Folder())
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			if data, _ := json.Marshal(c.AWS.Options); string(data) != g.options {
				t.Errorf("%s: options %s, want %s", line, data, g.options)
			}
			// What the CLI sent: every request, its method, path, headers
			// (but the body's checksum) and body.
			res := run(t, sh, line)
			if res.Status != 0 {
				t.Fatalf("%s: %+v", line, res)
			}
			var sent string
			for _, e := range res.Exchanges {
				sent += e.Method + " " + e.Path + "\n"
				for _, h := range e.RequestHeaders {
					if !strings.HasPrefix(h[0], "x-amz-checksum-") {
						sent += h[0] + ": " + h[1] + "\n"
					}
				}
				sent += membersInOrder(t, e.RequestBody) + "\n"
			}
			if first == "" {
				first = sent
			} else if sent != first {
				t.Errorf("%s sent\n%s\nnot what %s sent:\n%s", line, sent, g.lines[0], first)
			}
		}
		if seen[g.options] {
			t.Errorf("two groups describe their options as %s", g.options)
		}
		seen[g.options] = true
	}
}

// TestDescribeRefusesWhatTheCLIRefusesToSend: a structured value the CLI
// cannot read, a file that is not there, and a parameter of the wrong
// type make no description.
func TestDescribeRefusesWhatTheCLIRefusesToSend(t *testing.T) {
	sh, _ := newShell(t)
	for _, line := range []string{
		`aws s3api put-bucket-versioning --bucket demo --versioning-configuration '{"Status": '`,
		"aws s3api put-bucket-versioning --bucket demo --versioning-configuration 'Status=[Enabled'",
		"aws s3api put-bucket-versioning --bucket demo --versioning-configuration file://nothing.json",
		`aws s3api put-bucket-lifecycle-configuration --bucket demo --lifecycle-configuration '{"Rules": [{"Status": "Enabled", "Expiration": {"Days": "30"}}]}'`,
		"aws s3api list-objects-v2 --bucket demo --max-keys five",
		"aws s3 cp body.txt s3://demo/k --metadata '{\"owner\": '",
	} {
		if c, err := terminal.Describe(line, sh.Folder()); err == nil {
			t.Errorf("%s: described as %+v", line, c.AWS)
		}
		if res := run(t, sh, line); res.Status == 0 {
			t.Errorf("%s: the CLI ran it", line)
		}
	}
}

// element is an XML element with its children.
type element struct {
	XMLName  xml.Name
	Text     string    `xml:",chardata"`
	Children []element `xml:",any"`
}

// membersInOrder is an XML body with the children of each element sorted
// by name, a sort that keeps the order of elements of the same name (the
// items of a list): two bodies that differ only in the order of a
// structure's members come out the same. A body that is not XML (an
// object's) is as it is.
func membersInOrder(t *testing.T, body string) string {
	t.Helper()
	if !strings.HasPrefix(body, "<") {
		return body
	}
	var root element
	if err := xml.Unmarshal([]byte(body), &root); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	var sortChildren func(e *element)
	sortChildren = func(e *element) {
		slices.SortStableFunc(e.Children, func(a, b element) int { return strings.Compare(a.XMLName.Local, b.XMLName.Local) })
		for i := range e.Children {
			sortChildren(&e.Children[i])
		}
	}
	sortChildren(&root)
	out, err := xml.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
