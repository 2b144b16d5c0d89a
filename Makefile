# Hoeven build entry points.
#   make              build the optimised engine as ./hoeven (or at $(EXE)),
#                     for this machine's processor (PORTABLE=1: any x86-64-v2;
#                     EVALFILE=net: that network built in as the default,
#                     EVALFILE= none: the hand-crafted evaluation)
#   make test         every test (what CI runs)
#   make test-debug   every test with debug assertions and overflow checks
#   make perft-deep   the perft suites at their full published depths
#   make perft-bench  single-thread perft speed against Stockfish's `go perft`
#   make bench        the search bench (node count and speed)
#   make spsa-build   ./hoeven-tune: the tuning build (feature tune-search), whose
#                     search tunables are UCI options and which runs `hoeven spsa`
#   make profile-build  ./hoeven built with profile-guided optimisation
#                     (needs `rustup component add llvm-tools`)
#   make fuzz         every fuzz target for FUZZ_SECONDS each (nightly, cargo-fuzz)
#   make stress       the UCI protocol stress test, long form
#   make soak         self-play soak matches, every game replayed by python-chess
#   make datagen      training data on every core until stopped (scripts/datagen.sh),
#                     from the profile-guided build where it can be made

EXE ?= hoeven
CARGO ?= cargo

# Every target builds for the processor it runs on (AVX2 and its kin
# widen the network's accumulator updates and output layer);
# `make PORTABLE=1` builds for any x86-64-v2 processor instead
# (.cargo/config.toml), for binaries that run elsewhere. A RUSTFLAGS of
# one's own takes precedence over both.
ifeq ($(PORTABLE),)
RUSTFLAGS ?= -C target-cpu=native
export RUSTFLAGS
endif

# `make EVALFILE=path` builds that network into the binary as its default
# evaluation (OpenBench's convention), `make EVALFILE=` none, and the
# default hand-crafted evaluation; without it the binary carries the net
# eval/build.rs names, which reads the variable.
ifneq ($(origin EVALFILE),undefined)
export HOEVEN_EVALFILE := $(if $(EVALFILE),$(abspath $(EVALFILE)))
endif

.PHONY: all build spsa-build profile-build python-chess test test-debug perft-deep perft-bench bench fuzz stress soak datagen clippy fmt clean

all: build

build:
	$(CARGO) build --release -p hoeven --bin hoeven
	cp target/release/hoeven $(EXE)

# The tuning build has a target folder of its own, so that it never stands
# in for the plain binary that the integration tests drive.
spsa-build:
	$(CARGO) build --release -p hoeven --bin hoeven --features tune-search --target-dir target/tune
	cp target/tune/release/hoeven hoeven-tune

# Profile-guided optimisation, as Stockfish's `make profile-build`: a build
# instrumented to count which branches and calls `bench` takes, then the
# real build laid out for that profile. The search is the same (so is the
# bench node count), about 1.1 times as fast (docs/elo-log.md, speed
# table). The profile tool must come from the compiler's
# own LLVM, which rustup ships as the llvm-tools component.
PGO_DIR := $(abspath target/pgo)
LLVM_PROFDATA ?= $(shell rustc --print sysroot)/lib/rustlib/$(shell rustc -vV | sed -n 's/^host: //p')/bin/llvm-profdata
# A RUSTFLAGS of our own replaces .cargo/config.toml's, so the portable
# target is named again here.
PGO_FLAGS := $(if $(PORTABLE),-C target-cpu=x86-64-v2) $(RUSTFLAGS)

