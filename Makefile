# The project's commands. `make test` is what CI and a new user run.
SHELL := /bin/bash
GO ?= go
GENERATED := gen/aqp/types.gen.go gen/aqp/enums.gen.go gen/api/api.gen.go
INTEROP_DIR := .interop/node_modules

.PHONY: all build generate check-generated test vet lint interop bench fuzz install-check clean

all: build

build:
	$(GO) build ./...

## generate: regenerate gen/ from spec/
generate:
	./scripts/generate.sh gen

## check-generated: fail when gen/ is not what `make generate` would write
check-generated:
	@tmp=$$(mktemp -d) && trap 'rm -rf $$tmp' EXIT && \
	./scripts/generate.sh $$tmp && \
	for f in $(GENERATED); do \
	  if ! cmp -s $$f $$tmp/$${f#gen/}; then \
	    echo "$$f is stale: spec/ changed without 'make generate' (diff below)"; \
	    diff -u $$f $$tmp/$${f#gen/} | head -40; exit 1; \
	  fi; \
	done && echo "gen/ is up to date with spec/"

vet:
	$(GO) vet ./...

## test: generated code fresh, vet clean, every test under the race detector (PostgreSQL on 127.0.0.1:5432); run
## by gotestsum, whose summary at the end names every test that was skipped, with the reason it gave
test: check-generated vet
	$(GO) run gotest.tools/gotestsum --format pkgname-and-test-fails --format-hide-empty-pkg -- -race -count=1 ./...

lint: vet
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v '^gen/')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

## interop: every standalone vector's verdict checked by ajv (2020-12, ajv-formats); every response re-encoded by
## node's JSON.parse/JSON.stringify keeps its canonical encoding (D16); 20,000 mutants of the valid vectors get the
## same verdict from core and ajv, or a different one for a reason a rule of conformance/internal/differential names;
## every carriage vector read by an independent decoder in plain node
interop: $(INTEROP_DIR) interop-mcp interop-a2a conformance-report install-check interop-examples
	node conformance/interop/ajv-check.mjs
	node conformance/interop/carriage-check.mjs
	set -o pipefail; $(GO) run ./conformance/internal/reencode emit | node conformance/interop/reencode.mjs | $(GO) run ./conformance/internal/reencode check
	$(GO) build -o .interop/differential ./conformance/internal/differential
	set -o pipefail; .interop/differential emit -n 20000 | node conformance/interop/differential.mjs | .interop/differential compare -min 20000

$(INTEROP_DIR): conformance/interop/package.json conformance/interop/package-lock.json
	mkdir -p .interop
	cp conformance/interop/package.json conformance/interop/package-lock.json .interop/
	cd .interop && npm ci --no-audit --no-fund --silent
	touch $(INTEROP_DIR)

## conformance-report: the full conformance run — `aqp conformance collector --binding all` against a fresh
## `aqp serve` (SQLite) and `aqp conformance respondent` over every binding against `aqp respond` — into
## .interop/conformance-report/ (collector.json, respondent.json, JUnit XML, index.html), then index.html rendered
## in headless Chromium (Debian's chromium), which must lay out the matrix with no failing cell; report.png beside it
.PHONY: conformance-report
conformance-report:
	mkdir -p bin && $(GO) build -o bin/aqp ./cmd/aqp
	scripts/conformance-report.sh bin/aqp .interop/conformance-report

## interop-mcp: the official MCP TypeScript SDKs — 1.x, and today's 2.x client in each negotiation mode (2025's
## initialize, auto, pinned to 2026-07-28) — drive the MCP binding of a fresh `aqp serve`; a 2.x tool server's
## carried query is answered by `aqp respond --from URL --carrier mcp`
.PHONY: interop-mcp
interop-mcp: .interop-mcp/node_modules
	mkdir -p bin && $(GO) build -o bin/aqp ./cmd/aqp
	cp conformance/interop/mcp/interop.mjs conformance/interop/mcp/interop-v2.mjs conformance/interop/mcp/tool-server-v2.mjs .interop-mcp/
	conformance/interop/mcp/run.sh .interop-mcp bin/aqp

.interop-mcp/node_modules: conformance/interop/mcp/package.json conformance/interop/mcp/package-lock.json
	mkdir -p .interop-mcp
	cp conformance/interop/mcp/package.json conformance/interop/mcp/package-lock.json .interop-mcp/
	cd .interop-mcp && npm ci --no-audit --no-fund --silent
	touch .interop-mcp/node_modules

## interop-a2a: the A2A JavaScript SDK's clients against a real `aqp serve` on a free loopback port, one
## generation each: @a2a-js/sdk 0.3.x over A2A 0.3 JSON-RPC (message/send), and @a2a-js/sdk 1.x over A2A 1.0 —
## the ClientFactory's default choice, then JSON-RPC, HTTP+JSON and gRPC explicitly. Each: the agent card,
## accepted, rejected and wrongly authorised responses, streaming, and the HTTPS binding's identical receipt for
## the same response. Then the other direction: an @a2a-js/sdk 1.x agent carries a query in its reply's metadata
## and `aqp respond --from <agent> --carrier a2a` answers it
.PHONY: interop-a2a interop-a2a-v03 interop-a2a-v1
INTEROP_A2A_DIR := .interop-a2a/node_modules
INTEROP_A2A_V1_DIR := .interop-a2a-v1/node_modules
interop-a2a: interop-a2a-v03 interop-a2a-v1

interop-a2a-v03: $(INTEROP_A2A_DIR)
	$(GO) build -o .interop-a2a/aqp ./cmd/aqp
	cp conformance/interop/a2a/a2a-check.mjs .interop-a2a/
	node .interop-a2a/a2a-check.mjs .interop-a2a/aqp

interop-a2a-v1: $(INTEROP_A2A_V1_DIR)
	$(GO) build -o .interop-a2a-v1/aqp ./cmd/aqp
	cp conformance/interop/a2a/v1/a2a-check-v1.mjs .interop-a2a-v1/
	node .interop-a2a-v1/a2a-check-v1.mjs .interop-a2a-v1/aqp
	cp conformance/interop/a2a/v1/a2a-agent-v1.mjs .interop-a2a-v1/
	node .interop-a2a-v1/a2a-agent-v1.mjs .interop-a2a-v1/aqp

$(INTEROP_A2A_DIR): conformance/interop/a2a/package.json conformance/interop/a2a/package-lock.json
	mkdir -p .interop-a2a
	cp conformance/interop/a2a/package.json conformance/interop/a2a/package-lock.json .interop-a2a/
	cd .interop-a2a && npm ci --no-audit --no-fund --silent
	touch $(INTEROP_A2A_DIR)

$(INTEROP_A2A_V1_DIR): conformance/interop/a2a/v1/package.json conformance/interop/a2a/v1/package-lock.json
	mkdir -p .interop-a2a-v1
	cp conformance/interop/a2a/v1/package.json conformance/interop/a2a/v1/package-lock.json .interop-a2a-v1/
	cd .interop-a2a-v1 && npm ci --no-audit --no-fund --silent
	touch $(INTEROP_A2A_V1_DIR)

## interop-examples: every --help example of `aqp`, the three whole `aqp conformance collector` runs included
## (real waits: about 90 s; `make test` runs the others and names these as skipped)
.PHONY: interop-examples
interop-examples:
	AQP_TEST_SLOW_EXAMPLES=1 $(GO) test -count=1 -run '^TestHelpExamplesRun$$' ./cmd/aqp

## install-check: `go install ./cmd/aqp` from an empty module cache and GOBIN (the Go module proxy only), and the
## installed binary runs
install-check:
	./scripts/install-check.sh

## vectors: regenerate conformance/vectors/{standalone,paired,carriage} from the tables in conformance/internal/vectorgen,
## then conformance/vectors/collector/rules.json (every collector rule of the paired vectors, sent)
.PHONY: vectors
vectors:
	$(GO) run ./conformance/internal/vectorgen

## bench: Go benchmarks, each beside its baseline; then the rig (BENCHMARKS.md's throughput table): every store
## and binding column against its bare baseline, in process and against `aqp serve` children, pgbench beside
## PostgreSQL. RIG=-quick for a one-round pass; AQP_OLD=path/to/old/aqp adds before/after rows from the same run
RIG ?=
AQP_OLD ?=
bench: bench-go bench-rig

.PHONY: bench-go bench-rig
bench-go:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./core/... ./bindings/... ./store/...

bench-rig:
	mkdir -p bin && $(GO) build -o bin/aqp ./cmd/aqp && $(GO) build -o bin/aqp-load ./cmd/aqp-load
	bin/aqp-load -mode rig -aqp bin/aqp $(if $(AQP_OLD),-aqp-old $(AQP_OLD)) $(RIG)

## fuzz: every fuzz target in FUZZPKGS (default ./...), one at a time, FUZZTIME each (default 30s); stops at the
## first finding, which go test saves under the package's testdata/fuzz/ (`make test` replays those and the seeds)
FUZZTIME ?= 30s
FUZZPKGS ?= ./...
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) ./scripts/fuzz.sh $(FUZZPKGS)

clean:
	rm -rf .interop .interop-mcp .interop-a2a .interop-a2a-v1
