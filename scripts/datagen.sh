#!/usr/bin/env bash
# Training data on every core: one `hoeven selfplay --data` process a core,
# each playing one game at a time, so that each file is reproducible from
# its seed alone (the same command and seed give the same games, and a
# stopped run's file holds the first games of its command). Processes
# alternate Chess960 and DFRC starts.
#
#   scripts/datagen.sh OUTDIR
#
# Environment: HOEVEN (the binary, default ./hoeven), JOBS (processes,
# default all cores), SEED (process i gets SEED + i, default 1), NODES (soft
# nodes a move, default 5000), PLIES (random plies after the start position,
# default 8), GAMES (per process, default 100000: in practice until
# stopped), NICE (default 0).
#
# OUTDIR receives per process <variant>-<seed>.txt (the records), .pgn
# (the games) and .log, and MANIFEST: the binary's sha256 and bench (which
# identify its search and net), the checkout's commit, and every command
# line, which is what docs/nets.md records for each data set.
# Stop with `kill` on the processes (or Ctrl-C): every file then ends with
# whole games.
set -euo pipefail
case ${1:-} in -h | --help)
    sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0 ;;
esac
out=${1:?output folder}
HOEVEN=${HOEVEN:-./hoeven}
JOBS=${JOBS:-$(nproc)}
SEED=${SEED:-1}
NODES=${NODES:-5000}
PLIES=${PLIES:-8}
GAMES=${GAMES:-100000}
NICE=${NICE:-0}

[ -x "$HOEVEN" ] || { echo "datagen: no hoeven binary at $HOEVEN" >&2; exit 1; }
bin=$(cd "$(dirname "$HOEVEN")" && pwd)/$(basename "$HOEVEN")
mkdir -p "$out"
{
    echo "binary: $bin"
    echo "sha256: $(sha256sum "$bin" | cut -d' ' -f1)"
    echo "bench: $("$bin" bench 2>&1 | tail -n 1)"
    here=$(dirname "$0")
    echo "checkout: $(git -C "$here" rev-parse HEAD)$(git -C "$here" diff --quiet HEAD || echo ' with uncommitted changes')"
    echo "started: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
} >"$out/MANIFEST"

pids=()
for ((i = 0; i < JOBS; i++)); do
    variant=$([ $((i % 2)) -eq 0 ] && echo chess960 || echo dfrc)
    seed=$((SEED + i))
    name="$out/$variant-$seed"
    cmd=("$bin" selfplay --games "$GAMES" --variant "$variant" --nodes "$NODES"
        --random-plies "$PLIES" --concurrency 1 --seed "$seed"
        --pgn "$name.pgn" --data "$name.txt")
    echo "command: ${cmd[*]}" >>"$out/MANIFEST"
    nice -n "$NICE" "${cmd[@]}" >"$name.log" 2>&1 &
    pids+=($!)
done
trap 'kill "${pids[@]}" 2>/dev/null' INT TERM
echo "$JOBS generators in $out (pids ${pids[*]})"
wait
