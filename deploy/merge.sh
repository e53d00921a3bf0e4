#!/usr/bin/env bash
# The last step of a sharded study: merge the parts that exist in OUTDIR into OUTDIR/report.txt and
# OUTDIR/report.json, print the text report, and exit as `cardgame merge` does (1 while a shard is
# missing: merge names it from the parts, which know how many shards the study has; 1 when a game
# ended with an engine error).
#
# Usage: deploy/merge.sh OUTDIR SHARDS        (CARDGAME names the binary; default: cardgame)
set -uo pipefail
if [ $# -ne 2 ]; then
  sed -n '2,7p' "$0" >&2
  exit 2
fi
outdir="$1"
shards="$2"
cardgame="${CARDGAME:-cardgame}"
parts=()
for k in $(seq 0 $((shards - 1))); do
  if [ -s "$outdir/part-$k.json" ]; then parts+=("$outdir/part-$k.json"); fi
done
if [ ${#parts[@]} -eq 0 ]; then
  echo "no part in $outdir" >&2
  exit 1
fi
"$cardgame" merge "${parts[@]}" --format json > "$outdir/report.json" 2>/dev/null
"$cardgame" merge "${parts[@]}" > "$outdir/report.txt"
code=$?
cat "$outdir/report.txt"
exit "$code"
