# Hoeven build entry points.
#   make              build the optimised engine as ./hoeven (or at $(EXE))
#   make test         every test (what CI runs)
#   make test-debug   every test with debug assertions and overflow checks
#   make perft-deep   the perft suites at their full published depths
#   make perft-bench  single-thread perft speed against Stockfish's `go perft`
#   make bench        the search bench (node count and speed)

EXE ?= hoeven
CARGO ?= cargo

.PHONY: all build test test-debug perft-deep perft-bench bench clippy fmt clean

all: build

build:
	$(CARGO) build --release -p uci --bin hoeven
	cp target/release/hoeven $(EXE)

# The integration tests drive the release binary, so it is built first.
test:
	$(CARGO) build --release -p uci --bin hoeven
	$(CARGO) test --workspace --release

# The same tests with debug assertions and overflow checks (profile.test).
test-debug:
	$(CARGO) build --release -p uci --bin hoeven
	$(CARGO) test --workspace

perft-deep:
	HOEVEN_PERFT_DEEP=1 $(CARGO) test --release --test perft_suites -- --nocapture --test-threads=1

perft-bench: build
	python3 tools/perft_bench.py ./$(EXE)

bench: build
	./$(EXE) bench

clippy:
	$(CARGO) clippy --all-targets -- -D warnings

fmt:
	$(CARGO) fmt --all

clean:
	$(CARGO) clean
	rm -f hoeven
