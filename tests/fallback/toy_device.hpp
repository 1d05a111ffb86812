#pragma once
// A toy PrivateUse1 device for the fallback and transfer tests: device
// tensors live in host memory from an allocator of its own (it counts what it
// allocates), and the device brings only what opd::cpu_fallback needs, a copy
// kernel (aten::_copy_from), plus, on request, a batched transfer
// (aten::_to_cpu). Each test holds a ToyDevice; its destructor unregisters
// everything.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

#include <dispatch/dispatcher.hpp>
#include <dispatch/transfer.hpp>
#include <fallback/cpu_fallback.hpp>

namespace toydev {

inline const opd::Device kDevice(opd::DeviceType::PrivateUse1, 0);

struct Counters {
  int allocations = 0;       // device buffers allocated
  int copies = 0;            // _copy_from calls
  int batched_calls = 0;     // _to_cpu calls
  int batched_tensors = 0;   // tensors they moved
};
inline Counters counters;

class HostMemory final : public opd::Allocator {
 public:
  opd::DataPtr allocate(std::size_t nbytes, opd::Device device) override {
    if (device.type() != opd::DeviceType::PrivateUse1) throw opd::Error("toydev: wrong device " + device.str());
    ++counters.allocations;
    if (nbytes == 0) return opd::DataPtr(nullptr, nullptr, nullptr, device);
    void* p = std::malloc(nbytes);
    if (p == nullptr) throw opd::Error("toydev: out of memory");
    return opd::DataPtr(p, p, &release, device);
  }

 private:
  static void release(void* p) noexcept { std::free(p); }
};
inline HostMemory memory;

// Element-wise copy between two tensors of equal sizes and dtype, any
// strides (both sides are host memory here).
inline void strided_copy(const opd::Tensor& dst, const opd::Tensor& src) {
  if (dst.dtype() != src.dtype() || !(dst.sizes() == src.sizes()))
    throw opd::Error("toydev copy: dtype or sizes differ");
  const std::size_t item = src.itemsize();
  std::vector<int64_t> src_offsets;
  opd::detail::for_each_element_offset(src.sizes(), src.strides(), [&](int64_t o) { src_offsets.push_back(o); });
  const auto* s = static_cast<const unsigned char*>(src.data_ptr());
  auto* d = static_cast<unsigned char*>(dst.data_ptr());
  std::size_t i = 0;
  opd::detail::for_each_element_offset(dst.sizes(), dst.strides(), [&](int64_t o) {
    std::memcpy(d + static_cast<std::size_t>(o) * item, s + static_cast<std::size_t>(src_offsets[i++]) * item, item);
  });
}

// aten::_copy_from(Tensor self, Tensor dst, bool non_blocking=False) -> Tensor
inline opd::Tensor copy_from(const opd::Tensor& self, const opd::Tensor& dst, bool) {
  ++counters.copies;
  strided_copy(dst, self);
  return dst;
}

// aten::_to_cpu(Tensor[] tensors) -> Tensor[]: every tensor in one call.
inline std::vector<opd::Tensor> batched_to_cpu(std::span<const opd::Tensor> tensors) {
  ++counters.batched_calls;
  counters.batched_tensors += static_cast<int>(tensors.size());
  std::vector<opd::Tensor> out;
  for (const opd::Tensor& t : tensors) {
    opd::Tensor c = opd::empty(t.sizes(), t.dtype());
    strided_copy(c, t);
    out.push_back(c);
  }
  return out;
}

struct ToyDevice {
  explicit ToyDevice(bool batched = false, bool fallback = true) {
    previous = opd::set_allocator(opd::DeviceType::PrivateUse1, &memory);
    counters = {};
    handles.add(opd::register_kernel<opd::copy_from_op>(opd::DispatchKey::PrivateUse1, &copy_from));
    if (batched) handles.add(opd::register_batched_transfer(opd::DispatchKey::PrivateUse1, &batched_to_cpu));
    if (fallback) handles.add(opd::register_fallback(opd::DispatchKey::PrivateUse1, &opd::cpu_fallback));
  }
  ~ToyDevice() { opd::set_allocator(opd::DeviceType::PrivateUse1, previous); }
  opd::Allocator* previous = nullptr;
  opd::RegistrationSet handles;
};

// A device tensor holding `values`.
inline opd::Tensor device_floats(const std::vector<float>& values, std::vector<int64_t> sizes) {
  return opd::to(opd::from_vector<float>(values, sizes), kDevice);
}
inline std::vector<float> values_of(const opd::Tensor& t) { return opd::to_vector<float>(opd::to(t, opd::Device::cpu())); }

}  // namespace toydev
