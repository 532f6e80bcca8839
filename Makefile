# Thin wrapper: the real build is CMake (CMakePresets.json).
#   make run     set up, build (Release) and run the default suite
#   make test    set up, build and pass every test (MPI ones against MPICH too, the mem ones for aarch64
#                under qemu, and again under ASan/UBSan), fuzz the parsers
PRESET  ?= release
BUILD   := build/$(PRESET)
PREFIX  ?= /usr/local
VENV    := .venv
BIN     := $(BUILD)/movebench
JOBS    ?= $(shell nproc)

.PHONY: all setup build run test unit integration report mpich sanitize aarch64 numa fuzz install clean

all: build

setup:
	@scripts/setup.sh

# MPICH_TWIN=ON (make test, make mpich): the build also links mpich/movebench,
# its MPI commands against MPICH (src/net/CMakeLists.txt).
MPICH_TWIN ?= OFF
build: setup
	@cmake --preset $(PRESET) -DMOVEBENCH_MPICH_TWIN=$(MPICH_TWIN) >/dev/null
	@cmake --build --preset $(PRESET) -j $(JOBS)

run: build
	@mkdir -p results
	$(BIN) run --json results/run.json

unit: build
	ctest --preset $(PRESET) -j $(JOBS)

# The fleet tests last: four ranks on two cores, busy-polling, they are the
# ones other work beside them slows most (the five calm runs: 20-36 s alone,
# 113 s beside the report tests), and by then make test's NUMA guest beside
# them has ended.
INTEGRATION_TESTS := $(filter-out tests/integration/test_fleet%,$(sort $(wildcard tests/integration/test_*.py))) \
  $(sort $(wildcard tests/integration/test_fleet*.py))
integration: build
	MOVEBENCH_BIN=$(abspath $(BIN)) $(VENV)/bin/python -m pytest -q --durations=10 $(INTEGRATION_TESTS)

# The report tool's own tests (tests/python): one core, timing nothing of
# the machine's, so make test runs them beside the builds of the sanitize
# and aarch64 stages (they slowed the end-to-end tests, which burst to both
# cores, by more than they took: docs/reliability.md, "Time of make test").
report: build
	MOVEBENCH_BIN=$(abspath $(BIN)) $(VENV)/bin/python -m pytest -q --durations=10 tests/python

# The host-side code once more under AddressSanitizer and UBSan (the debug
# preset): the unit tests, then the end-to-end tests of the threaded
# benchmarks. CUDA is left out there (the release build compiles it and
# nothing CUDA runs here), so the test that asks for it is too; leaks are
# only checked in the unit tests (PoCL keeps allocations until exit). The
# MPI commands too: p2p, coll and beff end to end and the signal tests (stopped
# and interrupted ranks), about two minutes; the fault-injection libraries are
# left out there (ASan's runtime must be the first library loaded), so the
# stage builds only movebench and the unit tests (movebench_unit_tests). The
# debug preset has no -march=native, so the NUMA guest runs the same binary
# (make numa). Clang builds it: the same sanitizers for about two thirds of
# GCC's CPU time (docs/reliability.md).
DEBUG_CONFIGURE := cmake --preset debug -DMOVEBENCH_WITH_CUDA=OFF >/dev/null
sanitize: setup
	@$(DEBUG_CONFIGURE)
	@cmake --build --preset debug -j $(JOBS) --target movebench movebench_unit_tests
	ctest --preset debug -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=0 MOVEBENCH_BIN=$(abspath build/debug/movebench) $(VENV)/bin/python -m pytest -q --durations=10 \
	  tests/integration/test_link_modes.py tests/integration/test_stream_designs.py tests/integration/test_mem.py \
	  tests/integration/test_mem_device.py \
	  tests/integration/test_net_p2p.py tests/integration/test_net_coll.py tests/integration/test_net_beff.py \
	  tests/integration/test_net_signals.py \
	  -k "not nvcc"

# mem and core cross-compiled for aarch64 (Debian's g++-aarch64-linux-gnu;
# the arm64 libraries setup.sh unpacks) and run under qemu-user: their unit
# tests, then the mem end-to-end tests through build/aarch64/movebench-emulated.
aarch64: setup
	@cmake --preset aarch64 >/dev/null
	@cmake --build --preset aarch64 -j $(JOBS)
	ctest --preset aarch64 -j $(JOBS)
	MOVEBENCH_BIN=$(abspath build/aarch64/movebench-emulated) $(VENV)/bin/python -m pytest -q --durations=10 tests/integration/test_mem.py tests/integration/test_mem_chase_modes.py \
	  tests/integration/test_no_mpi_build.py

