//go:build !js

package jsapi_test

import (
	"reflect"
	"strings"
	"testing"

	"minis3/browser_test/chrome"
)

// TestFetchStreamBodyAcceptsWhatFetchAccepts sends store.fetch PUTs whose
// bodies are ReadableStreams of one kind of chunk each, and holds the
// answer to the browser's own rule for a stream body, asked of the same
// stream read as a Request's body: the chunks the browser reads are stored
// (200, and GET returns them), every other kind is refused with a 400 that
// names it, and nothing is stored. A plain body and an aws-chunked stream of
// strings, as the AWS SDK for JavaScript makes for a Blob, are checked too.
func TestFetchStreamBodyAcceptsWhatFetchAccepts(t *testing.T) {
	_, p, _ := openPage(t, "/test/jsapi.html")
	waitLoaded(t, p)
	type outcome struct {
		Kind          string
		BrowserReads  bool
		Status        int
		Code, Message string
		Stored        string
	}
	got := chrome.Eval[[]outcome](t, p, `
		const store = await minis3.open({ memory: true });
		await store.createBucket("demo");
		const stream = (chunk) => new ReadableStream({ start(c) { c.enqueue(chunk); c.close(); } });
		const kinds = {
			Uint8Array: () => new TextEncoder().encode("hello"),
			Int8Array: () => new Int8Array([104, 105]),
			DataView: () => new DataView(new Uint8Array([104, 105]).buffer),
			ArrayBuffer: () => new Uint8Array([104, 105]).buffer,
			string: () => "hello",
			number: () => 42,
			object: () => ({ length: 2 }),
			null: () => null,
		};
		const stored = async (res) => { const text = await res.text(); return res.status === 200 ? text : ""; };
		const out = [];
		for (const [kind, chunk] of Object.entries(kinds)) {
			let browserReads = true;
			try {
				await new Request("http://x/", { method: "PUT", body: stream(chunk()), duplex: "half" }).arrayBuffer();
			} catch { browserReads = false; }
			const res = await store.fetch("/demo/" + kind, { method: "PUT", body: stream(chunk()), duplex: "half" });
			const body = await res.text();
			const code = /<Code>(.*)<\/Code>/.exec(body)?.[1] ?? "";
			const message = /<Message>(.*)<\/Message>/s.exec(body)?.[1] ?? "";
			out.push({ Kind: kind, BrowserReads: browserReads, Status: res.status, Code: code, Message: message,
				Stored: await stored(await store.fetch("/demo/" + kind)) });
		}
		return out;`)
	if len(got) != 8 {
		t.Fatalf("got %d outcomes, want 8: %+v", len(got), got)
	}
	for _, o := range got {
		switch {
		case o.Kind == "Uint8Array" && !o.BrowserReads:
			t.Errorf("the browser refuses a stream of Uint8Array chunks; the test's premise is wrong")
		case o.BrowserReads && (o.Status != 200 || o.Stored == ""):
			t.Errorf("%s chunks: the browser reads them, store.fetch answered %d %s %q and stored %q", o.Kind, o.Status, o.Code, o.Message, o.Stored)
		case !o.BrowserReads && (o.Status != 400 || o.Code != "IncompleteBody" || o.Stored != ""):
			t.Errorf("%s chunks: the browser refuses them, store.fetch answered %d %s and stored %q; want 400 IncompleteBody, nothing stored", o.Kind, o.Status, o.Code, o.Stored)
		case !o.BrowserReads && !strings.Contains(o.Message, "every chunk must be a Uint8Array"):
			t.Errorf("%s chunks: message %q does not say what a chunk must be", o.Kind, o.Message)
		}
	}
	for _, o := range got {
		if o.Kind == "string" && !strings.Contains(o.Message, "this one is a string") {
			t.Errorf("string chunks: message %q does not name the chunk's kind", o.Message)
		}
	}

	// The AWS SDK for JavaScript's aws-chunked stream of a Blob body, with
	// its default CRC32 trailer: string chunks that hold the framing.
	chunked := chrome.Eval[outcome](t, p, `
		const store = await minis3.open({ memory: true });
		await store.createBucket("demo");
		const parts = ["5\r\nhello\r\n", "0\r\n", "x-amz-checksum-crc32:NhCmhg==\r\n", "\r\n"];
		const body = new ReadableStream({ start(c) { for (const s of parts) c.enqueue(s); c.close(); } });
		const res = await store.fetch("/demo/blob", { method: "PUT", body, duplex: "half", headers: {
			"content-encoding": "aws-chunked", "x-amz-decoded-content-length": "5",
			"x-amz-content-sha256": "STREAMING-UNSIGNED-PAYLOAD-TRAILER", "x-amz-trailer": "x-amz-checksum-crc32" } });
		const text = await res.text();
		const stored = await store.fetch("/demo/blob");
		await stored.text();
		return { Kind: "aws-chunked strings", Status: res.status, Code: /<Code>(.*)<\/Code>/.exec(text)?.[1] ?? "",
			Message: /<Message>(.*)<\/Message>/s.exec(text)?.[1] ?? "", Stored: String(stored.status) };`)
	if chunked.Status != 400 || chunked.Code != "IncompleteBody" || chunked.Stored != "404" || !strings.Contains(chunked.Message, "this one is a string") {
		t.Errorf("aws-chunked stream of strings: got %+v; want 400 IncompleteBody naming the string chunk, nothing stored (GET 404)", chunked)
	}
}

// TestFetchAnswersWhenABodyIsNeverRead leaves the bodies of store.fetch
// Responses unread (an error's, and a 1 MiB object's), as a page that looks
// only at the status does, and checks that the store still answers the
// requests that follow. (If a Response held the store until it was read,
// the next fetch would never settle and the script would time out.)
func TestFetchAnswersWhenABodyIsNeverRead(t *testing.T) {
	_, p, _ := openPage(t, "/test/jsapi.html")
	waitLoaded(t, p)
	got := chrome.Eval[[]int](t, p, `
		const store = await minis3.open({ memory: true });
		await store.createBucket("demo");
		const statuses = [];
		statuses.push((await store.fetch("/demo/missing")).status);
		statuses.push((await store.fetch("/demo/big", { method: "PUT", body: new Uint8Array(1 << 20) })).status);
		statuses.push((await store.fetch("/demo/big")).status);
		statuses.push((await store.fetch("/demo/big", { method: "HEAD" })).status);
		const list = await store.fetch("/demo");
		statuses.push(list.status, (await list.text()).includes("<Key>big</Key>") ? 1 : 0);
		return statuses;`)
	if want := []int{404, 200, 200, 200, 200, 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
