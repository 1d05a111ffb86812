# cmake -P script behind the install.* CTests (see CMakeLists.txt here).
#   OPD_MODE=package: configure opdispatch alone (tests/examples/tools off),
#     `cmake --install` it into ${OPD_WORK_DIR}/prefix, then configure, build
#     and run the consumer with find_package(opdispatch CONFIG REQUIRED).
#     Also compiles and runs the consumer with the plain compiler line that
#     docs/building.md gives (no CMake on the consumer's side).
#   OPD_MODE=build_tree: configure, build and run the compiled consumer with
#     find_package(opdispatch CONFIG REQUIRED) and -Dopdispatch_DIR set to
#     the build tree (OPD_INSTALLED_BUILD_DIR), no install.
#   OPD_MODE=subdir: configure, build and run the consumer with
#     add_subdirectory(${OPD_SOURCE_DIR}).
cmake_minimum_required(VERSION 3.25)

foreach(v OPD_MODE OPD_SOURCE_DIR OPD_WORK_DIR OPD_CONSUMER_DIR OPD_GENERATOR OPD_CXX)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "RunInstallTest.cmake: ${v} is required")
  endif()
endforeach()

function(run step)
  list(JOIN ARGN " " pretty)
  message(STATUS "[${step}] ${pretty}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "[${step}] failed (exit ${rc}):\n${pretty}\n${out}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

# Fresh state every time so nothing stale can make the test pass.
file(REMOVE_RECURSE "${OPD_WORK_DIR}")
file(MAKE_DIRECTORY "${OPD_WORK_DIR}")

# List-valued settings go through initial-cache files (-C), so that no ';'
# is split on the way to the nested cmake.
string(REPLACE "|" ";" prefix_path "${OPD_PREFIX_PATH}")
function(write_init_cache file extra_prefix)
  set(content "set(CMAKE_CXX_COMPILER [==[${OPD_CXX}]==] CACHE FILEPATH \"\")\n")
  string(APPEND content "set(CMAKE_BUILD_TYPE Release CACHE STRING \"\")\n")
  if(NOT "${OPD_CXX_FLAGS}" STREQUAL "")
    string(APPEND content "set(CMAKE_CXX_FLAGS [==[${OPD_CXX_FLAGS}]==] CACHE STRING \"\")\n")
  endif()
  if(NOT "${OPD_BOOST_DIR}" STREQUAL "" AND NOT OPD_BOOST_DIR MATCHES "NOTFOUND$")
    string(APPEND content "set(Boost_DIR [==[${OPD_BOOST_DIR}]==] CACHE PATH \"\")\n")
  endif()
  set(pp ${extra_prefix} ${prefix_path})
  string(APPEND content "set(CMAKE_PREFIX_PATH [==[${pp}]==] CACHE STRING \"\")\n")
  file(WRITE "${file}" "${content}")
endfunction()

set(consumer_build "${OPD_WORK_DIR}/consumer-build")
if(OPD_MODE STREQUAL "package")
  set(lib_build "${OPD_WORK_DIR}/opdispatch-build")
  set(prefix "${OPD_WORK_DIR}/prefix")
  if(DEFINED OPD_INSTALLED_BUILD_DIR AND NOT OPD_INSTALLED_BUILD_DIR STREQUAL "")
    # Install the build this test belongs to (already built by the time
    # ctest runs): what is checked is the install rules and the package, and
    # building the library a second time would only repeat the outer build.
    set(lib_build "${OPD_INSTALLED_BUILD_DIR}")
  else()
    write_init_cache("${OPD_WORK_DIR}/init-lib.cmake" "")
    run(configure-lib ${CMAKE_COMMAND} -S "${OPD_SOURCE_DIR}" -B "${lib_build}"
        -G "${OPD_GENERATOR}" -C "${OPD_WORK_DIR}/init-lib.cmake"
        -DOPD_BUILD_TESTS=OFF -DOPD_BUILD_EXAMPLES=OFF -DOPD_BUILD_TOOLS=ON
        -DOPD_BUILD_BENCH=OFF -DOPD_BUILD_OPD_RUN=OFF -DOPD_INSTALL=ON)
    run(build-lib ${CMAKE_COMMAND} --build "${lib_build}")
  endif()
  run(install ${CMAKE_COMMAND} --install "${lib_build}" --prefix "${prefix}")
  file(GLOB_RECURSE cfg "${prefix}/*/opdispatchConfig.cmake")
  file(GLOB_RECURSE ver "${prefix}/*/opdispatchConfigVersion.cmake")
  if(NOT cfg OR NOT ver)
    message(FATAL_ERROR "install did not produce opdispatchConfig.cmake + opdispatchConfigVersion.cmake under ${prefix}")
  endif()
  # Headers live under include/opdispatch/: no generic directory names land
  # directly in the include directory.
  if(NOT EXISTS "${prefix}/include/opdispatch/dispatch/dispatcher.hpp" OR EXISTS "${prefix}/include/dispatch")
    message(FATAL_ERROR "headers must be installed under ${prefix}/include/opdispatch/")
  endif()
  # The installed opd-schema runs.
  find_program(opd_schema opd-schema PATHS "${prefix}/bin" NO_DEFAULT_PATH NO_CACHE)
  if(NOT opd_schema)
    message(FATAL_ERROR "opd-schema was not installed into ${prefix}/bin")
  endif()
  file(WRITE "${OPD_WORK_DIR}/schemas.txt" "ns::f(Tensor self) -> Tensor\n")
  execute_process(COMMAND "${opd_schema}" INPUT_FILE "${OPD_WORK_DIR}/schemas.txt"
                  OUTPUT_VARIABLE schema_out RESULT_VARIABLE schema_rc)
  if(NOT schema_rc EQUAL 0 OR NOT schema_out MATCHES "^ok")
    message(FATAL_ERROR "installed opd-schema: exit ${schema_rc}, output '${schema_out}'")
  endif()
  # docs/building.md's plain compiler line for a compiled-mode consumer,
  # exactly as written there, plus this build's flags (a sanitizer's).
  separate_arguments(plain_flags UNIX_COMMAND "${OPD_CXX_FLAGS}")
  run(plain-compile "${OPD_CXX}" ${plain_flags} -std=c++20 "-I${prefix}/include/opdispatch"
      "${OPD_CONSUMER_DIR}/main.cpp" -o "${OPD_WORK_DIR}/plain_consumer"
      "-L${prefix}/lib" -lopdispatch "-Wl,-rpath,${prefix}/lib")
  run(plain-run "${OPD_WORK_DIR}/plain_consumer")
  if(NOT run_output MATCHES "opd_consumer OK \\(compiled\\)")
    message(FATAL_ERROR "unexpected plain_consumer output:\n${run_output}")
  endif()
  # The installed Python package imports from the prefix alone and finds the
  # installed library through its rpath (not in sanitized builds, whose module
  # needs the sanitizer runtime preloaded).
  file(GLOB_RECURSE py_init "${prefix}/*/dist-packages/opdispatch/__init__.py")
  if(py_init AND NOT OPD_CXX_FLAGS MATCHES "sanitize" AND EXISTS /usr/bin/python3)
    get_filename_component(py_dir "${py_init}" DIRECTORY)
    get_filename_component(py_dir "${py_dir}" DIRECTORY)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env "PYTHONPATH=${py_dir}" /usr/bin/python3 -c
                      "import opdispatch as o; assert o.__file__.startswith('${prefix}'), o.__file__; print(o.ops.aten.add(o.tensor([1.0]), 2).tolist())"
                    OUTPUT_VARIABLE py_out ERROR_VARIABLE py_err RESULT_VARIABLE py_rc)
    if(NOT py_rc EQUAL 0 OR NOT py_out MATCHES "3.0")
      message(FATAL_ERROR "installed Python package: exit ${py_rc}, output '${py_out}' ${py_err}")
    endif()
  endif()
  # The source tree must not leak in: the consumer sees only the prefix.
  write_init_cache("${OPD_WORK_DIR}/init-consumer.cmake" "${prefix}")
  set(consumer_args -DOPD_CONSUMER_MODE=package
      "-DOPD_EXPECTED_VERSION=${OPD_VERSION}"
      "-DOPD_EXPECTED_PREFIX=${prefix}")
