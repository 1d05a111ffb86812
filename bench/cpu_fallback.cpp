// The boxed CPU fallback on a toy device, opd next to libtorch 1.13: each side
// has a PrivateUse1 device whose tensors live in host memory (an allocator
// of its own), with the kernels its fallback needs (empty / empty_strided and
// the copies _copy_from, _copy_from_and_resize for ATen; _copy_from for opd),
// and its CPU fallback registered for PrivateUse1: at::native::cpu_fallback
// and opd::cpu_fallback. Two device tensors of n float32 each, one thread:
//
//   BM_fallback_<variant>/<side>/<n>
//     variant  functional   c = add(a, b)          (add.Tensor)
//              inplace      a.add_(b)              (add_.Tensor)
//              out          add_out(out, a, b)     (add.out), out already of the right size
//     side     opd | aten
//     n        1, 1000, 1000000
//
// Every call moves its device tensors to the CPU, runs the CPU kernel, and
// moves results (or written arguments) back. The summary prints opd / aten
// per variant and n. Run with --benchmark_repetitions=5
// --benchmark_enable_random_interleaving=true; see docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <dispatch/dispatcher.hpp>
#include <dispatch/transfer.hpp>
#include <fallback/cpu_fallback.hpp>
#include <kernels/ops.hpp>

#if defined(OPD_BENCH_WITH_TORCH)
#include <ATen/ATen.h>
#include <ATen/EmptyTensor.h>
#include <ATen/Parallel.h>
#include <ATen/native/CPUFallback.h>
#include <c10/core/Allocator.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/library.h>
#endif

#include "median_reporter.hpp"
#include "page_faults.hpp"

namespace {

enum class Variant { functional, inplace, out };

// ---- opd's toy device ----------------------------------------------------------
namespace opd_side {

const opd::Device kDevice(opd::DeviceType::PrivateUse1, 0);

struct HostMemory final : opd::Allocator {
  opd::DataPtr allocate(std::size_t nbytes, opd::Device device) override {
    void* p = std::malloc(nbytes == 0 ? 1 : nbytes);
    if (p == nullptr) throw opd::Error("out of memory");
    return opd::DataPtr(p, p, &release, device);
  }
  static void release(void* p) noexcept { std::free(p); }
};
HostMemory memory;

// aten::_copy_from: contiguous tensors of one dtype (what the benchmark moves).
opd::Tensor copy_from(const opd::Tensor& self, const opd::Tensor& dst, bool) {
  if (!self.is_contiguous() || !dst.is_contiguous() || self.dtype() != dst.dtype())
    throw opd::Error("bench _copy_from: contiguous, same dtype only");
  std::memcpy(dst.data_ptr(), self.data_ptr(), self.nbytes());
  return dst;
}

opd::RegistrationSet setup() {
  opd::set_allocator(opd::DeviceType::PrivateUse1, &memory);
  opd::RegistrationSet set = opd::kernels::register_cpu();
  set.add(opd::register_kernel<opd::copy_from_op, &copy_from>(opd::DispatchKey::PrivateUse1));
  set.add(opd::register_fallback(opd::DispatchKey::PrivateUse1, &opd::cpu_fallback));
  return set;
}

opd::Tensor input(int64_t n, float start) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = start + static_cast<float>(i % 17);
  return opd::to(opd::from_vector<float>(v, std::vector<int64_t>{n}), kDevice);
}

template <Variant V>
void call(opd::Tensor& a, const opd::Tensor& b, opd::Tensor& out) {
  using add = opd::kernels::ops::add;
  if constexpr (V == Variant::functional) {
    opd::Tensor c = opd::call<add::functional>(a, b);
    benchmark::DoNotOptimize(c.data_ptr());
  } else if constexpr (V == Variant::inplace) {
    opd::call<add::inplace>(a, b);
    benchmark::ClobberMemory();
  } else {
    opd::call<add::out>(a, b, opd::Scalar(1), out);
    benchmark::ClobberMemory();
  }
}

// The result is checked once per benchmark run: a fallback that lost data fails it.
bool right(const opd::Tensor& t, int64_t n, float start) {
  const std::vector<float> v = opd::to_vector<float>(opd::to(t, opd::Device::cpu()));
  if (t.device() != kDevice || static_cast<int64_t>(v.size()) != n) return false;
  for (int64_t i = 0; i < n; ++i)
    if (v[static_cast<std::size_t>(i)] != start + 2 * static_cast<float>(i % 17)) return false;
  return true;
}

template <Variant V>
void BM(benchmark::State& st) {
  const int64_t n = st.range(0);
  opd::Tensor a = input(n, 1), b = input(n, 0), out = input(n, 0);
  call<V>(a, b, out);
  const opd::Tensor checked = V == Variant::functional ? opd::call<opd::kernels::ops::add::functional>(a, b)
                              : V == Variant::out      ? out
                                                       : a;
  if (!right(checked, n, 1)) st.SkipWithError("wrong result");
  a = input(n, 1);
  const opd::Tensor zeros = opd::to(opd::call<opd::kernels::ops::zeros>(std::vector<int64_t>{n}), kDevice);
  // in-place adds zeros: a stays bounded
  opd_bench::loop_counting_faults(st, [&] { call<V>(a, V == Variant::inplace ? zeros : b, out); });
}

}  // namespace opd_side

