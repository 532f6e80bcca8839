# Cross build for aarch64 Linux (the `aarch64` preset, `make aarch64`):
# Debian's g++-aarch64-linux-gnu, the arm64 libraries scripts/setup.sh
# unpacks into .sysroot-aarch64, and qemu-user to run what it builds.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

get_filename_component(_movebench_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(MOVEBENCH_AARCH64_SYSROOT "${_movebench_root}/.sysroot-aarch64")
set(_movebench_libdir "${MOVEBENCH_AARCH64_SYSROOT}/usr/lib/aarch64-linux-gnu")

# Libraries only from the arm64 trees; packages (CMake configs) and headers
# also from the host, where the header-only CLI11 and nlohmann-json live.
set(CMAKE_FIND_ROOT_PATH "${MOVEBENCH_AARCH64_SYSROOT}" /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
set(ENV{PKG_CONFIG_LIBDIR} "${_movebench_libdir}/pkgconfig")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${MOVEBENCH_AARCH64_SYSROOT}")
# Debian's multiarch header folder (hwloc's generated config.h), which only
# a native compiler searches by itself.
set(CMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES "${MOVEBENCH_AARCH64_SYSROOT}/usr/include/aarch64-linux-gnu")
# zlib's static archive: the arm64 zlib1g-dev's libz.so is an absolute
# symlink to /lib/aarch64-linux-gnu, which is not in the sysroot's place.
set(ZLIB_USE_STATIC_LIBS ON)
# libhwloc.so needs libudev.so.1, which lives beside it.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,-rpath-link,${_movebench_libdir}")

# ctest (and the movebench-emulated wrapper, see src/CMakeLists.txt) run the
# arm64 binaries under qemu-user: the cross compiler's libc and our libraries,
# through the arm64 dynamic loader named on the command line. Not with
# qemu's -L prefix: that remaps every absolute path, and open("/tmp",
# O_DIRECTORY) then fails with ENOTDIR (qemu 7.2), so no result file could be
# written to an absolute path.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1
    --library-path "/usr/aarch64-linux-gnu/lib:${_movebench_libdir}")
