#!/usr/bin/env bash
# One training stage (docs/training.md): a
# new net from the built-in one, trained on the new games of scripts/datagen.sh
# and on every older set kept, then measured against its parent on the new
# games' held-out positions, and copied to nets/candidates/ for its SPRT.
#
#   scripts/stage.sh OUTDIR TEXT...
#
# TEXT: the record files of scripts/datagen.sh (<variant>-<seed>.txt). A
# generator killed hard can leave half a line at the end of its file; that
# fragment is cut off (and the cut written down) before anything else.
#
# Environment: SEED (the conversion's shuffle and split seed, required: each
# stage takes a new one), KEPT (older binary record files to train on too,
# comma-separated), INIT (the net to start from, default the built-in one
# that eval/build.rs names; `none`: random weights, the net then measured
# against the built-in one), KING_MIRROR (1: inputs mirrored by king file;
# a stage takes its starting net's layout, so this is read only with
# INIT=none, default 1), KING_BUCKETS (1: king buckets, from random weights
# or from a starting net mirrored by king file, whose first layer then
# serves every bucket), LAMBDA (the game result's share of the training
# target, default 0; both nets' losses are measured on the score alone
# either way), HIDDEN (512), BUCKETS (8), EPOCHS (8), LR
# (1e-4), LR_DROP (5,7), SAVE_EVERY (a checkpoint every N epochs, default
# 0: only the end), THREADS (all cores), HOEVEN (the binary whose `train`
# trains, default target/release/hoeven, built when missing), CANDIDATES (where the net is
# copied, default nets/candidates).
#
# OUTDIR receives new.bin and val.bin (the converted games and their 5%
# held out), stage.nnue (the net), STAGE (every input's line count and
# sha256, every command, both nets' losses on val.bin: what docs/nets.md
# records for a stage) and stage.log (the commands' whole output).
set -euo pipefail
case ${1:-} in -h | --help)
    sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0 ;;
esac
out=${1:?output folder}
shift
[ $# -gt 0 ] || { echo "stage: no record files" >&2; exit 1; }
: "${SEED:?stage: set SEED, a new one for each stage}"
repo=$(cd "$(dirname "$0")/.." && pwd)
KEPT=${KEPT:-}
BUILT_IN=$repo/$(sed -n 's/^const DEFAULT_NET: &str = "\(.*\)";/\1/p' "$repo/eval/build.rs")
INIT=${INIT:-$BUILT_IN}
LAMBDA=${LAMBDA:-0.0}
HIDDEN=${HIDDEN:-512}
BUCKETS=${BUCKETS:-8}
EPOCHS=${EPOCHS:-8}
LR=${LR:-1e-4}
LR_DROP=${LR_DROP:-5,7}
SAVE_EVERY=${SAVE_EVERY:-0}
THREADS=${THREADS:-$(nproc)}
HOEVEN=${HOEVEN:-$repo/target/release/hoeven}
CANDIDATES=${CANDIDATES:-$repo/nets/candidates}

if [ "$INIT" = none ]; then
    init_args=()
    reference=$BUILT_IN
    layout=${KING_MIRROR:-1}
else
    [ -f "$INIT" ] || { echo "stage: no net at $INIT" >&2; exit 1; }
    init_args=(--init "$INIT")
    reference=$INIT
    # The input layout's code, the header's fifth u32 (eval/src/nnue/network.rs).
    layout=$(od -An -tu4 -j16 -N4 "$INIT" | tr -d ' ')
fi
if [ "${KING_BUCKETS:-0}" = 1 ] || [ "$layout" = 2 ]; then
    init_args+=(--king-buckets)
elif [ "$layout" = 1 ]; then
    init_args+=(--king-mirror)
fi
if [ ! -x "$HOEVEN" ]; then
    (cd "$repo" && cargo build --release -q -p hoeven --bin hoeven)
fi
mkdir -p "$out"
manifest=$out/STAGE
log=$out/stage.log
: >"$log"

# Runs a command, writing it into the manifest and its output into the log.
run() {
    echo "command: $*" >>"$manifest"
    "$@" 2>&1 | tee -a "$log"
}

{
    echo "checkout: $(git -C "$repo" rev-parse HEAD)$(git -C "$repo" diff --quiet HEAD || echo ' with uncommitted changes')"
    echo "started: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    if [ "$INIT" = none ]; then
        echo "init: none (random weights)"
    else
        echo "init: $INIT (sha256 $(sha256sum "$INIT" | cut -d' ' -f1))"
    fi
} >"$manifest"
for text in "$@"; do
    if [ -s "$text" ] && [ "$(tail -c 1 "$text" | od -An -c | tr -d ' ')" != '\n' ]; then
        whole=$(($(stat -c %s "$text") - $(tail -n 1 "$text" | wc -c)))
        echo "cut: $text after byte $whole (a partial last line)" >>"$manifest"
        truncate -s "$whole" "$text"
    fi
    echo "input: $text $(wc -l <"$text") lines sha256 $(sha256sum "$text" | cut -d' ' -f1)" >>"$manifest"
done

run "$HOEVEN" train convert --validation "$out/val.bin" --validation-share 0.05 --seed "$SEED" "$out/new.bin" "$@"
data=$out/new.bin
[ -n "$KEPT" ] && data=$KEPT,$data
run "$HOEVEN" train train --data "$data" --validation "$out/val.bin" "${init_args[@]}" \
    --hidden "$HIDDEN" --output-buckets "$BUCKETS" --epochs "$EPOCHS" --lr "$LR" --lr-drop "$LR_DROP" \
    --lambda "$LAMBDA" --weight-decay 0.3 --save-every "$SAVE_EVERY" --threads "$THREADS" --out "$out/stage"

for net in "$reference" "$out/stage.nnue"; do
    loss=$("$HOEVEN" train loss "$net" "$out/val.bin")
    echo "loss on val.bin: ${loss%%$'\n'*}" >>"$manifest"
done
for f in "$out/new.bin" "$out/val.bin" "$out/stage.nnue"; do
    echo "output: $f sha256 $(sha256sum "$f" | cut -d' ' -f1)" >>"$manifest"
done

# A net is named after the FNV-1a hash in its header (bytes 20 to 23).
name=hoeven-$(od -An -tx4 -j20 -N4 "$out/stage.nnue" | tr -d ' ')
mkdir -p "$CANDIDATES"
cp "$out/stage.nnue" "$CANDIDATES/$name.nnue"
echo "candidate: $CANDIDATES/$name.nnue" >>"$manifest"
echo "finished: $(date -u '+%Y-%m-%d %H:%M:%S UTC')" >>"$manifest"
cat "$manifest"
