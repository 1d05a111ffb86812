#!/usr/bin/env python3
"""Generates the translation units of the compile-time benchmarks.

  generate.py schemas  [--count N] [--input F] -o out.cpp
      Every schema (or the first N) as a compile-time operator,
      `struct op_N : opd::op<R"opd(...)opd"> {};`, and forces the derivation of
      each kernel function type, opd::schema::kernel_signature_t<op_N>.

  generate.py opd-ops   [--count 100] -o out.cpp
  generate.py torch-ops [--count 100] -o out.cpp
      The first N schemas (the operator name put in namespace `cmp`) declared
      and given a trivial typed kernel each: with opd (op struct, a kernel
      written with opd's parameter types, opd::register_kernel<op, &fn>), and
      with libtorch (TORCH_LIBRARY m.def, a kernel written with c10's types,
      TORCH_LIBRARY_IMPL m.impl(name, TORCH_FN(fn))). Both have a main(): run,
      the program registers everything (libtorch checks each kernel's inferred
      schema against the declared one at that point) and exits 0.

Python 3 standard library only. The input is PyTorch 1.13's
native_functions.yaml schemas, one JSON object a line with a "schema" key
(tests/data/native_functions_1.13.jsonl).
"""
import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_INPUT = os.path.normpath(os.path.join(HERE, "..", "..", "tests", "data", "native_functions_1.13.jsonl"))

DELIM = "opd"  # raw string delimiter: R"opd(...)opd"


def read_schemas(path, count, exclude=()):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            s = json.loads(line)["schema"]
            if any(re.search(r"\b%s\b" % re.escape(word), s) for word in exclude):
                continue
            out.append(s)
            if count is not None and len(out) >= count:
                break
    return out


def raw(s):
    assert ")" + DELIM + '"' not in s, s
    return 'R"%s(%s)%s"' % (DELIM, s, DELIM)


# ---- a small reader of schema text (enough for native_functions.yaml) ------
def split_top(s, sep=","):
    """Splits on `sep` outside (), [] and string literals."""
    parts, depth, cur, quote, i = [], 0, [], None, 0
    while i < len(s):
        c = s[i]
        if quote:
            cur.append(c)
            if c == "\\" and i + 1 < len(s):
                cur.append(s[i + 1])
                i += 1
            elif c == quote:
                quote = None
        elif c in "'\"":
            quote = c
            cur.append(c)
        elif c in "([":
            depth += 1
            cur.append(c)
        elif c in ")]":
            depth -= 1
            cur.append(c)
        elif c == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def parse_schema(s):
    """-> (name, overload, [(type, name)], [type], is_tuple_return)"""
    open_ = s.index("(")
    qual = s[:open_]
    depth, close = 0, None
    for i in range(open_, len(s)):
        if s[i] == "(":
            depth += 1
        elif s[i] == ")":
            depth -= 1
            if depth == 0:
                close = i
                break
    args_text = s[open_ + 1:close]
    ret_text = s[close + 1:].strip()
    assert ret_text.startswith("->"), s
    ret_text = ret_text[2:].strip()
    name, _, overload = qual.partition(".")
    args = []
    for a in split_top(args_text):
        if a == "*":
            continue
        decl = a.split("=", 1)[0].strip()
        typ, _, aname = decl.rpartition(" ")
        args.append((typ.strip(), aname))
    if ret_text.startswith("("):
        rets = [r.rpartition(" ")[0] if " " in r else r for r in split_top(ret_text[1:-1])]
        rets = [r.strip() for r in rets if r.strip()]
        return name, overload, args, rets
    return name, overload, args, [ret_text]


ANN = re.compile(r"^(\w+)\(([^)]*)\)(.*)$")  # Tensor(a!)... -> base, annotation, rest


def strip_alias(t):
    """-> (type without alias annotation, written?)"""
    m = ANN.match(t)
    if not m:
        return t, t.startswith("Tensor!")
    return m.group(1) + m.group(3), "!" in m.group(2)


LIST = re.compile(r"^(.*)\[(\d*)\]$")


# ---- c10 (libtorch 1.13) kernel types ---------------------------------------
C10_BY_VALUE = {
    "int": "int64_t", "SymInt": "c10::SymInt", "float": "double", "bool": "bool", "str": "c10::string_view",
    "ScalarType": "at::ScalarType", "Layout": "at::Layout", "Device": "at::Device",
    "MemoryFormat": "at::MemoryFormat", "Generator": "at::Generator", "Dimname": "at::Dimname",
}


