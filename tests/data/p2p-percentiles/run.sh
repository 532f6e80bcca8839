#!/bin/bash
# Alternating rounds of p2p latency with and without --percentiles.
# usage: run.sh BIN OUT [ROUNDS]
exec "$(dirname "$0")/../percentiles-rounds.sh" "$1" "$2" "${3:-10}" p2p --tests latency --sizes-bytes 8,1K,64K
