// An out-of-tree device on PrivateUse1: its own allocator (an arena of its
// own, never CPU memory), a copy kernel (ATen's _copy_from), and only
// functional kernels for two operators. In-place and out= calls of those are
// served by kernels derived from the functional ones: compute, check the
// result fits, copy into self / into the (resized) out. Every other operator
// (the library's add, sub, zeros, fill_, ...) runs through opd::cpu_fallback,
// wrapped with logging as XLA does; the program prints which operators ran
// natively and which fell back.
#include <dispatch/transfer.hpp>
#include <fallback/cpu_fallback.hpp>
#include <kernels/ops.hpp>
#include <structured/structured.hpp>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace toydev {

// ---- the device's memory -------------------------------------------------------

// Bump allocation from one std::vector arena; every block starts with a tag
// naming the device, so the kernels can tell device memory from anything else.
class Arena final : public opd::Allocator {
 public:
  static constexpr char kTag[16] = "toydev:block";
  static constexpr std::size_t kAlign = 64;

  opd::DataPtr allocate(std::size_t nbytes, opd::Device device) override {
    if (device.type() != opd::DeviceType::PrivateUse1) throw opd::Error("toydev: wrong device " + device.str());
    if (nbytes == 0) return opd::DataPtr(nullptr, nullptr, nullptr, device);
    const std::size_t header = (used_ + kAlign - 1) / kAlign * kAlign;
    const std::size_t start = header + kAlign;  // the tag lives in the 64 bytes before the data
    if (start + nbytes > memory_.size()) throw opd::Error("toydev: out of device memory");
    std::memcpy(memory_.data() + header, kTag, sizeof kTag);
    used_ = start + nbytes;
    ++live_;
    return opd::DataPtr(memory_.data() + start, this, &release, device);
  }
  // Is p device memory from this arena?
  bool owns(const void* p) const {
    auto* b = static_cast<const std::byte*>(p);
    if (b < memory_.data() + kAlign || b >= memory_.data() + memory_.size()) return false;
    return std::memcmp(b - kAlign, kTag, sizeof kTag) == 0;
  }
  int live() const { return live_; }

 private:
  static void release(void* self) noexcept { --static_cast<Arena*>(self)->live_; }
  std::vector<std::byte> memory_ = std::vector<std::byte>(1 << 20);
  std::size_t used_ = 0;
  int live_ = 0;
};

Arena arena;
const opd::Device device(opd::DeviceType::PrivateUse1, 0);

// Host <-> device transfers (contiguous Float tensors).
opd::Tensor upload(const std::vector<float>& values, std::vector<int64_t> sizes) {
  const opd::Tensor host = opd::from_vector<float>(values, sizes);
  opd::Tensor d = opd::empty(sizes, opd::ScalarType::Float, device);
  std::memcpy(d.data_ptr(), host.data_ptr(), host.nbytes());
  return d;
}
// Any strides: element by element.
std::vector<float> download(const opd::Tensor& t) {
  if (!arena.owns(t.data_ptr())) throw opd::Error("download: not device memory");
  std::vector<float> out;
  const float* base = static_cast<const float*>(t.data_ptr());
  opd::detail::for_each_element_offset(t.sizes(), t.strides(), [&](int64_t off) { out.push_back(base[off]); });
  return out;
}

void check_device_tensor(const opd::Tensor& t) {
  if (t.device().type() != opd::DeviceType::PrivateUse1 || !arena.owns(t.data_ptr()))
    throw opd::Error("toydev kernel: got memory that is not the device's");
}

}  // namespace toydev

// ---- the operators ---------------------------------------------------------------

// Structured families, written by the library's users (their meta() is what
// every backend shares). They have no impl() for PrivateUse1: the device brings
// functional kernels of its own instead.
struct mul : opd::structured<"toydev::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {
  // Same shapes, or one side with a single element.
  static opd::TensorMeta meta(const opd::Tensor& self, const opd::Tensor& other) {
    if (!(self.sizes() == other.sizes()) && self.numel() != 1 && other.numel() != 1)
      throw opd::Error("toydev::mul: shapes differ");
    const opd::Tensor& bigger = self.numel() >= other.numel() ? self : other;
    return {bigger.sizes().vec(), opd::promote_types(self.dtype(), other.dtype())};
  }
};
struct relu : opd::structured<"toydev::relu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {
  static opd::TensorMeta meta(const opd::Tensor& self) { return {self.sizes().vec(), self.dtype()}; }
};

// The device's functional kernels (Float only).
int device_kernel_calls = 0;
opd::Tensor device_mul(const opd::Tensor& self, const opd::Tensor& other) {
  ++device_kernel_calls;
  toydev::check_device_tensor(self);
  toydev::check_device_tensor(other);
  const opd::TensorMeta m = mul::meta(self, other);
  opd::Tensor out = opd::empty(m.sizes, m.dtype, self.device());
  const std::vector<float> a = toydev::download(self), b = toydev::download(other);
  float* o = static_cast<float*>(out.data_ptr());
  for (int64_t i = 0; i < out.numel(); ++i) o[i] = a[a.size() == 1 ? 0 : i] * b[b.size() == 1 ? 0 : i];
  return out;
}
opd::Tensor device_relu(const opd::Tensor& self) {
  ++device_kernel_calls;
  toydev::check_device_tensor(self);
  opd::Tensor out = opd::empty(self.sizes(), self.dtype(), self.device());
  const std::vector<float> a = toydev::download(self);
  float* o = static_cast<float*>(out.data_ptr());
  for (std::size_t i = 0; i < a.size(); ++i) o[i] = a[i] > 0 ? a[i] : 0.f;
  return out;
}

