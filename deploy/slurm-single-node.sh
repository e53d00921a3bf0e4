#!/usr/bin/env bash
# A one-machine Slurm (controller and compute node on this host) for the opt-in test of sharded
# simulation, from Debian's packages, as root:
#   deploy/slurm-single-node.sh
# Installs slurm-wlm (and munge), writes /etc/slurm/slurm.conf for this host with all its cores,
# and starts munged, slurmctld and slurmd. `sinfo` then shows one idle node.
set -euo pipefail
if ! command -v slurmctld >/dev/null; then
  apt-get install -y slurm-wlm
fi
host="$(hostname -s)"
cpus="$(nproc)"
mkdir -p /var/lib/slurm/slurmd /var/lib/slurm/slurmctld /var/log/slurm /run/munge
chown munge:munge /run/munge
cat > /etc/slurm/slurm.conf <<CONF
# Written by deploy/slurm-single-node.sh: one node, this host.
ClusterName=cardgame
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmdSpoolDir=/var/lib/slurm/slurmd
StateSaveLocation=/var/lib/slurm/slurmctld
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
pgrep -x munged >/dev/null || su munge -s /bin/sh -c /usr/sbin/munged
pgrep -x slurmctld >/dev/null || slurmctld
sleep 2
pgrep -x slurmd >/dev/null || slurmd
sleep 2
sinfo
