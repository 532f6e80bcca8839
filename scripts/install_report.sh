#!/usr/bin/env bash
# The second half of `make install PREFIX=...`: the report tool, so that
# `movebench report` works from the install alone (it looks for
# movebench-report beside the binary first: src/report/report_tool.cpp).
# Its own venv under PREFIX/lib/movebench/venv, the package installed into
# it (not editable: the install must not read the source tree later), and
# PREFIX/bin/movebench-report a link to its console script.
# Offline: the dependencies come from pip's cache or find-links
# (PIP_FIND_LINKS, or MOVEBENCH_WHEELS, a folder of wheels) when PyPI
# cannot be reached.
set -euo pipefail
prefix=${1:?usage: scripts/install_report.sh PREFIX}
source_dir=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$prefix/bin" "$prefix/lib/movebench"
prefix=$(cd "$prefix" && pwd)
venv=$prefix/lib/movebench/venv

PY=/usr/bin/python3; [[ -x $PY ]] || PY=python3
"$PY" -m venv --clear "$venv"
pip_args=(-q --disable-pip-version-check)
if [[ -n ${MOVEBENCH_WHEELS:-} ]]; then pip_args+=(--find-links "$MOVEBENCH_WHEELS"); fi
# A copy of python/ to build from: pip's build writes egg-info next to the
# sources, and the source tree may be read-only.
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
cp -rL "$source_dir/python/." "$build/"
rm -rf "$build"/*.egg-info "$build/build"
"$venv/bin/pip" install "${pip_args[@]}" "$build"
ln -sfn ../lib/movebench/venv/bin/movebench-report "$prefix/bin/movebench-report"
echo "install: movebench-report in $venv, linked from $prefix/bin/movebench-report" >&2
