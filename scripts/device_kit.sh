#!/usr/bin/env bash
# A gauntlet kit for a lent machine that has no Rust toolchain and reaches
# nothing outside: Hoeven built here for x86-64-v4 and x86-64-v3, fastchess,
# the opponents' binaries with the shared libraries a bare machine may lack,
# scripts/gauntlet.sh with its book, and run.sh, which plays there.
#
#   scripts/device_kit.sh [OPPONENT ...]     (default: ethereal-chess fairy-stockfish)
#
# Environment: KIT (the folder, default target/kit: ignored by git, so it
# can travel as `carry: ["target/kit"]`), FASTCHESS (default: fastchess on
# PATH), GAUNTLET (default scripts/gauntlet.sh).
#
# On the lent machine, `bash target/kit/run.sh OPPONENT ...` plays the
# gauntlet with one game a core less than it has, under TC and ROUNDS as
# gauntlet.sh reads them, and writes the PGN, fastchess's log and the
# machine's description (cores, processor, Hoeven's bench there) to $OUT.
set -eu
case ${1:-} in -h | --help)
    sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0 ;;
esac
cd "$(dirname "$0")/.."
KIT=${KIT:-target/kit}
FASTCHESS=${FASTCHESS:-$(command -v fastchess || true)}
GAUNTLET=${GAUNTLET:-scripts/gauntlet.sh}
opps=("$@")
[ ${#opps[@]} -gt 0 ] || opps=(ethereal-chess fairy-stockfish)
[ -x "$FASTCHESS" ] || { echo "device_kit: no fastchess (set FASTCHESS)" >&2; exit 1; }

rm -rf "$KIT"; mkdir -p "$KIT/lib"
for level in v4 v3; do
  RUSTFLAGS="-C target-cpu=x86-64-$level" cargo build --release -q -p hoeven --bin hoeven \
    --target-dir "target/$level"
  cp "target/$level/release/hoeven" "$KIT/hoeven-$level"
done
cp "$FASTCHESS" "$KIT/fastchess"
cp "$GAUNTLET" "$KIT/gauntlet.sh"
cp -r "$(dirname "$GAUNTLET")/books" "$KIT/books"

# The C and C++ runtimes are on every machine; any other library an
# opponent links (Ethereal's libfathom) travels with it.
for o in "${opps[@]}"; do
  p=$(PATH=$PATH:/usr/games command -v "$o") || { echo "device_kit: no $o" >&2; exit 1; }
  cp "$p" "$KIT/$o"
  ldd "$p" | awk '$3 ~ /^\// {print $3}' |
    grep -vE '/(libc|libm|libpthread|libdl|librt|libstdc\+\+|libgcc_s)\.so' |
    while read -r lib; do cp -L "$lib" "$KIT/lib/"; done
done

cat > "$KIT/run.sh" <<'EOF'
#!/usr/bin/env bash
# Plays the gauntlet on the lent machine (written by scripts/device_kit.sh).
set -u
K=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$K/lib
if grep -q avx512bw /proc/cpuinfo; then level=v4; else level=v3; fi
cp "$K/hoeven-$level" "$K/hoeven"
opps=(); for o in "$@"; do opps+=("$K/$o"); done
{ echo "hoeven-$level"; nproc; lscpu; "$K/hoeven" bench 2>&1 | tail -1; } > "$OUT/machine.txt" 2>&1
FASTCHESS=$K/fastchess CONC=${CONC:-$(($(nproc) - 1))} PGN=$OUT/gauntlet.pgn LOG=$OUT/gauntlet.log \
  "$K/gauntlet.sh" "$K/hoeven" "${opps[@]}"
EOF
chmod +x "$KIT"/*
du -sh "$KIT"
