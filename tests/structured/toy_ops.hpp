#pragma once
// Toy operators and a toy device for the structured-kernel tests.
//
//   toy_mul      toy::mul.out(Tensor self, Tensor other, *, Tensor(a!) out)
//                elementwise product with (naive) broadcasting, Float / Double /
//                Long, CPU impl only; counts its impl calls.
//   toy_scale    toy::scale.out(Tensor self, *, Scalar factor=2, Tensor(a!) out)
//                a kwarg with a default, overload names by default ("" / "out").
//   toy_outer    toy::outer.out(Tensor a, Tensor b, *, Tensor(a!) out): no
//                `self`, so no in-place variant.
//   toy_cat      toy::cat.out(Tensor[] tensors, *, Tensor(a!) out): a list argument.
//   Arena        a PrivateUse1 allocator: memory from one std::vector arena of
//                its own, never from the CPU allocator; owns(p) tells its memory.
//
// The Dispatcher is a process-wide singleton: each test registers through
// RAII sets, so it leaves no kernels behind.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <structured/structured.hpp>

namespace toy {

using opd::DispatchKey;
using opd::ScalarType;
using opd::Tensor;

inline std::vector<int64_t> v(std::initializer_list<int64_t> l) { return std::vector<int64_t>(l); }

// NumPy broadcasting of two shapes.
inline std::vector<int64_t> broadcast_shape(opd::IntArrayRef a, opd::IntArrayRef b) {
  const std::size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x != y && x != 1 && y != 1)
      throw opd::Error("toy: shapes " + opd::structured_detail::shape_str(a) + " and " +
                       opd::structured_detail::shape_str(b) + " cannot be broadcast");
    out[i] = x == 1 ? y : x;
  }
  return out;
}

// Element offset in t of the element at `index` of a broadcast shape.
inline int64_t broadcast_offset(const Tensor& t, const std::vector<int64_t>& index) {
  const std::size_t lead = index.size() - static_cast<std::size_t>(t.dim());
  int64_t off = 0;
  for (std::size_t d = 0; d < static_cast<std::size_t>(t.dim()); ++d)
    if (t.size(static_cast<int64_t>(d)) != 1) off += index[lead + d] * t.stride(static_cast<int64_t>(d));
  return off;
}

template <class T>
T read_as(const Tensor& t, int64_t offset) {
  return opd::visit_scalar_type(t.dtype(), [&](auto tag) -> T {
    using S = typename decltype(tag)::type;
    return opd::structured_detail::convert_element<T>(static_cast<const S*>(t.data_ptr())[offset]);
  });
}

// out[i] = a[i] * b[i] over out's (contiguous) shape; reads memory directly
// (the CPU impl, and the toy device's kernels: its memory is host-addressable).
inline void multiply_into(const Tensor& a, const Tensor& b, const Tensor& out) {
  opd::visit_scalar_type(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int64_t>) {
      T* o = static_cast<T*>(out.data_ptr());
      std::vector<int64_t> index(static_cast<std::size_t>(out.dim()), 0);
      for (int64_t i = 0; i < out.numel(); ++i) {
        int64_t rest = i;
        for (std::size_t d = index.size(); d-- > 0;) {
          index[d] = rest % out.size(static_cast<int64_t>(d));
          rest /= out.size(static_cast<int64_t>(d));
        }
        o[i] = static_cast<T>(read_as<T>(a, broadcast_offset(a, index)) * read_as<T>(b, broadcast_offset(b, index)));
      }
    } else {
      throw opd::Error("toy: unsupported dtype");
    }
  });
}

inline opd::TensorMeta mul_meta(const Tensor& self, const Tensor& other) {
  const ScalarType dtype = opd::promote_types(self.dtype(), other.dtype());
  if (dtype != ScalarType::Float && dtype != ScalarType::Double && dtype != ScalarType::Long)
    throw opd::Error(std::string("toy::mul: unsupported dtype ") + std::string(opd::to_string(dtype)));
  return {broadcast_shape(self.sizes(), other.sizes()), dtype};
}

struct counters {
  int cpu_impl = 0;
  const void* last_out_data = nullptr;  // where the last impl call wrote
};
inline counters& count() {
  static counters c;
  return c;
}

struct toy_mul : opd::structured<"toy::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {
  static opd::TensorMeta meta(const Tensor& self, const Tensor& other) { return mul_meta(self, other); }
  static void impl(opd::backend_tag<DispatchKey::CPU>, const Tensor& self, const Tensor& other, Tensor& out) {
    ++count().cpu_impl;
    count().last_out_data = out.data_ptr();
    multiply_into(self, other, out);
  }
};

struct toy_scale : opd::structured<"toy::scale.out(Tensor self, *, Scalar factor=2, Tensor(a!) out) -> Tensor(a!)"> {
  static opd::TensorMeta meta(const Tensor& self, const opd::Scalar& factor) {
    ScalarType dtype = self.dtype();
    if (factor.is_floating_point() && !opd::is_floating_type(dtype)) dtype = ScalarType::Float;
    return {self.sizes().vec(), dtype};
  }
  static void impl(opd::backend_tag<DispatchKey::CPU>, const Tensor& self, const opd::Scalar& factor, Tensor& out) {
    Tensor f = opd::empty(std::vector<int64_t>{}, factor.is_floating_point() ? ScalarType::Double : ScalarType::Long);
    if (factor.is_floating_point()) *f.data_ptr<double>() = factor.to<double>();
    else *f.data_ptr<int64_t>() = factor.to<int64_t>();
    multiply_into(self, f, out);
  }
};

