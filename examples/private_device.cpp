// An out-of-tree device on PrivateUse1: its own allocator (an arena of its
// own, never CPU memory), and only functional kernels. In-place and out=
// calls on it are served by kernels derived from the functional ones:
// compute, check the result fits, copy into self / into the (resized) out.
#include <structured/structured.hpp>

#include <cstddef>
#include <cstdio>
#include <cstring>
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
  std::printf("%s\n", failed ? "FAILED" : "all results right");
  opd::set_allocator(opd::DeviceType::PrivateUse1, nullptr);
  return failed ? 1 : 0;
}
