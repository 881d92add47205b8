#!/usr/bin/env bash
# Installs what archbench needs beyond the CUDA toolkit: the C++ libraries and build tools from
# apt (Debian/Ubuntu), the Python packages from pip. The README's two commands start with it:
#   scripts/setup.sh          what building, running and plotting need
#   scripts/setup.sh --tests  and what the tests need (pytest, cuobjdump/nvdisasm, Slurm)
#   scripts/setup.sh [--tests] --missing   the system packages it would install; installs nothing
# As root it installs directly, otherwise through sudo. Packages already installed are left
# alone, so a prepared machine needs neither a network nor sudo. Exit 2 with one line when
# something cannot be installed.
set -uo pipefail
cd "$(dirname "$0")/.."

tests=0 list_missing=0 pip_cause=""
for arg in "$@"; do
  case "$arg" in
    --tests) tests=1 ;;
    --missing) list_missing=1 ;;  # print the system packages it would install, install nothing
    *) echo "setup.sh: error: unknown option '$arg' (use --tests, --missing or nothing)" >&2; exit 2 ;;
  esac
done

# The one list of system packages (docs/install.md names them).
apt_packages=(cmake g++ make python3 python3-pip libbenchmark-dev libgtest-dev nlohmann-json3-dev zlib1g-dev)
# The method guard's git, the fleet test's single-node Slurm, the dashboard test's headless browser
# (Debian's chromium; where apt has none, as on Ubuntu, that one test skips and says so).
(( tests )) && apt_packages+=(git python3-venv slurmd slurmctld slurm-client munge chromium)
optional_packages=(chromium)
requirements=scripts/requirements.txt
(( tests )) && requirements=scripts/requirements-ci.txt

say() { echo "setup.sh: $*" >&2; }
# apt's and pip's own output goes to a log, not the screen; an error quotes its last line (the cause:
# a missing package, a proxy's CERTIFICATE_VERIFY_FAILED) and names the log.
mkdir -p build
log=build/setup.log
: > "$log"
# The cause of a failed install: a network or TLS failure where the log has one (pip's last line,
# "No matching distribution found", hides it), else the log's last line.
cause() {
  local root
  root=$(grep -oE "CERTIFICATE_VERIFY_FAILED|Temporary failure in name resolution|Could not resolve host[^'\"]*|Connection refused|ProxyError|No space left on device" "$log" | tail -n 1)
  case "$root" in
    CERTIFICATE_VERIFY_FAILED) echo "TLS certificate verify failed (a proxy that intercepts TLS? give pip its CA: PIP_CERT=FILE or cert = FILE in pip.conf)" ;;
    "") grep -v '^\s*$' "$log" | tail -n 1 | cut -c1-200 ;;
    *) echo "$root (no route to the package index?)" ;;
  esac
}

# A long step (apt, pip) with its output in the log and a line on screen every 20 s, so that a
# fresh machine's minutes of installing never look like a hang: `logged CMD...` returns CMD's status.
logged() {
  "$@" >>"$log" 2>&1 &
  local pid=$! waited=0 rc
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    waited=$((waited + 1))
    if (( waited % 20 == 0 )); then
      say "... still working ($waited s): $(grep -v '^\s*$' "$log" | tail -n 1 | cut -c1-100)"
    fi
  done
  rc=0
  wait "$pid" || rc=$?
  return $rc
}

if command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  missing=()
  for p in "${apt_packages[@]}"; do
    # A tool already on PATH counts, wherever it came from (GPU machines often have CMake from pip
    # or a vendor tarball, and no network for apt): CMake from 3.24 on, as CMakePresets.json needs.
    case "$p" in
      cmake) read -r major minor <<<"$(cmake --version 2>/dev/null | sed -n 's/^cmake version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')"
             [ -n "$major" ] && { [ "$major" -gt 3 ] || { [ "$major" -eq 3 ] && [ "$minor" -ge 24 ]; }; } && continue ;;
      g++|make|python3|git) command -v "$p" >/dev/null 2>&1 && continue ;;
    esac
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if (( list_missing )); then echo "${missing[*]}"; exit 0; fi
  if (( ${#missing[@]} )); then
    sudo=()
    if [ "$(id -u)" -ne 0 ]; then
      if ! command -v sudo >/dev/null 2>&1; then
        say "error: not root and no sudo: install ${missing[*]} (apt-get install)"; exit 2
      fi
      sudo=(sudo)
    fi
    say "apt-get install ${missing[*]} (a few minutes; apt's output in $log)"
    logged "${sudo[@]}" apt-get update -qq || true
    if ! logged "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; then
      required=()
      for p in "${missing[@]}"; do [[ " ${optional_packages[*]} " == *" $p "* ]] || required+=("$p"); done
      if (( ${#required[@]} == ${#missing[@]} )) ||
         ! logged "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${required[@]}"; then
        say "error: apt-get could not install ${missing[*]}: $(cause) (all of it in $log)"; exit 2
      fi
      say "note: apt-get has no ${optional_packages[*]}: the dashboard's browser test will skip"
    fi
  fi
else
  say "no apt-get here: install the equivalents of ${apt_packages[*]} yourself"
fi

# Python: pip into the python3 the scripts run with. Where that python is the system's and pip
# refuses it (PEP 668, 'externally managed'), apt's python3-* packages stand in, and the SASS
# tools' wheels (no apt package has them) go into build/sass-tools, where CMake looks for them.
sass_tools=(nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm)
say "pip install -r $requirements (pip's output in $log)"
if ! logged python3 -m pip install -q -r "$requirements"; then
  pip_cause=$(cause)
  apt_python=(python3-matplotlib python3-scipy python3-jinja2 python3-numpy python3-markdown python3-prometheus-client)
  (( tests )) && apt_python+=(python3-pytest python3-wheel)
  if command -v apt-get >/dev/null 2>&1; then
    sudo=(); [ "$(id -u)" -ne 0 ] && sudo=(sudo)
    logged "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${apt_python[@]}" || true
  fi
  nvcc_bin=$(dirname "$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")
  have_sass_tools() {
    for t in cuobjdump nvdisasm; do
      [ -x "$nvcc_bin/$t" ] || compgen -G "build/sass-tools/nvidia/*/bin/$t" >/dev/null || return 1
    done
  }
  # ruptures (nightly's change points) has no apt package: its wheel beside the system's Python too,
  # on apt's numpy and scipy; scripts/archbench_tools/nightly/history.py looks for it there.
  if ! python3 -c "import ruptures" >/dev/null 2>&1 && [ ! -d build/python-extras/ruptures ]; then
    logged python3 -m pip install -q --no-deps --target build/python-extras ruptures ||
      say "note: pip could not install ruptures into build/python-extras: nightly reports no change points (all of it in $log)"
  fi
  if (( tests )) && ! have_sass_tools; then
    # --target installs beside the system's Python, not into it (PEP 668 allows that).
    logged python3 -m pip install -q --upgrade --target build/sass-tools "${sass_tools[@]}" ||
      { say "error: pip could not install ${sass_tools[*]} into build/sass-tools: $(cause) (all of it in $log)"; exit 2; }
  fi
fi
modules=(matplotlib scipy jinja2)
(( tests )) && modules+=(pytest)
for m in "${modules[@]}"; do
  python3 -c "import $m" 2>/dev/null ||
    { say "error: python3 ($(command -v python3)) cannot import $m: pip install $m${pip_cause:+ (pip said: $pip_cause)}"; exit 2; }
done
say "done"
exit 0
