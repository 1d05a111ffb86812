// opd side of the differential harness. Each tensor argument gets its own
// storage, a copy of the RawTensor's, viewed through aten::as_strided.
#include "opd_side.hpp"

#include <complex>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "dispatch/dispatcher.hpp"
#include "dispatch/dispatcher/tensor_args.hpp"

namespace diff {
namespace {

opd::Tensor to_opd(const RawTensor& r) {
  const auto dtype = static_cast<opd::ScalarType>(r.dtype);
  const int64_t n = static_cast<int64_t>(r.storage.size() / element_size(r.dtype));
  opd::Tensor storage = opd::empty({n}, dtype);
  if (n > 0) std::memcpy(storage.data_ptr(), r.storage.data(), r.storage.size());
  opd::Stack stack;
  stack.emplace_back(storage);
  stack.emplace_back(r.sizes);
  stack.emplace_back(r.strides);
  stack.emplace_back(r.offset);
  opd::call_boxed("aten::as_strided", stack);
  return stack.at(0).to_tensor();
}

// The tensor's elements in row-major order of their logical index.
RawTensor from_opd(const opd::Tensor& t) {
  RawTensor r;
  r.dtype = static_cast<int>(t.scalar_type());
  r.sizes = t.sizes().vec();
  r.layout = t.strides().vec();
  r.strides.assign(r.sizes.size(), 1);
  for (std::size_t d = r.sizes.size(); d-- > 1;) r.strides[d - 1] = r.strides[d] * std::max<int64_t>(r.sizes[d], 1);
  const std::size_t item = t.itemsize();
  r.storage.resize(static_cast<std::size_t>(t.numel()) * item);
  const auto* base = static_cast<const unsigned char*>(t.data_ptr());
  std::size_t at = 0;
  opd::detail::for_each_element_offset(t.sizes(), t.strides(), [&](int64_t offset) {
    std::memcpy(r.storage.data() + at, base + offset * static_cast<int64_t>(item), item);
    at += item;
  });
  return r;
}

opd::IValue to_ivalue(const Value& v) {
  switch (v.kind) {
    case Value::Kind::None: return opd::IValue();
    case Value::Kind::Bool: return opd::IValue(v.b);
    case Value::Kind::Int: return opd::IValue(v.i);
    case Value::Kind::Double: return opd::IValue(v.d);
    case Value::Kind::Complex: return opd::IValue(std::complex<double>(v.d, v.imag));
    case Value::Kind::String: return opd::IValue(v.s);
    case Value::Kind::IntList: return opd::IValue(v.ints);
    case Value::Kind::DoubleList: return opd::IValue(v.doubles);
    case Value::Kind::BoolList: return opd::IValue(v.bools);
    case Value::Kind::Tensor: return opd::IValue(to_opd(*v.tensors.at(0)));
    case Value::Kind::TensorList: {
      std::vector<opd::Tensor> l;
      for (const auto& t : v.tensors) l.push_back(to_opd(*t));
      return opd::IValue(std::move(l));
    }
    case Value::Kind::OptTensorList: {
      std::vector<std::optional<opd::Tensor>> l;
      for (const auto& t : v.tensors) l.push_back(t ? std::optional<opd::Tensor>(to_opd(*t)) : std::nullopt);
      return opd::IValue(std::move(l));
    }
  }
  return opd::IValue();
}

Value from_ivalue(const opd::IValue& iv) {
  Value v;
  if (iv.is_none() || (iv.is_tensor() && !iv.to_tensor().defined())) {  // an undefined tensor reads as None
    v.kind = Value::Kind::None;
  } else if (iv.is_tensor()) {
    v.kind = Value::Kind::Tensor;
    v.tensors.emplace_back(from_opd(iv.to_tensor()));
  } else if (iv.is_tensor_list()) {
    v.kind = Value::Kind::TensorList;
    for (const opd::Tensor& t : iv.to_tensor_list()) v.tensors.emplace_back(from_opd(t));
  } else if (iv.is_optional_tensor_list()) {
    v.kind = Value::Kind::OptTensorList;
    for (const std::optional<opd::Tensor>& t : iv.to_optional_tensor_list()) {
      v.tensors.push_back(t ? std::optional<RawTensor>(from_opd(*t)) : std::nullopt);
    }
  } else if (iv.is_bool()) {
    v.kind = Value::Kind::Bool;
    v.b = iv.to_bool();
  } else if (iv.is_int()) {
    v.kind = Value::Kind::Int;
    v.i = iv.to_int();
  } else if (iv.is_double()) {
    v.kind = Value::Kind::Double;
    v.d = iv.to_double();
  } else if (iv.is_complex_double()) {
    v.kind = Value::Kind::Complex;
    v.d = iv.to_complex_double().real();
    v.imag = iv.to_complex_double().imag();
  } else if (iv.is_int_list()) {
    v.kind = Value::Kind::IntList;
    v.ints = iv.to_int_list();
  } else if (iv.is_double_list()) {
    v.kind = Value::Kind::DoubleList;
    v.doubles = iv.to_double_list();
  } else if (iv.is_bool_list()) {
    v.kind = Value::Kind::BoolList;
    v.bools = iv.to_bool_list();
  } else if (iv.is_string()) {
    v.kind = Value::Kind::String;
    v.s = std::string(iv.to_string_view());
  } else {
    v.kind = Value::Kind::String;
    v.s = "<unsupported IValue>";
  }
  return v;
}

}  // namespace

Outcome call_opd(const std::string& op, const std::string& overload, const std::vector<Value>& args) {
  Outcome o;
  try {
    std::vector<opd::IValue> inputs;
    opd::Stack stack;
    for (const Value& v : args) {
      inputs.push_back(to_ivalue(v));
      stack.push_back(inputs.back());
    }
    opd::call_boxed(overload.empty() ? op : op + "." + overload, stack);
    for (const opd::IValue& r : stack) o.returns.push_back(from_ivalue(r));
    for (const opd::IValue& a : inputs) o.args_after.push_back(from_ivalue(a));
  } catch (const opd::Error& e) {
    o.error = e.what();
  }
  return o;
}

struct PreparedOpd::State {
  const opd::OperatorEntry* entry = nullptr;
  opd::Stack stack;
};

PreparedOpd::PreparedOpd(const std::string& op, const std::string& overload, const std::vector<Value>& args)
    : state_(std::make_unique<State>()) {
  try {
    state_->entry = &opd::Dispatcher::singleton().find_schema_or_throw(overload.empty() ? op : op + "." + overload);
    for (const Value& v : args) state_->stack.push_back(to_ivalue(v));
  } catch (const opd::Error& e) {
    throw std::runtime_error(e.what());
  }
}

PreparedOpd::~PreparedOpd() = default;

void PreparedOpd::call() const {
  opd::Stack stack = state_->stack;
  opd::call_boxed(*state_->entry, stack);
}

std::int64_t PreparedOpd::bytes_moved() const {
  std::vector<opd::Tensor> arguments;
  const auto add_argument = [&](const opd::Tensor& t) {
    for (const opd::Tensor& seen : arguments) {
      if (seen.is_alias_of(t) && seen.data_ptr() == t.data_ptr() && seen.numel() == t.numel()) return;
    }
    arguments.push_back(t);
  };
  for (const opd::IValue& v : state_->stack) opd::for_each_tensor(add_argument, v);
  opd::Stack stack = state_->stack;
  opd::call_boxed(*state_->entry, stack);
  std::int64_t written = 0;
  bool returns_a_tensor = false;
  const auto add_result = [&](const opd::Tensor& t) {
    returns_a_tensor = true;
    for (const opd::Tensor& a : arguments) {
      if (a.is_alias_of(t)) return;
    }
    written += static_cast<std::int64_t>(t.nbytes());
  };
  for (const opd::IValue& v : stack) opd::for_each_tensor(add_result, v);
  // A view (every result an alias of an argument) reads nothing.
  if (returns_a_tensor && written == 0) return 0;
  std::int64_t read = 0;
  for (const opd::Tensor& t : arguments) read += static_cast<std::int64_t>(t.nbytes());
  return read + written;
}

std::string PreparedOpd::try_call() const {
  try {
    call();
  } catch (const opd::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace diff
