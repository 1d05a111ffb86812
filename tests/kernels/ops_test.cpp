// The library's registered operators (include/kernels/ops.hpp) through the dispatcher.
#include <gtest/gtest.h>

#include <kernels/ops.hpp>

namespace {
using opd::Tensor;
namespace ops = opd::kernels::ops;

TEST(KernelOps, AddInEveryVariantThroughTheDispatcher) {
  auto registered = opd::kernels::register_cpu();
  const Tensor a = opd::from_vector<float>({1.f, 2.f, 3.f});
  const Tensor b = opd::from_vector<float>({10.f, 20.f, 30.f});
  EXPECT_EQ(opd::to_vector<float>(opd::call<ops::add::functional>(a, b, opd::arg<"alpha"> = 2)),
            (std::vector<float>{21.f, 42.f, 63.f}));
  Tensor out = opd::call<ops::empty>(std::vector<int64_t>{0});
  Tensor& r = opd::call<ops::add::out>(a, b, opd::arg<"out"> = out);
  EXPECT_EQ(&r, &out);
  EXPECT_EQ(opd::to_vector<float>(out), (std::vector<float>{11.f, 22.f, 33.f}));
  Tensor self = opd::from_vector<float>({1.f, 1.f, 1.f});
  opd::call<ops::mul_scalar::inplace>(self, 4);
  EXPECT_EQ(opd::to_vector<float>(self), (std::vector<float>{4.f, 4.f, 4.f}));
  const Tensor q = opd::call<ops::div::functional>(opd::from_vector<int64_t>({1, 3}), opd::from_vector<int64_t>({2, 2}));
  EXPECT_EQ(q.dtype(), opd::ScalarType::Float);
  EXPECT_EQ(opd::to_vector<float>(q), (std::vector<float>{0.5f, 1.5f}));
}

TEST(KernelOps, FactoriesFillAndCopy) {
  auto registered = opd::kernels::register_cpu();
  Tensor z = opd::call<ops::zeros>(std::vector<int64_t>{2, 2}, opd::arg<"dtype"> = opd::ScalarType::Long);
  EXPECT_EQ(opd::to_vector<int64_t>(z), (std::vector<int64_t>{0, 0, 0, 0}));
  opd::call<ops::fill_>(z, 7);
  Tensor o = opd::call<ops::ones>(std::vector<int64_t>{2, 2});
  opd::call<ops::copy_>(o, z);
  EXPECT_EQ(opd::to_vector<float>(o), (std::vector<float>{7.f, 7.f, 7.f, 7.f}));
  const Tensor m = opd::call<ops::sub::functional>(opd::empty(std::vector<int64_t>{3, 1}, opd::ScalarType::Float, opd::Device::meta()),
                                                   opd::empty(std::vector<int64_t>{4}, opd::ScalarType::Float, opd::Device::meta()));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.sizes(), (std::vector<int64_t>{3, 4}));
}
}  // namespace
