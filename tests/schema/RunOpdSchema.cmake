# cmake -DTOOL=<opd-schema> -DWORK_DIR=<dir> -P RunOpdSchema.cmake
# Runs opd-schema on inputs with good and bad lines and checks its output and
# exit status: text mode, --json, --help, bad usage, CRLF, a missing final
# newline, a NUL byte and a hostile deeply nested line.
cmake_minimum_required(VERSION 3.25)
foreach(var TOOL WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "RunOpdSchema.cmake: pass -D${var}=...")
  endif()
endforeach()
file(MAKE_DIRECTORY "${WORK_DIR}")
set(failures 0)

# run(<name> <input file> <expected exit code> <variable holding the expected stdout> [ARGS...])
function(run name input expected_rc expected_var)
  set(expected_out "${${expected_var}}")
  execute_process(COMMAND "${TOOL}" ${ARGN}
                  INPUT_FILE "${input}"
                  OUTPUT_VARIABLE out
                  ERROR_VARIABLE err
                  RESULT_VARIABLE rc)
  if(NOT rc STREQUAL expected_rc)
    message(SEND_ERROR "${name}: exit status ${rc}, expected ${expected_rc}\nstderr: ${err}")
  endif()
  if(NOT out STREQUAL expected_out)
    message(SEND_ERROR "${name}: output differs\n--- expected\n${expected_out}--- got\n${out}---")
  endif()
endfunction()

set(TAB "\t")

# Good and bad lines; one ends in CRLF, the last has no newline.
set(input "${WORK_DIR}/mixed.txt")
file(WRITE "${input}"
  "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"
  "  add( Tensor self ,Tensor other)->Tensor  \n"
  "add.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\r\n"
  "add(Tensr self) -> Tensor\n"
  "\n"
  "sum(Tensor self, bool keepdim=0x10) -> Tensor\n"
  "f(int x) -> int")
string(CONCAT expected_text
  "ok${TAB}aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"
  "ok${TAB}add(Tensor self, Tensor other) -> Tensor\n"
  "ok${TAB}add.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
  "error${TAB}5${TAB}unknown type near 'Tensr'\n"
  "error${TAB}1${TAB}the schema is empty\n"
  "error${TAB}31${TAB}the default value does not fit the argument's type near '0x10'\n"
  "ok${TAB}f(int x) -> int\n")
run(text "${input}" 1 expected_text)

# Only good lines: exit 0, in both modes.
set(good "${WORK_DIR}/good.txt")
file(WRITE "${good}"
  "aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)\n"
  "f(int[2]? s=1, str m='a\\\"b') -> ()\n")
string(CONCAT expected_all_good
  "ok${TAB}aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)\n"
  "ok${TAB}f(int[2]? s=1, str m='a\\\"b') -> ()\n")
run(all_good "${good}" 0 expected_all_good)
string(CONCAT expected_json
  "ok${TAB}{\"name\": \"add\", \"overload\": \"out\", \"namespace\": \"aten\", \"arguments\": ["
  "{\"name\": \"self\", \"type\": \"Tensor\", \"kwarg_only\": false, \"is_out\": false, \"default\": null, \"alias\": null, \"N\": null}, "
  "{\"name\": \"other\", \"type\": \"Tensor\", \"kwarg_only\": false, \"is_out\": false, \"default\": null, \"alias\": null, \"N\": null}, "
  "{\"name\": \"alpha\", \"type\": \"Scalar\", \"kwarg_only\": true, \"is_out\": false, \"default\": \"1\", \"alias\": null, \"N\": null}, "
  "{\"name\": \"out\", \"type\": \"Tensor(a!)\", \"kwarg_only\": true, \"is_out\": true, \"default\": null, "
  "\"alias\": {\"before\": [\"a\"], \"after\": [\"a\"], \"is_write\": true}, \"N\": null}], "
  "\"returns\": [{\"name\": \"\", \"type\": \"Tensor(a!)\", \"kwarg_only\": false, \"is_out\": false, \"default\": null, "
  "\"alias\": {\"before\": [\"a\"], \"after\": [\"a\"], \"is_write\": true}, \"N\": null}], "
  "\"is_vararg\": false, \"is_varret\": false}\n"
  "ok${TAB}{\"name\": \"f\", \"overload\": \"\", \"namespace\": \"\", \"arguments\": ["
  "{\"name\": \"s\", \"type\": \"int[2]?\", \"kwarg_only\": false, \"is_out\": false, \"default\": \"1\", \"alias\": null, \"N\": 2}, "
  "{\"name\": \"m\", \"type\": \"str\", \"kwarg_only\": false, \"is_out\": false, \"default\": \"'a\\\\\\\"b'\", \"alias\": null, \"N\": null}], "
  "\"returns\": [], \"is_vararg\": false, \"is_varret\": false}\n")
