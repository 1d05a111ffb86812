# Compile-fail / compile-pass tests.
#
# include(CompileFail) provides
#
#   opd_add_compile_fail_test(NAME <name> SOURCE <file.cpp> MATCH <regex>
#                             [COMPILERS <id>...] [LABELS <label>...])
#       CTest <name> compiles <file.cpp> with CMAKE_CXX_COMPILER (-std=c++20
#       -fsyntax-only, the opdispatch include dir, Boost's include dir, the
#       project warning flags) and passes only if compilation FAILS and the
#       compiler output matches <regex> (a CMake regex: no \d, \s, {n}, use
#       [0-9], [ \t], ...).
#
#   opd_add_compile_pass_test(NAME <name> SOURCE <file.cpp>
#                             [COMPILERS <id>...] [LABELS <label>...])
#       ... passes only if compilation SUCCEEDS.
#
#   COMPILERS restricts the test to those CMAKE_CXX_COMPILER_ID values (GNU,
#   Clang, ...); with another compiler the test is registered but DISABLED.
#   On failure the test prints the command line and the compiler output.
#
# Run as a script (cmake -P CompileFail.cmake) it is the checker used by those
# tests; inputs: OPD_CF_MODE (fail|pass), OPD_CF_SOURCE, OPD_CF_ARGS_FILE
# (compiler + flags, one per line), OPD_CF_MATCH_FILE (fail mode only).

if(CMAKE_SCRIPT_MODE_FILE)
  # ------------------------------------------------------------ checker ---
  cmake_minimum_required(VERSION 3.25)
  foreach(v OPD_CF_MODE OPD_CF_SOURCE OPD_CF_ARGS_FILE)
    if(NOT DEFINED ${v})
      message(FATAL_ERROR "CompileFail.cmake: ${v} not set")
    endif()
  endforeach()
  if(NOT EXISTS "${OPD_CF_SOURCE}")
    message(FATAL_ERROR "compile test source ${OPD_CF_SOURCE} does not exist")
  endif()
  file(STRINGS "${OPD_CF_ARGS_FILE}" cmd)
  # Plain ASCII diagnostics ('x', not UTF-8 quotes) so regexes are predictable.
  set(ENV{LC_ALL} C)
  execute_process(
    COMMAND ${cmd} "${OPD_CF_SOURCE}"
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE out)
  list(JOIN cmd " " cmd_str)
  set(report "command: ${cmd_str} ${OPD_CF_SOURCE}\nexit: ${rc}\n---- compiler output ----\n${out}-------------------------")

  if(OPD_CF_MODE STREQUAL "pass")
    if(NOT rc EQUAL 0)
      message(STATUS "OPD_CF_RESULT=unexpected-failure")
      message(FATAL_ERROR "expected ${OPD_CF_SOURCE} to COMPILE, but it failed\n${report}")
    endif()
    message(STATUS "compiled as expected: ${OPD_CF_SOURCE}")
    return()
  endif()

  if(NOT OPD_CF_MATCH_FILE OR NOT EXISTS "${OPD_CF_MATCH_FILE}")
    message(FATAL_ERROR "no expected-error regex for ${OPD_CF_SOURCE} "
      "(compile_fail snippets need a first line `// EXPECT: <regex>`)")
  endif()
  file(READ "${OPD_CF_MATCH_FILE}" match)
  string(STRIP "${match}" match)
  if(match STREQUAL "")
    message(FATAL_ERROR "empty expected-error regex for ${OPD_CF_SOURCE} "
      "(compile_fail snippets need a first line `// EXPECT: <regex>`)")
  endif()
  if(rc EQUAL 0)
    message(STATUS "OPD_CF_RESULT=unexpected-success")
    message(FATAL_ERROR "expected ${OPD_CF_SOURCE} to FAIL to compile, but it compiled\n${report}")
  endif()
  if(NOT rc MATCHES "^[0-9]+$")
    # e.g. "No such file or directory": the compiler never ran.
    message(FATAL_ERROR "could not run the compiler\n${report}")
  endif()
  if(NOT out MATCHES "${match}")
    message(STATUS "OPD_CF_RESULT=regex-mismatch")
    message(FATAL_ERROR "${OPD_CF_SOURCE} failed to compile as expected, but the output "
      "does not match the regex\n  ${match}\n${report}")
  endif()
  message(STATUS "failed to compile as expected (matched '${match}'): ${OPD_CF_SOURCE}")
  return()
endif()

