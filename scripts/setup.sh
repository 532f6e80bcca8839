#!/usr/bin/env bash
# Installs what movebench needs to build, test and run, and nothing else.
# Idempotent: it only asks apt for packages that are missing, and only
# (re)creates the Python venv when its requirements changed.
# Without root (or without apt-get) it prints the exact install line and stops.
set -euo pipefail
cd "$(dirname "$0")/.."

# One list, grouped by what needs it (docs/architecture.md says why each).
packages=(
  # build
  build-essential cmake ninja-build pkg-config git
  # C++ libraries
  libcli11-dev nlohmann-json3-dev libfmt-dev libhwloc-dev libgtest-dev
  # MPI (beff, coll)
  openmpi-bin libopenmpi-dev
  # OpenCL on the CPU (link, stream)
  pocl-opencl-icd ocl-icd-opencl-dev opencl-headers opencl-clhpp-headers clinfo
  # Python for the report tool and the integration tests
  python3 python3-venv
  # network namespaces for the cross-host MPI test
  iproute2
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Extra packages a caller asks for (e.g. `make test` asks for chromium, the
# browser of the report screenshots). Optional: without root they are only
# named, and the tests that need them skip with the reason.
extra=()
for p in ${MOVEBENCH_EXTRA_PACKAGES:-}; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || extra+=("$p")
done
if ((${#extra[@]})) && { [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; }; then
  echo "setup: optional packages missing (their tests skip); as root run: apt-get install -y ${extra[*]}" >&2
  extra=()
fi
missing+=("${extra[@]}")

if ((${#missing[@]})); then
  line="apt-get update && apt-get install -y ${missing[*]}"
  if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
    echo "setup: missing packages; as root run: $line" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Python venv for movebench-report and the tests. Uses the system python3
# (Debian's), so the set-up needs nothing outside Debian and PyPI.
venv=.venv
stamp=$venv/.requirements.stamp
want=$( { cat python/requirements.txt; cat python/pyproject.toml 2>/dev/null || true; } | sha256sum | cut -d" " -f1)
if [[ ! -x $venv/bin/python || ! -f $stamp || $(cat "$stamp") != "$want" ]]; then
  echo "setup: preparing the Python venv in $venv" >&2
  PY=/usr/bin/python3; [[ -x $PY ]] || PY=python3
  "$PY" -m venv "$venv"
  "$venv/bin/pip" install -q --upgrade pip >/dev/null
  "$venv/bin/pip" install -q -r python/requirements.txt
  if [[ -f python/pyproject.toml ]]; then "$venv/bin/pip" install -q -e python/; fi
  echo "$want" > "$stamp"
fi
