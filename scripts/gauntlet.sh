#!/usr/bin/env bash
# Hoeven against other UCI engines: a fastchess gauntlet in Chess960 over
# the 960 start positions (random order), every opening played twice with
# the colours swapped, one search thread and a fixed hash for every engine.
#
#   scripts/gauntlet.sh HOEVEN OPPONENT [OPPONENT ...]
#
# HOEVEN and each OPPONENT are commands: a path, or a name found on PATH
# (also in /usr/games, where Debian puts stockfish, fairy-stockfish and
# ethereal-chess). Each engine is named in the PGN after its file name.
#
# Environment (defaults in brackets):
#   TC       time control per game, fastchess form [10+0.1]
#   ROUNDS   rounds per opponent, each a pair of games [50]
#   CONC     games at once [1]
#   BOOK     EPD openings [scripts/books/frc960.epd]
#   PGN      file the games are appended to [gauntlet-<time>.pgn]
#   LOG      fastchess's whole output [<PGN without .pgn>.log]
#   HASH     MB of hash for every engine [16]
#   THREADS  search threads for every engine [1]
#   SEED     seed of the openings' random order [fastchess draws one]
#   FASTCHESS the fastchess binary [fastchess on PATH]
#
# fastchess is built from its public sources
# (https://github.com/Disservin/fastchess; `make` there) and put on PATH.
# Every game gets a 100 ms time margin before a loss on time is called.
# The script prints fastchess's result lines per opponent and any line
# about an illegal move, a crash, a disconnect, a stall or a time loss;
# the Elo of a finished or cut-off run is `scripts/pgn_score.py NAME PGN`.
set -euo pipefail
case ${1:-} in
-h | --help | "")
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    [ -n "${1:-}" ] && exit 0 || exit 2
    ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
hoeven=$1
shift
[ $# -gt 0 ] || { echo "gauntlet: name at least one opponent" >&2; exit 2; }

TC=${TC:-10+0.1}
ROUNDS=${ROUNDS:-50}
CONC=${CONC:-1}
BOOK=${BOOK:-$here/books/frc960.epd}
PGN=${PGN:-gauntlet-$(date -u +%Y%m%d-%H%M%S).pgn}
LOG=${LOG:-${PGN%.pgn}.log}
HASH=${HASH:-16}
THREADS=${THREADS:-1}
FASTCHESS=${FASTCHESS:-fastchess}

resolve() {
    PATH=$PATH:/usr/games command -v "$1" || { echo "gauntlet: no engine '$1'" >&2; exit 1; }
}
engines=()
for cmd in "$hoeven" "$@"; do
    path=$(resolve "$cmd")
    engines+=(-engine cmd="$path" name="$(basename "$path")")
done
seed=()
[ -n "${SEED:-}" ] && seed=(-srand "$SEED")

"$FASTCHESS" -tournament gauntlet -seeds 1 -variant fischerandom \
    "${engines[@]}" \
    -each proto=uci tc="$TC" timemargin=100 option.Hash="$HASH" option.Threads="$THREADS" \
    -openings file="$BOOK" format=epd order=random "${seed[@]}" \
    -rounds "$ROUNDS" -repeat -concurrency "$CONC" -recover \
    -pgnout file="$PGN" -ratinginterval 0 2>&1 |
    tee "$LOG" |
    grep --line-buffered -E '^(Results of|Elo:|Games:|Ptnml|Rank)|^ +[0-9]+ +[^ ]|[Ii]llegal|disconnect|stall|loses on time|crash' ||
    true
