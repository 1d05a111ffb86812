// Structured families on CPU and Meta: the three variants, PyTorch's
// in-place / out= semantics, the Meta kernel derived from meta(), provided
// kernels winning over derived ones, boxed calls.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>
#include <structured/structured.hpp>

#include "toy_ops.hpp"

namespace {

using opd::DispatchKey;
using opd::ScalarType;
using opd::Tensor;
using toy::toy_mul;
using toy::v;
using toy::WarningCapture;


class Structured : public ::testing::Test {
 protected:
  void SetUp() override { toy::count() = {}; }
  opd::RegistrationSet registrations = opd::register_structured<toy_mul>();
};

TEST_F(Structured, RegistersThreeVariantsOnCpuAndMeta) {
  EXPECT_EQ(registrations.size(), 6u);
  for (DispatchKey k : {DispatchKey::CPU, DispatchKey::Meta}) {
    EXPECT_TRUE(opd::entry_for<toy_mul::functional>().has_kernel_for(k));
    EXPECT_TRUE(opd::entry_for<toy_mul::inplace>().has_kernel_for(k));
    EXPECT_TRUE(opd::entry_for<toy_mul::out>().has_kernel_for(k));
  }
  EXPECT_FALSE(opd::entry_for<toy_mul::functional>().has_kernel_for(DispatchKey::CUDA));
}

TEST_F(Structured, FunctionalAllocatesAndBroadcasts) {
  const Tensor a = opd::from_vector<float>({1, 2, 3, 4, 5, 6}, v({2, 3}));
  const Tensor b = opd::from_vector<float>({10, 20, 30});
  const Tensor c = opd::call<toy_mul::functional>(a, b);
  EXPECT_EQ(c.sizes(), v({2, 3}));
  EXPECT_EQ(c.dtype(), ScalarType::Float);
  EXPECT_TRUE(c.is_cpu());
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_EQ(opd::to_vector<float>(c), (std::vector<float>{10, 40, 90, 40, 100, 180}));
  EXPECT_EQ(toy::count().cpu_impl, 1);
  EXPECT_EQ(toy::count().last_out_data, c.data_ptr());  // impl wrote the result directly
}

TEST_F(Structured, FunctionalPromotesDtypes) {
  const Tensor i = opd::from_vector<int64_t>({1, 2, 3});
  const Tensor d = opd::from_vector<double>({0.5, 0.5, 0.5});
  const Tensor f = opd::from_vector<float>({2, 2, 2});
  EXPECT_EQ(opd::to_vector<int64_t>(opd::call<toy_mul::functional>(i, i)), (std::vector<int64_t>{1, 4, 9}));
  EXPECT_EQ(opd::to_vector<double>(opd::call<toy_mul::functional>(i, d)), (std::vector<double>{0.5, 1, 1.5}));
  EXPECT_EQ(opd::to_vector<double>(opd::call<toy_mul::functional>(f, d)), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(opd::to_vector<float>(opd::call<toy_mul::functional>(i, f)), (std::vector<float>{2, 4, 6}));
}

TEST_F(Structured, MetaErrorsReachTheCaller) {
  const Tensor a = opd::from_vector<float>({1, 2, 3});
  const Tensor b = opd::from_vector<float>({1, 2});
  EXPECT_THROW(opd::call<toy_mul::functional>(a, b), opd::Error);
  EXPECT_EQ(toy::count().cpu_impl, 0);
}

TEST_F(Structured, InplaceWritesIntoSelf) {
  Tensor a = opd::from_vector<float>({1, 2, 3, 4, 5, 6}, v({2, 3}));
  const void* storage = a.data_ptr();
  const Tensor b = opd::from_vector<float>({2, 3, 4});
  Tensor& r = opd::call<toy_mul::inplace>(a, b);
  EXPECT_TRUE(r.is_same(a));
  EXPECT_EQ(a.data_ptr(), storage);
  EXPECT_EQ(opd::to_vector<float>(a), (std::vector<float>{2, 6, 12, 8, 15, 24}));
  EXPECT_EQ(toy::count().last_out_data, storage);  // computed straight into self
}

TEST_F(Structured, InplaceRefusesToBroadcastSelf) {
  Tensor a = opd::from_vector<float>({1, 2, 3});
  const Tensor b = opd::from_vector<float>({1, 2, 3, 4, 5, 6}, v({2, 3}));
  try {
    opd::call<toy_mul::inplace>(a, b);
    FAIL() << "expected a shape error";
  } catch (const opd::Error& e) {
    EXPECT_NE(std::string(e.what()).find("toy::mul_.Tensor: output with shape [3] doesn't match the broadcast shape [2, 3]"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(opd::to_vector<float>(a), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(toy::count().cpu_impl, 0);
}

TEST_F(Structured, InplaceDtypeRules) {
  Tensor i = opd::from_vector<int64_t>({1, 2, 3});
  const Tensor f = opd::from_vector<float>({0.5f, 0.5f, 0.5f});
  try {
    opd::call<toy_mul::inplace>(i, f);  // int_tensor *= float_tensor
    FAIL() << "expected a dtype error";
  } catch (const opd::Error& e) {
    EXPECT_NE(std::string(e.what()).find("result type Float can't be cast to the desired output type Long"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(opd::to_vector<int64_t>(i), (std::vector<int64_t>{1, 2, 3}));

  // float_tensor *= double_tensor: computed in Double, cast back into self.
  Tensor g = opd::from_vector<float>({1, 2, 3});
  const void* storage = g.data_ptr();
  opd::call<toy_mul::inplace>(g, opd::from_vector<double>({0.5, 0.5, 0.5}));
  EXPECT_EQ(g.dtype(), ScalarType::Float);
  EXPECT_EQ(g.data_ptr(), storage);
  EXPECT_EQ(opd::to_vector<float>(g), (std::vector<float>{0.5f, 1, 1.5f}));
  EXPECT_NE(toy::count().last_out_data, storage);  // through a temporary
}

TEST_F(Structured, InplaceIntoNonContiguousSelf) {
  Tensor base = opd::from_vector<float>({1, 2, 3, 4, 5, 6}, v({2, 3}));
  Tensor t = base.as_strided(v({3, 2}), v({1, 3}));  // the transpose: [[1,4],[2,5],[3,6]]
  opd::call<toy_mul::inplace>(t, opd::from_vector<float>({10, 100}));
  EXPECT_EQ(t.strides(), v({1, 3}));
  EXPECT_EQ(opd::to_vector<float>(t), (std::vector<float>{10, 400, 20, 500, 30, 600}));
  EXPECT_EQ(opd::to_vector<float>(base), (std::vector<float>{10, 20, 30, 400, 500, 600}));
}

TEST_F(Structured, OutOfTheRightShapeIsWrittenDirectly) {
  WarningCapture warnings;
  Tensor out = opd::empty(v({3}), ScalarType::Float);
  const void* storage = out.data_ptr();
  Tensor& r = opd::call<toy_mul::out>(opd::from_vector<float>({1, 2, 3}), opd::from_vector<float>({4, 5, 6}), out);
  EXPECT_TRUE(r.is_same(out));
  EXPECT_EQ(out.data_ptr(), storage);
  EXPECT_EQ(toy::count().last_out_data, storage);
  EXPECT_EQ(opd::to_vector<float>(out), (std::vector<float>{4, 10, 18}));
  EXPECT_TRUE(warnings.messages.empty());
}

TEST_F(Structured, OutKeywordArgument) {
  Tensor out = opd::empty(v({0}), ScalarType::Float);
  opd::call<toy_mul::out>(opd::from_vector<float>({1, 2}), opd::from_vector<float>({3, 4}), opd::arg<"out"> = out);
  EXPECT_EQ(opd::to_vector<float>(out), (std::vector<float>{3, 8}));
}

TEST_F(Structured, EmptyOutIsResizedSilently) {
  WarningCapture warnings;
  Tensor out = opd::empty(v({0}), ScalarType::Float);
  opd::call<toy_mul::out>(opd::from_vector<float>({1, 2, 3, 4, 5, 6}, v({2, 3})), opd::from_vector<float>({1, 2, 3}), out);
  EXPECT_EQ(out.sizes(), v({2, 3}));
  EXPECT_TRUE(out.is_contiguous());
  EXPECT_EQ(opd::to_vector<float>(out), (std::vector<float>{1, 4, 9, 4, 10, 18}));
  EXPECT_TRUE(warnings.messages.empty());
}

TEST_F(Structured, NonEmptyOutIsResizedWithAWarning) {
  WarningCapture warnings;
  Tensor out = opd::empty(v({2}), ScalarType::Float);
  opd::call<toy_mul::out>(opd::from_vector<float>({1, 2, 3, 4, 5, 6}, v({2, 3})), opd::from_vector<float>({1, 2, 3}), out);
  EXPECT_EQ(out.sizes(), v({2, 3}));
  EXPECT_EQ(opd::to_vector<float>(out), (std::vector<float>{1, 4, 9, 4, 10, 18}));
  ASSERT_EQ(warnings.messages.size(), 1u);
  EXPECT_NE(warnings.messages[0].find("toy::mul.out: An output with one or more elements was resized since it had "
                                      "shape [2], which does not match the required output shape [2, 3]"),
            std::string::npos)
      << warnings.messages[0];
  // A user handler hears every resize.
  Tensor again = opd::empty(v({1}), ScalarType::Float);
  opd::call<toy_mul::out>(opd::from_vector<float>({1, 2}), opd::from_vector<float>({1, 2}), again);
  EXPECT_EQ(warnings.messages.size(), 2u);
}

TEST_F(Structured, DefaultWarningIsPrintedOncePerOperator) {
  auto previous = opd::set_resize_out_warning_handler(nullptr);
  // A family of its own, so that no other test has warned for it yet.
  auto outer = opd::register_structured<toy::toy_outer>();
  testing::internal::CaptureStderr();
  for (int i = 0; i < 3; ++i) {
    Tensor out = opd::empty(v({5}), ScalarType::Float);
    opd::call<toy::toy_outer::out>(opd::from_vector<float>({1, 2}), opd::from_vector<float>({1, 2}), out);
  }
  const std::string err = testing::internal::GetCapturedStderr();
  opd::set_resize_out_warning_handler(std::move(previous));
  const std::string what = "toy::outer.out: An output with one or more elements was resized";
  const auto first = err.find(what);
  EXPECT_NE(first, std::string::npos) << err;
  EXPECT_EQ(err.find(what, first + 1), std::string::npos) << err;
}

TEST_F(Structured, NonContiguousOutGoesThroughATemporary) {
  WarningCapture warnings;
  Tensor base = opd::from_vector<float>({0, 0, 0, 0, 0, 0}, v({2, 3}));
  Tensor out = base.as_strided(v({3, 2}), v({1, 3}));
  const void* storage = out.data_ptr();
  opd::call<toy_mul::out>(opd::from_vector<float>({1, 2, 3, 4, 5, 6}, v({3, 2})), opd::from_vector<float>({1, 10}),
                          out);
  EXPECT_EQ(out.sizes(), v({3, 2}));
  EXPECT_EQ(out.strides(), v({1, 3}));         // its strides are kept
  EXPECT_EQ(out.data_ptr(), storage);          // and its memory
  EXPECT_NE(toy::count().last_out_data, storage);  // impl wrote a contiguous temporary
  EXPECT_EQ(opd::to_vector<float>(out), (std::vector<float>{1, 20, 3, 40, 5, 60}));
  EXPECT_EQ(opd::to_vector<float>(base), (std::vector<float>{1, 3, 5, 20, 40, 60}));  // the values live in base
  EXPECT_TRUE(warnings.messages.empty());
}

TEST_F(Structured, OutOfAnotherCastableDtype) {
  Tensor out = opd::empty(v({3}), ScalarType::Double);
  opd::call<toy_mul::out>(opd::from_vector<float>({1.5f, 2, 3}), opd::from_vector<float>({2, 2, 2}), out);
  EXPECT_EQ(out.dtype(), ScalarType::Double);
  EXPECT_EQ(opd::to_vector<double>(out), (std::vector<double>{3, 4, 6}));

  Tensor fout = opd::empty(v({2}), ScalarType::Float);  // Long result into a Float out: same or higher category
  opd::call<toy_mul::out>(opd::from_vector<int64_t>({3, 4}), opd::from_vector<int64_t>({5, 6}), fout);
  EXPECT_EQ(opd::to_vector<float>(fout), (std::vector<float>{15, 24}));
}

TEST_F(Structured, OutOfALowerCategoryIsAnError) {
  Tensor iout = opd::empty(v({2}), ScalarType::Long);
  try {
    opd::call<toy_mul::out>(opd::from_vector<float>({1, 2}), opd::from_vector<float>({1, 2}), iout);
    FAIL() << "expected a dtype error";
  } catch (const opd::Error& e) {
    EXPECT_NE(std::string(e.what()).find("toy::mul.out: result type Float can't be cast to the desired output type Long"),
              std::string::npos)
        << e.what();
  }
  Tensor bout = opd::empty(v({2}), ScalarType::Bool);
  EXPECT_THROW(opd::call<toy_mul::out>(opd::from_vector<int64_t>({1, 2}), opd::from_vector<int64_t>({1, 2}), bout),
               opd::Error);
  EXPECT_EQ(bout.sizes(), v({2}));  // refused before any resize
  EXPECT_EQ(toy::count().cpu_impl, 0);
}

TEST_F(Structured, MetaKernelFromMetaAlone) {
  const Tensor a = opd::empty(v({4, 1, 3}), ScalarType::Long, opd::Device::meta());
  const Tensor b = opd::empty(v({5, 1}), ScalarType::Float, opd::Device::meta());
  const Tensor c = opd::call<toy_mul::functional>(a, b);
  EXPECT_TRUE(c.is_meta());
  EXPECT_EQ(c.sizes(), v({4, 5, 3}));
  EXPECT_EQ(c.dtype(), ScalarType::Float);
  EXPECT_EQ(c.data_ptr(), nullptr);  // nothing allocated
  EXPECT_EQ(toy::count().cpu_impl, 0);

  Tensor self = opd::empty(v({4, 5, 3}), ScalarType::Double, opd::Device::meta());
  EXPECT_TRUE(opd::call<toy_mul::inplace>(self, b).is_same(self));
  Tensor small = opd::empty(v({5, 1}), ScalarType::Float, opd::Device::meta());
  EXPECT_THROW(opd::call<toy_mul::inplace>(small, a), opd::Error);  // [5, 1] would have to grow
  Tensor ints = opd::empty(v({4, 5, 3}), ScalarType::Long, opd::Device::meta());
  EXPECT_THROW(opd::call<toy_mul::inplace>(ints, b), opd::Error);  // a Float result into Long

  WarningCapture warnings;
  Tensor out = opd::empty(v({0}), ScalarType::Float, opd::Device::meta());
  opd::call<toy_mul::out>(a, b, out);
  EXPECT_EQ(out.sizes(), v({4, 5, 3}));
  EXPECT_EQ(out.data_ptr(), nullptr);
  EXPECT_TRUE(warnings.messages.empty());
  Tensor non_empty = opd::empty(v({7}), ScalarType::Float, opd::Device::meta());
  opd::call<toy_mul::out>(a, b, non_empty);
  EXPECT_EQ(warnings.messages.size(), 1u);
  EXPECT_EQ(toy::count().cpu_impl, 0);
}

// An out / self with the result's sizes and dtype in which one memory
// location holds several elements is refused, before anything is computed.
TEST_F(Structured, ExpandedOutOrSelfOfTheResultsShapeIsRefused) {
  const Tensor a = opd::from_vector<float>({1, 2, 3, 4, 5, 6}, v({2, 3}));
  Tensor row = opd::from_vector<float>({7, 8, 9});
  Tensor out = row.as_strided(v({2, 3}), v({0, 1}));
  const std::string expanded =
      "unsupported operation: more than one element of the written-to tensor refers to a single memory location";
  try {
    opd::call<toy_mul::out>(a, a, out);
    FAIL() << "expected an overlap error";
  } catch (const opd::Error& e) {
    EXPECT_NE(std::string(e.what()).find("toy::mul.out: " + expanded), std::string::npos) << e.what();
  }
  Tensor self = row.as_strided(v({2, 3}), v({0, 1}));
  try {
    opd::call<toy_mul::inplace>(self, a);
    FAIL() << "expected an overlap error";
  } catch (const opd::Error& e) {
    EXPECT_NE(std::string(e.what()).find("toy::mul_.Tensor: " + expanded), std::string::npos) << e.what();
  }
  EXPECT_EQ(opd::to_vector<float>(row), (std::vector<float>{7, 8, 9}));
  EXPECT_EQ(toy::count().cpu_impl, 0);
}

TEST_F(Structured, MixedDevicesAreRefused) {
  const Tensor cpu = opd::from_vector<float>({1, 2});
  const Tensor meta = opd::empty(v({2}), ScalarType::Float, opd::Device::meta());
  EXPECT_THROW(opd::call<toy_mul::functional>(cpu, meta), opd::Error);  // reaches Meta, which sees a CPU tensor
  Tensor meta_out = opd::empty(v({2}), ScalarType::Float, opd::Device::meta());
  EXPECT_THROW(opd::call<toy_mul::out>(cpu, cpu, meta_out), opd::Error);
  EXPECT_EQ(toy::count().cpu_impl, 0);
}

TEST_F(Structured, BoxedCallsReachTheStructuredKernels) {
  opd::Stack functional{opd::from_vector<float>({1, 2}), opd::from_vector<float>({3, 4})};
  opd::call_boxed<toy_mul::functional>(functional);
  ASSERT_EQ(functional.size(), 1u);
  EXPECT_EQ(opd::to_vector<float>(functional[0].to_tensor()), (std::vector<float>{3, 8}));

  Tensor self = opd::from_vector<float>({1, 2});
  opd::Stack inplace{self, opd::from_vector<float>({5, 6})};
  opd::call_boxed<toy_mul::inplace>(inplace);
  ASSERT_EQ(inplace.size(), 1u);
  EXPECT_TRUE(inplace[0].to_tensor().is_same(self));
  EXPECT_EQ(opd::to_vector<float>(self), (std::vector<float>{5, 12}));

  Tensor out = opd::empty(v({0}), ScalarType::Float);
  opd::Stack out_stack{opd::from_vector<float>({1, 2}), opd::from_vector<float>({7, 8}), out};
  opd::call_boxed("toy::mul.out", out_stack);
  ASSERT_EQ(out_stack.size(), 1u);
  EXPECT_TRUE(out_stack[0].to_tensor().is_same(out));
  EXPECT_EQ(opd::to_vector<float>(out), (std::vector<float>{7, 16}));
}

// TensorMeta::sizes keeps up to 5 dimensions inline and is used like the
// std::vector<int64_t> it replaces.
TEST(StructuredTensorMeta, SizesAreUsedLikeAVector) {
  const opd::TensorMeta braced{{2, 3}, ScalarType::Float};
  EXPECT_EQ(braced.sizes, v({2, 3}));
  EXPECT_EQ(v({2, 3}), braced.sizes);
  EXPECT_TRUE(braced.sizes.is_inline());
  EXPECT_EQ(braced.memory_format, opd::MemoryFormat::Contiguous);

  const Tensor t = opd::empty(v({4, 1, 5}), ScalarType::Long);
  const opd::TensorMeta from_vec{t.sizes().vec(), t.dtype()};
  const opd::TensorMeta from_ref{t.sizes(), t.dtype()};
  EXPECT_EQ(from_vec.sizes, t.sizes());
  EXPECT_EQ(t.sizes(), from_ref.sizes);
  EXPECT_EQ(from_vec.sizes, from_ref.sizes);
  EXPECT_EQ(opd::empty(from_ref.sizes, from_ref.dtype).sizes(), v({4, 1, 5}));  // as an IntArrayRef

  opd::TensorMeta m;
  EXPECT_TRUE(m.sizes.empty());
  const std::vector<int64_t> six{1, 2, 3, 4, 5, 6};
  m.sizes = six;  // beyond the inline capacity
  EXPECT_EQ(m.sizes.size(), 6u);
  EXPECT_FALSE(m.sizes.is_inline());
  EXPECT_EQ(m.sizes, six);
  EXPECT_EQ(m.sizes[5], 6);
  EXPECT_EQ(m.sizes.back(), 6);
  m.sizes.push_back(7);
  EXPECT_EQ(m.sizes, v({1, 2, 3, 4, 5, 6, 7}));
  opd::TensorMeta copy = m;
  EXPECT_EQ(copy.sizes, m.sizes);
  opd::TensorMeta moved = std::move(copy);
  EXPECT_EQ(moved.sizes, m.sizes);
  m.sizes = {3};
  EXPECT_EQ(m.sizes, v({3}));
  m.sizes = t.sizes();
  EXPECT_EQ(m.sizes, v({4, 1, 5}));
  m.sizes.assign(m.sizes.ref().slice(1));  // an alias of its own elements
  EXPECT_EQ(m.sizes, v({1, 5}));
  m.sizes.resize(4, 9);
  EXPECT_EQ(m.sizes, v({1, 5, 9, 9}));
  const std::vector<int64_t> back = m.sizes;
  EXPECT_EQ(back, v({1, 5, 9, 9}));
  EXPECT_EQ(m.sizes.vec(), back);
  int64_t product = 1;
  for (int64_t s : m.sizes) product *= s;
  EXPECT_EQ(product, 405);
  std::ostringstream printed;
  printed << m.sizes;
  EXPECT_EQ(printed.str(), "[1, 5, 9, 9]");
  EXPECT_THROW((void)m.sizes.at(4), opd::IndexError);
}

TEST(StructuredProvided, ProvidedKernelWinsOverTheStructuredOne) {
  toy::count() = {};
  int own_inplace = 0;
  auto own = opd::register_kernel<toy_mul::inplace>(DispatchKey::CPU, [&](Tensor& self, const Tensor&) -> Tensor& {
    ++own_inplace;
    return self;
  });
  auto set = opd::register_structured<toy_mul>();
  EXPECT_EQ(set.size(), 5u);  // CPU functional and out=, Meta x3
  Tensor a = opd::from_vector<float>({1, 2});
  opd::call<toy_mul::inplace>(a, a);
  EXPECT_EQ(own_inplace, 1);
  EXPECT_EQ(toy::count().cpu_impl, 0);
  EXPECT_EQ(opd::to_vector<float>(opd::call<toy_mul::functional>(a, a)), (std::vector<float>{1, 4}));
  EXPECT_EQ(toy::count().cpu_impl, 1);
}

TEST(StructuredProvided, RegistrationsAreUndoneWithTheirSet) {
  {
    auto set = opd::register_structured<toy_mul>();
    EXPECT_TRUE(opd::entry_for<toy_mul::out>().has_kernel_for(DispatchKey::CPU));
  }
  EXPECT_FALSE(opd::entry_for<toy_mul::out>().has_kernel_for(DispatchKey::CPU));
  EXPECT_FALSE(opd::entry_for<toy_mul::functional>().has_kernel_for(DispatchKey::Meta));
  EXPECT_THROW(opd::call<toy_mul::functional>(opd::from_vector<float>({1}), opd::from_vector<float>({1})),
               opd::NotImplementedError);
}

TEST(StructuredKwargs, DefaultsAndKeywordsOfTheDerivedVariants) {
  auto set = opd::register_structured<toy::toy_scale>();
  const Tensor x = opd::from_vector<int64_t>({1, 2, 3});
  EXPECT_EQ(opd::to_vector<int64_t>(opd::call<toy::toy_scale::functional>(x)), (std::vector<int64_t>{2, 4, 6}));
  EXPECT_EQ(opd::to_vector<float>(opd::call<toy::toy_scale::functional>(x, opd::arg<"factor"> = 0.5)),
            (std::vector<float>{0.5f, 1, 1.5f}));
  Tensor y = opd::from_vector<int64_t>({1, 2, 3});
  opd::call<toy::toy_scale::inplace>(y, opd::arg<"factor"> = 10);
  EXPECT_EQ(opd::to_vector<int64_t>(y), (std::vector<int64_t>{10, 20, 30}));
  EXPECT_THROW(opd::call<toy::toy_scale::inplace>(y, opd::arg<"factor"> = 0.5), opd::Error);  // Float into Long
  Tensor out = opd::empty(v({0}), ScalarType::Double);
  opd::call<toy::toy_scale::out>(x, opd::arg<"out"> = out);
  EXPECT_EQ(opd::to_vector<double>(out), (std::vector<double>{2, 4, 6}));
}

TEST(StructuredNoInplace, FamilyWithoutSelfHasTwoVariants) {
  auto set = opd::register_structured<toy::toy_outer>();
  EXPECT_EQ(set.size(), 4u);
  const Tensor c = opd::call<toy::toy_outer::functional>(opd::from_vector<float>({1, 2}), opd::from_vector<float>({3, 4, 5}));
  EXPECT_EQ(c.sizes(), v({2, 3}));
  EXPECT_EQ(opd::to_vector<float>(c), (std::vector<float>{3, 4, 5, 6, 8, 10}));
}

TEST(StructuredList, TensorListArgument) {
  auto set = opd::register_structured<toy::toy_cat>();
  static_assert(!toy::toy_cat::has_inplace);
  const std::vector<Tensor> parts{opd::from_vector<float>({1, 2}), opd::from_vector<float>({3})};
  const Tensor c = opd::call<toy::toy_cat::functional>(std::span<const Tensor>(parts));
  EXPECT_EQ(opd::to_vector<float>(c), (std::vector<float>{1, 2, 3}));
  Tensor out = opd::empty(v({0}), ScalarType::Float);
  opd::call<toy::toy_cat::out>(std::span<const Tensor>(parts), out);
  EXPECT_EQ(opd::to_vector<float>(out), (std::vector<float>{1, 2, 3}));
  // Meta: the list's device decides
  const std::vector<Tensor> metas{opd::empty(v({4}), ScalarType::Float, opd::Device::meta()),
                                  opd::empty(v({5}), ScalarType::Float, opd::Device::meta())};
  const Tensor m = opd::call<toy::toy_cat::functional>(std::span<const Tensor>(metas));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.sizes(), v({9}));
  // A CPU tensor in a Meta list is refused by the Meta kernel.
  const std::vector<Tensor> mixed{metas[0], parts[0]};
  EXPECT_THROW(opd::call<toy::toy_cat::functional>(std::span<const Tensor>(mixed)), opd::Error);
}

TEST(StructuredCopy, CpuCopyKernelConvertsAndFollowsStrides) {
  opd::structured_detail::ensure_builtin_copy_kernels();
  Tensor base = opd::empty(v({2, 2}), ScalarType::Long);
  Tensor dst = base.as_strided(v({2, 2}), v({1, 2}));
  opd::call<opd::structured_copy_op>(dst, opd::from_vector<double>({1.9, 2.1, -3.5, 4}, v({2, 2})));
  EXPECT_EQ(opd::to_vector<int64_t>(dst), (std::vector<int64_t>{1, 2, -3, 4}));
  Tensor flags = opd::empty(v({3}), ScalarType::Bool);
  opd::call<opd::structured_copy_op>(flags, opd::from_vector<float>({0, 0.5f, -1}));
  EXPECT_EQ(opd::to_vector<bool>(flags), (std::vector<bool>{false, true, true}));
  EXPECT_THROW(opd::call<opd::structured_copy_op>(flags, opd::from_vector<float>({1, 2})), opd::Error);
}

// A source element for the every-pair test: integers of every sign and
// size (integer conversions wrap), floating values in [0, 127) (every
// floating -> integer conversion defined), complex ones with an imaginary part.
template <class S>
S copy_source_value(int64_t j) {
  namespace sd = opd::structured_detail;
  static constexpr int64_t ints[] = {0, 1, -1, 5, -7, 100, 127, -128, 255, 300, -129, 70000, int64_t{1} << 40};
  static constexpr double reals[] = {0.0, 0.5, 1.0, 2.75, 3.25, 100.0, 126.9, 0.1, 64.03125};
  if constexpr (std::is_integral_v<S>) {
    return sd::convert_element<S>(ints[j % std::size(ints)]);
  } else if constexpr (sd::is_complex_v<S>) {
    using R = typename S::value_type;
    return S(static_cast<R>(reals[j % std::size(reals)]), static_cast<R>(0.25 * static_cast<double>(j % 5)));
  } else {
    return sd::convert_element<S>(reals[j % std::size(reals)]);
  }
}

// The CPU copy kernel converts through a wide type (int64_t or
// complex<double>); for every dtype pair it must give what
// convert_element<D>(s) gives directly, over more than one chunk of its
// buffer and into a strided destination.
TEST(StructuredCopy, EveryDtypePairConvertsLikeConvertElement) {
  namespace mp = boost::mp11;
  namespace sd = opd::structured_detail;
  sd::ensure_builtin_copy_kernels();
  constexpr int64_t n = 300;
  std::size_t pairs = 0;
  mp::mp_for_each<opd::scalar_type_map>([&](auto src_entry) {
    using S = mp::mp_first<decltype(src_entry)>;
    Tensor src = opd::empty(v({n}), mp::mp_second<decltype(src_entry)>::value);
    S* s = static_cast<S*>(src.data_ptr());
    for (int64_t j = 0; j < n; ++j) s[j] = copy_source_value<S>(j);
    mp::mp_for_each<opd::scalar_type_map>([&](auto dst_entry) {
      using D = mp::mp_first<decltype(dst_entry)>;
      const ScalarType dst_type = mp::mp_second<decltype(dst_entry)>::value;
      Tensor base = opd::empty(v({2 * n}), dst_type);
      Tensor dst = base.as_strided(v({n}), v({2}));
      opd::call<opd::structured_copy_op>(dst, src);
      const D* d = static_cast<const D*>(base.data_ptr());
      int mismatches = 0;
      for (int64_t j = 0; j < n; ++j) {
        const D expected = sd::convert_element<D>(s[j]);
        if (std::memcmp(&expected, d + 2 * j, sizeof(D)) != 0) ++mismatches;
      }
      EXPECT_EQ(mismatches, 0) << src.dtype() << " -> " << dst_type;
      ++pairs;
    });
  });
  EXPECT_EQ(pairs, opd::detail::kNumCppScalarTypes * opd::detail::kNumCppScalarTypes);
}

}  // namespace
