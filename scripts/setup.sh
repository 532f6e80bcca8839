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
  # hwloc's lstopo: reads node --hwloc-xml back (tests/integration/test_node_steps.py)
  hwloc-nox
  # zlib: the deflate of the results' latency histograms (core/hdr_histogram)
  zlib1g-dev
  # MPI (beff, coll, p2p): both families, each in its own build (CMakePresets.json: mpich)
  openmpi-bin libopenmpi-dev mpich libmpich-dev
  # OpenCL on the CPU (link, stream)
  pocl-opencl-icd ocl-icd-opencl-dev opencl-headers opencl-clhpp-headers clinfo
  # Python for the report tool and the integration tests
  python3 python3-venv
  # network namespaces for the cross-host MPI test
  iproute2
  # a real terminal for the progress-line test
  tmux
  # libFuzzer for the C++ parsers (tests/fuzz, part of make test), and the
  # sanitized debug build (make sanitize) with LLVM's OpenMP runtime
  clang-14 libclang-rt-14-dev libomp-14-dev
  # the C++ style (.clang-format; scripts/check_format.sh)
  clang-format
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
# The aarch64 cross build (`make aarch64`, part of `make test`): Debian's
# cross compiler and qemu-user; the arm64 libraries come below.
cross_aarch64=0
[[ " ${MOVEBENCH_CROSS:-} " == *" aarch64 "* ]] && cross_aarch64=1
if ((cross_aarch64)); then
  for p in g++-aarch64-linux-gnu qemu-user; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
fi

if ((${#missing[@]})); then
  line="apt-get update && apt-get install -y ${missing[*]}"
  if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
    echo "setup: missing packages; as root run: $line" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=900 update -qq
  apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The arm64 builds of the libraries with code (hwloc, fmt, GoogleTest, zlib; hwloc
# needs libudev at run time), unpacked from Debian's own packages into
# .sysroot-aarch64 beside the cross compiler's libc. Not installed as
# multiarch packages: those must match the version of every installed amd64
# twin (libc6, libudev1, ...) and so would upgrade the host's own libraries.
# CLI11 and nlohmann-json are header-only and come from the host packages.
if ((cross_aarch64)); then
  sysroot=.sysroot-aarch64
  arm_debs=(libhwloc15 libhwloc-dev libfmt9 libfmt-dev libgtest-dev libudev1 zlib1g zlib1g-dev)
  arm_want=$(echo "${arm_debs[*]}" | sha256sum | cut -d" " -f1)
  if [[ ! -f $sysroot/.stamp || $(cat "$sysroot/.stamp") != "$arm_want" ]]; then
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
      if [[ $(id -u) -ne 0 ]]; then
        echo "setup: the aarch64 build needs Debian's arm64 package lists; as root run:" \
             "dpkg --add-architecture arm64 && apt-get update" >&2
        exit 1
      fi
      dpkg --add-architecture arm64
      apt-get -o DPkg::Lock::Timeout=900 update -qq
    fi
    echo "setup: unpacking arm64 ${arm_debs[*]} into $sysroot" >&2
    debs=$(mktemp -d)
    (cd "$debs" && apt-get -q -o APT::Sandbox::User=root download "${arm_debs[@]/%/:arm64}" >/dev/null)
    rm -rf "$sysroot"
    for d in "$debs"/*.deb; do dpkg-deb -x "$d" "$sysroot"; done
    rm -rf "$debs"
    echo "$arm_want" > "$sysroot/.stamp"
  fi
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
