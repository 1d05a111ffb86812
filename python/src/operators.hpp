#pragma once
// Operators as Python objects (operators.cpp).
#include "signature.hpp"

#include <string>
#include <vector>

namespace opd::python {

struct PyOverload {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  const Signature* sig;
  PyObject* overload_name;  // "Tensor", "default"
};
struct PyPacket {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  std::string qualified;                   // "aten::add"
  std::vector<const Signature*> overloads; // in PyTorch's order
  PyObject* cache;                         // overload name -> OpOverload
};
extern PyTypeObject OverloadType;
extern PyTypeObject PacketType;

PyObject* make_overload(const Signature& sig);
PyObject* make_packet(const std::string& qualified);  // AttributeError when no overload is declared
bool init_operator_types(PyObject* module);

// Binds Python arguments to sig, converts them, calls the operator through
// the boxed dispatcher and converts the results (null with an exception set
// on failure).
PyObject* call_signature(const Signature& sig, PyObject* const* args, std::size_t nargs, PyObject* kwnames);
// torchgen's sort_overloads order.
std::vector<const Signature*> pytorch_order(std::vector<const Signature*> overloads);

}  // namespace opd::python
