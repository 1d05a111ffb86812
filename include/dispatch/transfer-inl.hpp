#pragma once
// Out-of-line part of transfer.hpp (compiled once in src/transfer.cpp, or
// inline under OPD_HEADER_ONLY).
#include <string>
#include <utility>
#include <vector>

#include "dispatch/core/error.hpp"
#include "dispatch/dispatcher/call.hpp"
#include "dispatch/transfer.hpp"
#include "structured/copy.hpp"

namespace opd {

namespace transfer_detail {

// The device's backend key; only a CPU <-> device copy has one.
inline DispatchKey device_key(Device a, Device b) { return backend_key_for(a.is_cpu() ? b.type() : a.type()); }

[[gnu::cold, gnu::noinline]] inline void report_no_copy_kernel(Device from, Device to, DispatchKey key) {
  throw NotImplementedError("cannot copy a tensor from " + from.str() + " to " + to.str() + ": " +
                            std::string(to_string(key)) +
                            " has no copy kernel; register one with opd::register_kernel<opd::copy_from_op>(opd::DispatchKey::" +
                            std::string(to_string(key)) +
                            ", kernel) (ATen's _copy_from(Tensor self, Tensor dst, bool non_blocking=False) -> Tensor)");
}

// src -> dst (same sizes and dtype; one on the CPU) through the device's _copy_from.
inline void copy_across(const Tensor& src, const Tensor& dst, bool non_blocking) {
  if (src.numel() == 0) return;  // nothing to move (and a device may hand out no memory for it)
  const DispatchKey key = device_key(src.device(), dst.device());
  if (!entry_for<copy_from_op>().has_kernel_for(key)) [[unlikely]]
    report_no_copy_kernel(src.device(), dst.device(), key);
  (void)redispatch<copy_from_op>(DispatchKeySet(key), src, dst, non_blocking);
}

// dst <- src on the CPU, any strides and dtypes (the built-in strided copy).
inline void cpu_copy(const Tensor& dst, const Tensor& src) {
  structured_detail::ensure_builtin_copy_kernels();
  structured_detail::copy_into(dst, src, DispatchKey::CPU);
}

// A contiguous CPU tensor of dtype `dtype` holding t's values (t itself when it is one).
inline Tensor contiguous_cpu(const Tensor& t, ScalarType dtype) {
  if (t.is_contiguous() && t.dtype() == dtype) return t;
  Tensor c = empty(t.sizes(), dtype);
  cpu_copy(c, t);
  return c;
}

}  // namespace transfer_detail

OPD_FUNC Tensor to(const Tensor& t, Device device, bool non_blocking) {
  if (!t.defined() || t.device() == device) return t;
  if (device.is_meta()) return empty(t.sizes(), t.dtype(), device);
  OPD_CHECK(!t.is_meta(), "cannot copy out of a meta tensor (it has no data) to ", device);
  if (!t.is_cpu() && !device.is_cpu())  // device to another device: through the host
    return to(to(t, Device::cpu(), non_blocking), device, non_blocking);
  // The device kernel sees a contiguous CPU side.
  const Tensor src = t.is_cpu() ? transfer_detail::contiguous_cpu(t, t.dtype()) : t;
  Tensor dst = empty(t.sizes(), t.dtype(), device);
  transfer_detail::copy_across(src, dst, non_blocking);
  return dst;
}

namespace transfer_detail {
// The device tensors of `keys`' backend among tensors[first, ...) into out:
// in one call of its batched transfer kernel when it has one, else one by one.
inline void move_group(std::span<const Tensor> tensors, std::span<Tensor> out, DispatchKey key, std::size_t first,
                       bool only_this_key) {
  const auto in_group = [&](const Tensor& t) {
    return t.defined() && !t.is_cpu() && (only_this_key || backend_key_for(t.device().type()) == key);
  };
  if (!entry_for<to_cpu_op>().has_kernel_for(key)) {
    for (std::size_t i = first; i < tensors.size(); ++i)
      if (in_group(tensors[i])) out[i] = to(tensors[i], Device::cpu());
    return;
  }
  std::vector<Tensor> moving;
  std::vector<std::size_t> positions;
  for (std::size_t i = first; i < tensors.size(); ++i)
    if (in_group(tensors[i])) {
      moving.push_back(tensors[i]);
      positions.push_back(i);
    }
  std::vector<Tensor> moved = redispatch<to_cpu_op>(DispatchKeySet(key), std::span<const Tensor>(moving));
  OPD_CHECK(moved.size() == moving.size(), "aten::_to_cpu: the ", to_string(key), " batched transfer returned ",
            moved.size(), " tensors for ", moving.size());
  for (std::size_t j = 0; j < positions.size(); ++j) {
    OPD_CHECK(moved[j].defined() && moved[j].is_cpu() && moved[j].sizes() == moving[j].sizes(), "aten::_to_cpu: the ",
              to_string(key), " batched transfer returned for tensor ", j,
              " something other than a CPU tensor of its sizes");
    out[positions[j]] = std::move(moved[j]);
  }
}
}  // namespace transfer_detail

OPD_FUNC void to_cpu(std::span<const Tensor> tensors, std::span<Tensor> out) {
  OPD_CHECK(out.size() == tensors.size(), "to_cpu: ", tensors.size(), " tensors but room for ", out.size());
  // The first device tensor's backend; the common case is that all share it.
  std::size_t first = tensors.size();
  DispatchKey key = DispatchKey::Undefined;
  bool one_backend = true;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    out[i] = t;  // undefined and CPU tensors pass through
    if (!t.defined() || t.is_cpu()) continue;
    const DispatchKey k = backend_key_for(t.device().type());
    if (first == tensors.size()) {
      first = i;
      key = k;
    } else if (k != key) {
      one_backend = false;
    }
  }
  if (first == tensors.size()) return;
  if (one_backend) return transfer_detail::move_group(tensors, out, key, first, true);
  // Several backends: one group per backend, in order of first appearance.
  for (std::size_t i = first; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (!t.defined() || t.is_cpu() || !out[i].is_same(t)) continue;  // (moved already)
    transfer_detail::move_group(tensors, out, backend_key_for(t.device().type()), i, false);
  }
}

