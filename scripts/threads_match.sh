#!/usr/bin/env bash
# Lazy SMP's gain measured in games: one Hoeven binary with MORE threads
# against itself with FEWER, a fastchess match in Chess960 over the 960
# start positions (random order), every opening played with both colours.
#
#   scripts/threads_match.sh HOEVEN MORE FEWER
#
# The engines are named `hoeven-tMORE` and `hoeven-tFEWER` in the PGN; the
# Elo of the side with more threads is `scripts/pgn_score.py hoeven-tMORE PGN`.
# Pondering is off, so only the side to move searches: with CONC 1 the
# match needs MORE free cores, not MORE + FEWER. Games are adjudicated as
# `scripts/sprt.sh` does: a loss after both sides agree on 600 cp for three
# moves each, a draw from move 40 after eight moves each within 10 cp.
#
# Environment (defaults in brackets):
#   TC       time control per game, fastchess form [10+0.1]
#   ROUNDS   game pairs [100]
#   CONC     games at once [1]
#   HASH     MB of hash for each engine [64]
#   BOOK     EPD openings [scripts/books/frc960.epd]
#   SEED     seed of the openings' random order [fastchess draws one]
#   PGN      file the games are appended to [threads-MORE-FEWER.pgn]
#   FASTCHESS the fastchess binary [fastchess on PATH]
set -euo pipefail
case ${1:-} in
-h | --help | "")
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    [ -n "${1:-}" ] && exit 0 || exit 2
    ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
hoeven=$(command -v "$1") || { echo "threads_match: no engine '$1'" >&2; exit 1; }
more=${2:?threads of the first engine}
fewer=${3:?threads of the second engine}

TC=${TC:-10+0.1}
ROUNDS=${ROUNDS:-100}
CONC=${CONC:-1}
HASH=${HASH:-64}
BOOK=${BOOK:-$here/books/frc960.epd}
PGN=${PGN:-threads-$more-$fewer.pgn}
FASTCHESS=${FASTCHESS:-fastchess}
seed=()
[ -n "${SEED:-}" ] && seed=(-srand "$SEED")

"$FASTCHESS" -variant fischerandom \
    -engine cmd="$hoeven" name="hoeven-t$more" option.Threads="$more" \
    -engine cmd="$hoeven" name="hoeven-t$fewer" option.Threads="$fewer" \
    -each proto=uci tc="$TC" timemargin=100 option.Hash="$HASH" \
    -openings file="$BOOK" format=epd order=random "${seed[@]}" \
    -resign movecount=3 score=600 twosided=true \
    -draw movenumber=40 movecount=8 score=10 \
    -rounds "$ROUNDS" -repeat -concurrency "$CONC" -recover \
    -pgnout file="$PGN" -ratinginterval 0 2>&1 |
    tee "${PGN%.pgn}.log" |
    grep --line-buffered -E '^(Results of|Elo:|Games:|Ptnml)|[Ii]llegal|disconnect|stall|loses on time|crash' ||
    true
