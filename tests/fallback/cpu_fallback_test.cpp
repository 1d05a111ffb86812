// opd::cpu_fallback on the toy device (toy_device.hpp): written arguments and
// lists copied back, Tensor[] / Tensor?[] arguments, Device-argument
// factories, undefined tensors, views, a throwing CPU kernel, the batched
// transfer, the per-operator policy, typed call_fallback, and the one-hop
// path of structured families.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <dispatch/transfer.hpp>
#include <kernels/ops_arithmetic.hpp>
#include "all_kernels.hpp"
#include <structured/structured.hpp>

#include "toy_device.hpp"

namespace {

using opd::IValue;
using opd::Stack;
using opd::Tensor;
using toydev::device_floats;
using toydev::kDevice;
using toydev::values_of;
namespace ops = opd::kernels::ops;

std::vector<int64_t> v(std::initializer_list<int64_t> l) { return l; }

// ---- test operators with list, optional and view schemas (CPU kernels only) ----

struct fill_all_ : opd::op<"t_cfb::fill_all_(Tensor(a!)[] selves, float value) -> ()"> {};
struct sum_present : opd::op<"t_cfb::sum_present(Tensor?[] xs, Tensor? bias) -> Tensor"> {};
struct doubled : opd::op<"t_cfb::doubled(Tensor[] xs) -> Tensor[]"> {};
struct alias_of : opd::op<"t_cfb::alias_of(Tensor(a) self) -> Tensor(a)"> {};
struct fail_ : opd::op<"t_cfb::fail_(Tensor(a!) self) -> Tensor(a!)"> {};
struct grow_ : opd::op<"t_cfb::grow_(Tensor(a!) self, int n) -> Tensor(a!)"> {};

void cpu_fill_all_(std::span<const Tensor> selves, double value) {
  for (const Tensor& t : selves) {
    EXPECT_TRUE(t.is_cpu());
    float* p = t.data_ptr<float>();
    for (int64_t i = 0; i < t.numel(); ++i) p[i] = static_cast<float>(value);
  }
}
Tensor cpu_sum_present(std::span<const std::optional<Tensor>> xs, const std::optional<Tensor>& bias) {
  std::vector<float> acc;
  for (const auto& x : xs) {
    if (!x || !x->defined()) continue;
    EXPECT_TRUE(x->is_cpu());
    const std::vector<float> y = opd::to_vector<float>(*x);
    if (acc.empty()) acc.assign(y.size(), 0.f);
    for (std::size_t i = 0; i < y.size(); ++i) acc[i] += y[i];
  }
  if (bias && bias->defined())
    for (float& a : acc) a += opd::to_vector<float>(*bias)[0];
  return opd::from_vector<float>(acc);
}
std::vector<Tensor> cpu_doubled(std::span<const Tensor> xs) {
  std::vector<Tensor> out;
  for (const Tensor& x : xs) {
    std::vector<float> y = opd::to_vector<float>(x);
    for (float& f : y) f *= 2;
    out.push_back(opd::from_vector<float>(y, x.sizes()));
  }
  return out;
}
Tensor cpu_alias_of(const Tensor& self) { return self.alias(); }
Tensor& cpu_fail_(Tensor& self) {
  self.data_ptr<float>()[0] = 1000.f;  // half-written, then:
  throw opd::ValueError("t_cfb::fail_: refused");
}
Tensor& cpu_grow_(Tensor& self, int64_t n) {
  self.resize_(std::vector<int64_t>{n});
  float* p = self.data_ptr<float>();
  for (int64_t i = 0; i < n; ++i) p[i] = static_cast<float>(i);
  return self;
}

struct TestOps {
  TestOps() {
    set.add(opd::register_kernel<fill_all_, &cpu_fill_all_>(opd::DispatchKey::CPU));
    set.add(opd::register_kernel<sum_present, &cpu_sum_present>(opd::DispatchKey::CPU));
    set.add(opd::register_kernel<doubled, &cpu_doubled>(opd::DispatchKey::CPU));
    set.add(opd::register_kernel<alias_of, &cpu_alias_of>(opd::DispatchKey::CPU));
    set.add(opd::register_kernel<fail_, &cpu_fail_>(opd::DispatchKey::CPU));
    set.add(opd::register_kernel<grow_, &cpu_grow_>(opd::DispatchKey::CPU));
    set.add(opd_test::register_all_kernels());
  }
  opd::RegistrationSet set;
};

// ---- transfer -----------------------------------------------------------------

TEST(DeviceTransfer, ToAndBackKeepsValuesAndUsesTheCopyKernel) {
  toydev::ToyDevice device(/*batched=*/false, /*fallback=*/false);
  const Tensor host = opd::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor d = host.to(kDevice);
  EXPECT_EQ(d.device(), kDevice);
  EXPECT_EQ(d.sizes(), host.sizes());
  EXPECT_EQ(toydev::counters.copies, 1);
  EXPECT_TRUE(d.to(kDevice).is_same(d));  // already there: itself
  const Tensor back = d.to(opd::Device::cpu());
  EXPECT_EQ(opd::to_vector<float>(back), opd::to_vector<float>(host));
  // A transposed CPU tensor arrives with its logical values.
  const Tensor t = host.as_strided(v({3, 2}), v({1, 3}));
  EXPECT_EQ(values_of(opd::to(t, kDevice)), opd::to_vector<float>(t));
  EXPECT_FALSE(opd::to(Tensor(), kDevice).defined());
}

TEST(DeviceTransfer, ToCpuPassesUndefinedAndCpuTensorsAndBatchesPerDevice) {
  toydev::ToyDevice device(/*batched=*/true, /*fallback=*/false);
  const Tensor cpu = opd::from_vector<float>({7});
  const Tensor a = device_floats({1, 2}, {2}), b = device_floats({3}, {1});
  toydev::counters = {};
  const std::vector<Tensor> in = {a, Tensor(), cpu, b};
  const std::vector<Tensor> out = opd::to_cpu(in);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(toydev::counters.batched_calls, 1);
  EXPECT_EQ(toydev::counters.batched_tensors, 2);
  EXPECT_EQ(toydev::counters.copies, 0);
  EXPECT_EQ(opd::to_vector<float>(out[0]), (std::vector<float>{1, 2}));
  EXPECT_FALSE(out[1].defined());
  EXPECT_TRUE(out[2].is_same(cpu));
  EXPECT_EQ(opd::to_vector<float>(out[3]), (std::vector<float>{3}));
}

TEST(DeviceTransfer, WithoutBatchedKernelTensorsMoveOneByOne) {
  toydev::ToyDevice device(/*batched=*/false, /*fallback=*/false);
  const Tensor a = device_floats({1, 2}, {2}), b = device_floats({3}, {1});
  toydev::counters = {};
  const std::vector<Tensor> in = {a, b};
  const std::vector<Tensor> out = opd::to_cpu(in);
  EXPECT_EQ(toydev::counters.copies, 2);
  EXPECT_EQ(opd::to_vector<float>(out[1]), (std::vector<float>{3}));
}

struct Pu2Memory final : opd::Allocator {
  opd::DataPtr allocate(std::size_t nbytes, opd::Device device) override {
    void* p = std::malloc(nbytes == 0 ? 1 : nbytes);
    return opd::DataPtr(p, p, [](void* q) noexcept { std::free(q); }, device);
  }
};

TEST(DeviceTransfer, MetaAndDeviceToDevice) {
  toydev::ToyDevice device(false, false);
  const Tensor d = device_floats({1, 2, 3}, {3});
  const Tensor m = d.to(opd::Device::meta());
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.sizes(), v({3}));
  // PrivateUse1 -> PrivateUse2: through the CPU, with each device's copy kernel.
  Pu2Memory pu2;
  opd::Allocator* previous = opd::set_allocator(opd::DeviceType::PrivateUse2, &pu2);
  {
    const opd::RegistrationHandle copy2 =
        opd::register_kernel<opd::copy_from_op, &toydev::copy_from>(opd::DispatchKey::PrivateUse2);
    toydev::counters = {};
    const Tensor e = d.to(opd::Device(opd::DeviceType::PrivateUse2, 0));
    EXPECT_EQ(e.device().type(), opd::DeviceType::PrivateUse2);
    EXPECT_EQ(toydev::counters.copies, 2);  // down from PrivateUse1, up to PrivateUse2
    EXPECT_EQ(opd::to_vector<float>(e.to(opd::Device::cpu())), (std::vector<float>{1, 2, 3}));
  }
  opd::set_allocator(opd::DeviceType::PrivateUse2, previous);
}

