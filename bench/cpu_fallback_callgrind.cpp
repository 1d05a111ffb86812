// N calls of add through a fallback on a toy PrivateUse1 device, for
// instruction counts under callgrind (bench/cpu_fallback_callgrind.sh):
//
//   opd_cpu_fallback_callgrind <boxed|typed> <functional|inplace|out> <n> <calls>
//
//   boxed   opd::cpu_fallback registered as PrivateUse1's backend fallback
//   typed   hand-written typed kernels at PrivateUse1 for the three add
//           variants doing the same work by hand: one opd::to_cpu of the
//           tensor arguments, the CPU operator, the written argument copied
//           back (opd::copy_from_and_resize) or the result moved to the device
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <dispatch/dispatcher.hpp>
#include <dispatch/transfer.hpp>
#include <fallback/cpu_fallback.hpp>
#include <kernels/ops.hpp>

namespace {

using opd::Tensor;
using add = opd::kernels::ops::add;
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

Tensor copy_from(const Tensor& self, const Tensor& dst, bool) {
  std::memcpy(dst.data_ptr(), self.data_ptr(), self.nbytes());
  return dst;
}

// The hand-written typed fallbacks.
Tensor typed_add(const Tensor& self, const Tensor& other, const opd::Scalar& alpha) {
  const Tensor args[] = {self, other};
  const std::vector<Tensor> cpu = opd::to_cpu(args);
  return opd::to(opd::call<add::functional>(cpu[0], cpu[1], alpha), self.device());
}
Tensor& typed_add_(Tensor& self, const Tensor& other, const opd::Scalar& alpha) {
  const Tensor args[] = {self, other};
  std::vector<Tensor> cpu = opd::to_cpu(args);
  opd::call<add::inplace>(cpu[0], cpu[1], alpha);
  opd::copy_from_and_resize(cpu[0], self);
  return self;
}
Tensor& typed_add_out(const Tensor& self, const Tensor& other, const opd::Scalar& alpha, Tensor& out) {
  const Tensor args[] = {self, other, out};
  std::vector<Tensor> cpu = opd::to_cpu(args);
  opd::call<add::out>(cpu[0], cpu[1], alpha, cpu[2]);
  opd::copy_from_and_resize(cpu[2], out);
  return out;
}

Tensor input(int64_t n, float start) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = start + static_cast<float>(i % 17);
  return opd::to(opd::from_vector<float>(v, std::vector<int64_t>{n}), kDevice);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s <boxed|typed> <functional|inplace|out> <n> <calls>\n", argv[0]);
    return 2;
  }
  const std::string side = argv[1], variant = argv[2];
  const int64_t n = std::atoll(argv[3]), calls = std::atoll(argv[4]);
  opd::set_allocator(opd::DeviceType::PrivateUse1, &memory);
  opd::RegistrationSet set = opd::kernels::register_cpu();
  set.add(opd::register_kernel<opd::copy_from_op, &copy_from>(opd::DispatchKey::PrivateUse1));
  if (side == "boxed") {
    set.add(opd::register_fallback(opd::DispatchKey::PrivateUse1, &opd::cpu_fallback));
  } else {
    set.add(opd::register_kernel<add::functional, &typed_add>(opd::DispatchKey::PrivateUse1));
    set.add(opd::register_kernel<add::inplace, &typed_add_>(opd::DispatchKey::PrivateUse1));
    set.add(opd::register_kernel<add::out, &typed_add_out>(opd::DispatchKey::PrivateUse1));
  }
  Tensor a = input(n, 1), zeros = input(n, 0), out = input(n, 0);
  const opd::Scalar zero(0);  // adds of zero: values stay as they are
  float sink = 0;
  for (int64_t i = 0; i < calls; ++i) {
    if (variant == "functional") {
      Tensor c = opd::call<add::functional>(a, zeros, zero);
      sink += static_cast<float>(c.numel());
    } else if (variant == "inplace") {
      opd::call<add::inplace>(a, zeros, zero);
    } else {
      opd::call<add::out>(a, zeros, zero, out);
    }
  }
  std::printf("%s %s %lld x %lld: %g\n", side.c_str(), variant.c_str(), static_cast<long long>(n),
              static_cast<long long>(calls), static_cast<double>(sink));
  return 0;
}
