#!/usr/bin/env bash
# The README's two commands on a fresh Debian, as a new user meets them: a minimal root made with
# debootstrap, a fresh clone of this checkout's HEAD in it, the CUDA toolkit bind-mounted read-only,
# each command taken from the README's text and run under `env -i`; a timed log with the machine's
# load beside each step. Run it after every change to setup.sh, the README's commands or the test
# list, and commit its log under results/fresh-machine/ (docs/testing.md).
#
# Usage (root, Linux): scripts/fresh_machine.sh [--release bookworm|trixie] [--cuda DIR] [--log FILE] [--keep]
#   --release  the Debian release (default bookworm: Debian 12; trixie: Debian 13)
#   --cuda     the toolkit to bind-mount (default /usr/local/cuda)
#   --log      the log (default results/fresh-machine/<date>-debian<N>-<sha>.log)
#   --keep     keep the root afterwards (default: removed)
#   --only first|test  run one of the two commands (default both): the test command alone is what
#              CI runs on a fresh machine, and it installs what it needs itself
# Needs debootstrap (apt-get install debootstrap) and a route to deb.debian.org and PyPI. Where the
# host reaches them through a TLS-intercepting proxy, its CA (/usr/local/share/ca-certificates) and
# pip's cert setting (/etc/pip.conf) are copied in, as any machine behind that proxy has them.
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$PWD
release=bookworm cuda=/usr/local/cuda log="" keep=0 only=both
while [ $# -gt 0 ]; do
  case "$1" in
    --release) release=$2; shift 2 ;;
    --cuda) cuda=$2; shift 2 ;;
    --log) log=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --only) only=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "fresh_machine.sh: error: unknown argument $1 (--help)" >&2; exit 2 ;;
  esac
done
case "$release" in bookworm) number=12 ;; trixie) number=13 ;;
  *) echo "fresh_machine.sh: error: --release $release: bookworm or trixie" >&2; exit 2 ;; esac
[ "$(id -u)" -eq 0 ] || { echo "fresh_machine.sh: error: needs root (debootstrap, chroot, mounts)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "fresh_machine.sh: error: no debootstrap (apt-get install debootstrap)" >&2; exit 2; }
[ -x "$cuda/bin/nvcc" ] || { echo "fresh_machine.sh: error: --cuda $cuda: no bin/nvcc there" >&2; exit 2; }
sha=$(git -C "$checkout" rev-parse --short HEAD)
log=${log:-results/fresh-machine/$(date -u +%F)-debian$number-$sha.log}
mkdir -p "$(dirname "$log")"
log=$(realpath "$log")
root=$(mktemp -d /tmp/fresh-debian$number.XXXXXX)
chmod 755 "$root"  # mktemp's 0700 left / closed to every user but root: munge's postinst (su munge) failed
cleanup() {
  for m in usr/local/cuda dev/pts dev sys proc; do umount -l "$root/$m" 2>/dev/null || true; done
  (( keep )) || rm -rf --one-file-system "$root"
}
trap cleanup EXIT
note() { echo "== $*" | tee -a "$log"; }
: > "$log"
load() { cut -d' ' -f1-3 /proc/loadavg; }

t0=$(date +%s)
debootstrap --variant=minbase --include=ca-certificates,git "$release" "$root" http://deb.debian.org/debian \
  > "$root.debootstrap.log" 2>&1 || { tail -20 "$root.debootstrap.log"; echo "fresh_machine.sh: error: debootstrap failed" >&2; exit 1; }
note "debootstrap $release $(( $(date +%s) - t0 )) s"
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  chroot "$root" update-ca-certificates >/dev/null 2>&1 || true
  [ -f /etc/pip.conf ] && cp /etc/pip.conf "$root/etc/pip.conf"
  note "the proxy's CA in /usr/local/share/ca-certificates and /etc/pip.conf (cert = the system bundle)"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"; mount --rbind /sys "$root/sys"; mount --bind /dev "$root/dev"
mkdir -p "$root/dev/pts" "$root/usr/local/cuda"; mount --bind /dev/pts "$root/dev/pts" 2>/dev/null || true
mount --bind -o ro "$cuda" "$root/usr/local/cuda"
git clone -q --no-local "$checkout" "$root/home/archbench"
note "commit $sha, $(nproc) cores, no GPU; Debian $(cat "$root/etc/debian_version")"

# The README's two commands, from its text: the first line of its first two ```sh blocks.
mapfile -t commands < <(awk '/^```sh$/ {getline; print}' "$root/home/archbench/README.md" | head -2)
[ ${#commands[@]} -eq 2 ] || { echo "fresh_machine.sh: error: the README has no two \`\`\`sh command blocks" >&2; exit 1; }
names=("README first command" "README test command")
status=0
case "$only" in both) steps=(0 1) ;; first) steps=(0) ;; test) steps=(1) ;;
  *) echo "fresh_machine.sh: error: --only $only: first or test" >&2; exit 2 ;; esac
for i in "${steps[@]}"; do
  note "${names[$i]}: ${commands[$i]}"
  note "load before: $(load)"
  t=$(date +%s)
  set +e
  chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb PATH=/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    bash -c "cd /home/archbench && ${commands[$i]}" >> "$log" 2>&1
  rc=$?
  set -e
  note "${names[$i]}: exit $rc in $(( $(date +%s) - t )) s (load after: $(load))"
  # setup.sh keeps apt's and pip's own words in build/setup.log, inside the root: a failed step's
  # cause comes into this log before the root goes.
  if grep -q "^setup.sh: error" "$log" && [ -f "$root/home/archbench/build/setup.log" ]; then
    note "the last 60 lines of build/setup.log:"
    tail -n 60 "$root/home/archbench/build/setup.log" >> "$log"
  fi
  # The first command stops at the run without a GPU (exit 2: no CUDA GPU found); the test command must pass.
  [ "$i" -eq 1 ] && [ "$rc" -ne 0 ] && status=1
done
note "total $(( $(date +%s) - t0 )) s"
echo "fresh_machine.sh: log in $log"
exit $status