TEST(DeviceTransfer, NoCopyKernelSaysWhatToRegister) {
  Pu2Memory pu2;
  opd::Allocator* previous = opd::set_allocator(opd::DeviceType::PrivateUse2, &pu2);
  try {
    (void)opd::to(opd::from_vector<float>({1}), opd::Device(opd::DeviceType::PrivateUse2, 0));
    ADD_FAILURE() << "no exception";
  } catch (const opd::NotImplementedError& e) {
    EXPECT_NE(std::string(e.what()).find("register one with opd::register_kernel<opd::copy_from_op>(opd::DispatchKey::PrivateUse2"),
              std::string::npos)
        << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception: " << e.what();
  }
  opd::set_allocator(opd::DeviceType::PrivateUse2, previous);
}

TEST(DeviceTransfer, CopyFromAndResizeResizesTheDeviceTensor) {
  toydev::ToyDevice device(false, false);
  Tensor d = device_floats({0}, {1});
  opd::copy_from_and_resize(opd::from_vector<float>({4, 5, 6}), d);
  EXPECT_EQ(d.sizes(), v({3}));
  EXPECT_EQ(values_of(d), (std::vector<float>{4, 5, 6}));
}

// ---- the fallback -------------------------------------------------------------

TEST(CpuFallback, InPlaceAndOutAreCopiedBackIntoTheCallersTensors) {
  TestOps test_ops;
  toydev::ToyDevice device;
  Tensor a = device_floats({1, 2, 3}, {3});
  const Tensor b = device_floats({10, 20, 30}, {3});
  const void* a_memory = a.data_ptr();
  Tensor& r = opd::call<ops::add::inplace>(a, b);
  EXPECT_TRUE(r.is_same(a));
  EXPECT_EQ(a.data_ptr(), a_memory);
  EXPECT_EQ(values_of(a), (std::vector<float>{11, 22, 33}));

  // out= with 0 elements: the CPU kernel resizes it, so does the copy-back.
  Tensor out = opd::to(opd::empty(v({0})), kDevice);
  Tensor& o = opd::call<ops::mul::out>(a, b, out);
  EXPECT_TRUE(o.is_same(out));
  EXPECT_EQ(out.device(), kDevice);
  EXPECT_EQ(values_of(out), (std::vector<float>{110, 440, 990}));

  // Boxed: the returned value is the caller's own device tensor.
  Stack stack{a, b, 1.0};
  opd::call_boxed<ops::sub::inplace>(stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_TRUE(stack[0].to_tensor().is_same(a));
  EXPECT_EQ(values_of(a), (std::vector<float>{1, 2, 3}));

  // Boxed with lent tensors (IValue(opd::borrow, t)): the fallback takes
  // references of its own; the written one is copied back into the caller's
  // tensor, which is also the result; the read one is unchanged.
  Stack lent;
  lent.emplace_back(opd::borrow, a);
  lent.emplace_back(opd::borrow, b);
  lent.emplace_back(2.0);
  opd::call_boxed<ops::add::inplace>(lent);
  ASSERT_EQ(lent.size(), 1u);
  EXPECT_TRUE(lent[0].to_tensor().is_same(a));
  EXPECT_EQ(a.data_ptr(), a_memory);
  EXPECT_EQ(values_of(a), (std::vector<float>{21, 42, 63}));
  EXPECT_EQ(values_of(b), (std::vector<float>{10, 20, 30}));
  lent.clear();

  // A CPU tensor beside a device one passes through as it is.
  const Tensor ones = opd::from_vector<float>({1, 1, 1}, v({3}));
  Tensor& with_cpu = opd::call<ops::add::inplace>(a, ones);
  EXPECT_TRUE(with_cpu.is_same(a));
  EXPECT_EQ(a.device(), kDevice);
  EXPECT_EQ(values_of(a), (std::vector<float>{22, 43, 64}));
  EXPECT_EQ(opd::to_vector<float>(ones), (std::vector<float>{1, 1, 1}));
  Tensor& back = opd::call<ops::sub::inplace>(a, ones, opd::Scalar(21));
  EXPECT_TRUE(back.is_same(a));
  EXPECT_EQ(values_of(a), (std::vector<float>{1, 22, 43}));

  // A CPU kernel that resizes its written argument: the device tensor follows.
  Tensor g = device_floats({9}, {1});
  opd::call<grow_>(g, int64_t{4});
  EXPECT_EQ(g.sizes(), v({4}));
  EXPECT_EQ(values_of(g), (std::vector<float>{0, 1, 2, 3}));
}

TEST(CpuFallback, WrittenTensorListsAreCopiedBack) {
  TestOps test_ops;
  toydev::ToyDevice device;
  const Tensor x = device_floats({1, 2}, {2}), y = device_floats({3}, {1});
  const std::vector<Tensor> selves = {x, y};
  opd::call<fill_all_>(std::span<const Tensor>(selves), 2.5);
  EXPECT_EQ(values_of(x), (std::vector<float>{2.5, 2.5}));
  EXPECT_EQ(values_of(y), (std::vector<float>{2.5}));
}

TEST(CpuFallback, OptionalTensorListsNoneAndUndefinedPassThrough) {
  TestOps test_ops;
  toydev::ToyDevice device(/*batched=*/true);
  const Tensor x = device_floats({1, 2}, {2}), y = device_floats({10, 20}, {2});
  const std::vector<std::optional<Tensor>> xs = {x, std::nullopt, Tensor(), y};
  const Tensor r = opd::call<sum_present>(std::span<const std::optional<Tensor>>(xs), std::optional<Tensor>());
  EXPECT_EQ(r.device(), kDevice);  // target: the first device tensor of a list (no plain tensor argument is one)
  EXPECT_EQ(values_of(r), (std::vector<float>{11, 22}));
  EXPECT_EQ(toydev::counters.batched_calls, 1);
  EXPECT_EQ(toydev::counters.batched_tensors, 2);  // x and y: None and the undefined tensor were not moved
}

TEST(CpuFallback, FreshTensorListsMoveToTheDevice) {
  TestOps test_ops;
  toydev::ToyDevice device;
  const std::vector<Tensor> xs = {device_floats({1, 2}, {2}), device_floats({3}, {1})};
  const std::vector<Tensor> r = opd::call<doubled>(std::span<const Tensor>(xs));
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].device(), kDevice);
  EXPECT_EQ(values_of(r[1]), (std::vector<float>{6}));
}