run(json "${good}" 0 expected_json --json)

# Errors stay error lines in --json mode.
string(CONCAT expected_json_errors
  "ok${TAB}{\"name\": \"add\", \"overload\": \"Tensor\", \"namespace\": \"aten\", \"arguments\": ["
  "{\"name\": \"self\", \"type\": \"Tensor\", \"kwarg_only\": false, \"is_out\": false, \"default\": null, \"alias\": null, \"N\": null}, "
  "{\"name\": \"other\", \"type\": \"Tensor\", \"kwarg_only\": false, \"is_out\": false, \"default\": null, \"alias\": null, \"N\": null}, "
  "{\"name\": \"alpha\", \"type\": \"Scalar\", \"kwarg_only\": true, \"is_out\": false, \"default\": \"1\", \"alias\": null, \"N\": null}], "
  "\"returns\": [{\"name\": \"\", \"type\": \"Tensor\", \"kwarg_only\": false, \"is_out\": false, \"default\": null, \"alias\": null, \"N\": null}], "
  "\"is_vararg\": false, \"is_varret\": false}\n"
  "ok${TAB}{\"name\": \"add\", \"overload\": \"\", \"namespace\": \"\", \"arguments\": ["
  "{\"name\": \"self\", \"type\": \"Tensor\", \"kwarg_only\": false, \"is_out\": false, \"default\": null, \"alias\": null, \"N\": null}, "
  "{\"name\": \"other\", \"type\": \"Tensor\", \"kwarg_only\": false, \"is_out\": false, \"default\": null, \"alias\": null, \"N\": null}], "
  "\"returns\": [{\"name\": \"\", \"type\": \"Tensor\", \"kwarg_only\": false, \"is_out\": false, \"default\": null, \"alias\": null, \"N\": null}], "
  "\"is_vararg\": false, \"is_varret\": false}\n"
  "ok${TAB}{\"name\": \"add\", \"overload\": \"out\", \"namespace\": \"\", \"arguments\": ["
  "{\"name\": \"self\", \"type\": \"Tensor\", \"kwarg_only\": false, \"is_out\": false, \"default\": null, \"alias\": null, \"N\": null}, "
  "{\"name\": \"out\", \"type\": \"Tensor(a!)\", \"kwarg_only\": true, \"is_out\": true, \"default\": null, "
  "\"alias\": {\"before\": [\"a\"], \"after\": [\"a\"], \"is_write\": true}, \"N\": null}], "
  "\"returns\": [{\"name\": \"\", \"type\": \"Tensor(a!)\", \"kwarg_only\": false, \"is_out\": false, \"default\": null, "
  "\"alias\": {\"before\": [\"a\"], \"after\": [\"a\"], \"is_write\": true}, \"N\": null}], "
  "\"is_vararg\": false, \"is_varret\": false}\n"
  "error${TAB}5${TAB}unknown type near 'Tensr'\n"
  "error${TAB}1${TAB}the schema is empty\n"
  "error${TAB}31${TAB}the default value does not fit the argument's type near '0x10'\n"
  "ok${TAB}{\"name\": \"f\", \"overload\": \"\", \"namespace\": \"\", \"arguments\": ["
  "{\"name\": \"x\", \"type\": \"int\", \"kwarg_only\": false, \"is_out\": false, \"default\": null, \"alias\": null, \"N\": null}], "
  "\"returns\": [{\"name\": \"\", \"type\": \"int\", \"kwarg_only\": false, \"is_out\": false, \"default\": null, \"alias\": null, \"N\": null}], "
  "\"is_vararg\": false, \"is_varret\": false}\n")
run(json_errors "${input}" 1 expected_json_errors --json)

# Repeated argument and return names, and a dtype name PyTorch does not read
# as a default: errors with the column of the offending name.
set(strict_input "${WORK_DIR}/strict.txt")
file(WRITE "${strict_input}"
  "f(Tensor self, str? norm, str? norm=None) -> Tensor\n"
  "f(Tensor self) -> (Tensor a, Tensor a)\n"
  "f(Tensor self, ScalarType dtype=int) -> Tensor\n"
  "f(Tensor self, ScalarType dtype=long) -> Tensor\n")
string(CONCAT expected_strict
  "error${TAB}32${TAB}repeated argument name near 'norm'\n"
  "error${TAB}37${TAB}repeated return name near 'a'\n"
  "error${TAB}33${TAB}invalid numeric default value (of the dtype names, PyTorch reads only 'long', 'float' and 'complex') near 'int'\n"
  "ok${TAB}f(Tensor self, ScalarType dtype=long) -> Tensor\n")
run(strict "${strict_input}" 1 expected_strict)

