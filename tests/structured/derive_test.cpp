// Backends that write only some of a family's kernels: the others derived
// (functional only -> in-place and out=; out= only -> functional and in-place),
// for structured families and for plain ones; provided kernels win.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <structured/structured.hpp>

#include "toy_ops.hpp"

namespace {

using opd::DispatchKey;
using opd::ScalarType;
using opd::Tensor;
using toy::toy_mul;
using toy::v;
using toy::WarningCapture;


// The toy device's own kernels: they compute on its memory and say so.
struct DeviceKernels {
  int functional = 0;
  int out = 0;
};
DeviceKernels& device_calls() {
  static DeviceKernels d;
  return d;
}

void check_on_device(const Tensor& t) {
  if (t.device().type() != opd::DeviceType::PrivateUse1) throw opd::Error("toy device kernel got a " + t.device().str() + " tensor");
}

Tensor device_mul(const Tensor& self, const Tensor& other) {
  ++device_calls().functional;
  check_on_device(self);
  check_on_device(other);
  const opd::TensorMeta m = toy::mul_meta(self, other);
  Tensor out = opd::empty(m.sizes, m.dtype, self.device());
  toy::multiply_into(self, other, out);
  return out;
}

Tensor& device_mul_out(const Tensor& self, const Tensor& other, Tensor& out) {
  ++device_calls().out;
  check_on_device(self);
  check_on_device(other);
  check_on_device(out);
  const opd::TensorMeta m = toy::mul_meta(self, other);
  if (!(out.sizes() == m.sizes)) out.resize_(m.sizes);
  if (out.dtype() != m.dtype || !out.is_contiguous()) throw opd::Error("device_mul_out: unsupported out");
  toy::multiply_into(self, other, out);
  return out;
}

class DerivedOnDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    device_calls() = {};
    toy::count() = {};
  }
  toy::ArenaScope scope;
  toy::Arena& arena() { return scope.arena(); }
  Tensor dev(const std::vector<float>& values, std::vector<int64_t> sizes) {
    return toy::to_device(opd::from_vector<float>(values, sizes));
  }
};

TEST_F(DerivedOnDevice, FunctionalOnlyBackendServesAllThreeVariants) {
  auto cpu = opd::register_structured<toy_mul>();  // CPU is there too, and must stay unused
  auto set = opd::register_functional_only<toy_mul>(DispatchKey::PrivateUse1, &device_mul);
  EXPECT_EQ(set.size(), 3u);

  const Tensor a = dev({1, 2, 3, 4, 5, 6}, v({2, 3}));
  const Tensor b = dev({10, 20, 30}, v({3}));
  const Tensor c = opd::call<toy_mul::functional>(a, b);
  EXPECT_EQ(c.device().type(), opd::DeviceType::PrivateUse1);
  EXPECT_TRUE(arena().owns(c.data_ptr()));
  EXPECT_EQ(toy::device_values<float>(c), (std::vector<float>{10, 40, 90, 40, 100, 180}));

  Tensor self = dev({1, 2, 3, 4, 5, 6}, v({2, 3}));
  const void* self_data = self.data_ptr();
  Tensor& r = opd::call<toy_mul::inplace>(self, b);
  EXPECT_TRUE(r.is_same(self));
  EXPECT_EQ(self.data_ptr(), self_data);
  EXPECT_EQ(toy::device_values<float>(self), (std::vector<float>{10, 40, 90, 40, 100, 180}));

  WarningCapture warnings;
  Tensor out = opd::empty(v({0}), ScalarType::Float, toy::pu1);
  Tensor& o = opd::call<toy_mul::out>(a, b, out);
  EXPECT_TRUE(o.is_same(out));
  EXPECT_EQ(out.sizes(), v({2, 3}));
  EXPECT_TRUE(arena().owns(out.data_ptr()));
  EXPECT_EQ(toy::device_values<float>(out), (std::vector<float>{10, 40, 90, 40, 100, 180}));
  EXPECT_TRUE(warnings.messages.empty());

  Tensor full = opd::empty(v({4}), ScalarType::Float, toy::pu1);  // has elements: resized with a warning
  opd::call<toy_mul::out>(a, b, full);
  EXPECT_EQ(full.sizes(), v({2, 3}));
  ASSERT_EQ(warnings.messages.size(), 1u);
  EXPECT_NE(warnings.messages[0].find("toy::mul.out"), std::string::npos);

  EXPECT_EQ(device_calls().functional, 4);
  EXPECT_EQ(toy::count().cpu_impl, 0);  // CPU never saw device memory
}

