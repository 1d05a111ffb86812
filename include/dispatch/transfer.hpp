#pragma once
// Moving tensors between the CPU and a device, through kernels the device
// registers, as ATen does:
//
//   aten::_copy_from(Tensor self, Tensor dst, bool non_blocking=False) -> Tensor
//       copy self into dst (same sizes and dtype, one of them on the device);
//       registered at the device's key. Required for any transfer.
//   aten::_copy_from_and_resize(Tensor self, Tensor dst) -> Tensor
//       the same, resizing dst to self's sizes first. Optional: without it
//       dst.resize_() (the device's allocator) and _copy_from are used.
//   aten::_to_cpu(Tensor[] tensors) -> Tensor[]
//       optional batched transfer: moves many of the device's tensors in one
//       call (a lazy or remote device syncs once: PyTorch PR #58065).
//       opd::register_batched_transfer(key, fn) registers it.
//
//   t.to(device), opd::to(t, device)   a copy on `device` (t itself when it is there already);
//                                      Tensor::to needs this header included
//   opd::to_cpu(tensors)               every tensor on the CPU, one batched call per device
//
// The kernels are ordinary kernels of these operators; the functions below
// call them at the device's key only (never through a backend fallback, so
// opd::cpu_fallback registered for the device cannot loop into itself).
#include <span>
#include <vector>

#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"
#include "dispatch/dispatcher/registration.hpp"
#include "dispatch/op.hpp"

namespace opd {

struct copy_from_op : op<"aten::_copy_from(Tensor self, Tensor dst, bool non_blocking=False) -> Tensor"> {};
struct copy_from_and_resize_op : op<"aten::_copy_from_and_resize(Tensor self, Tensor dst) -> Tensor"> {};
struct to_cpu_op : op<"aten::_to_cpu(Tensor[] tensors) -> Tensor[]"> {};

// A copy of t on `device` (t itself, not a copy, when it is already there;
// an undefined t stays undefined). CPU <-> device uses the device's
// _copy_from kernel; device -> other device goes through the CPU; to Meta
// allocates a Meta tensor. The result is contiguous.
OPD_API Tensor to(const Tensor& t, Device device, bool non_blocking = false);

// Every tensor on the CPU, in order: undefined and CPU tensors pass through
// as they are. The tensors of each device with a batched transfer kernel move
// in one call of it; the others one by one through _copy_from.
OPD_API std::vector<Tensor> to_cpu(std::span<const Tensor> tensors);
// The same into `out` (as many elements as `tensors`), allocating nothing
// of its own when every device tensor moves through _copy_from.
OPD_API void to_cpu(std::span<const Tensor> tensors, std::span<Tensor> out);

// Copies src into dst, resizing dst to src's sizes when they differ (ATen's
// _copy_from_and_resize: how a result computed elsewhere is written back into
// a device tensor). One of src, dst is on the CPU. Returns dst.
OPD_API const Tensor& copy_from_and_resize(const Tensor& src, const Tensor& dst);

// The device's batched transfer: fn(std::span<const Tensor>) ->
// std::vector<Tensor>, one CPU tensor per input (all on that device), a
// kernel of aten::_to_cpu at `key`.
template <class F>
[[nodiscard]] RegistrationHandle register_batched_transfer(DispatchKey key, F&& fn,
                                                           const source_location& where = source_location::current()) {
  return register_kernel<to_cpu_op>(key, std::forward<F>(fn), where);
}

namespace detail {
template <class Deferred>
struct transfer {
  static Tensor to(const Tensor& t, Device device, bool non_blocking) { return opd::to(t, device, non_blocking); }
};
}  // namespace detail

}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "dispatch/transfer-inl.hpp"
#endif
