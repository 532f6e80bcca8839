#!/bin/bash
# Alternating rounds of fleet (two ranks, one pair) with and without
# --percentiles (docs/performance.md).
# usage: run.sh BIN OUT [ROUNDS]
exec "$(dirname "$0")/../percentiles-rounds.sh" "$1" "$2" "${3:-10}" fleet --per rank --array-bytes 16M \
  --chase-bytes 4M --repetitions 3 --time-budget 4
