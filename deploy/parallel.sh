#!/usr/bin/env bash
# A sharded study on one machine with GNU parallel (Debian: `apt-get install -y parallel`).
#
# Usage: deploy/parallel.sh SHARDS OUTDIR SCRIPT [sim flags...]
#   e.g. deploy/parallel.sh 8 parts games/heart-of-crown.cardgame --games 100000 --seed 1 --jobs 1
#
# Runs `cardgame sim SCRIPT FLAGS --shard K/SHARDS --out OUTDIR/part-K.json` for K = 0..SHARDS-1 as
# separate processes, as many at a time as the machine has cores (PARALLEL_JOBS to change it), each
# retried once if it fails to write its part; shards whose part already exists are skipped, so a stopped
# study is resumed by running the same command again. Then merges the parts into OUTDIR/report.txt
# and OUTDIR/report.json (and prints the text report). CARDGAME names the binary (default: cardgame).
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,12p' "$0" >&2
  exit 2
fi
shards="$1"
outdir="$2"
shift 2
cardgame="${CARDGAME:-cardgame}"
mkdir -p "$outdir"
export cardgame outdir shards
# One shard: skipped when its part exists (a resumed study), else played.
shard() {
  local k="$1"
  shift
  if [ -s "$outdir/part-$k.json" ]; then
    echo "shard $k/$shards: already done" >&2
    return 0
  fi
  # Exit 1 only says that some game ended with an engine error: the part is written all the same.
  "$cardgame" sim "$@" --shard "$k/$shards" --out "$outdir/part-$k.json" || [ -s "$outdir/part-$k.json" ]
}
export -f shard
failed=0
seq 0 $((shards - 1)) | parallel --will-cite --halt never --retries 2 \
  -j "${PARALLEL_JOBS:-100%}" shard {} "$@" || failed=$?
if [ "$failed" -ne 0 ]; then
  echo "$failed shards wrote no part; run the same command again to resume" >&2
fi
exec "$(dirname "$0")/merge.sh" "$outdir" "$shards"