def c10_param(t):
    t, written = strip_alias(t)
    if t.endswith("?"):
        inner = t[:-1]
        m = LIST.match(inner)
        if m:
            elem = m.group(1)
            if elem == "int":
                return "at::OptionalIntArrayRef"
            if elem == "SymInt":
                return "at::OptionalSymIntArrayRef"
            return "c10::optional<%s>" % c10_param(inner)
        if inner == "Tensor":
            return "c10::optional<at::Tensor>&" if written else "const c10::optional<at::Tensor>&"
        if inner == "Scalar":
            return "const c10::optional<at::Scalar>&"
        return "c10::optional<%s>" % C10_BY_VALUE[inner]
    m = LIST.match(t)
    if m:
        elem, n = m.group(1), m.group(2)
        lists = {"Tensor": "at::TensorList", "int": "at::IntArrayRef", "SymInt": "c10::SymIntArrayRef",
                 "float": "at::ArrayRef<double>", "Dimname": "at::DimnameList", "Scalar": "at::ArrayRef<at::Scalar>",
                 "Tensor?": "const c10::List<c10::optional<at::Tensor>>&"}
        if elem == "bool" and n:
            return "std::array<bool, %s>" % n
        return lists[elem]
    if t == "Tensor":
        return "at::Tensor&" if written else "const at::Tensor&"
    if t == "Scalar":
        return "const at::Scalar&"
    return C10_BY_VALUE[t]


def c10_value(t):
    t, written = strip_alias(t)
    if t == "Tensor":
        return "at::Tensor&" if written else "at::Tensor"
    if t.endswith("?"):
        return "c10::optional<%s>" % c10_value(t[:-1])
    m = LIST.match(t)
    if m:
        return "std::vector<%s>" % c10_value(m.group(1))
    return {"Scalar": "at::Scalar", "str": "std::string", "SymInt": "c10::SymInt"}.get(t, C10_BY_VALUE.get(t))


def c10_return(rets):
    if not rets:
        return "void"
    if len(rets) == 1:
        return c10_value(rets[0])
    return "std::tuple<%s>" % ", ".join(c10_value(r) for r in rets)


# ---- opd kernel types (docs/type-mapping.md) --------------------------------
OPD_BY_VALUE = {
    "int": "std::int64_t", "SymInt": "std::int64_t", "float": "double", "bool": "bool", "str": "std::string_view",
    "ScalarType": "opd::ScalarType", "Layout": "opd::Layout", "Device": "opd::Device",
    "MemoryFormat": "opd::MemoryFormat", "Generator": "opd::Generator", "Dimname": "opd::Dimname",
}
OPD_VALUE = {"int": "std::int64_t", "SymInt": "std::int64_t", "float": "double", "bool": "bool", "str": "std::string",
             "Scalar": "opd::Scalar", "Tensor": "opd::Tensor", "ScalarType": "opd::ScalarType",
             "Layout": "opd::Layout", "Device": "opd::Device", "MemoryFormat": "opd::MemoryFormat",
             "Generator": "opd::Generator", "Dimname": "opd::Dimname"}


def opd_value(t):
    t, _ = strip_alias(t)
    if t.endswith("?"):
        return "std::optional<%s>" % opd_value(t[:-1])
    m = LIST.match(t)
    if m:
        if m.group(1) == "bool" and m.group(2):
            return "std::array<bool, %s>" % m.group(2)
        return "std::vector<%s>" % opd_value(m.group(1))
    return OPD_VALUE[t]


def opd_param(t):
    t, written = strip_alias(t)
    if t.endswith("?"):
        inner = t[:-1]
        p = opd_param(inner)
        if inner == "Tensor" and written:
            return "std::optional<opd::Tensor>&"
        if p.startswith("const ") and p.endswith("&"):
            return "const std::optional<%s>&" % p[len("const "):-1]
        return "std::optional<%s>" % p
    m = LIST.match(t)
    if m:
        elem, n = m.group(1), m.group(2)
        if elem == "bool":
            return "std::array<bool, %s>" % n if n else "const std::vector<bool>&"
        return "std::span<const %s>" % opd_value(elem)
    if t == "Tensor":
        return "opd::Tensor&" if written else "const opd::Tensor&"
    if t == "Scalar":
        return "const opd::Scalar&"
    return OPD_BY_VALUE[t]


def opd_return1(t):
    base, written = strip_alias(t)
    if base == "Tensor" and written:
        return "opd::Tensor&"
    return opd_value(t)


def opd_return(rets):
    if not rets:
        return "void"
    if len(rets) == 1:
        return opd_return1(rets[0])
    return "std::tuple<%s>" % ", ".join(opd_return1(r) for r in rets)