# ------------------------------------------------------- registration ---
include_guard(GLOBAL)
set(_OPD_COMPILE_FAIL_SCRIPT "${CMAKE_CURRENT_LIST_FILE}")

# Writes the compiler command line (one argument per line) shared by all the
# compile tests of this configuration; returns its path in <out_var>.
function(_opd_compile_test_args_file out_var)
  set(file "${CMAKE_BINARY_DIR}/opd_compile_test/compiler_args.txt")
  get_property(done GLOBAL PROPERTY _OPD_COMPILE_TEST_ARGS_WRITTEN)
  if(NOT done)
    set(args "${CMAKE_CXX_COMPILER}")
    if(CMAKE_CXX_FLAGS)
      separate_arguments(user_flags UNIX_COMMAND "${CMAKE_CXX_FLAGS}")
      list(APPEND args ${user_flags})
    endif()
    list(APPEND args -std=c++20 -fsyntax-only ${OPD_WARNINGS})
    # Include dirs: the library's own, then Boost's unless it is a compiler
    # default (-I/usr/include breaks libstdc++'s #include_next).
    set(inc "${PROJECT_SOURCE_DIR}/include")
    if(TARGET Boost::headers)
      get_target_property(boost_dirs Boost::headers INTERFACE_INCLUDE_DIRECTORIES)
      if(boost_dirs)
        list(APPEND inc ${boost_dirs})
      endif()
    elseif(Boost_INCLUDE_DIRS)
      list(APPEND inc ${Boost_INCLUDE_DIRS})
    endif()
    list(REMOVE_DUPLICATES inc)
    foreach(d IN LISTS inc)
      if(d IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
        continue()
      endif()
      list(APPEND args "-I${d}")
    endforeach()
    list(JOIN args "\n" content)
    file(WRITE "${file}" "${content}\n")
    set_property(GLOBAL PROPERTY _OPD_COMPILE_TEST_ARGS_WRITTEN TRUE)
  endif()
  set(${out_var} "${file}" PARENT_SCOPE)
endfunction()

# mode: fail|pass. match_var names the variable holding the regex (passed by
# name so that no list splitting or re-quoting touches it).
function(_opd_register_compile_test mode name source match_var compilers labels)
  get_filename_component(src "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  _opd_compile_test_args_file(args_file)

  set(script_args
    -DOPD_CF_MODE=${mode}
    "-DOPD_CF_SOURCE=${src}"
    "-DOPD_CF_ARGS_FILE=${args_file}")
  if(mode STREQUAL "fail")
    # The regex travels in a file: no quoting or list splitting touches it.
    string(MAKE_C_IDENTIFIER "${name}" id)
    set(match_file "${CMAKE_CURRENT_BINARY_DIR}/opd_compile_test/${id}.regex")
    file(WRITE "${match_file}" "${${match_var}}")
    list(APPEND script_args "-DOPD_CF_MATCH_FILE=${match_file}")
  endif()

  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} ${script_args} -P "${_OPD_COMPILE_FAIL_SCRIPT}")
  set_tests_properties(${name} PROPERTIES LABELS "compile_${mode};${labels}" TIMEOUT 300)
  if(compilers AND NOT CMAKE_CXX_COMPILER_ID IN_LIST compilers)
    set_tests_properties(${name} PROPERTIES DISABLED TRUE)
  endif()
endfunction()

function(opd_add_compile_fail_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;SOURCE;MATCH" "COMPILERS;LABELS")
  if(NOT arg_NAME OR NOT arg_SOURCE OR "${arg_MATCH}" STREQUAL "")
    message(FATAL_ERROR "opd_add_compile_fail_test: NAME, SOURCE and MATCH are required")
  endif()
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "opd_add_compile_fail_test: unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  _opd_register_compile_test(fail "${arg_NAME}" "${arg_SOURCE}" arg_MATCH
                             "${arg_COMPILERS}" "${arg_LABELS}")
endfunction()

function(opd_add_compile_pass_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;SOURCE" "COMPILERS;LABELS")
  if(NOT arg_NAME OR NOT arg_SOURCE)
    message(FATAL_ERROR "opd_add_compile_pass_test: NAME and SOURCE are required")
  endif()
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "opd_add_compile_pass_test: unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  set(no_match "")
  _opd_register_compile_test(pass "${arg_NAME}" "${arg_SOURCE}" no_match
                             "${arg_COMPILERS}" "${arg_LABELS}")
endfunction()
