#pragma once
// What a Python call needs of one operator's schema, read once from the
// registry: each parameter's kind (how a Python value is checked and
// converted), its default as the value the kernel reads, and which argument
// each write-annotated return is. One parser (arguments.cpp) walks this for
// every operator: the binding is derived from the schema, never written per
// operator.
#include "common.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace opd::python {

enum class Kind : std::uint8_t {
  Tensor,        // Tensor (and Tensor? with `optional`)
  Int,           // int, SymInt, DeviceIndex
  Float,         // float, SymFloat
  Bool,          // bool, SymBool
  Scalar,        // Scalar: bool, int, float, complex
  Complex,       // complex
  Str,           // str, Dimname
  Dtype,         // ScalarType
  Layout,
  MemoryFormat,
  Device,
  IntList,       // int[], int[N], SymInt[]
  FloatList,
  BoolList,
  TensorList,    // Tensor[]
  OptTensorList, // Tensor?[]
  ScalarList,    // Scalar[]
  StrList,       // str[], Dimname[]
  Generator,     // accepted as None only
  Other,         // anything else: converted generically
};

struct Param {
  std::string name;
  PyObject* py_name = nullptr;  // interned, for keyword matching
  std::string type_text;        // "Tensor?", "int[2]", for messages
  Kind kind = Kind::Other;
  bool optional = false;        // T? (None accepted)
  bool kwarg_only = false;
  bool is_out = false;          // keyword-only and written to (PyTorch's is_out)
  std::int32_t fixed_size = -1; // N of T[N]
  bool has_default = false;
  IValue default_value;
};

struct Signature {
  const OperatorEntry* entry = nullptr;
  std::string name;         // "aten::add.Tensor"
  std::string schema_text;  // as the registry prints it
  std::string declared_text;  // as it was declared: a call checks the entry still has this schema
  std::vector<Param> params;
  std::size_t max_positional = 0;  // parameters before '*'
  bool vararg = false;
  std::vector<Param> returns;            // kinds of the results (for Python kernels)
  std::vector<int> return_is_argument;   // per return: the argument it aliases and writes, or -1
  bool tensor_params_take_numbers = true;  // Python numbers for Tensor parameters (wrapped numbers)
};

// The signature of an operator with a schema (cached per entry and schema;
// never freed: OpOverload objects keep pointers to them).
const Signature& signature_of(const OperatorEntry& e);
// Throws when sig's operator has lost its schema or was declared again with
// another one since sig was read (a Python Library removed and redefined).
void check_current(const Signature& sig);
bool is_current(const Signature& sig) noexcept;

// Converts one Python value for a parameter. Throws a TypeError naming the
// operator, the parameter, its position, the expected and the given type.
// `owned_tensor` receives a foreign tensor's import (kept alive for the call).
IValue to_ivalue(const Signature& sig, std::size_t k, PyObject* o);
// The same without a signature (a Python kernel's result for a return type).
IValue to_ivalue(const Param& p, PyObject* o, std::string_view op, std::size_t position);

// Does `o` fit parameter p? (no conversion; `numbers_as_tensors` admits Python
// numbers for Tensor parameters, the second pass of overload resolution).
bool accepts(const Param& p, PyObject* o, bool numbers_as_tensors);

// A kernel's value as Python (new reference); `p` (may be null) gives the
// declared kind, so a ScalarType comes back as a dtype rather than an int.
PyObject* to_python(const IValue& v, const Param* p);

// "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
std::string signature_text(const Signature& sig);

}  // namespace opd::python