# ---- the translation units ----------------------------------------------------
def gen_schemas(schemas, w):
    w("// Generated by bench/schema_compile/generate.py: %d schemas of PyTorch 1.13's\n" % len(schemas))
    w("// native_functions.yaml as compile-time operators, every kernel type derived.\n")
    w("#include <cstddef>\n\n#include \"dispatch/op.hpp\"\n#include \"dispatch/schema/cpp_types.hpp\"\n\n")
    w("namespace gen {\n")
    for i, s in enumerate(schemas):
        w("struct op_%d : opd::op<%s> {};\n" % (i, raw(s)))
        w("static_assert(sizeof(opd::schema::kernel_signature_t<op_%d>*) == sizeof(void (*)()));\n" % i)
    w("}  // namespace gen\n")


def cmp_schema(s):
    return "cmp::" + s


def gen_opd_ops(schemas, w):
    w("// Generated by bench/schema_compile/generate.py: %d operators declared with opd,\n" % len(schemas))
    w("// each with a trivial typed kernel registered at CPU.\n")
    w("#include <array>\n#include <cstdint>\n#include <optional>\n#include <span>\n#include <stdexcept>\n")
    w("#include <string_view>\n#include <tuple>\n#include <vector>\n\n#include \"dispatch/dispatcher.hpp\"\n\n")
    w("namespace gen {\n")
    for i, s in enumerate(schemas):
        _, _, args, rets = parse_schema(s)
        params = ", ".join("%s %s" % (opd_param(t), n) for t, n in args)
        w("struct op_%d : opd::op<%s> {};\n" % (i, raw(cmp_schema(s))))
        w("%s k_%d(%s) { throw std::runtime_error(\"op_%d\"); }\n" % (opd_return(rets), i, params, i))
    w("\nvoid register_all(opd::RegistrationSet& set) {\n")
    for i in range(len(schemas)):
        w("  set.add(opd::register_kernel<op_%d, &k_%d>(opd::DispatchKey::CPU));\n" % (i, i))
    w("}\n}  // namespace gen\n\n")
    w("int main() {\n  opd::RegistrationSet set;\n  gen::register_all(set);\n")
    w("  return set.size() == %d ? 0 : 1;\n}\n" % len(schemas))


def gen_torch_ops(schemas, w):
    w("// Generated by bench/schema_compile/generate.py: %d operators declared with\n" % len(schemas))
    w("// libtorch (TORCH_LIBRARY), each with a trivial typed kernel registered at CPU.\n")
    w("#include <array>\n#include <cstdint>\n#include <stdexcept>\n#include <tuple>\n#include <vector>\n\n")
    w("#include <ATen/core/Tensor.h>\n#include <torch/library.h>\n\n")
    w("namespace gen {\n")
    for i, s in enumerate(schemas):
        _, _, args, rets = parse_schema(s)
        params = ", ".join("%s %s" % (c10_param(t), n) for t, n in args)
        w("%s k_%d(%s) { throw std::runtime_error(\"op_%d\"); }\n" % (c10_return(rets), i, params, i))
    w("}  // namespace gen\n\n")
    w("TORCH_LIBRARY(cmp, m) {\n")
    for s in schemas:
        w("  m.def(%s);\n" % raw(s))
    w("}\n\nTORCH_LIBRARY_IMPL(cmp, CPU, m) {\n")
    for i, s in enumerate(schemas):
        name, overload, _, _ = parse_schema(s)
        w("  m.impl(\"%s\", TORCH_FN(gen::k_%d));\n" % (name + ("." + overload if overload else ""), i))
    w("}\n\nint main() { return 0; }\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["schemas", "opd-ops", "torch-ops"])
    ap.add_argument("--count", type=int, default=None, help="the first N schemas (default: all; 100 for *-ops)")
    ap.add_argument("--input", default=DEFAULT_INPUT)
    ap.add_argument("--exclude", action="append", default=[], metavar="WORD",
                    help="skip schemas mentioning WORD (a type name, say); repeatable")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    count = a.count if a.count is not None else (None if a.mode == "schemas" else 100)
    schemas = read_schemas(a.input, count, a.exclude)
    with open(a.output, "w", encoding="utf-8") as f:
        {"schemas": gen_schemas, "opd-ops": gen_opd_ops, "torch-ops": gen_torch_ops}[a.mode](schemas, f.write)
    print("%s: %d schemas -> %s" % (a.mode, len(schemas), a.output), file=sys.stderr)


if __name__ == "__main__":
    main()