// More device tensors than the fallback keeps inline per call (4): the
// lists it builds move to the heap, and every tensor still moves once.
TEST(CpuFallback, ManyTensorsInOneListAllMove) {
  TestOps test_ops;
  toydev::ToyDevice device(/*batched=*/true);
  std::vector<Tensor> xs;
  for (int i = 0; i < 9; ++i) xs.push_back(device_floats({static_cast<float>(i)}, {1}));
  const std::vector<Tensor> r = opd::call<doubled>(std::span<const Tensor>(xs));
  ASSERT_EQ(r.size(), xs.size());
  for (std::size_t i = 0; i < r.size(); ++i) {
    EXPECT_EQ(r[i].device(), kDevice);
    EXPECT_EQ(values_of(r[i]), (std::vector<float>{2 * static_cast<float>(i)}));
  }
  EXPECT_EQ(toydev::counters.batched_calls, 1);
  EXPECT_EQ(toydev::counters.batched_tensors, 9);
}

TEST(CpuFallback, DeviceArgumentFactoriesGiveDeviceTensors) {
  TestOps test_ops;
  toydev::ToyDevice device;
  // aten::ones(SymInt[] size, *, ScalarType? dtype, Layout? layout, Device? device, bool? pin_memory)
  Stack stack{std::vector<int64_t>{2, 3}, IValue(), IValue(), IValue(kDevice), IValue()};
  opd::call_boxed<ops::ones>(stack);
  ASSERT_EQ(stack.size(), 1u);
  const Tensor t = stack[0].to_tensor();
  EXPECT_EQ(t.device(), kDevice);
  EXPECT_EQ(t.sizes(), v({2, 3}));
  EXPECT_EQ(values_of(t), std::vector<float>(6, 1.f));
}

