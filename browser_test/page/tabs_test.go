//go:build !js

package page

import (
	"testing"

	"minis3/browser_test/chrome"
)

// TestTwoPlaygroundTabsShareTheStore opens the playground twice in one
// browser (one origin, one IndexedDB database) and works in both through
// the UI: each tab shows the other's changes without being touched,
// neither loses the other's versions, and no version ID is handed out
// twice.
func TestTwoPlaygroundTabsShareTheStore(t *testing.T) {
	t.Parallel()
	url := site(t) + "/"
	b := chrome.Launch(t)
	p1 := b.Open(t, url)
	p2 := b.Open(t, url)
	for _, p := range []*chrome.Page{p1, p2} {
		noDialogs(t, p)
		waitReady(t, p)
	}
	shows := func(id string) string {
		return `document.querySelector('#stacks .stack[data-key="k"] li.entry[data-version-id="` + id + `"]') !== null`
	}

	act(t, p1, typeInto("#new-bucket", "shared"), click("#create-bucket-form button[type=submit]"))
	act(t, p1, click("#enable-btn"))
	act(t, p1, typeInto("#obj-key", "k"), typeInto("#obj-body", "from tab 1"), click("#put-btn"))
	p2.WaitFor(t, shows("v00000001"))

	act(t, p2, typeInto("#obj-key", "k"), typeInto("#obj-body", "from tab 2"), click("#put-btn"))
	p1.WaitFor(t, shows("v00000002"))
	act(t, p1, typeInto("#obj-body", "tab 1 again"), click("#put-btn"))
	p2.WaitFor(t, shows("v00000003"))

	setClock(t, p2, "7")
	p1.WaitFor(t, `document.getElementById("clock-now").textContent === "7"`)

	want := []entry{
		{VersionID: "v00000003", Kind: "data", Current: true},
		{VersionID: "v00000002", Kind: "data"},
		{VersionID: "v00000001", Kind: "data"},
	}
	for _, p := range []*chrome.Page{p1, p2} {
		waitReady(t, p)
		wantStack(t, stacks(t, p), "k", want)
	}
}
