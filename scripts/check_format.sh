#!/usr/bin/env bash
# The C++ sources against .clang-format (Debian's clang-format): each file
# it would change and how many lines, then the total; exit 1 if any would
# change. make test runs it (tests/integration/test_cpp_style.py). The files
# are checked as many at a time as there are CPUs (xargs -P): the test ran
# alone on one of CI's two cores for 12 s (docs/reliability.md, "Time of
# make test").
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check_format: clang-format missing (scripts/setup.sh installs it)" >&2; exit 2; }
# "FILE: N lines" for each given file clang-format would change.
changed_lines() {
  local f changed
  for f; do
    changed=$(clang-format --style=file "$f" | diff -U0 "$f" - | grep -c '^-[^-]' || true)
    if ((changed)); then echo "$f: $changed lines"; fi
  done
}
export -f changed_lines
report=$(git ls-files src tests/unit tests/fuzz tests/faults tests/standin bench | grep -E '\.(cpp|hpp|h|c|cu|cuh)$' |
  xargs -r -P "$(nproc)" -n 16 bash -c 'changed_lines "$@"' changed_lines | sort)
total=0
while IFS= read -r line; do
  [[ -n $line ]] || continue
  echo "$line"
  n=${line##*: }
  total=$((total + ${n% lines}))
done <<<"$report"
echo "check_format: $total lines clang-format would change"
((total == 0))