struct toy_outer : opd::structured<"toy::outer.out(Tensor a, Tensor b, *, Tensor(a!) out) -> Tensor(a!)"> {
  static opd::TensorMeta meta(const Tensor& a, const Tensor& b) {
    if (a.dim() != 1 || b.dim() != 1) throw opd::Error("toy::outer: expected 1-d tensors");
    return {v({a.size(0), b.size(0)}), opd::promote_types(a.dtype(), b.dtype())};
  }
  static void impl(opd::backend_tag<DispatchKey::CPU>, const Tensor& a, const Tensor& b, Tensor& out) {
    multiply_into(a.as_strided(v({a.size(0), 1}), v({a.stride(0), 0})), b, out);
  }
};

// A list argument: 1-d Float concatenation (no self: no in-place variant).
struct toy_cat : opd::structured<"toy::cat.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)"> {
  static opd::TensorMeta meta(std::span<const Tensor> tensors) {
    int64_t n = 0;
    for (const Tensor& t : tensors) {
      if (t.dim() != 1 || t.dtype() != ScalarType::Float) throw opd::Error("toy::cat: 1-d Float tensors only");
      n += t.size(0);
    }
    return {v({n}), ScalarType::Float};
  }
  static void impl(opd::backend_tag<DispatchKey::CPU>, std::span<const Tensor> tensors, Tensor& out) {
    float* o = out.data_ptr<float>();
    for (const Tensor& t : tensors)
      for (float x : opd::to_vector<float>(t)) *o++ = x;
  }
};

// ---- the toy device: PrivateUse1 memory from an arena ----------------------

class Arena final : public opd::Allocator {
 public:
  static constexpr std::size_t kCapacity = 1 << 20;
  static constexpr std::size_t kAlign = 64;

  opd::DataPtr allocate(std::size_t nbytes, opd::Device device) override {
    if (device.type() != opd::DeviceType::PrivateUse1) throw opd::Error("Arena: not a PrivateUse1 device");
    if (nbytes == 0) return opd::DataPtr(nullptr, nullptr, nullptr, device);
    const std::size_t start = (used_ + kAlign - 1) / kAlign * kAlign;
    if (start + nbytes > memory_.size()) throw opd::Error("Arena: out of memory");
    used_ = start + nbytes;
    ++live_;
    ++allocations_;
    void* p = memory_.data() + start;
    return opd::DataPtr(p, this, &release, device);
  }
  // Everything PrivateUse1 tensors hold lives in here.
  bool owns(const void* p) const {
    auto* b = static_cast<const std::byte*>(p);
    return b >= memory_.data() && b < memory_.data() + memory_.size();
  }
  int live() const { return live_; }
  int allocations() const { return allocations_; }

 private:
  static void release(void* self) noexcept { --static_cast<Arena*>(self)->live_; }
  std::vector<std::byte> memory_ = std::vector<std::byte>(kCapacity);
  std::size_t used_ = 0;
  int live_ = 0;
  int allocations_ = 0;
};

// Installs an Arena as PrivateUse1's allocator for the test's scope.
class ArenaScope {
 public:
  ArenaScope() : arena_(std::make_unique<Arena>()) { previous_ = opd::set_allocator(opd::DeviceType::PrivateUse1, arena_.get()); }
  ~ArenaScope() { opd::set_allocator(opd::DeviceType::PrivateUse1, previous_); }
  Arena& arena() { return *arena_; }

 private:
  std::unique_ptr<Arena> arena_;
  opd::Allocator* previous_ = nullptr;
};

inline const opd::Device pu1{opd::DeviceType::PrivateUse1, 0};

// Host <-> toy device transfers (contiguous tensors).
inline Tensor to_device(const Tensor& cpu) {
  Tensor d = opd::empty(cpu.sizes(), cpu.dtype(), pu1);
  if (cpu.nbytes()) std::memcpy(d.data_ptr(), cpu.data_ptr(), cpu.nbytes());
  return d;
}
// Any strides: element by element in logical order.
template <class T>
std::vector<T> device_values(const Tensor& t) {
  std::vector<T> out;
  const T* base = static_cast<const T*>(t.data_ptr());
  opd::detail::for_each_element_offset(t.sizes(), t.strides(), [&](int64_t off) { out.push_back(base[off]); });
  return out;
}

// Captures the resize-out warnings of one test; restores the previous handler.
struct WarningCapture {
  std::vector<std::string> messages;
  opd::ResizeOutWarningHandler previous;
  WarningCapture() {
    previous = opd::set_resize_out_warning_handler([this](std::string_view m) { messages.emplace_back(m); });
  }
  ~WarningCapture() { opd::set_resize_out_warning_handler(std::move(previous)); }
};

}  // namespace toy
