//go:build !js

package page

import (
	"strings"
	"testing"
)

// TestS3RulesCheckReadsTheStoredConfiguration evaluates the s3Rules check
// (exercise.js) over stored S3 lifecycle configurations, as the store
// answers them: the rules asked for, in any order, with nested patterns
// and null for a part that must be absent; a failed check names the parts
// of the closest stored rule that differ, not the values asked for. A
// pattern that is not one is refused when the task loads.
func TestS3RulesCheckReadsTheStoredConfiguration(t *testing.T) {
	t.Parallel()
	p := modulePage(t)
	task := func(patterns string) string {
		return `{ "prompt": "p", "checks": [{ "label": "The configuration stored on demo", "s3Rules": ` + patterns + ` }], "solution": { "text": "s" } }`
	}
	const newest2 = `[{ "Status": "Enabled", "Filter": { "Prefix": "logs/" }, "NoncurrentVersionExpiration": { "NewerNoncurrentVersions": 2 }, "Expiration": null }]`
	const stored = `{ "ID": "keep-2", "Status": "Enabled", "Filter": { "Prefix": "logs/" }, "NoncurrentVersionExpiration": { "NoncurrentDays": 1, "NewerNoncurrentVersions": 2 } }`
	const other = `{ "ID": "tmp", "Status": "Enabled", "Filter": { "Prefix": "tmp/" }, "Expiration": { "Days": 1 } }`
	tests := []struct {
		name, patterns, s3Rules string
		pass                    bool
		// says: what a failed check says; secret: what it must not.
		says, secret string
	}{
		{"the rule asked for", newest2, `[` + stored + `]`, true, "as asked", ""},
		{"two rules in another order", `[{ "Filter": { "Prefix": "tmp/" } }, { "Filter": { "Prefix": "logs/" } }]`, `[` + stored + `, ` + other + `]`, true, "as asked", ""},
		{"nothing stored", newest2, `[]`, false, "nothing is stored on the bucket yet", ""},
		{"one rule too many", newest2, `[` + stored + `, ` + other + `]`, false, "the stored configuration has 2 rules", ""},
		{"days without the count", newest2, `[{ "ID": "days", "Status": "Enabled", "Filter": { "Prefix": "logs/" }, "NoncurrentVersionExpiration": { "NoncurrentDays": 1 } }]`,
			false, "its NoncurrentVersionExpiration.NewerNoncurrentVersions is not what is asked", "2"},
		{"a part that must be absent", newest2, `[{ "ID": "both", "Status": "Enabled", "Filter": { "Prefix": "logs/" }, "Expiration": { "Days": 3 }, "NoncurrentVersionExpiration": { "NoncurrentDays": 1, "NewerNoncurrentVersions": 2 } }]`,
			false, "its Expiration is not what is asked", ""},
		{"another prefix and disabled", newest2, `[{ "ID": "off", "Status": "Disabled", "Filter": { "Prefix": "log/" }, "NoncurrentVersionExpiration": { "NoncurrentDays": 1, "NewerNoncurrentVersions": 2 } }]`,
			false, "its Status and Filter.Prefix are not what is asked", "logs/"},
		{"none asked, none stored", `[]`, `[]`, true, "nothing stored", ""},
		{"none asked, one stored", `[]`, `[` + other + `]`, false, "a configuration of 1 rule is stored on the bucket", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := evaluate(t, p, task(tt.patterns), `{ "s3Rules": `+tt.s3Rules+` }`)
			if got.Error != "" {
				t.Fatalf("checkTask: %s", got.Error)
			}
			if len(got.Checks) != 1 || got.Checks[0].Pass != tt.pass {
				t.Fatalf("got %+v, want pass=%v", got, tt.pass)
			}
			said := got.Checks[0].Detail + " " + strings.Join(got.Checks[0].Lines, " ")
			if !strings.Contains(said, tt.says) {
				t.Errorf("the check says %q, want %q", said, tt.says)
			}
			if tt.secret != "" && strings.Contains(said, tt.secret) {
				t.Errorf("the check says %q: it gives away %q", said, tt.secret)
			}
		})
	}

	refused := []struct{ name, patterns, want string }{
		{"not a list", `{ "Status": "Enabled" }`, "must be a list of patterns"},
		{"a rule that is not an object", `["logs/"]`, "checks[0].s3Rules[0]: is not an object"},
		{"a list inside a pattern", `[{ "Transitions": [{ "Days": 30 }] }]`, `checks[0].s3Rules[0].Transitions: must be text, a number, true/false or null`},
		{"a nested list", `[{ "Filter": { "And": { "Tags": [] } } }]`, `checks[0].s3Rules[0].Filter.And.Tags: must be`},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			if got := evaluate(t, p, task(tt.patterns), `{}`); !strings.Contains(got.Error, tt.want) {
				t.Errorf("error %q, want it to contain %q", got.Error, tt.want)
			}
		})
	}
}
