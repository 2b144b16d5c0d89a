#!/usr/bin/env bash
# Counts the record files of scripts/datagen.sh runs for docs/nets.md: one
# table row per file (records, games in the PGN beside it, sha256 of the
# records and of the PGN), a total per run, and a warning for a file that
# does not end with a whole line (a generator killed mid-write; scripts/stage.sh
# cuts such a fragment before converting).
#
#   scripts/datacount.sh DIR...
set -euo pipefail
case ${1:-} in -h | --help)
    sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0 ;;
esac
[ $# -gt 0 ] || { echo "datacount: no datagen folders" >&2; exit 1; }
commas() { echo "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
for dir in "$@"; do
    total=0
    games_total=0
    echo "| file | lines (records) | games | sha256 | PGN sha256 |"
    echo "| --- | --- | --- | --- | --- |"
    for txt in "$dir"/*.txt; do
        [ -e "$txt" ] || continue
        pgn=${txt%.txt}.pgn
        lines=$(wc -l <"$txt")
        games=$( [ -f "$pgn" ] && grep -c '^\[Result' "$pgn" || echo 0)
        sum=$(sha256sum "$txt" | cut -c1-16)
        pgn_sum=$( [ -f "$pgn" ] && echo "$(sha256sum "$pgn" | cut -c1-16)..." || echo -)
        printf '| %s | %s | %s | %s... | %s |\n' "$(basename "$txt")" \
            "$(commas "$lines")" "$(commas "$games")" "$sum" "$pgn_sum"
        if [ -s "$txt" ] && [ "$(tail -c1 "$txt" | od -An -c | tr -d ' ')" != '\n' ]; then
            echo "datacount: $txt ends with part of a line" >&2
        fi
        total=$((total + lines))
        games_total=$((games_total + games))
    done
    printf '| **%s** | **%s** | %s | | |\n' "$(basename "$dir")" \
        "$(commas "$total")" "$(commas "$games_total")"
    echo
done
