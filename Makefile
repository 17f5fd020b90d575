# Lexiforge: build the shipped models, test, benchmark.
#
# Targets:
#   make train    release build, provision corpora, build every shipped model (Corpora/*.model.json)
#                 into Artifacts/NAME.sqlite
#   make train-spark  one model (MODEL=Corpora/NAME.model.json) counted on Apache Spark (MASTER, default local[2])
#   make test     the whole test suite (unit, end-to-end CLI, integration on ../shared/data when present),
#                 built in release beside what `make train` built
#   make test-quick  the edit loop, in a debug build: every test but those tagged slow (reported as skipped)
#   make serve    release build of the web playground, `lexiforge-serve` (docs/playground.md); run it with
#                 .build/release/lexiforge-serve Artifacts/dorian-gray.sqlite Artifacts/en_US-keyboard.sqlite
#   make bench    speed, memory and size against the anchors (Presage's text2ngram and presage_simulator,
#                 KenLM's lmplz built from PyPI's kenlm source, measured in the same run; Tally figures
#                 from the issues); writes Artifacts/bench/report.txt
#   make fuzz     build the libFuzzer harnesses (Sources/LexiforgeFuzz, -sanitize=fuzzer, scratch .build-fuzz)
#                 and run each (corpus, wordlist, conllu, swipe, model, store, tables, playground) for FUZZ_SECONDS (60);
#                 fails on any crash, leaving the inputs in .fuzz/crashes/HARNESS/
#   make corpora  provision the files of Corpora/manifest.tsv into Corpora/data/ (sha256-checked)
#   make deps     install the missing Debian packages the build and tests need (test-deps: and what
#                 only `make test` needs: chromium, chromium-driver, PyPI's kenlm and selenium)
#   make bench-deps  also those the benchmarks need to build KenLM's lmplz (cmake, g++, Boost)
#   make clean    remove build products, built stores and provisioned corpora
#
# `train` and `test` depend on `deps`, so a fresh Debian machine needs nothing else.