TEST(CpuFallback, BatchedTransferOncePerCall) {
  TestOps test_ops;
  toydev::ToyDevice device(/*batched=*/true);
  const Tensor x = device_floats({1, 2}, {2}), y = device_floats({10, 20}, {2}), bias = device_floats({100}, {1});
  const std::vector<std::optional<Tensor>> xs = {x, y};
  toydev::counters = {};
  const Tensor r = opd::call<sum_present>(std::span<const std::optional<Tensor>>(xs), std::optional<Tensor>(bias));
  EXPECT_EQ(toydev::counters.batched_calls, 1);
  EXPECT_EQ(toydev::counters.batched_tensors, 3);
  EXPECT_EQ(r.device(), kDevice);  // target: the first device tensor argument (bias)
  toydev::counters = {};
  Tensor a = device_floats({1, 2}, {2});
  toydev::counters = {};
  opd::call<ops::add::inplace>(a, y);
  EXPECT_EQ(toydev::counters.batched_calls, 1);
  EXPECT_EQ(toydev::counters.batched_tensors, 2);
  // out=: the out tensor's old values are not moved (the kernel only writes it).
  Tensor out = device_floats({-1, -1}, {2});
  toydev::counters = {};
  opd::call<ops::mul::out>(a, y, out);
  EXPECT_EQ(toydev::counters.batched_calls, 1);
  EXPECT_EQ(toydev::counters.batched_tensors, 2);
  EXPECT_EQ(values_of(out), (std::vector<float>{11 * 10, 22 * 20}));
  EXPECT_EQ(opd::entry_for<ops::mul::out>().alias_facts().outs, std::vector<std::size_t>{2});
}

