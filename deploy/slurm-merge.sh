#!/usr/bin/env bash
# The merge step of a Slurm study (see deploy/slurm-array.sh): submit it with
# --dependency=afterany:JOBID so that it runs once every shard has ended.
#   sbatch --dependency=afterany:$jid deploy/slurm-merge.sh OUTDIR SHARDS
#SBATCH --job-name=cardgame-merge
#SBATCH --output=slurm-merge-%j.out
exec "${SLURM_SUBMIT_DIR:-.}/deploy/merge.sh" "$@"
