# Thin wrapper: the real build is CMake (CMakePresets.json).
#   make run     set up, build (Release) and run the default suite
#   make test    set up, build and pass every test
PRESET  ?= release
BUILD   := build/$(PRESET)
PREFIX  ?= /usr/local
VENV    := .venv
BIN     := $(BUILD)/movebench
JOBS    ?= $(shell nproc)

.PHONY: all setup build run test unit integration install clean

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

test: unit integration

# The report tests open the HTML page in a real headless browser; only the
# test targets (make test, make integration) ask the set-up for it (it is big).
test integration: export MOVEBENCH_EXTRA_PACKAGES := $(MOVEBENCH_EXTRA_PACKAGES) chromium

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf build