TEST(CpuFallback, ViewOperatorsAreAnErrorNamingOperatorAndDevice) {
  TestOps test_ops;
  toydev::ToyDevice device;
  const Tensor x = device_floats({1, 2}, {2});
  try {
    (void)opd::call<alias_of>(x);
    ADD_FAILURE() << "no exception";
  } catch (const opd::NotImplementedError& e) {
    EXPECT_NE(std::string(e.what()).find("'t_cfb::alias_of' is not implemented for device " + kDevice.str() +
                                         ": it returns a view of its input"),
              std::string::npos)
        << e.what();
  }
}

std::vector<std::string> warnings;
void hear(std::string_view w) { warnings.emplace_back(w); }

TEST(CpuFallback, ViewsMayWarnAndReturnACopy) {
  TestOps test_ops;
  toydev::ToyDevice device(false, /*fallback=*/false);
  opd::CpuFallbackOptions options;
  options.views = opd::FallbackViews::warn_and_copy;
  options.warning_handler = &hear;
  const opd::RegistrationHandle fb = opd::register_cpu_fallback(opd::DispatchKey::PrivateUse1, options);
  warnings.clear();
  const Tensor x = device_floats({1, 2}, {2});
  const Tensor r = opd::call<alias_of>(x);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("'t_cfb::alias_of' returns a view of its input; on device " + kDevice.str() +
                             " it ran on the CPU and returns a copy"),
            std::string::npos)
      << warnings[0];
  EXPECT_EQ(r.device(), kDevice);
  EXPECT_FALSE(r.is_alias_of(x));
  EXPECT_EQ(values_of(r), (std::vector<float>{1, 2}));
}

TEST(CpuFallback, ThrowingCpuKernelLeavesDeviceTensorsUnchanged) {
  TestOps test_ops;
  toydev::ToyDevice device;
  Tensor x = device_floats({1, 2}, {2});
  EXPECT_THROW((void)opd::call<fail_>(x), opd::ValueError);
  EXPECT_EQ(values_of(x), (std::vector<float>{1, 2}));
  // A shape error of the CPU kernel (in-place can't broadcast self): same.
  Tensor small = device_floats({5}, {1});
  const Tensor big = device_floats({1, 2}, {2});
  EXPECT_THROW((void)opd::call<ops::add::inplace>(small, big), opd::Error);
  EXPECT_EQ(small.sizes(), v({1}));
  EXPECT_EQ(values_of(small), (std::vector<float>{5}));
}