#if defined(OPD_BENCH_WITH_TORCH)
// ---- libtorch's toy device (PyTorch's open-registration pattern) ---------------
namespace aten_side {

const c10::Device kDevice(c10::DeviceType::PrivateUse1, 0);

struct HostMemory final : c10::Allocator {
  c10::DataPtr allocate(size_t nbytes) const override {
    void* p = std::malloc(nbytes == 0 ? 1 : nbytes);
    return {p, p, &release, kDevice};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &release; }
  static void release(void* p) { std::free(p); }
};
HostMemory memory;

at::Tensor empty_memory_format(c10::IntArrayRef size, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout>,
                               c10::optional<at::Device>, c10::optional<bool>,
                               c10::optional<at::MemoryFormat> memory_format) {
  return at::detail::empty_generic(size, &memory, c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
                                   c10::dtype_or_default(dtype), memory_format);
}
at::Tensor empty_strided(c10::IntArrayRef size, c10::IntArrayRef stride, c10::optional<at::ScalarType> dtype,
                         c10::optional<at::Layout>, c10::optional<at::Device>, c10::optional<bool>) {
  return at::detail::empty_strided_generic(size, stride, &memory, c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
                                           c10::dtype_or_default(dtype));
}
at::Tensor copy_from(const at::Tensor& self, const at::Tensor& dst, bool) {
  TORCH_CHECK(self.is_contiguous() && dst.is_contiguous() && self.dtype() == dst.dtype() &&
                  self.sizes() == dst.sizes(),
              "bench _copy_from: contiguous, same dtype and sizes only");
  std::memcpy(dst.data_ptr(), self.data_ptr(), self.nbytes());
  return dst;
}
at::Tensor copy_from_and_resize(const at::Tensor& self, const at::Tensor& dst) {
  TORCH_CHECK(self.sizes() == dst.sizes(), "bench _copy_from_and_resize: no resize needed in this benchmark");
  return copy_from(self, dst, false);
}
void fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) { at::native::cpu_fallback(op, stack); }

at::Tensor input(int64_t n, float start) {
  at::Tensor t = at::empty({n}, at::kFloat);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < n; ++i) p[i] = start + static_cast<float>(i % 17);
  return t.to(kDevice);
}

template <Variant V>
void call(at::Tensor& a, const at::Tensor& b, at::Tensor& out) {
  if constexpr (V == Variant::functional) {
    at::Tensor c = at::add(a, b);
    benchmark::DoNotOptimize(c.data_ptr());
  } else if constexpr (V == Variant::inplace) {
    a.add_(b);
    benchmark::ClobberMemory();
  } else {
    at::add_out(out, a, b);
    benchmark::ClobberMemory();
  }
}

