#!/usr/bin/env bash
# mem_compare.sh: `movebench mem` copy and triad beside its peers and beside a
# plain glibc memcpy, on the same array size, interleaved (the order of the
# tools rotates every round), then medians and ratios movebench/peer.
#
# Runs binaries that are already built; builds nothing. Peers are optional and
# given by path (build them outside this repository, see docs/performance.md):
#   STREAM_BIN       McCalpin's stream.c, built with -DSTREAM_ARRAY_SIZE=$N
#   TBB_BIN          TheBandwidthBenchmark bwbench (run with -s $N -n $REPS)
#   TBB_NT_BIN       the same built with -DAVX512_INTRINSICS (streaming stores)
#   BABELSTREAM_BIN  BabelStream omp-stream (run with -s $N -n $REPS)
#   LIKWID_BENCH     likwid-bench (kernels $LIKWID_COPY and $LIKWID_TRIAD)
# Settings (environment):
#   MOVEBENCH        movebench binary          (default build/release/movebench)
#   MEMCPY_REFERENCE bench/memcpy_reference    (default: beside MOVEBENCH;
#                    configure with -DMOVEBENCH_BENCH=ON to build it)
#   N=80000000 elements per array; REPS=10 timed repetitions inside each run;
#   ROUNDS=5 interleaved rounds; THREADS="1 2"; MOVEBENCH_ARGS (extra options,
#   e.g. "--nt-stores off"); OUT (results folder, default /tmp/mem_compare.<time>)
# Every tool reports its best repetition (likwid-bench: the mean of its
# iterations); the summary gives the median over rounds of those, the spread
# (min..max over rounds), and ratios of medians. Bytes are counted as STREAM
# counts them: copy 16 B/element, triad 24 B/element, no write-allocate.
# Writes OUT/samples.tsv (every figure), OUT/raw/ (every output),
# OUT/json/ (movebench --json documents), OUT/summary.json and OUT/summary.md.
set -euo pipefail

N=${N:-80000000}
REPS=${REPS:-10}
ROUNDS=${ROUNDS:-5}
THREADS=${THREADS:-"1 2"}
MOVEBENCH=${MOVEBENCH:-build/release/movebench}
MEMCPY_REFERENCE=${MEMCPY_REFERENCE:-$(dirname "$MOVEBENCH")/memcpy_reference}
MOVEBENCH_ARGS=${MOVEBENCH_ARGS:-}
LIKWID_COPY=${LIKWID_COPY:-copy_mem_avx512}
LIKWID_TRIAD=${LIKWID_TRIAD:-stream_mem_avx512}
OUT=${OUT:-/tmp/mem_compare.$(date -u +%Y%m%dT%H%M%SZ)}
# Peers place their OpenMP threads as movebench does (--bind close).
export OMP_PROC_BIND=${OMP_PROC_BIND:-close} OMP_PLACES=${OMP_PLACES:-cores}

die() { echo "mem_compare.sh: $*" >&2; exit 2; }
[[ -x $MOVEBENCH ]] || die "no movebench binary at '$MOVEBENCH' (set MOVEBENCH)"
[[ $N =~ ^[1-9][0-9]*$ ]] || die "N must be a positive integer (elements), got '$N'"
for v in STREAM_BIN TBB_BIN TBB_NT_BIN BABELSTREAM_BIN LIKWID_BENCH; do
  [[ -z ${!v:-} || -x ${!v} ]] || die "$v='${!v}' is not an executable"
done
command -v python3 >/dev/null || die "python3 is needed for the summary"

tools=(movebench)
[[ -x $MEMCPY_REFERENCE ]] && tools+=(memcpy) ||
  echo "mem_compare.sh: no memcpy_reference at '$MEMCPY_REFERENCE': skipped" >&2
[[ -n ${STREAM_BIN:-} ]] && tools+=(stream)
[[ -n ${TBB_BIN:-} ]] && tools+=(tbb)
[[ -n ${TBB_NT_BIN:-} ]] && tools+=(tbb_nt)
[[ -n ${BABELSTREAM_BIN:-} ]] && tools+=(babelstream)
[[ -n ${LIKWID_BENCH:-} ]] && tools+=(likwid)

mkdir -p "$OUT/raw" "$OUT/json"
samples=$OUT/samples.tsv
printf 'round\tthreads\ttool\tkernel\tMBps\n' >"$samples"
: >"$OUT/commands.txt"

# Runs one command, keeps its output, records it in commands.txt.
run() {  # file, command...
  local file=$1
  shift
  echo "$*" >>"$OUT/commands.txt"
  "$@" >"$file" 2>&1 || { echo "mem_compare.sh: failed ($?): $*" >&2; tail -5 "$file" >&2; return 1; }
}
record() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$samples"; }
# The second field of the first line matching a pattern, times a factor.
field() {  # file, regex, factor
  awk -v re="$2" -v f="$3" '$0 ~ re { printf "%.2f\n", $2 * f; found = 1; exit } END { if (!found) exit 1 }' "$1"
}

