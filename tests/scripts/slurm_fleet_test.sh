#!/usr/bin/env bash
# A real single-node Slurm (slurmctld, slurmd and munged from the distribution's packages, started
# here on private ports and sockets) runs slurm/archbench_fleet.sbatch over a fake three-GPU node
# (tests/scripts/fake_archbench.py, a stand-in nvidia-smi): the job must finish, fill the fleet tree and
# flag the planted slow GPU. Exit 77 (skipped) without the Slurm packages or without root.
# Usage: slurm_fleet_test.sh REPO_ROOT PYTHON
set -u
root=$(cd "$1" && pwd) python=${2:-python3}
for tool in slurmctld slurmd munged sbatch sinfo; do
  command -v "$tool" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
  command -v "$tool" >/dev/null 2>&1 || { echo "no $tool (apt-get install slurmd slurmctld slurm-client munge): skipped"; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "slurmd needs root here: skipped"; exit 77; }
# slurmd reads the cgroup file system whatever its plugins (a root made with debootstrap has none).
grep -qsE ' cgroup2? ' /proc/mounts ||
  { echo "no cgroup file system mounted (slurmd needs one): skipped"; exit 77; }

tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
# Addresses are given, not resolved: a machine whose hostname is not in /etc/hosts still runs it.
host=$(hostname -s)
mkdir -p "$tmp"/{state,spool,bin,log}
# munge, with its own key and socket.
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge.key"
munged --key-file="$tmp/munge.key" --socket="$tmp/munge.sock" --pid-file="$tmp/munged.pid" \
  --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge.seed" --force -F &
pids+=($!)
cpus=$(nproc)
cat > "$tmp/slurm.conf" <<CONF
ClusterName=archbenchtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/linear
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
sleep 1
slurmctld -D -f "$SLURM_CONF" &
pids+=($!)
slurmd -D -f "$SLURM_CONF" &
pids+=($!)
for _ in $(seq 60); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && break
  sleep 1
done
if ! sinfo -h -o %t 2>/dev/null | grep -q idle; then
  if grep -qis cgroup "$tmp/log/slurmd.log"; then
    echo "slurmd cannot use this machine's cgroups: skipped"; grep -i cgroup "$tmp/log/slurmd.log" | tail -n 3; exit 77
  fi
  echo "FAIL: the Slurm node never became idle"; tail -n 20 "$tmp"/log/*.log; exit 1
fi

# The fake node: archbench and nvidia-smi stand-ins.
printf '#!/bin/sh\nexec %s %s "$@"\n' "$python" "$root/tests/scripts/fake_archbench.py" > "$tmp/bin/archbench"
printf '#!/bin/sh\nprintf "0\\n1\\n2\\n"\n' > "$tmp/bin/nvidia-smi"
chmod +x "$tmp/bin/archbench" "$tmp/bin/nvidia-smi"
out=$tmp/fleet
PATH=$tmp/bin:$PATH ARCHBENCH_ROOT=$root ARCHBENCH_BINARY=$tmp/bin/archbench ARCHBENCH_FLEET_OUT=$out \
  ARCHBENCH_ARGS=--quick FAKE_SLOW_DEVICE=1 \
  sbatch --wait --export=ALL --nodes=1 --output="$tmp/log/job.out" "$root/slurm/archbench_fleet.sbatch"
rc=$?
tail -n 15 "$tmp/log/job.out" 2>/dev/null
if [ $rc -ne 0 ]; then echo "FAIL: the fleet job ended with $rc"; tail -n 20 "$tmp"/log/slurm*.log; exit 1; fi
"$python" - "$out" <<'PY' || exit 1
import json, os, sys
out = sys.argv[1]
report = json.load(open(os.path.join(out, "node_summary.json")))
(group,) = report["groups"]
assert len(group["gpus"]) == 3, group
assert group["flagged"] == ["node0/GPU-1"], group["flagged"]
hosts = [d for d in os.listdir(out) if os.path.isdir(os.path.join(out, d))]
# Each GPU's run, and its HostLink run made one GPU at a time afterwards (run_node.py).
assert len(hosts) == 1 and sorted(f for f in os.listdir(os.path.join(out, hosts[0])) if f.startswith("gpu")) == \
    sorted([f"gpu{n}.json" for n in range(3)] + [f"gpu{n}-hostlink.json" for n in range(3)])
print("ok: a real Slurm ran the fleet job; the tree and the summary are right")
PY
