# The CUDA toolkit, found once for the whole source tree: CMake enables a
# language for the folder that asks and those below it, and the CUDA
# backend's kernels (src/backends/cuda/) and the binaries that link them
# (src/, tests/) must both see it. Included by src/CMakeLists.txt before any
# folder.
#
# Built whenever nvcc 12.0 or newer is found; nothing probes a GPU here.
# Unless the user chose (CMAKE_CUDA_ARCHITECTURES or CUDAARCHS), the code is
# real for each data-centre generation (8.x GPUs run the sm_80 code: A100,
# A10, L4, L40; 9.0: H100, H200; 10.x: B200, B300; 12.x: RTX PRO Blackwell)
# plus compute_75 PTX, which the driver compiles once for anything else (T4,
# GPUs newer than the toolkit). A few seconds per architecture.
# Sets MOVEBENCH_CUDA_MISSING to why it is left out, or to nothing.
set(MOVEBENCH_CUDA_MISSING "")
if(NOT MOVEBENCH_WITH_CUDA)
  set(MOVEBENCH_CUDA_MISSING "MOVEBENCH_WITH_CUDA is OFF")
  return()
endif()
include(CheckLanguage)
check_language(CUDA)
if(CMAKE_CUDA_COMPILER)
  execute_process(COMMAND "${CMAKE_CUDA_COMPILER}" --version OUTPUT_VARIABLE _nvcc_out ERROR_QUIET)
  string(REGEX MATCH "release ([0-9]+\\.[0-9]+)" _nvcc_release "${_nvcc_out}")
  set(MOVEBENCH_NVCC_VERSION "${CMAKE_MATCH_1}")
endif()
if(NOT CMAKE_CUDA_COMPILER)
  set(MOVEBENCH_CUDA_MISSING "nvcc not found")
elseif(MOVEBENCH_NVCC_VERSION AND MOVEBENCH_NVCC_VERSION VERSION_LESS 12.0)
  set(MOVEBENCH_CUDA_MISSING "nvcc ${MOVEBENCH_NVCC_VERSION} is older than 12.0")
else()
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
    set(CMAKE_CUDA_ARCHITECTURES 75-virtual 80-real 90-real)
    if(MOVEBENCH_NVCC_VERSION VERSION_GREATER_EQUAL 12.8)
      list(APPEND CMAKE_CUDA_ARCHITECTURES 100-real 120-real)
    endif()
  endif()
  enable_language(CUDA)
  message(STATUS "movebench: CUDA ${MOVEBENCH_NVCC_VERSION}, architectures ${CMAKE_CUDA_ARCHITECTURES}")
  find_package(CUDAToolkit REQUIRED)
endif()

# movebench_cuda_library(<name> <sources.cu...>): a static library of CUDA
# kernels behind plain C++ launchers (only kernels go through nvcc; the code
# around them is C++ on the runtime API). MOVEBENCH_CUDA_ARCHS names the
# architectures in messages of a binary run on a GPU it has no code for.
function(movebench_cuda_library name)
  add_library(${name} STATIC ${ARGN})
  set_target_properties(${name} PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  string(REPLACE ";" "," archs "${CMAKE_CUDA_ARCHITECTURES}")
  target_compile_definitions(${name} PRIVATE MOVEBENCH_CUDA_ARCHS="${archs}")
  target_link_libraries(${name} PUBLIC CUDA::cudart_static)
  # nvcc's generated host code trips -Wpedantic (line directives): the
  # warnings go to the host compiler without it.
  get_target_property(options ${name} COMPILE_OPTIONS)
  if(options)
    list(REMOVE_ITEM options -Wall -Wextra -Wpedantic)
    set_target_properties(${name} PROPERTIES COMPILE_OPTIONS "${options}")
  endif()
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
endfunction()