bool right(const at::Tensor& t, int64_t n, float start) {
  const at::Tensor c = t.to(at::kCPU);
  if (t.device() != kDevice || c.numel() != n) return false;
  const float* p = c.data_ptr<float>();
  for (int64_t i = 0; i < n; ++i)
    if (p[i] != start + 2 * static_cast<float>(i % 17)) return false;
  return true;
}

template <Variant V>
void BM(benchmark::State& st) {
  c10::InferenceMode no_autograd;  // the fallback alone: no autograd layer in front of it
  const int64_t n = st.range(0);
  at::Tensor a = input(n, 1), b = input(n, 0), out = input(n, 0);
  call<V>(a, b, out);
  const at::Tensor checked = V == Variant::functional ? at::add(a, b) : V == Variant::out ? out : a;
  if (!right(checked, n, 1)) st.SkipWithError("wrong result");
  a = input(n, 1);
  const at::Tensor zeros = at::zeros({n}, at::kFloat).to(kDevice);
  opd_bench::loop_counting_faults(st, [&] { call<V>(a, V == Variant::inplace ? zeros : b, out); });
}

}  // namespace aten_side

// A device guard that does nothing (one device): ATen's structured add runs
// TensorIterator on the device tensors before its out= kernel falls back,
// and TensorIterator asks for the device's guard.
using NoOpGuard = c10::impl::NoOpDeviceGuardImpl<c10::DeviceType::PrivateUse1>;
C10_REGISTER_GUARD_IMPL(PrivateUse1, NoOpGuard);

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("empty.memory_format", TORCH_FN(aten_side::empty_memory_format));
  m.impl("empty_strided", TORCH_FN(aten_side::empty_strided));
  m.impl("_copy_from", TORCH_FN(aten_side::copy_from));
  m.impl("_copy_from_and_resize", TORCH_FN(aten_side::copy_from_and_resize));
}
TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<&aten_side::fallback>());
}
#endif

void register_benchmarks() {
  struct Entry {
    const char* variant;
    const char* side;
    void (*fn)(benchmark::State&);
  };
  const Entry entries[] = {
      {"functional", "opd", &opd_side::BM<Variant::functional>},
      {"inplace", "opd", &opd_side::BM<Variant::inplace>},
      {"out", "opd", &opd_side::BM<Variant::out>},
#if defined(OPD_BENCH_WITH_TORCH)
      {"functional", "aten", &aten_side::BM<Variant::functional>},
      {"inplace", "aten", &aten_side::BM<Variant::inplace>},
      {"out", "aten", &aten_side::BM<Variant::out>},
#endif
  };
  for (const Entry& e : entries) {
    const std::string name = std::string("BM_fallback_") + e.variant + "/" + e.side;
    benchmark::RegisterBenchmark(name.c_str(), e.fn)->Arg(1)->Arg(1000)->Arg(1000000);
  }
}

class SummaryReporter : public opd_bench::MedianReporter {
  void summary(const char* what, const table& t) override {
    std::printf("\nSummary, median %s in ns per call:\n", what);
    std::printf("  %-10s %8s %12s %12s %9s\n", "variant", "n", "opd", "aten", "opd/aten");
    for (const char* variant : {"functional", "inplace", "out"}) {
      for (const char* n : {"1", "1000", "1000000"}) {
        const std::string base = std::string("BM_fallback_") + variant + "/";
        const auto o = get(t, base + "opd/" + n);
        const auto a = get(t, base + "aten/" + n);
        std::printf("  %-10s %8s", variant, n);
        print(o, 12, 1);
        print(a, 12, 1);
        print(o && a && *a > 0 ? std::optional<double>(*o / *a) : std::nullopt, 9, 3);
        std::printf("\n");
      }
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  const opd::RegistrationSet kernels = opd_side::setup();
#if defined(OPD_BENCH_WITH_TORCH)
  at::set_num_threads(1);
  at::set_num_interop_threads(1);
#endif
  register_benchmarks();
  SummaryReporter reporter;
  return opd_bench::run_benchmarks(argc, argv, reporter);
}