profile-build:
	@test -x "$(LLVM_PROFDATA)" || { echo "profile-build needs llvm-profdata: rustup component add llvm-tools" >&2; exit 1; }
	rm -rf $(PGO_DIR)/profiles
	RUSTFLAGS="$(PGO_FLAGS) -C profile-generate=$(PGO_DIR)/profiles" \
		$(CARGO) build --release -p hoeven --bin hoeven --target-dir $(PGO_DIR)/instrumented
	$(PGO_DIR)/instrumented/release/hoeven bench
	"$(LLVM_PROFDATA)" merge -o $(PGO_DIR)/bench.profdata $(PGO_DIR)/profiles
	RUSTFLAGS="$(PGO_FLAGS) -C profile-use=$(PGO_DIR)/bench.profdata" \
		$(CARGO) build --release -p hoeven --bin hoeven --target-dir $(PGO_DIR)/optimised
	cp $(PGO_DIR)/optimised/release/hoeven $(EXE)

# The integration tests drive the release binary, so it is built first; the
# python-chess tests need python-chess, installed here when it is missing.
PYTHON ?= python3

python-chess:
	$(PYTHON) -c 'import chess' 2>/dev/null || $(PYTHON) -m pip install --quiet --disable-pip-version-check chess

test: python-chess
	$(CARGO) build --release -p hoeven --bin hoeven
	$(CARGO) test --workspace --release

# The same tests with debug assertions and overflow checks (profile.test).
test-debug: python-chess
	$(CARGO) build --release -p hoeven --bin hoeven
	$(CARGO) test --workspace

perft-deep:
	HOEVEN_PERFT_DEEP=1 $(CARGO) test --release -p chess --test perft_suites -- --nocapture --test-threads=1

perft-bench: build
	python3 scripts/perft_bench.py ./$(EXE)

bench: build
	./$(EXE) bench

# The protocol stress test of make test, with STRESS_SEEDS runs of
# STRESS_COMMANDS random commands each.
STRESS_COMMANDS ?= 20000
STRESS_SEEDS ?= 10

stress:
	$(CARGO) build --release -p hoeven --bin hoeven
	HOEVEN_STRESS_COMMANDS=$(STRESS_COMMANDS) HOEVEN_STRESS_SEEDS=$(STRESS_SEEDS) \
		$(CARGO) test --release --test uci -- stress:: --nocapture

# 2000 Chess960 and 500 DFRC games at 1+0.01 and 200 at 10+0.1 with
# Threads 2, under fastchess (on PATH); SOAK_ARGS passes options to
# scripts/soak.py (for example --parts dfrc --dfrc-games 50).
SOAK_ARGS ?=

soak: build
	python3 scripts/soak.py ./$(EXE) --out soak $(SOAK_ARGS)

# Self-play training data, one generator a core, into DATADIR until
# stopped; SEED, JOBS, NODES, PLIES and NICE as in scripts/datagen.sh.
DATADIR ?= data/gen
export SEED JOBS NODES PLIES NICE

# The profile-guided build plays the same games faster; it is used where
# the toolchain has llvm-tools.
DATAGEN_BUILD := $(if $(wildcard $(LLVM_PROFDATA)),profile-build,build)

datagen: $(DATAGEN_BUILD)
	HOEVEN=$(abspath $(EXE)) scripts/datagen.sh $(DATADIR)

# libFuzzer needs the nightly toolchain and cargo-fuzz; both are installed
# here when missing. Each target runs FUZZ_SECONDS from its seeds plus the
# corpus of earlier runs (fuzz/corpus, not in git); a failing input is left
# in fuzz/artifacts/<target>/ and stops the run.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= fen uci_move san uci_session

fuzz:
	rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
	command -v cargo-fuzz >/dev/null || $(CARGO) install cargo-fuzz --locked
	cd fuzz && for t in $(FUZZ_TARGETS); do \
		mkdir -p corpus/$$t && \
		cargo +nightly fuzz run -O $$t corpus/$$t seeds/$$t -- \
			-max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=4096 || exit 1; \
	done

clippy:
	$(CARGO) clippy --all-targets -- -D warnings

fmt:
	$(CARGO) fmt --all

clean:
	$(CARGO) clean
	rm -f hoeven
