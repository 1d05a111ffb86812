# The kernel library's dependencies, found the same way by this project's
# CMakeLists.txt and by the installed opdispatchConfig.cmake (a consumer of
# opdispatch::header_only compiles the kernels itself and needs them too):
#   opd::blas    OpenBLAS's CBLAS (cblas.h, libopenblas): matrix products
#   opd::simd    Highway (hwy::hwy) for vectors, Sleef for vectorized math
#   opd::fft     KISS FFT's header-only C++ template (kissfft/kissfft.hh; Debian's libkissfft-dev):
#                the FFTs' 1-D transforms (kernels/cpu/fft-inl.hpp); an include path, no library
#   opd::openmp  OpenMP when OPD_OPENMP is ON (parallel_for), else nothing
#   opd::onednn  oneDNN (dnnl.hpp, libdnnl; Debian's libdnnl-dev) when OPD_ONEDNN is ON and it
#                is found, with OPD_WITH_ONEDNN defined: conv2d's adapter
#                (kernels/cpu/onednn_conv.hpp) and the float GEMM (kernels/cpu/sgemm.hpp);
#                else nothing (conv2d keeps its own paths, GEMMs stay on OpenBLAS)
# Each is an INTERFACE target, so a missing package is one clear error here.
include_guard(GLOBAL)

option(OPD_OPENMP "Parallelize large kernels with OpenMP" ON)

if(NOT TARGET opd::blas)
  find_path(OPD_CBLAS_INCLUDE_DIR cblas.h
    PATH_SUFFIXES openblas x86_64-linux-gnu/openblas-pthread)
  find_library(OPD_OPENBLAS_LIBRARY NAMES openblas)
  if(NOT OPD_CBLAS_INCLUDE_DIR OR NOT OPD_OPENBLAS_LIBRARY)
    message(FATAL_ERROR "opdispatch: OpenBLAS not found (Debian: apt-get install libopenblas-dev)")
  endif()
  add_library(opd::blas INTERFACE IMPORTED)
  target_include_directories(opd::blas INTERFACE ${OPD_CBLAS_INCLUDE_DIR})
  target_link_libraries(opd::blas INTERFACE ${OPD_OPENBLAS_LIBRARY})
endif()

if(NOT TARGET opd::simd)
  find_package(hwy CONFIG QUIET)
  find_path(OPD_SLEEF_INCLUDE_DIR sleef.h)
  find_library(OPD_SLEEF_LIBRARY NAMES sleef)
  if(NOT TARGET hwy::hwy OR NOT OPD_SLEEF_INCLUDE_DIR OR NOT OPD_SLEEF_LIBRARY)
    message(FATAL_ERROR "opdispatch: Highway or Sleef not found (Debian: apt-get install libhwy-dev libsleef-dev)")
  endif()
  add_library(opd::simd INTERFACE IMPORTED)
  target_include_directories(opd::simd INTERFACE ${OPD_SLEEF_INCLUDE_DIR})
  target_link_libraries(opd::simd INTERFACE hwy::hwy ${OPD_SLEEF_LIBRARY})
endif()

if(NOT TARGET opd::fft)
  find_path(OPD_KISSFFT_INCLUDE_DIR kissfft/kissfft.hh)
  if(NOT OPD_KISSFFT_INCLUDE_DIR)
    message(FATAL_ERROR "opdispatch: KISS FFT's C++ header kissfft/kissfft.hh not found (Debian: apt-get install libkissfft-dev)")
  endif()
  add_library(opd::fft INTERFACE IMPORTED)
  target_include_directories(opd::fft INTERFACE ${OPD_KISSFFT_INCLUDE_DIR})
endif()

if(NOT TARGET opd::openmp)
  add_library(opd::openmp INTERFACE IMPORTED)
  if(OPD_OPENMP)
    find_package(OpenMP COMPONENTS CXX)
    if(NOT OpenMP_CXX_FOUND)
      message(FATAL_ERROR "opdispatch: OpenMP not found (clang: apt-get install libomp-14-dev; or -DOPD_OPENMP=OFF)")
    endif()
    target_link_libraries(opd::openmp INTERFACE OpenMP::OpenMP_CXX)
  endif()
endif()

option(OPD_ONEDNN "Run float GEMMs and the convolutions oneDNN is faster at through oneDNN, when it is found" ON)
if(NOT TARGET opd::onednn)
  add_library(opd::onednn INTERFACE IMPORTED)
  # Not under TSan: oneDNN's OpenMP threads run in an uninstrumented library, whose
  # synchronization TSan cannot see (the same reason libtorch's tests skip there).
  if(OPD_ONEDNN AND NOT OPD_SANITIZE STREQUAL "thread")
    find_path(OPD_DNNL_INCLUDE_DIR oneapi/dnnl/dnnl.hpp)
    find_library(OPD_DNNL_LIBRARY NAMES dnnl)
    if(OPD_DNNL_INCLUDE_DIR AND OPD_DNNL_LIBRARY)
      target_include_directories(opd::onednn INTERFACE ${OPD_DNNL_INCLUDE_DIR})
      target_link_libraries(opd::onednn INTERFACE ${OPD_DNNL_LIBRARY})
      target_compile_definitions(opd::onednn INTERFACE OPD_WITH_ONEDNN=1)
    else()
      message(STATUS "opdispatch: oneDNN not found (Debian: apt-get install libdnnl-dev); conv2d uses its own paths, GEMMs OpenBLAS")
    endif()
  endif()
endif()