TEST_F(DerivedOnDevice, DerivedInplaceAndOutKeepTheRules) {
  auto set = opd::register_functional_only<toy_mul>(DispatchKey::PrivateUse1, &device_mul);
  Tensor small = dev({1, 2, 3}, v({3}));
  const Tensor wide = dev({1, 2, 3, 4, 5, 6}, v({2, 3}));
  EXPECT_THROW(opd::call<toy_mul::inplace>(small, wide), opd::Error);
  EXPECT_EQ(toy::device_values<float>(small), (std::vector<float>{1, 2, 3}));

  Tensor ints = toy::to_device(opd::from_vector<int64_t>({1, 2, 3}));
  EXPECT_THROW(opd::call<toy_mul::inplace>(ints, small), opd::Error);  // Float result into Long
  Tensor int_out = opd::empty(v({3}), ScalarType::Long, toy::pu1);
  EXPECT_THROW(opd::call<toy_mul::out>(small, small, int_out), opd::Error);

  Tensor cpu_out = opd::empty(v({3}), ScalarType::Float);  // the call reaches the device, out is elsewhere
  EXPECT_THROW(opd::call<toy_mul::out>(small, small, cpu_out), opd::Error);
  EXPECT_EQ(device_calls().functional, 0);  // all refused by meta() before the device computed
}

TEST_F(DerivedOnDevice, ContiguousSameDtypeCopiesUseTheAllocatorElseTheDeviceCopyKernel) {
  auto set = opd::register_functional_only<toy_mul>(DispatchKey::PrivateUse1, &device_mul);
  const Tensor a = dev({1, 2, 3, 4, 5, 6}, v({3, 2}));
  const Tensor b = dev({1, 10}, v({2}));
  Tensor base = opd::empty(v({2, 3}), ScalarType::Float, toy::pu1);
  Tensor strided = base.as_strided(v({3, 2}), v({1, 3}));
  // Strided copies need the device's own copy kernel: none yet. The error
  // says what to register, not the internal operator's name.
  try {
    opd::call<toy_mul::out>(a, b, strided);
    ADD_FAILURE() << "expected opd::NotImplementedError";
  } catch (const opd::NotImplementedError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("cannot copy a Float result into this PrivateUse1 tensor of dtype Float and strides [1, 3]"),
              std::string::npos) << m;
    EXPECT_NE(m.find("Register one with opd::register_kernel<opd::structured_copy_op>(opd::DispatchKey::PrivateUse1, "
                     "my_copy), where my_copy(opd::Tensor& self, const opd::Tensor& src) -> opd::Tensor&"),
              std::string::npos) << m;
    EXPECT_EQ(m.find("_structured_copy_"), std::string::npos) << m;
  }

  int device_copies = 0;
  auto copy = opd::register_kernel<opd::structured_copy_op>(
      DispatchKey::PrivateUse1, [&](Tensor& self, const Tensor& src) -> Tensor& {
        ++device_copies;
        check_on_device(self);
        check_on_device(src);
        // The toy device's memory is host-addressable: a strided, converting copy.
        opd::visit_scalar_type(self.dtype(), [&](auto tag) {
          using T = typename decltype(tag)::type;
          T* d = static_cast<T*>(self.data_ptr());
          opd::structured_detail::for_each_offset_pair(self.sizes(), self.strides(), src.strides(),
                                                       [&](int64_t od, int64_t os) { d[od] = toy::read_as<T>(src, os); });
        });
        return self;
      });
  opd::call<toy_mul::out>(a, b, strided);
  EXPECT_EQ(device_copies, 1);
  EXPECT_EQ(strided.strides(), v({1, 3}));
  EXPECT_EQ(toy::device_values<float>(strided), (std::vector<float>{1, 20, 3, 40, 5, 60}));
  EXPECT_EQ(toy::device_values<float>(base), (std::vector<float>{1, 3, 5, 20, 40, 60}));

  Tensor dbl = opd::empty(v({3, 2}), ScalarType::Double, toy::pu1);  // another dtype: the kernel too
  opd::call<toy_mul::out>(a, b, dbl);
  EXPECT_EQ(device_copies, 2);
  EXPECT_EQ(toy::device_values<double>(dbl), (std::vector<double>{1, 20, 3, 40, 5, 60}));

  Tensor same = opd::empty(v({3, 2}), ScalarType::Float, toy::pu1);  // contiguous, same dtype: allocator copy
  opd::call<toy_mul::out>(a, b, same);
  EXPECT_EQ(device_copies, 2);
  EXPECT_EQ(toy::device_values<float>(same), (std::vector<float>{1, 20, 3, 40, 5, 60}));
}

