// The kernels as structured operators (include/structured/): each meta/impl
// pair becomes `static meta` + `static impl(backend_tag<CPU>, ...)`, and the
// functional, in-place and out= variants are derived and dispatched.
// Operator names live in the opd_kernels_test namespace.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <structured/structured.hpp>

#include "kernel_test_util.hpp"

namespace {

using opd::Scalar;
using opd::ScalarType;
using opd::Tensor;
namespace k = opd::kernels;
using CPU = opd::backend_tag<opd::DispatchKey::CPU>;

struct add_op : opd::structured<"opd_kernels_test::add.out(Tensor self, Tensor other, *, Scalar alpha=1, "
                                "Tensor(a!) out) -> Tensor(a!)",
                                "Tensor"> {
  static opd::TensorMeta meta(const Tensor& self, const Tensor& other, const Scalar& alpha) {
    return k::add_meta(self, other, alpha);
  }
  static void impl(CPU, const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
    k::add_impl(self, other, alpha, out);
  }
};

struct sub_scalar_op : opd::structured<"opd_kernels_test::sub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, "
                                       "*, Tensor(a!) out) -> Tensor(a!)",
                                       "Scalar"> {
  static opd::TensorMeta meta(const Tensor& self, const Scalar& other, const Scalar& alpha) {
    return k::sub_scalar_meta(self, other, alpha);
  }
  static void impl(CPU, const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out) {
    k::sub_scalar_impl(self, other, alpha, out);
  }
};

struct mul_op : opd::structured<"opd_kernels_test::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> "
                                "Tensor(a!)",
                                "Tensor"> {
  static opd::TensorMeta meta(const Tensor& self, const Tensor& other) { return k::mul_meta(self, other); }
  static void impl(CPU, const Tensor& self, const Tensor& other, Tensor& out) { k::mul_impl(self, other, out); }
};

struct div_scalar_op : opd::structured<"opd_kernels_test::div.Scalar_out(Tensor self, Scalar other, *, "
                                       "Tensor(a!) out) -> Tensor(a!)",
                                       "Scalar"> {
  static opd::TensorMeta meta(const Tensor& self, const Scalar& other) { return k::div_scalar_meta(self, other); }
  static void impl(CPU, const Tensor& self, const Scalar& other, Tensor& out) { k::div_scalar_impl(self, other, out); }
};

using opd::kernels::test::shape;
using opd::kernels::test::values;

TEST(KernelsStructured, FunctionalInPlaceAndOut) {
  auto r1 = opd::register_structured<add_op>();
  auto r2 = opd::register_structured<sub_scalar_op>();
  auto r3 = opd::register_structured<mul_op>();
  auto r4 = opd::register_structured<div_scalar_op>();

  Tensor a = opd::from_vector<int32_t>({1, 2, 3, 4, 5, 6}, shape({2, 3}));
  Tensor b = opd::from_vector<float>({0.5f, 1.5f, 2.5f}, shape({3}));

  // Functional: meta's shape and dtype.
  Tensor c = opd::call<add_op::functional>(a, b, Scalar(2));
  EXPECT_EQ(c.dtype(), ScalarType::Float);
  EXPECT_EQ(c.sizes(), shape({2, 3}));
  EXPECT_EQ(values(c), (std::vector<double>{2, 5, 8, 5, 8, 11}));
  EXPECT_EQ(values(opd::call<mul_op::functional>(a, a)), (std::vector<double>{1, 4, 9, 16, 25, 36}));
  Tensor q = opd::call<div_scalar_op::functional>(a, Scalar(4));
  EXPECT_EQ(q.dtype(), ScalarType::Float);
  EXPECT_EQ(values(q), (std::vector<double>{0.25, 0.5, 0.75, 1, 1.25, 1.5}));
  EXPECT_EQ(values(opd::call<sub_scalar_op::functional>(a, Scalar(1), Scalar(2))),
            (std::vector<double>{-1, 0, 1, 2, 3, 4}));

  // In place, including the dtype rule (int_tensor += float_tensor fails).
  Tensor f = opd::from_vector<double>({1, 2, 3, 4, 5, 6}, shape({2, 3}));
  opd::call<add_op::inplace>(f, b, Scalar(1));
  EXPECT_EQ(values(f), (std::vector<double>{1.5, 3.5, 5.5, 4.5, 6.5, 8.5}));
  EXPECT_THROW(opd::call<add_op::inplace>(a, b, Scalar(1)), opd::Error);
  opd::call<mul_op::inplace>(a, a);
  EXPECT_EQ(values(a), (std::vector<double>{1, 4, 9, 16, 25, 36}));

  // out= of another dtype and a transposed layout.
  Tensor buf = opd::empty(shape({3, 2}), ScalarType::Double);
  Tensor out = buf.as_strided(shape({2, 3}), shape({1, 2}));
  opd::call<add_op::out>(a, b, Scalar(1), out);
  EXPECT_EQ(values(out), (std::vector<double>{1.5, 5.5, 11.5, 16.5, 26.5, 38.5}));

  // Errors from meta reach the caller unchanged.
  Tensor bools = opd::from_vector<bool>({true}, shape({1}));
  EXPECT_THROW(opd::call<sub_scalar_op::functional>(bools, Scalar(1), Scalar(1)), opd::Error);
  EXPECT_THROW(opd::call<add_op::functional>(a, opd::from_vector<float>({1, 2}, shape({2})), Scalar(1)), opd::Error);
}

}  // namespace
