# cmake -P script behind the `sanitizer.*` CTests (registered in tests/CMakeLists.txt).
#
# Configures a nested build of this source tree with OPD_SANITIZE=<kind>,
# builds only the runtime test executables (target opd_runtime_tests: the
# opd_add_test targets; with OPD_TEST_REGEX only those whose sources match it)
# and runs their tests (label `runtime`, names matching OPD_TEST_REGEX) with ctest.
# The nested build directory is kept, so re-runs are incremental.
#
# Inputs (-D):
#   OPD_SRC, OPD_BIN      source tree, nested build directory
#   OPD_KIND              address | thread
#   OPD_GENERATOR, OPD_CXX, OPD_CXX_FLAGS, OPD_PREFIX_PATH ('|'-separated)
#   OPD_FORWARD_DIRS      'Boost_DIR=/x|Torch_DIR=/y': package dirs for the nested build
#   OPD_TEST_REGEX        optional: only tests whose names match (ctest -R)
#   OPD_JOBS              parallelism for the nested build and ctest (default 2)
cmake_minimum_required(VERSION 3.25)

foreach(v OPD_SRC OPD_BIN OPD_KIND OPD_GENERATOR OPD_CXX)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "SanitizerBuild.cmake: ${v} is required")
  endif()
endforeach()
if(NOT OPD_KIND MATCHES "^(address|thread)$")
  message(FATAL_ERROR "SanitizerBuild.cmake: OPD_KIND must be address or thread")
endif()
if(NOT OPD_JOBS)
  set(OPD_JOBS 2)
endif()

# Runtime options: stop at the first report, with a stack trace.
set(ENV{ASAN_OPTIONS} "halt_on_error=1:detect_leaks=1:$ENV{ASAN_OPTIONS}")
set(ENV{UBSAN_OPTIONS} "print_stacktrace=1:halt_on_error=1:$ENV{UBSAN_OPTIONS}")
set(ENV{TSAN_OPTIONS} "halt_on_error=1:second_deadlock_stack=1:$ENV{TSAN_OPTIONS}")

# TSan's shadow layout breaks with high ASLR entropy (vm.mmap_rnd_bits > 28 on
# recent kernels: "unexpected memory mapping"). Run without ASLR there; the
# personality is inherited by everything ctest and the build start.
set(launcher "")
if(OPD_KIND STREQUAL "thread" AND EXISTS /proc/sys/vm/mmap_rnd_bits)
  file(READ /proc/sys/vm/mmap_rnd_bits rnd_bits)
  string(STRIP "${rnd_bits}" rnd_bits)
  find_program(setarch setarch NO_CACHE)
  if(rnd_bits GREATER 28 AND setarch)
    message(STATUS "vm.mmap_rnd_bits=${rnd_bits}: running TSan tests under `setarch -R`")
    set(launcher "${setarch}" -R)
  endif()
endif()

function(step name)
  list(JOIN ARGN " " pretty)
  message(STATUS "[${name}] ${pretty}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "[${name}] failed (exit ${rc}): ${pretty}")
  endif()
endfunction()

# List-valued cache entries go through an initial-cache file (-C).
string(REPLACE "|" ";" prefix_path "${OPD_PREFIX_PATH}")
file(MAKE_DIRECTORY "${OPD_BIN}")
set(init "${OPD_BIN}/opd-sanitizer-init.cmake")
set(content "set(CMAKE_CXX_COMPILER [==[${OPD_CXX}]==] CACHE FILEPATH \"\")\n")
string(APPEND content "set(CMAKE_BUILD_TYPE Debug CACHE STRING \"\")\n")
string(APPEND content "set(CMAKE_CXX_FLAGS [==[${OPD_CXX_FLAGS}]==] CACHE STRING \"\")\n")
string(APPEND content "set(CMAKE_PREFIX_PATH [==[${prefix_path}]==] CACHE STRING \"\")\n")
string(REPLACE "|" ";" forward_dirs "${OPD_FORWARD_DIRS}")
foreach(entry IN LISTS forward_dirs)
  if(entry MATCHES "^([A-Za-z0-9_]+)=(.+)$")
    string(APPEND content "set(${CMAKE_MATCH_1} [==[${CMAKE_MATCH_2}]==] CACHE PATH \"\")\n")
  endif()
endforeach()
file(WRITE "${init}" "${content}")

# A build dir made by another compiler/generator cannot be reused.
if(EXISTS "${OPD_BIN}/CMakeCache.txt")
  file(STRINGS "${OPD_BIN}/CMakeCache.txt" cached_cxx REGEX "^CMAKE_CXX_COMPILER:")
  file(STRINGS "${OPD_BIN}/CMakeCache.txt" cached_gen REGEX "^CMAKE_GENERATOR:")
  string(REGEX REPLACE "^[^=]*=" "" cached_cxx "${cached_cxx}")
  string(REGEX REPLACE "^[^=]*=" "" cached_gen "${cached_gen}")
  if(NOT cached_cxx STREQUAL OPD_CXX OR NOT cached_gen STREQUAL OPD_GENERATOR)
    message(STATUS "compiler/generator changed: wiping ${OPD_BIN}")
    file(REMOVE_RECURSE "${OPD_BIN}/CMakeCache.txt" "${OPD_BIN}/CMakeFiles")
  endif()
endif()

# libgomp is not instrumented: under TSan its barriers read as races. The TSan
# tests (OPD_TSAN_TEST_REGEX) use no built-in kernel: the library leaves them out.
set(openmp ON)
set(kernels ON)
if(OPD_KIND STREQUAL "thread")
  set(openmp OFF)
  set(kernels OFF)
endif()
step(configure ${CMAKE_COMMAND} -S "${OPD_SRC}" -B "${OPD_BIN}" -G "${OPD_GENERATOR}"
     -C "${init}"
     -DOPD_SANITIZE=${OPD_KIND} -DOPD_SANITIZER_SUBBUILD=ON
     "-DOPD_SANITIZE_ONLY_REGEX=${OPD_TEST_REGEX}"
     -DOPD_BUILD_EXAMPLES=OFF -DOPD_BUILD_BENCH=OFF -DOPD_INSTALL=OFF
     -DOPD_OPENMP=${openmp} -DOPD_LIBRARY_KERNELS=${kernels})
step(build ${launcher} ${CMAKE_COMMAND} --build "${OPD_BIN}" --target opd_runtime_tests
     --parallel ${OPD_JOBS})

set(filter -L "^runtime$")
if(NOT "${OPD_TEST_REGEX}" STREQUAL "")
  list(APPEND filter -R "${OPD_TEST_REGEX}")
endif()
# Early in a project (or with a narrow regex) nothing may match: not a failure.
step(ctest ${launcher} ${CMAKE_CTEST_COMMAND} --test-dir "${OPD_BIN}" ${filter}
     --output-on-failure --no-tests=ignore --parallel ${OPD_JOBS} --timeout 900)
