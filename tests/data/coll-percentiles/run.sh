#!/bin/bash
# Alternating rounds of coll with and without --percentiles (docs/performance.md).
# usage: run.sh BIN OUT [ROUNDS]
exec "$(dirname "$0")/../percentiles-rounds.sh" "$1" "$2" "${3:-10}" coll -b 8 -e 4K -i 500 Barrier Allreduce