# movebench node's NUMA matrix on a kernel with real NUMA nodes: Debian's
# kernel under qemu without KVM (virtme-ng, one boot: three nodes with a CPU
# each and one of memory only; the matrix, then an unslowed sibling run and
# one with the guest's CPU 1 slowed by a host CPU quota on qemu's thread for
# it), running the sanitize stage's build (the
# debug preset: no -march=native, which qemu could not run, as it emulates
# no AVX-512; ASan and UBSan check the NUMA code there too). After make
# sanitize (make test) nothing is left to build; alone, the debug preset's
# movebench target. A third x86 build for the guest took 130 s of make
# test's time (docs/reliability.md, "Time of make test").
numa: setup
	@$(DEBUG_CONFIGURE)
	@cmake --build --preset debug -j $(JOBS) --target movebench
	MOVEBENCH_PORTABLE_BIN=$(abspath build/debug/movebench) \
	  $(VENV)/bin/python -m pytest -q --durations=10 tests/integration/test_node_guest.py

# The C++ parsers (sizes, lists, CPU lists) under libFuzzer with Debian's
# clang, a bounded time per target (docs/reliability.md).
FUZZ_SECONDS ?= 10
fuzz: setup
	tests/fuzz/run.sh $(FUZZ_SECONDS)



# ... and for the cross compiler, qemu-user and the arm64 libraries.
test aarch64: export MOVEBENCH_CROSS := $(MOVEBENCH_CROSS) aarch64
# The MPI end-to-end tests (and the Slurm ones) once more against MPICH and
# its own launcher: the MPICH twin of the build above (MPICH_TWIN), which
# compiles only the MPI commands again (the mpich preset, a whole second
# build, stays for users who want an MPICH binary alone).
# The cross-host test stays with Open MPI (it starts remote ranks through
# Open MPI's rsh agent).
MPI_TESTS := $(addprefix tests/integration/,test_net_beff.py test_net_coll.py test_net_p2p.py \
  test_suite_mpi.py test_slurm.py test_fleet.py test_fleet_fail.py)
test mpich: MPICH_TWIN := ON
mpich: build
	MOVEBENCH_MPI_FAMILY=mpich MOVEBENCH_BIN=$(abspath $(BUILD)/mpich/movebench) $(VENV)/bin/python -m pytest -q --durations=10 $(MPI_TESTS)

# Each stage in turn, as its own make (the exports above reach it), with the
# time it took: where make test's time goes is in every CI log. Targets
# joined by + are one stage, run side by side, each one's output printed
# whole when it ends. The builds share a stage with the work that times
# nothing of the machine: the sanitizer build and its tests, the aarch64
# build and its tests under qemu-user, the report tests and the fuzzers (a
# fixed time each). The end-to-end tests, which time things, have beside
# them only the NUMA guest (qemu: one process, at most a core, for about
# four and a half minutes of their eight; it runs the sanitize stage's build) and no
# compiler, even at nice 19: each new compiler process gets a slice of
# milliseconds before the polling MPI ranks. MPICH's end-to-end tests run
# alone (docs/reliability.md, "Time of make test").
TEST_STAGES := unit sanitize+aarch64+report+fuzz integration+numa mpich
test:
	@set -e; for stage in $(TEST_STAGES); do \
	  start=$$(date +%s); side=; \
	  case $$stage in *+*) side="-j $$(echo $$stage | tr + '\n' | wc -l) --output-sync=target";; esac; \
	  $(MAKE) --no-print-directory $$side $$(echo $$stage | tr + " ") MPICH_TWIN=ON; \
	  echo "make test: $$stage took $$(( $$(date +%s) - start )) s"; \
	done

# The report tests open the HTML page in a real headless browser, the Slurm
# tests start a one-node Slurm (slurm-wlm), the store tests a throwaway
# PostgreSQL server (postgresql) and check the Prometheus export with
# promtool (prometheus); only the test targets ask the set-up for them (they
# are big).
# The NUMA guest (make numa) asks for qemu, a kernel to boot and busybox for
# virtme-ng's init, optional the same way (without root its test skips with
# the reason). One assignment per target: `test` asks for all of them.
GUEST_PACKAGES := qemu-system-x86 linux-image-amd64 busybox-static
integration report mpich: export MOVEBENCH_EXTRA_PACKAGES := $(MOVEBENCH_EXTRA_PACKAGES) chromium slurm-wlm postgresql \
  prometheus
test: export MOVEBENCH_EXTRA_PACKAGES := $(MOVEBENCH_EXTRA_PACKAGES) chromium slurm-wlm postgresql prometheus \
  $(GUEST_PACKAGES)
numa: export MOVEBENCH_EXTRA_PACKAGES := $(MOVEBENCH_EXTRA_PACKAGES) $(GUEST_PACKAGES)

# The binary, then the report tool in its own venv under PREFIX/lib/movebench
# (movebench report finds it beside the binary, not in the source tree).
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)
	scripts/install_report.sh $(PREFIX)

clean:
	rm -rf build