// The device's copy (strided destination, same dtype): what lets the derived
// kernels write into non-contiguous outs. Contiguous ones need no kernel: the
// arena copies them (Allocator::copy_data).
opd::Tensor& device_copy(opd::Tensor& self, const opd::Tensor& src) {
  toydev::check_device_tensor(self);
  toydev::check_device_tensor(src);
  if (self.dtype() != opd::ScalarType::Float || src.dtype() != opd::ScalarType::Float)
    throw opd::Error("toydev copy: Float only");
  const std::vector<float> v = toydev::download(src);
  float* base = static_cast<float*>(self.data_ptr());
  std::size_t i = 0;
  opd::detail::for_each_element_offset(self.sizes(), self.strides(), [&](int64_t off) { base[off] = v[i++]; });
  return self;
}

// The device's copy kernel for transfers (aten::_copy_from): one side is the
// CPU, the other the arena; contiguous, same dtype (opd::to hands it a
// contiguous CPU side; the device side is made contiguous first when needed).
opd::Tensor device_copy_from(const opd::Tensor& self, const opd::Tensor& dst, bool /*non_blocking*/) {
  const opd::Tensor& on_device = self.is_cpu() ? dst : self;
  toydev::check_device_tensor(on_device);
  if (self.dtype() != dst.dtype() || !(self.sizes() == dst.sizes()) || !dst.is_contiguous())
    throw opd::Error("toydev _copy_from: expected a contiguous destination of the source's sizes and dtype");
  if (self.is_contiguous()) {
    std::memcpy(dst.data_ptr(), self.data_ptr(), self.nbytes());
  } else {  // a strided source: element by element
    const std::size_t item = self.itemsize();
    auto* d = static_cast<unsigned char*>(dst.data_ptr());
    const auto* s = static_cast<const unsigned char*>(self.data_ptr());
    opd::detail::for_each_element_offset(self.sizes(), self.strides(), [&](int64_t off) {
      std::memcpy(d, s + static_cast<std::size_t>(off) * item, item);
      d += item;
    });
  }
  return dst;
}

// The fallback, logged: which operators the device did not run itself.
std::map<std::string, int> fell_back;
void logging_cpu_fallback(const opd::OperatorEntry& op, opd::DispatchKeySet ks, opd::Stack* stack) {
  ++fell_back[op.name()];
  opd::cpu_fallback(op, ks, stack);
}

namespace {
bool failed = false;
void expect(bool ok, const char* what) {
  std::printf("  %-58s %s\n", what, ok ? "ok" : "WRONG");
  failed = failed || !ok;
}
}  // namespace