elseif(OPD_MODE STREQUAL "build_tree")
  if(NOT EXISTS "${OPD_INSTALLED_BUILD_DIR}/opdispatchTargets.cmake")
    message(FATAL_ERROR "no opdispatchTargets.cmake in the build tree ${OPD_INSTALLED_BUILD_DIR}")
  endif()
  write_init_cache("${OPD_WORK_DIR}/init-consumer.cmake" "")
  set(consumer_args -DOPD_CONSUMER_MODE=package
      "-Dopdispatch_DIR=${OPD_INSTALLED_BUILD_DIR}"
      "-DOPD_EXPECTED_VERSION=${OPD_VERSION}"
      "-DOPD_EXPECTED_PREFIX=${OPD_INSTALLED_BUILD_DIR}")
elseif(OPD_MODE STREQUAL "subdir")
  write_init_cache("${OPD_WORK_DIR}/init-consumer.cmake" "")
  set(consumer_args -DOPD_CONSUMER_MODE=subdir
      "-DOPD_SOURCE_DIR=${OPD_SOURCE_DIR}")
else()
  message(FATAL_ERROR "OPD_MODE must be package, build_tree or subdir")
endif()

run(configure-consumer ${CMAKE_COMMAND} -S "${OPD_CONSUMER_DIR}" -B "${consumer_build}"
    -G "${OPD_GENERATOR}" -C "${OPD_WORK_DIR}/init-consumer.cmake" ${consumer_args})
