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
"$CXX" "${flags[@]}" tests/fuzz/fuzz_sizes.cpp "${common[@]}" -lfmt -o "$out/fuzz_sizes"
# affinity.cpp asks OpenMP for its places: clang's front end, GCC's runtime.
"$CXX" "${flags[@]}" -fopenmp=libgomp tests/fuzz/fuzz_cpu_list.cpp src/core/affinity.cpp src/core/sizes.cpp \
  $(pkg-config --cflags --libs hwloc) -lfmt -lgomp -o "$out/fuzz_cpu_list"
# The lspci -vv parser of the facts layer (and the link table it uses).
"$CXX" "${flags[@]}" tests/fuzz/fuzz_lspci.cpp src/facts/lspci.cpp src/facts/pcie_device.cpp src/facts/pcie_link.cpp \
  src/facts/input_file.cpp src/core/system_file.cpp -lfmt -o "$out/fuzz_lspci"
# The facts layer's SMBIOS parsers: dmidecode text (with the slot-name
# patterns) and the binary table.
"$CXX" "${flags[@]}" tests/fuzz/fuzz_dmidecode.cpp src/facts/dmidecode_text.cpp src/facts/locator.cpp \
  src/facts/smbios_table.cpp -lfmt -o "$out/fuzz_dmidecode"
"$CXX" "${flags[@]}" tests/fuzz/fuzz_smbios.cpp src/facts/smbios_table.cpp -lfmt -o "$out/fuzz_smbios"
for target in fuzz_sizes fuzz_cpu_list fuzz_lspci fuzz_dmidecode fuzz_smbios; do
  # a dmidecode structure is a few hundred bytes, an lspci entry with its
  # link lines about as much; the lists are short
  max_len=256
  [[ "$target" == fuzz_lspci || "$target" == fuzz_dmidecode ]] && max_len=4096
  corpus="$out/corpus-$target"
  mkdir -p "$corpus"
  cp tests/fuzz/seeds/"${target#fuzz_}"/* "$corpus"/
  echo "fuzz: $target for ${seconds}s" >&2
  # -rss_limit_mb: a parser that allocates without bound is a finding too.
  "$out/$target" -max_total_time="$seconds" -rss_limit_mb=1024 -max_len="$max_len" -timeout=5 \
    -print_final_stats=1 -artifact_prefix="$out/$target-" "$corpus" 2>"$out/$target.log" || {
    tail -40 "$out/$target.log" >&2
    echo "fuzz: $target found a failure; the input is in $out/$target-*" >&2
    exit 1
  }
  grep -E "stat::number_of_executed_units|stat::new_units_added" "$out/$target.log" | sed "s/^/fuzz: $target /" >&2
done