SWIFT        ?= swift
SHARED_DATA  ?= $(abspath $(CURDIR)/../shared/data)
BIN          := .build/release/lexiforge
MODELS       := $(wildcard Corpora/*.model.json)
STORES       := $(patsubst Corpora/%.model.json,Artifacts/%.sqlite,$(MODELS))

# Build: zlib, libcrypto (SHA-256 of inputs) and SQLite headers. Tests and benchmarks: sqlite3 CLI, presage (text2ngram,
# presage_simulator), wordnet-base, curl for provisioning without ../shared, time for peak RSS, Java 17 for Spark
# (with pyspark from PyPI, pinned in Sources/spark/requirements.txt).
DEB_PACKAGES := zlib1g-dev libssl-dev libsqlite3-dev sqlite3 presage wordnet-base curl ca-certificates time openjdk-17-jre-headless
# Test only: headless Chromium and its WebDriver for the playground's browser test (with PyPI's selenium).
TEST_PACKAGES := chromium chromium-driver
# Bench only: KenLM's lmplz and build_binary, built from PyPI's kenlm source (Tests/Bench/bench-kenlm.sh).
BENCH_PACKAGES := cmake g++ libboost-program-options-dev libboost-system-dev libboost-thread-dev libboost-test-dev wrk

# `make fuzz`: seconds per harness, sanitizers (`fuzzer,address` adds ASan: slower, the store
# harness most; give it its own FUZZ_SCRATCH), the harnesses' build folder, the harnesses to run.
# The seed stores are built with the release CLI `make train` uses.
FUZZ_SECONDS ?= 60
FUZZ_SANITIZE ?= fuzzer
FUZZ_SCRATCH ?= .build-fuzz
FUZZ_HARNESSES ?= corpus wordlist conllu swipe model store tables playground

export SHARED_DATA

.PHONY: all train train-spark test test-quick fuzz bench corpora deps test-deps test-packages bench-deps python-deps install-packages build serve clean

all: train

deps:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(DEB_PACKAGES)"

test-deps: deps test-packages

test-packages:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(TEST_PACKAGES)"

bench-deps: deps
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(BENCH_PACKAGES)"
	@python3 -c 'import kenlm' 2>/dev/null || python3 -m pip install --quiet kenlm
	@python3 -c 'import numpy, lightgbm' 2>/dev/null || python3 -m pip install --quiet numpy 'lightgbm>=4,<5'
	@python3 -c 'import jax, optax' 2>/dev/null || python3 -m pip install --quiet 'jax[cpu]' optax

install-packages:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing$$missing" >&2; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

# PyPI packages the tests use: kenlm (ARPA agreement), pyspark (the Spark job's test), selenium
# (the playground's browser test).
python-deps:
	@python3 -c 'import kenlm' 2>/dev/null || python3 -m pip install --quiet kenlm
	@python3 -c 'import selenium' 2>/dev/null || python3 -m pip install --quiet selenium
	@python3 -c 'import pyspark' 2>/dev/null || python3 -m pip install --quiet -r Sources/spark/requirements.txt

# SwiftPM's incremental builds (release and debug alike) can leave a module compiled against an
# old layout of a LexiforgeFormat struct, which LexiforgeReader re-exports (swiftlang/swift#89636):
# the binary or the tests then crash (seen here after a stored property changed). So when
# LexiforgeFormat's sources changed since the last build of a configuration, that configuration's
# Lexiforge modules are rebuilt from scratch; the packages stay built. $(1): release or debug.
define fresh_format
	@stamp=.build/$(1)/.lexiforge-format-sources; \
	if [ -f $$stamp ] && [ -n "$$(find Sources/LexiforgeFormat -newer $$stamp -print -quit)" ]; then \
	  echo "Sources/LexiforgeFormat changed: rebuilding Lexiforge's $(1) modules from scratch (swiftlang/swift#89636)" >&2; \
	  rm -rf .build/$(1)/Lexiforge*.build .build/$(1)/lexiforge*.build .build/$(1)/lexiforge .build/$(1)/lexiforge-serve \
	    .build/$(1)/LexiforgePackageTests.xctest .build/$(1).yaml .build/$(1)/description.json; \
	fi
endef
# After a successful build: the stamp the next build compares with.
stamp_format = @if [ -d .build/$(1) ]; then touch .build/$(1)/.lexiforge-format-sources; fi

build: deps
	$(call fresh_format,release)
	$(SWIFT) build -c release --product lexiforge
	$(call stamp_format,release)

serve: deps
	$(call fresh_format,release)
	$(SWIFT) build -c release --product lexiforge-serve
	$(call stamp_format,release)

corpora:
	@Corpora/provision.sh

train: build corpora
	@mkdir -p Artifacts
	@for model in $(MODELS); do \
	  name=$$(basename $$model .model.json); \
	  $(BIN) train $$model -o Artifacts/$$name.sqlite || exit 1; \
	done

# One build serves `make train` and `make test`: the tests build in release beside the modules
# `make train` built (the test targets themselves compile without optimization, Package.swift), so
# a fresh clone compiles Lexiforge, GRDB and ArgumentParser once, not once per configuration, and
# the tests run on optimized code. What only the tests use (Chromium, its WebDriver, the PyPI
# packages: pyspark is 300 MB) installs while the build runs: network and CPU at once.
test: deps
	$(call fresh_format,release)
	@log=$$(mktemp); $(MAKE) --no-print-directory test-packages python-deps >$$log 2>&1 & pid=$$!; \
	$(SWIFT) build -c release --build-tests && touch .build/release/.lexiforge-format-sources; built=$$?; \
	wait $$pid || { cat $$log >&2; echo "make test: installing the packages the tests need failed (above)" >&2; rm -f $$log; exit 1; }; \
	rm -f $$log; [ $$built = 0 ] && $(SWIFT) test -c release --skip-build

# The edit loop builds in debug (its own folder under .build), which recompiles faster after an edit.
test-quick: test-deps python-deps
	$(call fresh_format,debug)
	LEXIFORGE_QUICK=1 $(SWIFT) test
	$(call stamp_format,debug)

fuzz: build
	$(SWIFT) build -c debug --product LexiforgeFuzz --scratch-path $(FUZZ_SCRATCH) \
	  -Xswiftc -sanitize=$(FUZZ_SANITIZE) -Xswiftc -parse-as-library -Xswiftc -DLEXIFORGE_FUZZ
	FUZZ_SECONDS=$(FUZZ_SECONDS) Tests/Fuzz/fuzz.sh $(FUZZ_SCRATCH)/debug/LexiforgeFuzz $(BIN) $(FUZZ_HARNESSES)

# The same store as `make train` builds from MODEL, counted on Apache Spark (docs/scale.md):
#   make train-spark MODEL=Corpora/dorian-gray.model.json MASTER='local[2]'
MODEL  ?= Corpora/dorian-gray.model.json
MASTER ?= local[2]
train-spark: build corpora python-deps
	@mkdir -p Artifacts
	python3 Sources/spark/lexiforge_spark.py --model $(MODEL) --master '$(MASTER)' \
	  -o Artifacts/$(basename $(basename $(notdir $(MODEL)))).sqlite

bench: bench-deps build serve corpora
	@Tests/Bench/bench.sh

clean:
	rm -rf .build .build-fuzz .fuzz Artifacts/*.sqlite Artifacts/bench Corpora/data