OPD_FUNC std::vector<Tensor> to_cpu(std::span<const Tensor> tensors) {
  std::vector<Tensor> out(tensors.size());
  to_cpu(tensors, out);
  return out;
}

OPD_FUNC const Tensor& copy_from_and_resize(const Tensor& src, const Tensor& dst) {
  OPD_CHECK(src.defined() && dst.defined(), "copy_from_and_resize: undefined tensor");
  if (src.device() == dst.device()) {  // nothing crosses: an ordinary copy
    if (!(dst.sizes() == src.sizes())) dst.resize_(src.sizes());
    if (dst.is_cpu()) transfer_detail::cpu_copy(dst, src);
    else structured_detail::copy_into(dst, src, backend_key_for(dst.device().type()));
    return dst;
  }
  const DispatchKey key = transfer_detail::device_key(src.device(), dst.device());
  if (entry_for<copy_from_and_resize_op>().has_kernel_for(key)) {
    (void)redispatch<copy_from_and_resize_op>(DispatchKeySet(key), src, dst);
    return dst;
  }
  if (!(dst.sizes() == src.sizes())) dst.resize_(src.sizes());
  if (dst.is_cpu()) {  // device -> CPU: through a contiguous CPU tensor of src's dtype unless dst is one
    if (dst.is_contiguous() && dst.dtype() == src.dtype()) {
      transfer_detail::copy_across(src, dst, false);
    } else {
      Tensor staged = empty(src.sizes(), src.dtype());
      transfer_detail::copy_across(src, staged, false);
      transfer_detail::cpu_copy(dst, staged);
    }
    return dst;
  }
  // CPU -> device: convert and make contiguous on the CPU; a strided dst gets a
  // contiguous device tensor copied in by the device's own copy.
  const Tensor staged = transfer_detail::contiguous_cpu(src, dst.dtype());
  if (dst.is_contiguous()) {
    transfer_detail::copy_across(staged, dst, false);
  } else {
    Tensor d = empty(staged.sizes(), staged.dtype(), dst.device());
    transfer_detail::copy_across(staged, d, false);
    structured_detail::copy_into(dst, d, key);
  }
  return dst;
}

}  // namespace opd
