# Thin wrapper: the real build is CMake (CMakePresets.json).
#   make run     set up, build (Release) and run the default suite
#   make test    set up, build and pass every test (and again under ASan/UBSan)
PRESET  ?= release
BUILD   := build/$(PRESET)
PREFIX  ?= /usr/local
VENV    := .venv
BIN     := $(BUILD)/movebench
JOBS    ?= $(shell nproc)

.PHONY: all setup build run test unit integration sanitize install clean

all: build

setup:
	@scripts/setup.sh

build: setup
	@cmake --preset $(PRESET) >/dev/null
	@cmake --build --preset $(PRESET) -j $(JOBS)

run: build
	@mkdir -p results
	$(BIN) run --json results/run.json

unit: build
	ctest --preset $(PRESET) -j $(JOBS)

integration: build
	MOVEBENCH_BIN=$(abspath $(BIN)) $(VENV)/bin/python -m pytest -q tests/integration tests/python

# The host-side code once more under AddressSanitizer and UBSan (the debug
# preset): the unit tests, then the end-to-end tests of the threaded
# benchmarks. CUDA is left out there (the release build compiles it and
# nothing CUDA runs here), so the test that asks for it is too; leaks are
# only checked in the unit tests (PoCL keeps allocations until exit).
sanitize: setup
	@cmake --preset debug -DMOVEBENCH_WITH_CUDA=OFF >/dev/null
	@cmake --build --preset debug -j $(JOBS)
	ctest --preset debug -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=0 MOVEBENCH_BIN=$(abspath build/debug/movebench) $(VENV)/bin/python -m pytest -q \
	  tests/integration/test_link_modes.py tests/integration/test_stream_designs.py tests/integration/test_mem.py \
	  -k "not nvcc"

test: unit integration sanitize

# The report tests open the HTML page in a real headless browser; only the
# test targets (make test, make integration) ask the set-up for it (it is big).
test integration: export MOVEBENCH_EXTRA_PACKAGES := $(MOVEBENCH_EXTRA_PACKAGES) chromium

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf build
