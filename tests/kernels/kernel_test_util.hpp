// Helpers shared by the kernel tests: functional wrappers over the
// meta + impl pairs (what the structured machinery derives), shapes, and
// reading any tensor back as doubles.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/cpu/kernels.hpp"
// The engine's templates (dispatch_dtype, convert), which user code does not
// see in compiled mode: the tests instantiate them directly.
#include "kernels/cpu/loops-inl.hpp"

namespace opd::kernels::test {

inline std::vector<int64_t> shape(std::initializer_list<int64_t> s) { return std::vector<int64_t>(s); }

// Functional variants: allocate from meta, run impl.
inline Tensor add(const Tensor& a, const Tensor& b, const Scalar& alpha = 1) {
  Tensor out = empty_from_meta(add_meta(a, b, alpha));
  add_impl(a, b, alpha, out);
  return out;
}
inline Tensor sub(const Tensor& a, const Tensor& b, const Scalar& alpha = 1) {
  Tensor out = empty_from_meta(sub_meta(a, b, alpha));
  sub_impl(a, b, alpha, out);
  return out;
}
inline Tensor mul(const Tensor& a, const Tensor& b) {
  Tensor out = empty_from_meta(mul_meta(a, b));
  mul_impl(a, b, out);
  return out;
}
inline Tensor div(const Tensor& a, const Tensor& b) {
  Tensor out = empty_from_meta(div_meta(a, b));
  div_impl(a, b, out);
  return out;
}
inline Tensor add(const Tensor& a, const Scalar& b, const Scalar& alpha = 1) {
  Tensor out = empty_from_meta(add_scalar_meta(a, b, alpha));
  add_scalar_impl(a, b, alpha, out);
  return out;
}
inline Tensor sub(const Tensor& a, const Scalar& b, const Scalar& alpha = 1) {
  Tensor out = empty_from_meta(sub_scalar_meta(a, b, alpha));
  sub_scalar_impl(a, b, alpha, out);
  return out;
}
inline Tensor mul(const Tensor& a, const Scalar& b) {
  Tensor out = empty_from_meta(mul_scalar_meta(a, b));
  mul_scalar_impl(a, b, out);
  return out;
}
inline Tensor div(const Tensor& a, const Scalar& b) {
  Tensor out = empty_from_meta(div_scalar_meta(a, b));
  div_scalar_impl(a, b, out);
  return out;
}

// meta == {sizes, dtype, format}, with a readable failure.
inline ::testing::AssertionResult meta_is(const TensorMeta& m, const std::vector<int64_t>& sizes, ScalarType dtype,
                                          MemoryFormat format = MemoryFormat::Contiguous) {
  if (m.sizes == sizes && m.dtype == dtype && m.memory_format == format) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "meta is {" << IntArrayRef(m.sizes) << ", " << m.dtype << ", "
                                       << m.memory_format << "}, expected {" << IntArrayRef(sizes) << ", " << dtype
                                       << ", " << format << "}";
}

// The elements of any (kernel-dtype) tensor, in logical order, as doubles.
inline std::vector<double> values(const Tensor& t) {
  return dispatch_dtype(t.dtype(), "values", [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<double> out;
    for (T v : to_vector<T>(t)) out.push_back(static_cast<double>(convert<double>(v)));
    return out;
  });
}

// A tensor of `dtype` holding `vals` (converted like copy_ would).
inline Tensor tensor_of(const std::vector<double>& vals, const std::vector<int64_t>& sizes, ScalarType dtype) {
  Tensor src = from_vector<double>(vals, IntArrayRef(sizes));
  Tensor out = kernels::empty(IntArrayRef(sizes), dtype);
  kernels::copy_(out, src);
  return out;
}

// The message of the opd::Error `f` throws ("" and a test failure if none).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an opd::Error";
  return "";
}

inline constexpr ScalarType kAllDtypes[] = {ScalarType::Bool,  ScalarType::Byte,   ScalarType::Char,
                                            ScalarType::Short, ScalarType::Int,    ScalarType::Long,
                                            ScalarType::Half,  ScalarType::Float,  ScalarType::Double,
                                            ScalarType::BFloat16};

}  // namespace opd::kernels::test
