//go:build js && wasm

package wasm_test

import (
	"syscall/js"
	"testing"
)

// eval evaluates a JavaScript expression, as a page's hostile caller
// builds an argument.
func eval(expr string) js.Value {
	return js.Global().Get("Function").New("return (" + expr + ")").Invoke()
}

// TestHostileArguments calls every kind of method with arguments of the
// wrong type, out-of-range numbers, objects whose keys try to pollute
// prototypes, cycles, and objects whose getters or Proxy traps throw (which
// would kill the Go instance if syscall/js read them: see plainCopy). Each
// call rejects with InvalidArgument; the store keeps working afterwards.
func TestHostileArguments(t *testing.T) {
	minis3 := newAPI().Value()
	store := openStore(t, minis3, `{"memory": true}`)
	call(t, store, "createBucket", "demo")
	call(t, store, "setBucketVersioning", "demo", "enabled")
	call(t, store, "put", "demo", "k", "body")
	upload := call(t, store, "createMultipartUpload", "demo", "m").Get("uploadId").String()
	throwing := eval(`Object.defineProperty({}, "versionId", { enumerable: true, get() { throw new Error("hostile getter") } })`)
	cases := []struct {
		name   string
		obj    js.Value
		method string
		args   []any
		code   string
	}{
		{"BucketNumber", store, "put", []any{1, "k", "x"}, "InvalidArgument"},
		{"KeyObject", store, "put", []any{"demo", eval(`{}`), "x"}, "InvalidArgument"},
		{"KeySymbol", store, "get", []any{"demo", eval(`Symbol("k")`)}, "InvalidArgument"},
		{"KeyBigInt", store, "get", []any{"demo", eval(`10n`)}, "InvalidArgument"},
		{"KeyMissing", store, "get", []any{"demo"}, "InvalidArgument"},
		{"BodyNull", store, "put", []any{"demo", "k", js.Null()}, "InvalidArgument"},
		{"BodyArray", store, "put", []any{"demo", "k", eval(`[1, 2, 3]`)}, "InvalidArgument"},
		{"ClockNaN", store, "setClock", []any{eval(`NaN`)}, "InvalidArgument"},
		{"ClockInfinity", store, "setClock", []any{eval(`Infinity`)}, "InvalidArgument"},
		{"ClockString", store, "setClock", []any{"1e9"}, "InvalidArgument"},
		{"PartNumberHuge", store, "uploadPart", []any{"demo", "m", upload, 1e300, "x"}, "InvalidArgument"},
		{"PartNumberNaN", store, "uploadPart", []any{"demo", "m", upload, eval(`NaN`), "x"}, "InvalidArgument"},
		{"PartNumberFraction", store, "uploadPart", []any{"demo", "m", upload, 1.5, "x"}, "InvalidArgument"},
		{"PartNumberNegative", store, "uploadPart", []any{"demo", "m", upload, -1, "x"}, "InvalidArgument"},
		{"PartsNotArray", store, "completeMultipartUpload", []any{"demo", "m", upload, eval(`{length: 1e9}`)}, "InvalidArgument"},
		{"PartNull", store, "completeMultipartUpload", []any{"demo", "m", upload, eval(`[null]`)}, "InvalidArgument"},
		{"RulesProto", store, "evaluate", []any{"demo", eval(`JSON.parse('[{"__proto__": {"expireCurrentAfter": 1}, "id": "r"}]')`)}, "InvalidArgument"},
		{"RulesConstructor", store, "tick", []any{"demo", eval(`[{"id": "r", "constructor": {"prototype": {"polluted": 1}}, "expireCurrentAfter": 1}]`)}, "InvalidArgument"},
		{"RuleThresholdNaN", store, "evaluate", []any{"demo", eval(`[{"id": "r", "expireCurrentAfter": NaN}]`)}, "InvalidArgument"},
		{"RuleThresholdHuge", store, "evaluate", []any{"demo", eval(`[{"id": "r", "expireCurrentAfter": 1e400}]`)}, "InvalidArgument"},
		{"RuleNotObject", store, "evaluate", []any{"demo", eval(`["r"]`)}, "InvalidArgument"},
		{"RulesCyclic", store, "evaluate", []any{"demo", eval(`(() => { const r = [{ id: "r" }]; r[0].self = r; return r })()`)}, "InvalidArgument"},
		{"OptionsProto", store, "get", []any{"demo", "k", eval(`JSON.parse('{"__proto__": {"versionId": "v00000001"}}')`)}, "InvalidArgument"},
		{"OptionsString", store, "get", []any{"demo", "k", "v00000001"}, "InvalidArgument"},
		{"OptionsThrowingGetter", store, "get", []any{"demo", "k", throwing}, "InvalidArgument"},
		{"ProxyTrapThrows", store, "put", []any{"demo", "k", "x", eval(`new Proxy({}, { ownKeys() { throw new Error("hostile trap") } })`)}, "InvalidArgument"},
		{"LifecycleCyclic", store, "putBucketLifecycle", []any{"demo", eval(`(() => { const c = { Rules: [] }; c.Rules.push(c); return c })()`)}, "InvalidArgument"},
		{"LifecycleThrowingGetter", store, "putBucketLifecycle", []any{"demo", eval(`Object.defineProperty({}, "Rules", { enumerable: true, get() { throw new Error("hostile getter") } })`)}, "InvalidArgument"},
		{"LifecycleProto", store, "putBucketLifecycle", []any{"demo", eval(`JSON.parse('{"__proto__": {"Rules": []}}')`)}, "InvalidArgument"},
		{"LifecycleBigInt", store, "putBucketLifecycle", []any{"demo", eval(`{ Rules: [{ ID: "r", Status: "Enabled", Filter: {}, Expiration: { Days: 1n } }] }`)}, "InvalidArgument"},
		{"LifecycleDaysHuge", store, "putBucketLifecycle", []any{"demo", eval(`{ Rules: [{ ID: "r", Status: "Enabled", Filter: {}, Expiration: { Days: 1e300 } }] }`)}, "InvalidArgument"},
		{"LifecycleFunction", store, "putBucketLifecycle", []any{"demo", eval(`() => ({ Rules: [] })`)}, "InvalidArgument"},
		{"TagsProxy", store, "put", []any{"demo", "k", "x", eval(`{ tags: new Proxy([], { get() { throw new Error("hostile trap") } }) }`)}, "InvalidArgument"},
		{"TagKeySymbol", store, "putObjectTagging", []any{"demo", "k", eval(`[{ key: Symbol("k"), value: "v" }]`)}, "InvalidArgument"},
		{"TagsArrayLike", store, "putObjectTagging", []any{"demo", "k", eval(`{ length: 1, 0: { key: "k", value: "v" } }`)}, "InvalidArgument"},
		{"TaggingOptionsThrowingGetter", store, "getObjectTagging", []any{"demo", "k", throwing}, "InvalidArgument"},
		{"ScheduleRulesCyclic", store, "expirationSchedule", []any{"demo", eval(`(() => { const r = [{ id: "r" }]; r[0].self = r; return r })()`)}, "InvalidArgument"},
		{"OpenDBNumber", minis3, "open", []any{eval(`{db: 7}`)}, "InvalidArgument"},
		{"OpenMinPartSizeNaN", minis3, "open", []any{eval(`{memory: true, minPartSize: NaN}`)}, "InvalidArgument"},
		{"OpenProto", minis3, "open", []any{eval(`JSON.parse('{"__proto__": {"memory": true}}')`)}, "InvalidArgument"},
		{"DeleteDatabaseObject", minis3, "deleteDatabase", []any{eval(`{}`)}, "InvalidArgument"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := fail(t, c.obj, c.method, c.args...)
			if got := e.Get("code").String(); got != c.code {
				t.Errorf("code = %s (%s), want %s", got, e.Get("message"), c.code)
			}
		})
	}
	if polluted := eval(`({}).polluted`); !polluted.IsUndefined() {
		t.Errorf("Object.prototype was polluted: polluted = %v", polluted)
	}
	// The instance survived: the store still answers.
	if got := call(t, store, "get", "demo", "k").Get("text").String(); got != "body" {
		t.Fatalf("get after the hostile calls = %q, want body", got)
	}
}