TEST_F(DerivedOnDevice, OutOnlyBackendServesFunctionalAndInplace) {
  auto set = opd::register_out_only<toy_mul>(DispatchKey::PrivateUse1, &device_mul_out);
  EXPECT_EQ(set.size(), 3u);
  const Tensor a = dev({1, 2, 3, 4}, v({2, 2}));
  const Tensor b = dev({3, 4}, v({2}));
  const Tensor c = opd::call<toy_mul::functional>(a, b);
  EXPECT_EQ(c.sizes(), v({2, 2}));  // sized by meta() before the out= kernel ran
  EXPECT_TRUE(arena().owns(c.data_ptr()));
  EXPECT_EQ(toy::device_values<float>(c), (std::vector<float>{3, 8, 9, 16}));

  Tensor self = dev({1, 2, 3, 4}, v({2, 2}));
  const void* self_data = self.data_ptr();
  opd::call<toy_mul::inplace>(self, b);
  EXPECT_EQ(self.data_ptr(), self_data);
  EXPECT_EQ(toy::device_values<float>(self), (std::vector<float>{3, 8, 9, 16}));
  EXPECT_EQ(device_calls().out, 2);
  EXPECT_EQ(device_calls().functional, 0);

  Tensor small = dev({1, 2}, v({2}));
  EXPECT_THROW(opd::call<toy_mul::inplace>(small, a), opd::Error);
  EXPECT_EQ(device_calls().out, 2);  // refused by meta() before computing
}

TEST_F(DerivedOnDevice, BoxedCallsReachTheDerivedKernels) {
  auto set = opd::register_functional_only<toy_mul>(DispatchKey::PrivateUse1, &device_mul);
  Tensor self = dev({1, 2}, v({2}));
  opd::Stack inplace{self, dev({3, 4}, v({2}))};
  opd::call_boxed<toy_mul::inplace>(inplace);
  ASSERT_EQ(inplace.size(), 1u);
  EXPECT_TRUE(inplace[0].to_tensor().is_same(self));
  EXPECT_EQ(toy::device_values<float>(self), (std::vector<float>{3, 8}));

  Tensor out = opd::empty(v({0}), ScalarType::Float, toy::pu1);
  opd::Stack out_stack{self, self, out};
  opd::call_boxed<toy_mul::out>(out_stack);
  ASSERT_EQ(out_stack.size(), 1u);
  EXPECT_TRUE(out_stack[0].to_tensor().is_same(out));
  EXPECT_EQ(toy::device_values<float>(out), (std::vector<float>{9, 64}));
}

TEST_F(DerivedOnDevice, ProvidedKernelWinsOverTheDerivedOne) {
  int own_inplace = 0;
  auto own = opd::register_kernel<toy_mul::inplace>(DispatchKey::PrivateUse1,
                                                      [&](Tensor& self, const Tensor&) -> Tensor& {
                                                        ++own_inplace;
                                                        return self;
                                                      });
  auto set = opd::register_functional_only<toy_mul>(DispatchKey::PrivateUse1, &device_mul);
  EXPECT_EQ(set.size(), 2u);  // the functional kernel and the derived out=
  Tensor self = dev({1, 2}, v({2}));
  opd::call<toy_mul::inplace>(self, self);
  EXPECT_EQ(own_inplace, 1);
  EXPECT_EQ(device_calls().functional, 0);
  EXPECT_EQ(toy::device_values<float>(self), (std::vector<float>{1, 2}));

  // A backend with both functional and out= kernels keeps both.
  auto out_kernel = opd::register_kernel<toy_mul::out, &device_mul_out>(DispatchKey::PrivateUse2);
  auto fn_kernel = opd::register_kernel<toy_mul::functional, &device_mul>(DispatchKey::PrivateUse2);
  auto derived = opd::derive_missing_variants<toy_mul::functional, toy_mul::inplace, toy_mul::out>(DispatchKey::PrivateUse2);
  EXPECT_EQ(derived.size(), 1u);  // in-place only
  EXPECT_TRUE(opd::entry_for<toy_mul::inplace>().has_kernel_for(DispatchKey::PrivateUse2));
}

// ---- a plain (non-structured) family ---------------------------------------

struct neg : opd::op<"plain::neg(Tensor self) -> Tensor"> {};
struct neg_ : opd::op<"plain::neg_(Tensor(a!) self) -> Tensor(a!)"> {};
struct neg_out : opd::op<"plain::neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};

Tensor neg_cpu(const Tensor& self) {
  std::vector<float> x = opd::to_vector<float>(self);
  for (float& e : x) e = -e;
  return opd::from_vector<float>(x, self.sizes());
}
int neg_out_calls = 0;
Tensor& neg_out_cpu(const Tensor& self, Tensor& out) {
  ++neg_out_calls;
  out.resize_(self.sizes());  // a kernel that resizes its out itself
  std::vector<float> x = opd::to_vector<float>(self);
  float* o = out.data_ptr<float>();
  for (std::size_t i = 0; i < x.size(); ++i) o[i] = -x[i];
  return out;
}

