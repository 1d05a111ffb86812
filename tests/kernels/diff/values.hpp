#pragma once
// The plain data both sides of the differential harness share: a tensor as
// raw storage bytes plus geometry, and a boxed argument or result. No opd and
// no ATen header, so that the libtorch side compiles as C++17 on its own.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace diff {

// ScalarType codes: c10's and opd's agree (Byte=0 ... Bool=11, BFloat16=15).
enum DType : int { u8 = 0, i8 = 1, i16 = 2, i32 = 3, i64 = 4, f16 = 5, f32 = 6, f64 = 7, c32 = 8, c64 = 9, c128 = 10, b8 = 11, bf16 = 15 };
inline std::size_t element_size(int dtype) {
  switch (dtype) {
    case u8: case i8: case b8: return 1;
    case i16: case f16: case bf16: return 2;
    case i32: case f32: case c32: return 4;
    case c128: return 16;
    default: return 8;
  }
}
inline bool is_floating(int dtype) { return dtype == f16 || dtype == f32 || dtype == f64 || dtype == bf16; }
inline bool is_complex(int dtype) { return dtype == c32 || dtype == c64 || dtype == c128; }
// A complex tensor's elements are compared part by part, as floats of this dtype.
inline int part_dtype(int dtype) { return dtype == c32 ? f16 : dtype == c64 ? f32 : dtype == c128 ? f64 : dtype; }

// A strided tensor over its own storage: element (i0, i1, ...) lies at
// storage index offset + sum(ik * strides[k]).
struct RawTensor {
  int dtype = f32;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  int64_t offset = 0;
  std::vector<unsigned char> storage;
  // A result's strides as its kernel returned it (before it was read out
  // row-major into `storage`): what Case::same_layout compares.
  std::vector<int64_t> layout;
};

struct Value {
  enum class Kind { None, Bool, Int, Double, Complex, String, IntList, DoubleList, BoolList, Tensor, TensorList, OptTensorList };
  Kind kind = Kind::None;
  bool b = false;
  int64_t i = 0;
  double d = 0.0;
  double imag = 0.0;  // Complex: d + imag j
  std::string s;
  std::vector<int64_t> ints;
  std::vector<double> doubles;
  std::vector<bool> bools;
  std::vector<std::optional<RawTensor>> tensors;  // Tensor: one; TensorList: all set; OptTensorList: maybe empty
};

// Arguments, as a boxed stack holds them (a Scalar is an Int, Double or Bool;
// a ScalarType an Int: ScalarT(f32)). Shared by the harness and the
// every-operator benchmark (bench/kernels/all_ops.cpp).
inline Value value_of(Value::Kind kind) {
  Value v;
  v.kind = kind;
  return v;
}
inline Value T(RawTensor t) {
  Value v = value_of(Value::Kind::Tensor);
  v.tensors.emplace_back(std::move(t));
  return v;
}
inline Value TL(std::vector<RawTensor> ts) {
  Value v = value_of(Value::Kind::TensorList);
  for (RawTensor& t : ts) v.tensors.emplace_back(std::move(t));
  return v;
}
inline Value OTL(std::vector<std::optional<RawTensor>> ts) {
  Value v = value_of(Value::Kind::OptTensorList);
  v.tensors = std::move(ts);
  return v;
}
inline Value I(int64_t i) {
  Value v = value_of(Value::Kind::Int);
  v.i = i;
  return v;
}
inline Value D(double d) {
  Value v = value_of(Value::Kind::Double);
  v.d = d;
  return v;
}
// A complex Scalar (Python's complex).
inline Value C(double re, double im) {
  Value v = value_of(Value::Kind::Complex);
  v.d = re;
  v.imag = im;
  return v;
}
inline Value B(bool b) {
  Value v = value_of(Value::Kind::Bool);
  v.b = b;
  return v;
}
inline Value S(std::string s) {
  Value v = value_of(Value::Kind::String);
  v.s = std::move(s);
  return v;
}
inline Value L(std::vector<int64_t> ints) {
  Value v = value_of(Value::Kind::IntList);
  v.ints = std::move(ints);
  return v;
}
inline Value DL(std::vector<double> ds) {
  Value v = value_of(Value::Kind::DoubleList);
  v.doubles = std::move(ds);
  return v;
}
inline Value BL(std::vector<bool> bs) {
  Value v = value_of(Value::Kind::BoolList);
  v.bools = std::move(bs);
  return v;
}
inline Value None() { return Value{}; }
inline Value ScalarT(int dtype) { return I(dtype); }

// What one side did: its error (message only), or the returned values (the
// whole stack after the call) and every argument after it (mutations).
// Tensors come back contiguous (strides row-major, offset 0).
struct Outcome {
  std::optional<std::string> error;
  std::vector<Value> returns;
  std::vector<Value> args_after;
};

}  // namespace diff
