// Every CPU operator of the library, called on the toy device through
// opd::cpu_fallback, gives the CPU result: the operators are found by
// iterating the Dispatcher (every declared operator with a CPU kernel), and
// their arguments built from their schemas, so an operator added later is
// covered without touching this file.
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <kernels/cpu/elementwise.hpp>
#include <kernels/ops_arithmetic.hpp>
#include "all_kernels.hpp"
#include <dispatch/core/error.hpp>
#include <dispatch/core/generator.hpp>

#include "schema_arguments.hpp"
#include "toy_device.hpp"

namespace {

using opd::IValue;
using opd::Stack;
using opd::Tensor;

// Schema-built arguments ([2, 3] Float tensors with no zero, Device
// arguments naming `device`), moved to `device`.
bool build_arguments(const opd::OperatorEntry& op, opd::Device device, Stack& stack,
                     opd_test::ArgumentProfile profile) {
  return opd_test::build_arguments(op, device, [&](const Tensor& t) { return opd::to(t, device); }, stack, profile);
}

// The first argument profile whose CPU call succeeds, else the last one.
opd_test::ArgumentProfile accepted_profile(const opd::OperatorEntry& op);

// Sizes, dtype and (unless `values` is false) the bytes of a tensor, from the CPU.
void expect_same(const Tensor& device_result, const Tensor& cpu_result, bool values, const std::string& what) {
  ASSERT_EQ(device_result.defined(), cpu_result.defined()) << what;
  if (!cpu_result.defined()) return;
  EXPECT_EQ(device_result.device(), toydev::kDevice) << what;
  const Tensor back = opd::to(device_result, opd::Device::cpu());
  ASSERT_EQ(back.sizes(), cpu_result.sizes()) << what;
  ASSERT_EQ(back.dtype(), cpu_result.dtype()) << what;
  if (!values) return;
  // (where(condition)'s results are views of one tensor, as ATen's unbind: compared as contiguous copies)
  const auto dense = [](const Tensor& t) { return t.is_contiguous() ? t : opd::kernels::contiguous_clone(t); };
  const Tensor a = dense(opd::to(back, opd::Device::cpu())), b = dense(cpu_result);
  EXPECT_EQ(std::memcmp(a.data_ptr(), b.data_ptr(), a.nbytes()), 0) << what << ": " << a << " vs " << b;
}

void expect_same(const IValue& device_value, const IValue& cpu_value, bool values, const std::string& what) {
  if (cpu_value.is_tensor()) {
    ASSERT_TRUE(device_value.is_tensor()) << what;
    expect_same(device_value.to_tensor(), cpu_value.to_tensor(), values, what);
  } else if (cpu_value.is_tensor_list()) {
    ASSERT_TRUE(device_value.is_tensor_list()) << what;
    ASSERT_EQ(device_value.to_tensor_list().size(), cpu_value.to_tensor_list().size()) << what;
    for (std::size_t i = 0; i < cpu_value.to_tensor_list().size(); ++i)
      expect_same(device_value.to_tensor_list()[i], cpu_value.to_tensor_list()[i], values, what);
  }
}

// The random operators (rand, randn, randperm, native_dropout) draw from the
// default generator: each call starts it from the same seed, so that the
// device's result and the CPU's are the same draws.
void reseed() { opd::default_cpu_generator().set_seed(opd::kDefaultRngSeed); }

opd_test::ArgumentProfile accepted_profile(const opd::OperatorEntry& op) {
  for (const opd_test::ArgumentProfile profile : opd_test::argument_profiles) {
    Stack probe;
    if (!build_arguments(op, opd::Device::cpu(), probe, profile)) return profile;
    try {
      reseed();
      opd::call_boxed(op, probe);
      return profile;
    } catch (const opd::Error&) {
    }
  }
  return std::end(opd_test::argument_profiles)[-1];
}

TEST(CpuFallbackEveryOperator, DeviceResultEqualsCpuResult) {
  const opd::RegistrationSet cpu_kernels = opd_test::register_all_kernels();
  toydev::ToyDevice device;
  std::vector<std::string> tested, skipped, refused;
  for (const std::string& name : opd::Dispatcher::singleton().operator_names()) {
    const opd::OperatorEntry* op = opd::Dispatcher::singleton().find_schema(name);
    if (op == nullptr || !op->has_kernel_for(opd::DispatchKey::CPU)) continue;
    if (op->has_kernel_for(opd::DispatchKey::PrivateUse1)) continue;  // (the device's own kernels)
    Stack on_cpu, on_device;
    const opd_test::ArgumentProfile profile = accepted_profile(*op);
    if (!build_arguments(*op, opd::Device::cpu(), on_cpu, profile) ||
        !build_arguments(*op, toydev::kDevice, on_device, profile)) {
      skipped.push_back(name);
      continue;
    }
    const Stack device_arguments = on_device;  // the caller's tensors, to read written ones back
    // Arguments built from the schema alone may not fit an operator whose
    // arguments must agree (unfold_backward's grad_in with its input_sizes,
    // sum's dims): then the device call must fail with the CPU call's error.
    std::optional<std::string> cpu_error;
    try {
      reseed();
      opd::call_boxed(*op, on_cpu);
    } catch (const opd::Error& e) {
      cpu_error = e.what();
    }
    if (cpu_error) {
      try {
        reseed();
        opd::call_boxed(*op, on_device);
        ADD_FAILURE() << name << ": only the CPU call throws: " << *cpu_error;
      } catch (const opd::Error& e) {
        EXPECT_EQ(std::string(e.what()), *cpu_error) << name;
      }
      refused.push_back(name);
      continue;
    }
    reseed();
    opd::call_boxed(*op, on_device);
    // `empty` returns memory nobody wrote: its values are not compared.
    const bool values = op->schema().value().name.find("empty") == std::string_view::npos;
    ASSERT_EQ(on_device.size(), on_cpu.size()) << name;
    for (std::size_t r = 0; r < on_cpu.size(); ++r)
      expect_same(on_device[r], on_cpu[r], values, name + " return " + std::to_string(r));
    // Written arguments: the caller's device tensors now hold what the CPU wrote.
    Stack reference;
    ASSERT_TRUE(build_arguments(*op, opd::Device::cpu(), reference, profile));
    Stack reference_arguments = reference;
    reseed();
    opd::call_boxed(*op, reference);
    for (std::size_t p : op->alias_facts().written)
      expect_same(device_arguments[p], reference_arguments[p], values, name + " written argument " + std::to_string(p));
    tested.push_back(name);
  }
  EXPECT_TRUE(skipped.empty()) << "argument types not built for " << skipped.size() << " operators, first " << skipped.front();
  // Every family of the library went through: functional, in-place and out=.
  const auto any = [&](auto pred) {
    for (const auto& n : tested)
      if (pred(n)) return true;
    return false;
  };
  EXPECT_TRUE(any([](const std::string& n) { return n.find("add.out") != std::string::npos; }));
  EXPECT_TRUE(any([](const std::string& n) { return n.find("add_.Tensor") != std::string::npos; }));
  EXPECT_TRUE(any([](const std::string& n) { return n.find("zeros") != std::string::npos; }));
  EXPECT_GE(tested.size(), 20u);
  // Generic arguments do not fit every kernel family (indices, matrices,
  // pools refuse [2, 3] Float tensors), but most operators must run.
  EXPECT_LE(refused.size(), tested.size() / 2) << "the generic arguments fit too few operators";
}

}  // namespace