TEST(CpuFallback, PolicyAllowsAListedSetOrBlocksOperators) {
  TestOps test_ops;
  toydev::ToyDevice device(false, /*fallback=*/false);
  const Tensor a = device_floats({1, 2}, {2});
  {
    opd::CpuFallbackOptions only;
    only.allow<ops::add::functional>();
    const opd::RegistrationHandle fb = opd::register_cpu_fallback(opd::DispatchKey::PrivateUse1, only);
    EXPECT_EQ(values_of(opd::call<ops::add::functional>(a, a)), (std::vector<float>{2, 4}));
    try {
      (void)opd::call<ops::mul::functional>(a, a);
      ADD_FAILURE() << "no exception";
    } catch (const opd::NotImplementedError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("'" + opd::entry_for<ops::mul::functional>().name() +
                                                "' is not implemented for device " + kDevice.str(),
                                            0),
                0u)
          << e.what();
    }
  }
  {
    opd::CpuFallbackOptions blocked;
    blocked.block<ops::mul::functional>();
    const opd::RegistrationHandle fb = opd::register_cpu_fallback(opd::DispatchKey::PrivateUse1, blocked);
    EXPECT_THROW((void)opd::call<ops::mul::functional>(a, a), opd::NotImplementedError);
    EXPECT_EQ(values_of(opd::call<ops::sub::functional>(a, a)), (std::vector<float>{0, 0}));
  }
}

// A typed kernel handing its call to the fallback, for each overload: no name strings.
TEST(CpuFallback, TypedCallFallbackWorksForEveryOverload) {
  TestOps test_ops;
  toydev::ToyDevice device(false, /*fallback=*/false);
  Tensor a = device_floats({1, 2}, {2});
  const Tensor b = device_floats({3, 4}, {2});
  const Tensor f = opd::call_fallback<&opd::cpu_fallback, ops::add::functional>(a, b, opd::Scalar(2));
  EXPECT_EQ(values_of(f), (std::vector<float>{7, 10}));
  const Tensor s = opd::call_fallback<&opd::cpu_fallback, ops::add_scalar::functional>(a, opd::Scalar(1), opd::Scalar(1));
  EXPECT_EQ(values_of(s), (std::vector<float>{2, 3}));
  Tensor out = opd::to(opd::empty(v({0})), kDevice);
  Tensor& o = opd::call_fallback<&opd::cpu_fallback, ops::mul::out>(a, b, out);
  EXPECT_TRUE(o.is_same(out));
  EXPECT_EQ(values_of(out), (std::vector<float>{3, 8}));
  Tensor& i = opd::call_fallback<&opd::cpu_fallback, ops::mul::inplace>(a, b);
  EXPECT_TRUE(i.is_same(a));
  EXPECT_EQ(values_of(a), (std::vector<float>{3, 8}));
}

// ---- one hop for structured families ------------------------------------------

int meta_calls = 0;
struct scaled : opd::structured<"t_cfb::scaled.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {
  static opd::TensorMeta meta(const Tensor& self) {
    ++meta_calls;
    return {self.sizes(), self.dtype()};
  }
  static void impl(opd::backend_tag<opd::DispatchKey::CPU>, const Tensor& self, Tensor& out) {
    const std::vector<float> x = opd::to_vector<float>(self);
    float* p = out.data_ptr<float>();
    for (std::size_t i = 0; i < x.size(); ++i) p[i] = 3 * x[i];
  }
};
int fallback_hops = 0;
void counting_fallback(const opd::OperatorEntry& op, opd::DispatchKeySet ks, Stack* stack) {
  ++fallback_hops;
  opd::cpu_fallback(op, ks, stack);
}

TEST(CpuFallback, StructuredFunctionalReachesTheFallbackInOneHop) {
  const opd::RegistrationSet family = opd::register_structured<scaled>();
  toydev::ToyDevice device(false, /*fallback=*/false);
  const opd::RegistrationHandle fb = opd::register_fallback(opd::DispatchKey::PrivateUse1, &counting_fallback);
  const Tensor x = device_floats({1, 2}, {2});
  meta_calls = fallback_hops = 0;
  toydev::counters = {};
  const Tensor r = opd::call<scaled::functional>(x);
  EXPECT_EQ(fallback_hops, 1);            // the functional call itself fell back: no out= call after it
  EXPECT_EQ(meta_calls, 1);               // meta() ran once, inside the CPU kernel, not on the device before
  EXPECT_EQ(toydev::counters.allocations, 1);  // the one device allocation is the result's
  EXPECT_EQ(values_of(r), (std::vector<float>{3, 6}));
}

