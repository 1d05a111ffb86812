# cmake -DTOOL=<opd-functionalize-check> -DPROGRAMS=<jsonl> -P RunFunctionalizeCheck.cmake
# Runs the tool on the 400 conformance programs and checks its report: one
# ok/fail line and one trace line per program, the summary line, and that
# the only failures are the programs listed in KNOWN (docs/functionalization.md,
# "Programs that do not pass"), each failing in the library's eager run, not
# in the functionalized one alone. Also the tool's own contract: a program
# with an unknown operator fails, and the exit status says so.
cmake_minimum_required(VERSION 3.25)
foreach(var TOOL PROGRAMS WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "RunFunctionalizeCheck.cmake: pass -D${var}=...")
  endif()
endforeach()
# In-place operators whose second operand is a broadcast view of the tensor
# they write: PyTorch's CPU loop reads elements the same call already wrote,
# the library (eagerly and functionalized alike) reads the operand's values
# from before the call.
set(KNOWN s1-0065 s1-0143)

# TOOL_ARGS: --lazy runs the functionalized side on the lazy backend.
execute_process(COMMAND "${TOOL}" ${TOOL_ARGS} "${PROGRAMS}" OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
string(REPLACE "\n" ";" lines "${out}")
set(ok 0)
set(traces 0)
set(fails "")
foreach(line IN LISTS lines)
  if(line MATCHES "^ok\t")
    math(EXPR ok "${ok} + 1")
  elseif(line MATCHES "^fail\t([^\t]+)\t(.*)$")
    list(APPEND fails "${CMAKE_MATCH_1}")
    if(NOT CMAKE_MATCH_1 IN_LIST KNOWN)
      message(SEND_ERROR "unexpected failure: ${line}")
    elseif(NOT CMAKE_MATCH_2 MATCHES "^eager: ")
      message(SEND_ERROR "known program fails for another reason than eager aliasing: ${line}")
    endif()
  elseif(line MATCHES "^trace\t")
    math(EXPR traces "${traces} + 1")
  endif()
endforeach()
list(LENGTH fails nfail)
math(EXPR total "${ok} + ${nfail}")
if(NOT total EQUAL 400 OR NOT traces EQUAL 400)
  message(SEND_ERROR "expected 400 programs and 400 traces, got ${total} and ${traces}\n${err}")
endif()
if(NOT out MATCHES "\n${ok} passed, ${nfail} failed\n$")
  message(SEND_ERROR "summary line missing or wrong")
endif()
if(nfail GREATER 0 AND rc EQUAL 0)
  message(SEND_ERROR "exit status 0 with failures")
endif()
message(STATUS "${ok} passed, ${nfail} failed (known: ${KNOWN})")

# An unknown operator is a failure, not a skip; standard input works too.
file(WRITE "${WORK_DIR}/unknown.jsonl"
  "{\"id\": \"u1\", \"inputs\": [{\"name\": \"x0\", \"sizes\": [2]}], \"steps\": [{\"op\": \"aten::no_such_op\", \"args\": [{\"t\": \"x0\"}], \"out\": \"y\"}], \"outputs\": [\"y\"], \"expected\": {\"outputs\": [{\"sizes\": [2], \"values\": [0.0, 0.0]}], \"inputs_after\": [{\"sizes\": [2], \"values\": [-3.0, -2.5]}]}}\n")
execute_process(COMMAND "${TOOL}" INPUT_FILE "${WORK_DIR}/unknown.jsonl" OUTPUT_VARIABLE out2 RESULT_VARIABLE rc2)
if(rc2 EQUAL 0 OR NOT out2 MATCHES "^fail\tu1\t[^\n]*aten::no_such_op" OR NOT out2 MATCHES "\n0 passed, 1 failed\n$")
  message(SEND_ERROR "an unknown operator must fail the program (exit ${rc2}):\n${out2}")
endif()
