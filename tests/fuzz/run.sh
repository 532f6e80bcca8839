#!/usr/bin/env bash
# Builds the libFuzzer targets of the C++ parsers with Debian's clang
# (AddressSanitizer and UBSan on) and runs each for a bounded time from its
# seed corpus: part of `make test` (docs/reliability.md, "C++ parsers fuzzing").
#   tests/fuzz/run.sh [SECONDS per target, default 10]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-10}
CXX=${FUZZ_CXX:-clang++-14}
out=build/fuzz
mkdir -p "$out"
flags=(-std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Isrc)
common=(src/core/sizes.cpp)
# The five builds go side by side, then the five runs as many at a time as
# there are CPUs (each run keeps its SECONDS of wall time and has a core to
# itself): on CI's 2 cores this halves the phase and fuzzes as much.
cpus=$(nproc)
build() {
  local target=$1; shift
  "$CXX" "${flags[@]}" "tests/fuzz/$target.cpp" "$@" -lfmt -o "$out/$target"
}
build fuzz_sizes "${common[@]}" &
# affinity.cpp asks OpenMP for its places: clang's front end, GCC's runtime.
build fuzz_cpu_list -fopenmp=libgomp src/core/affinity.cpp src/core/sizes.cpp \
  $(pkg-config --cflags --libs hwloc) -lgomp &
# The lspci -vv parser of the facts layer (and the link table it uses).
build fuzz_lspci src/facts/lspci.cpp src/facts/pcie_device.cpp src/facts/pcie_link.cpp \
  src/facts/input_file.cpp src/core/system_file.cpp &
# The facts layer's SMBIOS parsers: dmidecode text (with the slot-name
# patterns) and the binary table.
build fuzz_dmidecode src/facts/dmidecode_text.cpp src/facts/locator.cpp src/facts/smbios_table.cpp &
build fuzz_smbios src/facts/smbios_table.cpp &
failed=0
for pid in $(jobs -p); do wait "$pid" || failed=1; done
((failed == 0)) || { echo "fuzz: a target did not build" >&2; exit 1; }

# Runs one target and writes its exit status to $out/<target>.rc.
fuzz() {
  local target=$1
  # a dmidecode structure is a few hundred bytes, an lspci entry with its
  # link lines about as much; the lists are short
  local max_len=256
  [[ "$target" == fuzz_lspci || "$target" == fuzz_dmidecode ]] && max_len=4096
  local corpus="$out/corpus-$target"
  mkdir -p "$corpus"
  cp tests/fuzz/seeds/"${target#fuzz_}"/* "$corpus"/
  echo "fuzz: $target for ${seconds}s" >&2
  # -rss_limit_mb: a parser that allocates without bound is a finding too.
  local rc=0
  "$out/$target" -max_total_time="$seconds" -rss_limit_mb=1024 -max_len="$max_len" -timeout=5 \
    -print_final_stats=1 -artifact_prefix="$out/$target-" "$corpus" 2>"$out/$target.log" || rc=$?
  echo "$rc" >"$out/$target.rc"
}
targets=(fuzz_sizes fuzz_cpu_list fuzz_lspci fuzz_dmidecode fuzz_smbios)
rm -f "$out"/*.rc
for target in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= cpus)); do sleep 0.2; done
  fuzz "$target" &
done
wait
failed=0
for target in "${targets[@]}"; do
  if [[ "$(cat "$out/$target.rc" 2>/dev/null)" != 0 ]]; then
    tail -40 "$out/$target.log" >&2
    echo "fuzz: $target found a failure; the input is in $out/$target-*" >&2
    failed=1
    continue
  fi
  grep -E "stat::number_of_executed_units|stat::new_units_added" "$out/$target.log" | sed "s/^/fuzz: $target /" >&2
done
exit "$failed"