# A type variable that looks like a typo: a warning on standard error that
# leaves the verdict `ok` (and exit status 0); with --strict, an error line
# with its column. `t` is a type variable and gets nothing.
set(typo_input "${WORK_DIR}/typo.txt")
file(WRITE "${typo_input}"
  "f(tensor self) -> Tensor\n"
  "f(t x) -> t\n"
  "f(Tensor self, int64 n) -> Tensor\n")
string(CONCAT expected_typo
  "ok${TAB}f(tensor self) -> Tensor\n"
  "ok${TAB}f(t x) -> t\n"
  "ok${TAB}f(Tensor self, int64 n) -> Tensor\n")
run(typo "${typo_input}" 0 expected_typo)
execute_process(COMMAND "${TOOL}" INPUT_FILE "${typo_input}" OUTPUT_QUIET ERROR_VARIABLE typo_err)
string(CONCAT expected_typo_err
  "opd-schema: line 1, column 3: warning: 'tensor' is read as a type variable; did you mean 'Tensor'?\n"
  "opd-schema: line 3, column 16: warning: 'int64' is read as a type variable; did you mean 'int'?\n")
if(NOT typo_err STREQUAL expected_typo_err)
  message(SEND_ERROR "typo: standard error differs\n--- expected\n${expected_typo_err}--- got\n${typo_err}---")
endif()
string(CONCAT expected_typo_strict
  "error${TAB}3${TAB}'tensor' is read as a type variable; did you mean 'Tensor'?\n"
  "ok${TAB}f(t x) -> t\n"
  "error${TAB}16${TAB}'int64' is read as a type variable; did you mean 'int'?\n")
run(typo_strict "${typo_input}" 1 expected_typo_strict --strict)

# No input: nothing to report, success.
set(empty "${WORK_DIR}/empty.txt")
file(WRITE "${empty}" "")
string(CONCAT expected_no_input
  "")
run(no_input "${empty}" 0 expected_no_input)

# A hostile line nested 5000 deep: an error, not a crash.
string(REPEAT "(" 5000 deep)
set(deep_input "${WORK_DIR}/deep.txt")
file(WRITE "${deep_input}" "f(${deep}\nf(Tensor x) -> Tensor\n")
string(CONCAT expected_deep
  "error${TAB}67${TAB}the schema exceeds the parser's limits near '('\n"
  "ok${TAB}f(Tensor x) -> Tensor\n")
run(deep "${deep_input}" 1 expected_deep)

# A NUL byte (CMake strings cannot hold one: let printf write it).
set(nul_input "${WORK_DIR}/nul.txt")
execute_process(COMMAND sh -c "printf 'f(Tensor\\000 x) -> Tensor\\n' > '${nul_input}'" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(SEND_ERROR "cannot write ${nul_input}")
endif()
string(CONCAT expected_nul
  "error${TAB}9${TAB}unexpected character near '?'\n")
run(nul "${nul_input}" 1 expected_nul)

# Bytes that are not UTF-8 inside a string default: --json still writes valid
# JSON (a stray byte as \u00XX, well-formed UTF-8 as is, control characters
# escaped); text mode writes control characters as \xHH.
set(bytes_input "${WORK_DIR}/bytes.txt")
execute_process(COMMAND sh -c "printf 'f(str x=\\047\\377\\303\\251\\001\\047) -> ()\\n' > '${bytes_input}'" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(SEND_ERROR "cannot write ${bytes_input}")
endif()
string(ASCII 255 byte_ff)
string(CONCAT expected_bytes_json
  "ok${TAB}{\"name\": \"f\", \"overload\": \"\", \"namespace\": \"\", \"arguments\": ["
  "{\"name\": \"x\", \"type\": \"str\", \"kwarg_only\": false, \"is_out\": false, "
  "\"default\": \"'\\u00ffé\\u0001'\", \"alias\": null, \"N\": null}], "
  "\"returns\": [], \"is_vararg\": false, \"is_varret\": false}\n")
run(bytes_json "${bytes_input}" 0 expected_bytes_json --json)
string(CONCAT expected_bytes_text "ok${TAB}f(str x='${byte_ff}é\\x01') -> ()\n")
run(bytes_text "${bytes_input}" 0 expected_bytes_text)

# --help and bad usage.
execute_process(COMMAND "${TOOL}" --help OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "^usage: opd-schema")
  message(SEND_ERROR "--help: exit status ${rc}, output:\n${out}")
endif()
execute_process(COMMAND "${TOOL}" --no-such-option INPUT_FILE "${good}"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 2 OR NOT err MATCHES "unknown argument '--no-such-option'" OR NOT out STREQUAL "")
  message(SEND_ERROR "bad usage: exit status ${rc} (expected 2), stderr:\n${err}")
endif()
