// libtorch side of the differential harness (C++17: libtorch 1.13's headers
// do not compile as C++20 with clang). Each tensor argument gets its own
// storage, a copy of the RawTensor's, so that mutations stay on this side.
#include "torch_side.hpp"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <cblas.h>
#include <torch/csrc/api/include/torch/version.h>  // TORCH_VERSION

#include <cstring>
#include <stdexcept>
#include <utility>

namespace diff {
namespace {

at::Tensor to_torch(const RawTensor& r) {
  const auto dtype = static_cast<at::ScalarType>(r.dtype);
  const int64_t n = static_cast<int64_t>(r.storage.size() / element_size(r.dtype));
  at::Tensor storage = at::empty({n}, at::TensorOptions().dtype(dtype));
  if (n > 0) std::memcpy(storage.data_ptr(), r.storage.data(), r.storage.size());
  return storage.as_strided(r.sizes, r.strides, r.offset);
}

RawTensor from_torch(const at::Tensor& t) {
  RawTensor r;
  r.layout = t.strides().vec();
  // The values the tensor holds: a lazy conjugate / negative view (torch.conj's
  // conj bit) is materialized first, its raw memory holding the input's.
  at::Tensor c = t.resolve_conj().resolve_neg().contiguous();
  r.dtype = static_cast<int>(c.scalar_type());
  r.sizes = c.sizes().vec();
  r.strides = c.strides().vec();
  r.offset = 0;
  r.storage.resize(static_cast<std::size_t>(c.numel()) * c.element_size());
  if (!r.storage.empty()) std::memcpy(r.storage.data(), c.data_ptr(), r.storage.size());
  return r;
}

c10::IValue to_ivalue(const Value& v, std::vector<at::Tensor>& keep) {
  switch (v.kind) {
    case Value::Kind::None: return c10::IValue();
    case Value::Kind::Bool: return c10::IValue(v.b);
    case Value::Kind::Int: return c10::IValue(v.i);
    case Value::Kind::Double: return c10::IValue(v.d);
    case Value::Kind::Complex: return c10::IValue(c10::complex<double>(v.d, v.imag));
    case Value::Kind::String: return c10::IValue(v.s);
    case Value::Kind::IntList: return c10::IValue(v.ints);
    case Value::Kind::DoubleList: return c10::IValue(v.doubles);
    case Value::Kind::BoolList: {
      c10::List<bool> l;
      for (bool b : v.bools) l.push_back(b);
      return c10::IValue(l);
    }
    case Value::Kind::Tensor: {
      at::Tensor t = to_torch(*v.tensors.at(0));
      keep.push_back(t);
      return c10::IValue(t);
    }
    case Value::Kind::TensorList: {
      c10::List<at::Tensor> l;
      for (const auto& t : v.tensors) {
        at::Tensor x = to_torch(*t);
        keep.push_back(x);
        l.push_back(x);
      }
      return c10::IValue(l);
    }
    case Value::Kind::OptTensorList: {
      c10::List<c10::optional<at::Tensor>> l;
      for (const auto& t : v.tensors) {
        if (t) {
          at::Tensor x = to_torch(*t);
          keep.push_back(x);
          l.push_back(x);
        } else {
          l.push_back(c10::nullopt);
        }
      }
      return c10::IValue(l);
    }
  }
  return c10::IValue();
}

Value from_ivalue(const c10::IValue& iv) {
  Value v;
  if (iv.isNone() || (iv.isTensor() && !iv.toTensor().defined())) {  // an undefined tensor reads as None
    v.kind = Value::Kind::None;
  } else if (iv.isTensor()) {
    v.kind = Value::Kind::Tensor;
    v.tensors.emplace_back(from_torch(iv.toTensor()));
  } else if (iv.isTensorList()) {
    v.kind = Value::Kind::TensorList;
    for (const at::Tensor& t : iv.toTensorVector()) v.tensors.emplace_back(from_torch(t));
  } else if (iv.isList() && iv.type()->containedType(0)->kind() == c10::TypeKind::OptionalType) {
    // Tensor?[]: a GenericList of optional tensors
    v.kind = Value::Kind::OptTensorList;
    for (const c10::IValue& e : iv.toListRef()) {
      v.tensors.push_back(e.isNone() ? std::nullopt : std::optional<RawTensor>(from_torch(e.toTensor())));
    }
  } else if (iv.isBool()) {
    v.kind = Value::Kind::Bool;
    v.b = iv.toBool();
  } else if (iv.isInt()) {
    v.kind = Value::Kind::Int;
    v.i = iv.toInt();
  } else if (iv.isDouble()) {
    v.kind = Value::Kind::Double;
    v.d = iv.toDouble();
  } else if (iv.isComplexDouble()) {
    v.kind = Value::Kind::Complex;
    v.d = iv.toComplexDouble().real();
    v.imag = iv.toComplexDouble().imag();
  } else if (iv.isIntList()) {
    v.kind = Value::Kind::IntList;
    v.ints = iv.toIntVector();
  } else if (iv.isDoubleList()) {
    v.kind = Value::Kind::DoubleList;
    v.doubles = iv.toDoubleVector();
  } else if (iv.isBoolList()) {
    v.kind = Value::Kind::BoolList;
    for (bool b : iv.toBoolList()) v.bools.push_back(b);
  } else if (iv.isString()) {
    v.kind = Value::Kind::String;
    v.s = iv.toStringRef();
  } else {
    v.kind = Value::Kind::String;
    v.s = "<unsupported IValue " + iv.tagKind() + ">";
  }
  return v;
}

// c10's message without the backtrace libtorch appends.
std::string message_of(const c10::Error& e) { return e.what_without_backtrace(); }

}  // namespace

Outcome call_torch(const std::string& op, const std::string& overload, const std::vector<Value>& args) {
  Outcome o;
  try {
    const c10::OperatorHandle handle = c10::Dispatcher::singleton().findSchemaOrThrow(op.c_str(), overload.c_str());
    std::vector<at::Tensor> keep;
    std::vector<c10::IValue> inputs;
    torch::jit::Stack stack;
    for (const Value& v : args) {
      inputs.push_back(to_ivalue(v, keep));
      stack.push_back(inputs.back());
    }
    handle.callBoxed(&stack);
    for (const c10::IValue& r : stack) o.returns.push_back(from_ivalue(r));
    for (const c10::IValue& a : inputs) o.args_after.push_back(from_ivalue(a));
  } catch (const c10::Error& e) {
    o.error = message_of(e);
  } catch (const std::exception& e) {
    o.error = e.what();
  }
  return o;
}

struct PreparedTorch::State {
  c10::OperatorHandle handle;
  std::vector<at::Tensor> keep;
  torch::jit::Stack stack;
  explicit State(c10::OperatorHandle h) : handle(std::move(h)) {}
};

PreparedTorch::PreparedTorch(const std::string& op, const std::string& overload, const std::vector<Value>& args) {
  try {
    state_ = std::make_unique<State>(c10::Dispatcher::singleton().findSchemaOrThrow(op.c_str(), overload.c_str()));
    for (const Value& v : args) state_->stack.push_back(to_ivalue(v, state_->keep));
  } catch (const c10::Error& e) {
    throw std::runtime_error(message_of(e));
  }
}

PreparedTorch::~PreparedTorch() = default;

void PreparedTorch::call() const {
  torch::jit::Stack stack = state_->stack;
  state_->handle.callBoxed(&stack);
}

std::string PreparedTorch::try_call() const {
  try {
    call();
  } catch (const c10::Error& e) {
    return message_of(e);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// The peer's BLAS too, at its default (a pool of n threads): at::set_num_threads
// leaves Debian's OpenBLAS alone, and the library holds it at one.
void torch_set_num_threads(int n) {
  at::set_num_threads(n);
  openblas_set_num_threads(n);
}
std::string torch_version() { return TORCH_VERSION; }

}  // namespace diff
