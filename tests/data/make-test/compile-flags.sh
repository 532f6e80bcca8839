#!/bin/bash
# Compile time of mem's unity file (the largest) under the flags compared in
# docs/reliability.md "Session 18" and docs/architecture.md: one compile each,
# quiet machine. Run from the repository root after `cmake --preset debug`
# and `cmake --preset aarch64` (each writes the unity file and compile_commands.json).
set -u
echo "# $(grep -m1 'model name' /proc/cpuinfo); $(date -u +%FT%TZ); load $(cut -d' ' -f1-3 /proc/loadavg)"
cmd() { python3 -c "import json,sys; print(next(e['command'] for e in json.load(open(sys.argv[1])) if 'movebench_mem.dir/Unity/unity_0' in e['file']))" "$1"; }
dbg=$(cmd build/debug/compile_commands.json)
echo "# debug preset (clang-14, ASan+UBSan): $dbg"
for g in "-g" "-gline-tables-only" "-g0"; do
  c=${dbg/ -g / $g }; c="${c%% -o *} -o /tmp/flagtime.o -c ${dbg##* -c }"
  (cd build/debug && /usr/bin/time -f "debug $g: %e s wall, %U s user" $c)
done
a64=$(cmd build/aarch64/compile_commands.json)
echo "# aarch64 preset (aarch64-linux-gnu-g++): $a64"
for o in -O3 -O2 -O1; do
  c=${a64/ -O3 / $o }; c="${c%% -o *} -o /tmp/flagtime.o -c ${a64##* -c }"
  (cd build/aarch64 && /usr/bin/time -f "aarch64 $o: %e s wall, %U s user" $c)
done
echo "# an ASan report with -gline-tables-only: file:line kept"
printf '#include <cstdlib>\nint f(int* p){return p[10];}\nint main(){int* p=(int*)malloc(4*4); int r=f(p); free(p); return r;}\n' > /tmp/asan_lines.cpp
clang++-14 -gline-tables-only -fsanitize=address,undefined -fno-omit-frame-pointer /tmp/asan_lines.cpp -o /tmp/asan_lines
/tmp/asan_lines 2>&1 | grep -E "ERROR|#[0-9] .*asan_lines.cpp"