TEST(DerivedPlainFamily, FromTheFunctionalKernel) {
  auto f = opd::register_kernel<neg, &neg_cpu>(DispatchKey::CPU);
  auto set = opd::derive_missing_variants<neg, neg_, neg_out>(DispatchKey::CPU);
  EXPECT_EQ(set.size(), 2u);
  Tensor x = opd::from_vector<float>({1, -2, 3});
  const void* data = x.data_ptr();
  opd::call<neg_>(x);
  EXPECT_EQ(x.data_ptr(), data);
  EXPECT_EQ(opd::to_vector<float>(x), (std::vector<float>{-1, 2, -3}));
  Tensor out = opd::empty(v({0}), ScalarType::Double);  // castable dtype: converted by the copy
  opd::call<neg_out>(x, out);
  EXPECT_EQ(opd::to_vector<double>(out), (std::vector<double>{1, -2, 3}));
  Tensor int_out = opd::empty(v({3}), ScalarType::Long);
  EXPECT_THROW(opd::call<neg_out>(x, int_out), opd::Error);
}

TEST(DerivedPlainFamily, FromTheOutKernelWithoutASpec) {
  neg_out_calls = 0;
  auto o = opd::register_kernel<neg_out, &neg_out_cpu>(DispatchKey::CPU);
  auto set = opd::derive_missing_variants<neg, neg_, neg_out>(DispatchKey::CPU);
  EXPECT_EQ(set.size(), 2u);
  const Tensor y = opd::call<neg>(opd::from_vector<float>({4, 5}));  // a 0-element Float output, resized by out=
  EXPECT_EQ(opd::to_vector<float>(y), (std::vector<float>{-4, -5}));
  Tensor x = opd::from_vector<float>({1, 2});
  opd::call<neg_>(x);
  EXPECT_EQ(opd::to_vector<float>(x), (std::vector<float>{-1, -2}));
  EXPECT_EQ(neg_out_calls, 2);
}

TEST(DerivedPlainFamily, WithoutAnInplaceVariantAndWithASpec) {
  neg_out_calls = 0;
  auto o = opd::register_kernel<neg_out, &neg_out_cpu>(DispatchKey::CPU);
  int specs = 0;
  auto set = opd::derive_missing_variants<neg, void, neg_out>(DispatchKey::CPU, [&](const Tensor& self) {
    ++specs;
    return opd::TensorMeta{self.sizes().vec(), self.dtype()};
  });
  EXPECT_EQ(set.size(), 1u);
  EXPECT_EQ(opd::to_vector<float>(opd::call<neg>(opd::from_vector<float>({7}))), (std::vector<float>{-7}));
  EXPECT_EQ(specs, 1);
  EXPECT_FALSE(opd::entry_for<neg_>().has_kernel_for(DispatchKey::CPU));
}

TEST(DerivedPlainFamily, NothingToDeriveFromIsAnError) {
  EXPECT_THROW((void)(opd::derive_missing_variants<neg, neg_, neg_out>(DispatchKey::CPU)), opd::Error);
  EXPECT_THROW((void)(opd::derive_missing_variants<neg, neg_, neg_out>(DispatchKey::Autograd)), opd::Error);
}

// A kernel registered after deriving overrides the derived one (the
// dispatcher stacks kernels per key, with a warning); strictly, it is refused.
TEST(DerivedPlainFamily, RegisteringAfterDerivingOverridesTheDerivedKernel) {
  auto& d = opd::Dispatcher::singleton();
  const opd::WarningHandler saved = d.set_warning_handler([](std::string_view) {});
  auto f = opd::register_kernel<neg, &neg_cpu>(DispatchKey::CPU);
  auto set = opd::derive_missing_variants<neg, neg_, neg_out>(DispatchKey::CPU);
  EXPECT_THROW((void)(d.register_kernel_strict(opd::entry_for<neg_out>(), DispatchKey::CPU, opd::make_kernel<neg_out, &neg_out_cpu>())),
               opd::Error);
  auto own = opd::register_kernel<neg_out, &neg_out_cpu>(DispatchKey::CPU);
  EXPECT_EQ(opd::entry_for<neg_out>().num_registered(DispatchKey::CPU), 2u);
  set = opd::RegistrationSet();  // release the derived kernels: the own one stays
  EXPECT_EQ(opd::entry_for<neg_out>().num_registered(DispatchKey::CPU), 1u);
  EXPECT_TRUE(own);
  d.set_warning_handler(saved);
}

}  // namespace
