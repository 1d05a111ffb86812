// The library's registered operators (include/kernels/ops.hpp) through the dispatcher.
#include <gtest/gtest.h>

#include <kernels/ops_arithmetic.hpp>
#include "all_kernels.hpp"

namespace {
using opd::Tensor;
namespace ops = opd::kernels::ops;

TEST(KernelOps, AddInEveryVariantThroughTheDispatcher) {
  auto registered = opd_test::register_all_kernels();
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
  auto registered = opd_test::register_all_kernels();
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

// docs/kernels.md's opd_test::register_all_kernels() example, and what the registration set means.
TEST(KernelOps, RegisterCpuAsDocumented) {
  {
    opd::RegistrationSet kernels = opd_test::register_all_kernels();
    const Tensor a = opd::from_vector<float>({1.f, 2.f}), b = opd::from_vector<float>({4.f, 8.f});
    Tensor c = opd::call<ops::add::functional>(a, b);
    opd::call<ops::mul::inplace>(c, b);
    Tensor out = opd::call<ops::empty>(std::vector<int64_t>{0});
    opd::call<ops::div_scalar::out>(c, opd::Scalar(2.0), out);
    EXPECT_EQ(opd::to_vector<float>(out), (std::vector<float>{10.f, 40.f}));
    Tensor z = opd::call<ops::zeros>(std::vector<int64_t>{2, 3}, opd::arg<"dtype"> = opd::ScalarType::Double);
    EXPECT_EQ(z.dtype(), opd::ScalarType::Double);
    EXPECT_EQ(z.sizes(), (std::vector<int64_t>{2, 3}));
    // A second registration while the first set lives stacks on it (c10's rule, with a
    // warning per kernel); once it is gone, the first set's kernels serve again.
    static int warnings = 0;
    const auto previous = opd::Dispatcher::singleton().set_warning_handler([](std::string_view) { ++warnings; });
    { const opd::RegistrationSet again = opd_test::register_all_kernels(); }
    opd::Dispatcher::singleton().set_warning_handler(previous);
    EXPECT_GT(warnings, 0);
    EXPECT_EQ(opd::call<ops::zeros>(std::vector<int64_t>{1}).numel(), 1);
  }
  // The set is gone: so are the kernels.
  EXPECT_THROW((void)opd::call<ops::zeros>(std::vector<int64_t>{1}), opd::Error);
}

// A self / out that has meta's sizes and dtype and is contiguous in meta's
// memory format (here ChannelsLast, from self) is written directly.
TEST(KernelOps, AddWritesAChannelsLastSelfOrOutDirectly) {
  auto registered = opd_test::register_all_kernels();
  const std::vector<int64_t> shape{2, 3, 2, 2};
  std::vector<float> values(24);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i);
  const Tensor nchw = opd::from_vector<float>(values, shape);
  Tensor self = opd::empty(shape, opd::ScalarType::Float, opd::Device::cpu(), opd::MemoryFormat::ChannelsLast);
  opd::call<ops::copy_>(self, nchw);
  const void* data = self.data_ptr();
  const std::vector<int64_t> strides = self.strides().vec();
  opd::call<ops::add::inplace>(self, nchw);
  EXPECT_EQ(self.data_ptr(), data);
  EXPECT_EQ(self.strides(), strides);
  std::vector<float> twice(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) twice[i] = 2 * values[i];
  EXPECT_EQ(opd::to_vector<float>(self), twice);

  Tensor out = opd::empty(shape, opd::ScalarType::Float, opd::Device::cpu(), opd::MemoryFormat::ChannelsLast);
  const void* out_data = out.data_ptr();
  opd::call<ops::add::out>(self, nchw, opd::Scalar(-1), out);  // 2v - v
  EXPECT_EQ(out.data_ptr(), out_data);
  EXPECT_TRUE(out.is_contiguous(opd::MemoryFormat::ChannelsLast));
  EXPECT_EQ(opd::to_vector<float>(out), values);
}

// More dimensions than TensorMeta keeps inline, broadcast.
TEST(KernelOps, AddBroadcastsSixDimensions) {
  auto registered = opd_test::register_all_kernels();
  const Tensor a = opd::from_vector<float>({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, std::vector<int64_t>{2, 1, 1, 1, 1, 3});
  const Tensor b = opd::from_vector<float>({10.f, 20.f}, std::vector<int64_t>{1, 2, 1, 1, 1, 1});
  const Tensor c = opd::call<ops::add::functional>(a, b);
  EXPECT_EQ(c.sizes(), (std::vector<int64_t>{2, 2, 1, 1, 1, 3}));
  EXPECT_EQ(opd::to_vector<float>(c), (std::vector<float>{11, 12, 13, 21, 22, 23, 14, 15, 16, 24, 25, 26}));
  Tensor out = opd::empty(std::vector<int64_t>{0});
  opd::call<ops::add::out>(a, b, opd::Scalar(1), out);
  EXPECT_EQ(out.sizes(), c.sizes());
  EXPECT_EQ(opd::to_vector<float>(out), opd::to_vector<float>(c));
  Tensor self = opd::from_vector<float>(std::vector<float>(12, 1.f), std::vector<int64_t>{2, 2, 1, 1, 1, 3});
  opd::call<ops::add::inplace>(self, b, opd::Scalar(2));
  EXPECT_EQ(opd::to_vector<float>(self), (std::vector<float>{21, 21, 21, 41, 41, 41, 21, 21, 21, 41, 41, 41}));
}
}  // namespace