if(OPD_MODE STREQUAL "subdir")
  # As a subproject, the compiled library would be built a second time (the
  # outer build already builds and the package test installs it): build and
  # run the header-only consumer, and check that the compiled consumer's build
  # graph (ninja -t commands) compiles the library's sources from the
  # subdirectory.
  set(consumers opd_consumer_header_only)
  run(build-consumer ${CMAKE_COMMAND} --build "${consumer_build}" --target opd_consumer_header_only)
  file(STRINGS "${consumer_build}/CMakeCache.txt" make_program REGEX "^CMAKE_MAKE_PROGRAM:")
  string(REGEX REPLACE "^[^=]*=" "" make_program "${make_program}")
  if(OPD_GENERATOR MATCHES "Ninja" AND make_program)
    run(graph-consumer "${make_program}" -C "${consumer_build}" -t commands opd_consumer)
    if(NOT run_output MATCHES "src/dispatcher\\.cpp")
      message(FATAL_ERROR "the build graph of opd_consumer does not build the library's sources:\n${run_output}")
    endif()
  endif()
elseif(OPD_MODE STREQUAL "build_tree")
  # What differs from the installed package is the targets' locations and
  # include directory, the same for both targets: the compiled consumer is
  # enough (the header-only one would compile the kernels once more).
  set(consumers opd_consumer)
  run(build-consumer ${CMAKE_COMMAND} --build "${consumer_build}" --target opd_consumer)
else()
  set(consumers opd_consumer opd_consumer_header_only)
  run(build-consumer ${CMAKE_COMMAND} --build "${consumer_build}")
endif()
foreach(consumer IN LISTS consumers)
  find_program(exe ${consumer} PATHS "${consumer_build}" "${consumer_build}/bin"
               NO_DEFAULT_PATH NO_CACHE)
  if(NOT exe)
    message(FATAL_ERROR "${consumer} executable not found in ${consumer_build}")
  endif()
  run(run-${consumer} "${exe}")
  message(STATUS "${run_output}")
  if(NOT run_output MATCHES "opd_consumer OK")
    message(FATAL_ERROR "unexpected ${consumer} output:\n${run_output}")
  endif()
  unset(exe)
endforeach()
