#!/usr/bin/env bash
# Self-play SPRT between two revisions of Hoeven in Chess960, with fastchess
# (built outside this repository and on PATH).
#
#   scripts/sprt.sh <base-rev> <new-rev>
#
# Environment: TC (default 4+0.04) or NODES (a fixed node count per move
# instead of a clock: faster and immune to machine load), ELO0/ELO1 (default
# 0/10), MODEL (the Elo of the bounds: normalized, the default, or logistic),
# ROUNDS (upper bound on game pairs, default 5000), CONC (default 1),
# HASH (default 16), WORK (build and output folder, default /tmp/hoeven-sprt),
# BOOK (an EPD file of openings, default scripts/books/frc960.epd: the 960 start positions), SEED (the
# seed of the openings' random order: continuing a test needs a new one).
# Games at a fixed node count are deterministic: an opening played twice
# gives the same pair of games. Under NODES the match therefore stops at
# one pair per opening; a longer test needs a bigger book, such as DFRC
# openings from scripts/dfrc_book.py.
# Games are adjudicated as `hoeven selfplay` does (its AdjudicationRules): a
# loss after both sides agree on 600 cp for three moves each, a draw from
# move 40 after eight moves each within 10 cp.
# Both revisions are built in detached worktrees under $WORK; the PGN and the
# fastchess log are written there too.
set -euo pipefail
case ${1:-} in -h | --help)
    sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0 ;;
esac
base=${1:?base revision}
new=${2:?new revision}
TC=${TC:-4+0.04}
NODES=${NODES:-}
ELO0=${ELO0:-0}
ELO1=${ELO1:-10}
MODEL=${MODEL:-normalized}
ROUNDS=${ROUNDS:-5000}
CONC=${CONC:-1}
HASH=${HASH:-16}
WORK=${WORK:-/tmp/hoeven-sprt}
repo=$(cd "$(dirname "$0")/.." && pwd)
book=${BOOK:-$repo/scripts/books/frc960.epd}

build() {
    local rev sha dir
    rev=$1
    sha=$(git -C "$repo" rev-parse --short=10 "$rev")
    dir=$WORK/$sha
    if [ ! -x "$dir/hoeven" ]; then
        rm -rf "$dir/src"
        git -C "$repo" worktree add --detach --force "$dir/src" "$sha" >/dev/null
        (cd "$dir/src" && CARGO_TARGET_DIR=$WORK/target cargo build --release -q --bin hoeven)
        cp "$WORK/target/release/hoeven" "$dir/hoeven"
        git -C "$repo" worktree remove --force "$dir/src"
    fi
    echo "$dir/hoeven"
}

openings=$(grep -c . "$book")
if [ -n "$NODES" ] && [ "$ROUNDS" -gt "$openings" ]; then
    echo "fixed nodes: at most one pair per opening, $openings rounds" >&2
    ROUNDS=$openings
fi
mkdir -p "$WORK"
base_bin=$(build "$base")
new_bin=$(build "$new")
seed=()
[ -n "${SEED:-}" ] && seed=(-srand "$SEED")
limit="tc=$TC"
[ -n "$NODES" ] && limit="tc=inf nodes=$NODES"
tag=$(git -C "$repo" rev-parse --short=10 "$new")-vs-$(git -C "$repo" rev-parse --short=10 "$base")
cd "$WORK"
fastchess \
    -engine cmd="$new_bin" name=new \
    -engine cmd="$base_bin" name=base \
    -each $limit proto=uci option.Hash="$HASH" option.Threads=1 \
    -variant fischerandom \
    -openings file="$book" format=epd order=random "${seed[@]}" \
    -rounds "$ROUNDS" -repeat -concurrency "$CONC" -recover \
    -resign movecount=3 score=600 twosided=true \
    -draw movenumber=40 movecount=8 score=10 \
    -sprt elo0="$ELO0" elo1="$ELO1" alpha=0.05 beta=0.05 model="$MODEL" \
    -pgnout file="$WORK/$tag.pgn" -autosaveinterval 0 \
    2>&1 | tee "$WORK/$tag.log" | grep --line-buffered -E "^(Elo|LLR|Games|SPRT|Ptnml)"
