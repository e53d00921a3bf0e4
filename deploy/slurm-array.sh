#!/usr/bin/env bash
# One shard of a study per task of a Slurm job array: task K of N writes OUTDIR/part-K.json.
#
# Submit (N shards, then the merge once every task has ended):
#   jid=$(sbatch --parsable --array=0-7 deploy/slurm-array.sh parts games/heart-of-crown.cardgame \
#           --games 100000 --seed 1 --jobs 1)
#   sbatch --dependency=afterany:$jid deploy/slurm-merge.sh parts 8
# A stopped study is resumed by submitting the same array again: tasks whose part exists end at once.
# CARDGAME names the binary (default: cardgame); sbatch passes the environment to the tasks.
#SBATCH --job-name=cardgame-shard
#SBATCH --cpus-per-task=1
#SBATCH --output=slurm-%A_%a.out
set -euo pipefail
outdir="$1"
shift
k="${SLURM_ARRAY_TASK_ID:?submit with sbatch --array=0-(N-1)}"
n="${SLURM_ARRAY_TASK_COUNT:?submit with sbatch --array=0-(N-1)}"
cardgame="${CARDGAME:-cardgame}"
mkdir -p "$outdir"
if [ -s "$outdir/part-$k.json" ]; then
  echo "shard $k/$n: already done" >&2
  exit 0
fi
# Exit 1 only says that some game ended with an engine error: the part is written all the same.
"$cardgame" sim "$@" --shard "$k/$n" --out "$outdir/part-$k.json" || [ -s "$outdir/part-$k.json" ]