int main() {
  opd::set_allocator(opd::DeviceType::PrivateUse1, &toydev::arena);
  // Functional kernels only; in-place and out= are derived for PrivateUse1.
  opd::RegistrationSet mul_kernels = opd::register_functional_only<mul>(opd::DispatchKey::PrivateUse1, &device_mul);
  opd::RegistrationSet relu_kernels = opd::register_functional_only<relu>(opd::DispatchKey::PrivateUse1, &device_relu);
  opd::RegistrationHandle copy_kernel =
      opd::register_kernel<opd::structured_copy_op, &device_copy>(opd::DispatchKey::PrivateUse1);
  std::printf("PrivateUse1 kernels for %s: %s\n", std::string(mul::inplace::schema_str).c_str(),
              opd::entry_for<mul::inplace>().registered_keys().c_str());

  const opd::Tensor a = toydev::upload({1, -2, 3, -4, 5, -6}, {2, 3});
  const opd::Tensor b = toydev::upload({2, 2, 2, 10, 10, 10}, {2, 3});

  // functional: the device's own kernel
  const opd::Tensor c = opd::call<mul::functional>(a, b);
  expect(toydev::arena.owns(c.data_ptr()) && toydev::download(c) == std::vector<float>{2, -4, 6, -40, 50, -60},
         "mul (functional, the device's kernel)");

  // in-place: derived (functional, then copy into self's own memory)
  opd::Tensor x = toydev::upload({1, -2, 3, -4, 5, -6}, {2, 3});
  const void* x_memory = x.data_ptr();
  opd::call<relu::inplace>(x);
  expect(x.data_ptr() == x_memory && toydev::download(x) == std::vector<float>{1, 0, 3, 0, 5, 0},
         "relu_ (in-place, derived)");
  opd::call<mul::inplace>(x, b);
  expect(toydev::download(x) == std::vector<float>{2, 0, 6, 0, 50, 0}, "mul_ (in-place, derived)");

  // out=: derived (functional, resize the empty out, copy)
  opd::Tensor out = opd::empty(std::vector<int64_t>{0}, opd::ScalarType::Float, toydev::device);
  opd::call<mul::out>(a, b, out);
  expect(toydev::arena.owns(out.data_ptr()) && out.sizes() == std::vector<int64_t>{2, 3} &&
             toydev::download(out) == std::vector<float>{2, -4, 6, -40, 50, -60},
         "mul.out (out=, derived, out resized from 0 elements)");

  // out= into a transposed view: the device's copy kernel writes through the strides
  opd::Tensor storage = opd::empty(std::vector<int64_t>{3, 2}, opd::ScalarType::Float, toydev::device);
  opd::Tensor transposed = storage.as_strided(std::vector<int64_t>{2, 3}, std::vector<int64_t>{1, 2});
  opd::call<relu::out>(a, transposed);
  expect(transposed.strides() == std::vector<int64_t>{1, 2} &&
             toydev::download(transposed) == std::vector<float>{1, 0, 3, 0, 5, 0} &&
             toydev::download(storage) == std::vector<float>{1, 0, 0, 5, 3, 0},
         "relu.out into a non-contiguous out");

  // The rules hold on the device too: self is never resized (checked by
  // meta() before the device computes anything).
  opd::Tensor one = toydev::upload({3}, {1});
  bool refused = false;
  try {
    opd::call<mul::inplace>(one, a);
  } catch (const opd::Error& e) {
    refused = true;
    std::printf("  (refused: %s)\n", e.what());
  }
  expect(refused, "mul_ into a differently shaped self is refused");

  // Boxed calls reach the derived kernels as well.
  opd::Tensor y = toydev::upload({-1, 1}, {2});
  opd::Stack stack{y};
  opd::call_boxed<relu::inplace>(stack);
  expect(stack[0].to_tensor().is_same(y) && toydev::download(y) == std::vector<float>{0, 1}, "relu_ (boxed)");

  expect(device_kernel_calls == 6, "every result came from the device's functional kernels");
  expect(fell_back.empty(), "nothing fell back so far (no fallback registered yet)");

  // ---- everything else through the CPU fallback ----------------------------------
  std::printf("\nThe library's operators on the device, through opd::cpu_fallback:\n");
  namespace ops = opd::kernels::ops;
  const opd::RegistrationSet cpu_kernels = opd::kernels::register_cpu();
  opd::RegistrationHandle copy_from = opd::register_kernel<opd::copy_from_op, &device_copy_from>(opd::DispatchKey::PrivateUse1);
  opd::RegistrationHandle fallback = opd::register_fallback(opd::DispatchKey::PrivateUse1, &logging_cpu_fallback);
  const int native_before = device_kernel_calls;

  const opd::Tensor sum = opd::call<ops::add::functional>(a, b, 2);  // a + 2 * b
  expect(toydev::arena.owns(sum.data_ptr()) && toydev::download(sum) == std::vector<float>{5, 2, 7, 16, 25, 14},
         "add.Tensor (fell back; the result lives in the arena)");
  opd::Tensor acc = opd::call<ops::zeros>(std::vector<int64_t>{2, 3}, opd::arg<"device"> = toydev::device);
  expect(toydev::arena.owns(acc.data_ptr()) && toydev::download(acc) == std::vector<float>(6, 0.f),
         "zeros(..., device=privateuse1) (a factory, fell back)");
  opd::call<ops::sub::inplace>(acc, a, 1);
  expect(toydev::download(acc) == std::vector<float>{-1, 2, -3, 4, -5, 6}, "sub_.Tensor (in-place, copied back)");
  opd::Tensor into = opd::empty(std::vector<int64_t>{0}, opd::ScalarType::Float, toydev::device);
  opd::call<ops::div::out>(a, b, into);
  expect(into.sizes() == std::vector<int64_t>{2, 3} &&
             toydev::download(into) == std::vector<float>{0.5f, -1, 1.5f, -0.4f, 0.5f, -0.6f},
         "div.out (out= resized and copied back)");
  const opd::Tensor product = opd::call<mul::functional>(a, b);  // the device's own kernel still wins
  expect(toydev::download(product) == std::vector<float>{2, -4, 6, -40, 50, -60} &&
             device_kernel_calls == native_before + 1,
         "toydev::mul.Tensor (native: its own kernel, not the fallback)");
  const opd::Tensor host = sum.to(opd::Device::cpu());
  expect(host.is_cpu() && opd::to_vector<float>(host) == toydev::download(sum), "Tensor::to(cpu) (the copy kernel)");

  std::printf("\n  ran natively (the device's kernels): %d calls of toydev::mul / toydev::relu\n",
              device_kernel_calls);
  std::printf("  fell back to the CPU:\n");
  for (const auto& [name, calls] : fell_back) std::printf("    %-28s %d call%s\n", name.c_str(), calls, calls == 1 ? "" : "s");
  expect(fell_back.size() == 4, "four operators fell back, once each");
  std::printf("%s\n", failed ? "FAILED" : "all results right");
  opd::set_allocator(opd::DeviceType::PrivateUse1, nullptr);
  return failed ? 1 : 0;
}