// ---- alias facts and the declaration check ------------------------------------

TEST(CpuFallbackAliasFacts, ComputedOnceFromTheSchema) {
  const opd::AliasFacts& inplace = opd::entry_for<ops::add::inplace>().alias_facts();
  EXPECT_EQ(inplace.written, std::vector<std::size_t>{0});
  EXPECT_EQ(inplace.return_written, std::vector<std::ptrdiff_t>{0});
  EXPECT_FALSE(inplace.is_view());
  const opd::AliasFacts& out = opd::entry_for<ops::add::out>().alias_facts();
  EXPECT_EQ(out.written, std::vector<std::size_t>{3});
  EXPECT_EQ(out.return_written, std::vector<std::ptrdiff_t>{3});
  const opd::AliasFacts& lists = opd::entry_for<fill_all_>().alias_facts();
  EXPECT_EQ(lists.written, std::vector<std::size_t>{0});
  EXPECT_TRUE(opd::entry_for<alias_of>().alias_facts().is_view());
  EXPECT_EQ(opd::entry_for<ops::zeros>().alias_facts().devices, std::vector<std::size_t>{3});  // aten::zeros's device
}

// An operator type's facts are a compile-time constant, handed to its entry
// when declared; they must equal what the run-time analysis finds for the
// same schema text declared under another name.
static_assert(opd::detail::static_alias_table<ops::add::out>.return_written[0] == 3);
static_assert(opd::detail::static_alias_table<ops::add::inplace>.written[0]);
static_assert(opd::detail::static_alias_table<alias_of>.view_return == 0);

template <class Op>
void expect_same_facts_as_run_time(const std::string& renamed) {
  const opd::OperatorEntry& compiled = opd::entry_for<Op>();
  std::string text = compiled.schema().text();
  text.replace(0, text.find('('), renamed);
  const opd::RegistrationHandle h = opd::declare(text);
  const opd::AliasFacts& a = compiled.alias_facts();
  const opd::AliasFacts& b = opd::Dispatcher::singleton().find_schema_or_throw(renamed).alias_facts();
  EXPECT_EQ(a.written, b.written) << text;
  EXPECT_EQ(a.outs, b.outs) << text;
  EXPECT_EQ(a.return_written, b.return_written) << text;
  EXPECT_EQ(a.view_return, b.view_return) << text;
  EXPECT_EQ(a.devices, b.devices) << text;
}

TEST(CpuFallbackAliasFacts, CompileTimeFactsEqualTheRunTimeAnalysis) {
  expect_same_facts_as_run_time<ops::add::functional>("t_cfb_rt::add.Tensor");
  expect_same_facts_as_run_time<ops::add::inplace>("t_cfb_rt::add_.Tensor");
  expect_same_facts_as_run_time<ops::add::out>("t_cfb_rt::add.out");
  expect_same_facts_as_run_time<ops::zeros>("t_cfb_rt::zeros");
  expect_same_facts_as_run_time<fill_all_>("t_cfb_rt::fill_all_");
  expect_same_facts_as_run_time<alias_of>("t_cfb_rt::alias_of");
}

TEST(CpuFallbackAliasFacts, AWrittenReturnWithoutItsArgumentIsRefusedWhenDeclared) {
  EXPECT_THROW((void)opd::declare("t_cfb::bad(Tensor self) -> Tensor(a!)"), opd::Error);
  EXPECT_THROW((void)opd::declare("t_cfb::bad2(Tensor(b!) self) -> Tensor(a!)"), opd::Error);
  try {
    (void)opd::declare("t_cfb::bad3(Tensor(b!) self) -> Tensor(a!)");
  } catch (const opd::Error& e) {
    EXPECT_NE(std::string(e.what()).find("operator 't_cfb::bad3': return 0"), std::string::npos) << e.what();
  }
  EXPECT_EQ(opd::Dispatcher::singleton().find_schema("t_cfb::bad"), nullptr);
  const opd::RegistrationHandle ok = opd::declare("t_cfb::good(Tensor(a!) self) -> Tensor(a!)");
  EXPECT_NE(opd::Dispatcher::singleton().find_schema("t_cfb::good"), nullptr);
}

}  // namespace
