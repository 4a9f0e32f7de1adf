package web_test

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"minis3/core"
	"minis3/internal/wire"
	"minis3/web"
)

// The course chapter's hands-on experiment, driven over HTTP with nothing
// but net/http: S3 requests for the bucket and the objects, the MiniS3
// extensions for the clock and the ticks. It prints the chapter's measured
// output.
func ExampleNewHandler() {
	store, err := core.Open(core.NewMemoryStorage(), core.Options{ManualClock: true})
	if err != nil {
		panic(err)
	}
	defer store.Close()
	srv := httptest.NewServer(web.NewHandler(store, web.Options{}))
	defer srv.Close()

	do := func(method, path, body string) (int, []byte) {
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			panic(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		if err != nil {
			panic(err)
		}
		return resp.StatusCode, data
	}
	tick := func() {
		_, out := do("POST", "/_minis3/buckets/demo/lifecycle-tick",
			`{"rules": [{"id": "logs", "prefix": "logs/", "expireCurrentAfter": 10, "expireNoncurrentAfter": 12}]}`)
		var res struct{ Actions []wire.Action }
		if err := json.Unmarshal(out, &res); err != nil {
			panic(err)
		}
		var items []string
		for _, a := range res.Actions {
			items = append(items, fmt.Sprintf("('%s', '%s')", a.Kind, a.VersionID))
		}
		fmt.Printf("[%s]\n", strings.Join(items, ", "))
	}

	do("PUT", "/demo", "")
	do("PUT", "/demo?versioning", `<VersioningConfiguration><Status>Enabled</Status></VersioningConfiguration>`)
	do("PUT", "/demo/logs/app.log", "old")
	do("PUT", "/_minis3/clock", `{"now": 5}`)
	do("PUT", "/demo/logs/app.log", "current")
	do("PUT", "/_minis3/clock", `{"now": 12}`)
	tick()
	do("PUT", "/_minis3/clock", `{"now": 15}`)
	tick()
	if status, body := do("GET", "/demo/logs/app.log", ""); status == http.StatusNotFound && strings.Contains(string(body), "<Code>NoSuchKey</Code>") {
		fmt.Println("current GET: NoSuchKey")
	}
	_, listing := do("GET", "/demo?versions", "")
	var versions struct {
		Entries []struct {
			XMLName   xml.Name
			VersionID string `xml:"VersionId"`
		} `xml:",any"`
	}
	if err := xml.Unmarshal(listing, &versions); err != nil {
		panic(err)
	}
	var items []string
	for _, e := range versions.Entries {
		switch e.XMLName.Local {
		case "Version":
			items = append(items, fmt.Sprintf("('%s', False)", e.VersionID))
		case "DeleteMarker":
			items = append(items, fmt.Sprintf("('%s', True)", e.VersionID))
		}
	}
	fmt.Printf("[%s]\n", strings.Join(items, ", "))
	// Output:
	// [('expire_noncurrent', 'v00000001')]
	// [('expire_current', 'v00000002')]
	// current GET: NoSuchKey
	// [('v00000003', True), ('v00000002', False)]
}