measure() {  # tool, threads, round
  local tool=$1 t=$2 r=$3 f="$OUT/raw/r$3_t$2_$1.txt"
  case $tool in
    movebench)
      # shellcheck disable=SC2086
      run "$f" "$MOVEBENCH" mem -n "$N" -t "$t" -k copy,triad -r "$REPS" --bind close \
        --json "$OUT/json/movebench_r${r}_t${t}.json" $MOVEBENCH_ARGS || return 0
      record "$r" "$t" movebench copy "$(field "$f" '^Copy:' 1)"
      record "$r" "$t" movebench triad "$(field "$f" '^Triad:' 1)"
      ;;
    memcpy)
      run "$f" "$MEMCPY_REFERENCE" -n "$N" -t "$t" -r "$REPS" || return 0
      record "$r" "$t" memcpy copy "$(sed -n 's/.*best_MBps=\([0-9.]*\).*/\1/p' "$f")"
      ;;
    stream)
      run "$f" env OMP_NUM_THREADS="$t" "$STREAM_BIN" || return 0
      grep -q "Array size = $N " "$f" || die "$STREAM_BIN was not built with -DSTREAM_ARRAY_SIZE=$N"
      record "$r" "$t" stream copy "$(field "$f" '^Copy:' 1)"
      record "$r" "$t" stream triad "$(field "$f" '^Triad:' 1)"
      ;;
    tbb | tbb_nt)
      local bin=${TBB_BIN:-}
      [[ $tool == tbb_nt ]] && bin=${TBB_NT_BIN:-}
      run "$f" env OMP_NUM_THREADS="$t" "$bin" -s "$N" -n "$REPS" || return 0
      record "$r" "$t" "$tool" copy "$(field "$f" '^Copy ' 1000)"  # it prints GB/s
      record "$r" "$t" "$tool" triad "$(field "$f" '^Triad ' 1000)"
      ;;
    babelstream)
      run "$f" env OMP_NUM_THREADS="$t" "$BABELSTREAM_BIN" -s "$N" -n "$REPS" || return 0
      record "$r" "$t" babelstream copy "$(field "$f" '^Copy ' 1)"
      record "$r" "$t" babelstream triad "$(field "$f" '^Triad ' 1)"
      ;;
    likwid)
      # likwid-bench sizes are the total of all arrays: 2 for copy, 3 for triad.
      run "$f" "$LIKWID_BENCH" -t "$LIKWID_COPY" -w "S0:$((16 * N))B:$t" -i "$REPS" || return 0
      record "$r" "$t" likwid copy "$(field "$f" '^MByte/s:' 1)"
      run "$f.triad" "$LIKWID_BENCH" -t "$LIKWID_TRIAD" -w "S0:$((24 * N))B:$t" -i "$REPS" || return 0
      record "$r" "$t" likwid triad "$(field "$f.triad" '^MByte/s:' 1)"
      ;;
  esac
}

echo "mem_compare.sh: $ROUNDS rounds x threads {$THREADS} x tools {${tools[*]}}, N=$N, REPS=$REPS -> $OUT" >&2
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(uname -n) $(uname -r)"
  echo "cpu: $(lscpu | sed -n 's/^Model name: *//p')"
  echo "movebench: $("$MOVEBENCH" --version 2>&1 | head -1) ($MOVEBENCH $MOVEBENCH_ARGS)"
  echo "loadavg at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$OUT/context.txt"
for ((r = 0; r < ROUNDS; r++)); do
  for t in $THREADS; do
    k=${#tools[@]}
    for ((i = 0; i < k; i++)); do
      tool=${tools[$(((i + r) % k))]}
      measure "$tool" "$t" "$r"
    done
  done
  echo "round $((r + 1))/$ROUNDS done, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
done
echo "loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/context.txt"

python3 - "$OUT" <<'PY'
import csv, json, statistics, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(f"{out}/samples.tsv"), delimiter="\t"))
data = {}
for row in rows:
    if row["MBps"]:
        data.setdefault((row["kernel"], int(row["threads"]), row["tool"]), []).append(float(row["MBps"]))
tools = []
for row in rows:
    if row["tool"] not in tools:
        tools.append(row["tool"])
peers = [t for t in tools if t not in ("movebench", "memcpy")]
summary = {"unit": "MB/s (1e6 B/s); copy 16 B/element, triad 24 B/element",
           "statistic": "median over rounds of each run's best repetition", "results": []}
header = ["kernel", "threads", "movebench"] + peers + ["memcpy"] + \
         [f"mb/{p}" for p in peers] + ["mb/memcpy", "mb/best peer"]
lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
for kernel in ("copy", "triad"):
    for threads in sorted({k[1] for k in data}):
        entry = {"kernel": kernel, "threads": threads, "tools": {}, "ratios": {}}
        for tool in tools:
            xs = data.get((kernel, threads, tool))
            if xs:
                entry["tools"][tool] = {"median": statistics.median(xs), "min": min(xs), "max": max(xs),
                                        "runs": len(xs), "samples": xs}
        mb = entry["tools"].get("movebench", {}).get("median")
        for tool, v in entry["tools"].items():
            if tool != "movebench" and mb:
                entry["ratios"][tool] = mb / v["median"]
        best = max((p for p in peers if p in entry["tools"]), key=lambda p: entry["tools"][p]["median"], default=None)
        if best and mb:
            entry["best_peer"] = best
            entry["ratio_best_peer"] = mb / entry["tools"][best]["median"]
        summary["results"].append(entry)
        def cell(tool):
            v = entry["tools"].get(tool)
            return f"{v['median']:.0f} ({v['min']:.0f}-{v['max']:.0f})" if v else "-"
        def ratio(tool):
            return f"{entry['ratios'][tool]:.2f}" if tool in entry["ratios"] else "-"
        best_cell = f"{entry['ratio_best_peer']:.2f} ({best})" if best and mb else "-"
        lines.append("| " + " | ".join([kernel, str(threads), cell("movebench")] + [cell(p) for p in peers] +
                                      [cell("memcpy")] + [ratio(p) for p in peers] + [ratio("memcpy"), best_cell]) + " |")
json.dump(summary, open(f"{out}/summary.json", "w"), indent=2)
table = "\n".join(lines)
open(f"{out}/summary.md", "w").write(table + "\n")
print("median MB/s over rounds (min-max), ratios of medians movebench/tool")
print(table)
PY
echo "mem_compare.sh: results in $OUT" >&2
