#!/usr/bin/env bash
# The C++ sources against .clang-format (Debian's clang-format): each file
# it would change and how many lines, then the total; exit 1 if any would
# change. make test runs it (tests/integration/test_cpp_style.py).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check_format: clang-format missing (scripts/setup.sh installs it)" >&2; exit 2; }
total=0
while IFS= read -r f; do
  changed=$(clang-format --style=file "$f" | diff -U0 "$f" - | grep -c '^-[^-]' || true)
  if ((changed)); then echo "$f: $changed lines"; total=$((total + changed)); fi
done < <(git ls-files src tests/unit tests/fuzz tests/faults tests/standin bench | grep -E '\.(cpp|hpp|h|c|cu|cuh)$')
echo "check_format: $total lines clang-format would change"
((total == 0))
