// Tensor: a reference-counted handle to a TensorImpl, plus the factories
// (empty, empty_strided) and test helpers (from_vector, to_vector).
//
// Why a handle: passing a Tensor through the dispatcher, into an IValue and
// back out must cost at most one atomic increment (copy) or nothing (move).
// An undefined Tensor is a null handle; using it throws opd::Error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <type_traits>
#include <utility>
#include <vector>

#include "dispatch/config.hpp"
#include "dispatch/core/array_ref.hpp"
#include "dispatch/core/device.hpp"
#include "dispatch/core/error.hpp"
#include "dispatch/core/intrusive_ptr.hpp"
#include "dispatch/core/memory_format.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/storage.hpp"
#include "dispatch/core/tensor_impl.hpp"
#include "dispatch/keys/dispatch_key_set.hpp"

namespace opd {

namespace detail {
// Defined by dispatch/transfer.hpp: Tensor::to's implementation. Incomplete
// here, so that Tensor::to in a file without that header fails to compile
// with this name in the message.
template <class Deferred>
struct transfer;
// Defined by autograd/tensor_api.hpp: the autograd members' implementation
// (incomplete here, as transfer: a call without that header names it).
template <class Deferred>
struct autograd_api;
}  // namespace detail

class Tensor {
 public:
  Tensor() noexcept = default;
  explicit Tensor(intrusive_ptr<TensorImpl> impl) noexcept : impl_(std::move(impl)) {}

  bool defined() const noexcept { return impl_.defined(); }

  // ---- metadata ---------------------------------------------------------
  IntArrayRef sizes() const { return impl().sizes(); }
  IntArrayRef strides() const { return impl().strides(); }
  int64_t dim() const { return impl().dim(); }
  int64_t ndimension() const { return dim(); }
  int64_t size(int64_t d) const { return impl().size(d); }
  int64_t stride(int64_t d) const { return impl().stride(d); }
  int64_t numel() const { return impl().numel(); }
  ScalarType dtype() const { return impl().dtype(); }
  ScalarType scalar_type() const { return impl().dtype(); }
  std::size_t itemsize() const { return impl().itemsize(); }
  std::size_t element_size() const { return impl().itemsize(); }
  std::size_t nbytes() const { return static_cast<std::size_t>(numel()) * itemsize(); }
  Device device() const { return impl().device(); }
  Layout layout() const { return impl().layout(); }
  DispatchKeySet key_set() const { return impl().key_set(); }
  bool is_contiguous(MemoryFormat format = MemoryFormat::Contiguous) const { return impl().is_contiguous(format); }
  bool is_view() const { return impl().is_view(); }
  // The tensor this view was taken from; undefined when this is no view.
  Tensor _base() const {
    intrusive_ptr<TensorImpl> b = impl().base();
    return b ? Tensor(std::move(b)) : Tensor();
  }
  bool is_cpu() const { return device().is_cpu(); }
  bool is_meta() const { return device().is_meta(); }

  // ---- data ------------------------------------------------------------------
  // Address of the first element (storage data + offset * itemsize); null for
  // meta tensors and for tensors without elements on some allocators.
  void* data_ptr() const { return impl().data(); }
  // Typed access; throws if T is not the tensor's dtype.
  template <class T>
  T* data_ptr() const {
    using U = std::remove_cv_t<T>;
    static_assert(has_scalar_type_v<U>, "data_ptr<T>: T is not a tensor element type");
    OPD_CHECK_TYPE(scalar_type_of_v<U> == dtype(), "expected scalar type ", scalar_type_of_v<U>, " but found ",
                   dtype());
    return static_cast<T*>(impl().data());
  }
  const Storage& storage() const { return impl().storage(); }
  int64_t storage_offset() const { return impl().storage_offset(); }

  // ---- versions (shared with views) --------------------------------------
  uint32_t version() const { return impl().version(); }
  void bump_version() const { impl().bump_version(); }

  // ---- shape changes -------------------------------------------------------
  // Contiguous strides for `sizes`; grows (never shrinks) the shared storage,
  // preserving its bytes. Views of the same storage see the new buffer.
  const Tensor& resize_(IntArrayRef sizes, MemoryFormat format = MemoryFormat::Contiguous) const {
    impl().resize(sizes, format);
    return *this;
  }
  // A view sharing storage and version counter. `offset` defaults to this
  // tensor's storage offset; the view must fit in the storage.
  Tensor as_strided(IntArrayRef sizes, IntArrayRef strides, std::optional<int64_t> offset = std::nullopt) const {
    return Tensor(impl().make_view(sizes, strides, offset));
  }
  // A copy on `device` through the device's copy kernel; *this when it is
  // there already. Needs #include <dispatch/transfer.hpp>, which defines
  // detail::transfer: without it a call is a compile error naming that
  // header, not a link error (a template, so that files which never move a
  // tensor do not compile the transfer code).
  template <class Deferred = void>
  Tensor to(Device device, bool non_blocking = false) const {
    return detail::transfer<Deferred>::to(*this, device, non_blocking);
  }
  // ---- autograd (#include <autograd/autograd.hpp>) --------------------------
  // As PyTorch's: requires_grad(), set_requires_grad(b), grad(), grad_fn()
  // (a std::shared_ptr<opd::autograd::Node>; ->name() is "AddBackward0"),
  // is_leaf(), output_nr(), detach(), backward(gradient, retain_graph,
  // create_graph), register_hook(fn). Templates, so that files without
  // autograd do not compile it.
  template <class D = void>
  bool requires_grad() const { return detail::autograd_api<D>::requires_grad(*this); }
  template <class D = void>
  const Tensor& set_requires_grad(bool required) const { return detail::autograd_api<D>::set_requires_grad(*this, required); }
  template <class D = void>
  Tensor grad() const { return detail::autograd_api<D>::grad(*this); }
  template <class D = void>
  auto grad_fn() const { return detail::autograd_api<D>::grad_fn(*this); }
  template <class D = void>
  bool is_leaf() const { return detail::autograd_api<D>::is_leaf(*this); }
  template <class D = void>
  uint32_t output_nr() const { return detail::autograd_api<D>::output_nr(*this); }
  template <class D = void>
  Tensor detach() const { return detail::autograd_api<D>::detach(*this); }
  template <class D = void>
  void backward(const Tensor& gradient = Tensor(), std::optional<bool> retain_graph = std::nullopt,
                bool create_graph = false) const {
    detail::autograd_api<D>::backward(*this, gradient, retain_graph, create_graph);
  }
  template <class D = void, class F>
  void register_hook(F&& hook) const { detail::autograd_api<D>::register_hook(*this, std::forward<F>(hook)); }

  // A view of the same shape (c10 alias()).
  Tensor alias() const { return as_strided(sizes(), strides(), storage_offset()); }

  // ---- identity ----------------------------------------------------------
  std::size_t use_count() const noexcept { return impl_.use_count(); }
  bool is_same(const Tensor& other) const noexcept { return impl_ == other.impl_; }
  bool is_alias_of(const Tensor& other) const noexcept {
    return defined() && other.defined() && storage().is_same(other.storage());
  }
  TensorImpl* unsafe_get_impl() const noexcept { return impl_.get(); }
  const intrusive_ptr<TensorImpl>& impl_ptr() const noexcept { return impl_; }
  // Leaves this Tensor undefined and hands its reference to the caller.
  intrusive_ptr<TensorImpl> unsafe_release_impl() noexcept { return std::move(impl_); }

 private:
  TensorImpl& impl() const {
    OPD_CHECK(impl_.defined(), "operation on an undefined Tensor");
    return *impl_;
  }

  intrusive_ptr<TensorImpl> impl_;
};

// The values, as PyTorch's print(tensor) shows them (defined in
// core/tensor_print-inl.hpp): "tensor([[1., 2.],\n        [3., 4.]])"; "Tensor(undefined)".
OPD_API std::ostream& print_tensor(std::ostream& os, const Tensor& t);
inline std::ostream& operator<<(std::ostream& os, const Tensor& t) { return print_tensor(os, t); }

// One line without the values: "Tensor(sizes=[2, 3], dtype=Float, device=cpu)"
// / "Tensor(undefined)" (IValue printing and messages use it).
inline std::ostream& print_tensor_summary(std::ostream& os, const Tensor& t) {
  if (!t.defined()) return os << "Tensor(undefined)";
  return os << "Tensor(sizes=" << t.sizes() << ", dtype=" << t.dtype() << ", device=" << t.device() << ")";
}

// ---- factories ---------------------------------------------------------------

// Uninitialised tensor. Memory comes from the device type's registered
// allocator (throws if none); Meta allocates nothing.
OPD_API Tensor empty(IntArrayRef sizes, ScalarType dtype = ScalarType::Float, Device device = Device::cpu(),
                    MemoryFormat format = MemoryFormat::Contiguous);

// Uninitialised tensor with explicit strides (storage sized to fit them).
OPD_API Tensor empty_strided(IntArrayRef sizes, IntArrayRef strides, ScalarType dtype = ScalarType::Float,
                            Device device = Device::cpu());

// A tensor over existing CPU (or other) memory; not resizable.
OPD_API Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, ScalarType dtype,
                        Device device = Device::cpu(), std::function<void(void*)> on_free = {});

namespace detail {

// Calls f(element_offset) for every element of a strided tensor, in
// row-major order of its logical index.
template <class F>
void for_each_element_offset(IntArrayRef sizes, IntArrayRef strides, F&& f) {
  for (int64_t s : sizes) {
    if (s == 0) return;
  }
  const std::size_t nd = sizes.size();
  SizesVector index(nd, 0);
  int64_t offset = 0;
  while (true) {
    f(offset);
    std::size_t d = nd;
    while (d > 0) {
      --d;
      if (++index[d] < sizes[d]) {
        offset += strides[d];
        break;
      }
      offset -= (sizes[d] - 1) * strides[d];
      index[d] = 0;
      if (d == 0) return;
    }
    if (nd == 0) return;
  }
}

}  // namespace detail

// A contiguous CPU tensor holding `values` with shape `sizes` (numel must
// match). T must be a tensor element type (float, int64_t, bool, Half, ...).
template <class T>
Tensor from_vector(const std::vector<T>& values, IntArrayRef sizes) {
  static_assert(has_scalar_type_v<T>, "from_vector<T>: T is not a tensor element type");
  Tensor t = empty(sizes, scalar_type_of_v<T>, Device::cpu());
  OPD_CHECK(static_cast<std::size_t>(t.numel()) == values.size(), "from_vector: ", values.size(),
            " values do not fill a tensor of sizes ", sizes);
  T* out = t.data_ptr<T>();
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = values[i];  // element-wise: vector<bool> has no data()
  return t;
}

// 1-d overload.
template <class T>
Tensor from_vector(const std::vector<T>& values) {
  const int64_t n = static_cast<int64_t>(values.size());
  return from_vector(values, IntArrayRef(&n, 1));
}

// The elements of a CPU tensor in row-major logical order, following its
// strides (so views and transposes come out as they read). T must be the
// tensor's dtype exactly.
template <class T>
std::vector<T> to_vector(const Tensor& t) {
  static_assert(has_scalar_type_v<T>, "to_vector<T>: T is not a tensor element type");
  OPD_CHECK(t.defined(), "to_vector: undefined tensor");
  OPD_CHECK(t.device().is_cpu(), "to_vector: expected a CPU tensor, got device ", t.device());
  OPD_CHECK_TYPE(t.dtype() == scalar_type_of_v<T>, "to_vector: tensor has dtype ", t.dtype(), " but ",
                 scalar_type_of_v<T>, " was requested");
  std::vector<T> out;
  out.reserve(static_cast<std::size_t>(t.numel()));
  const T* base = t.data_ptr<T>();
  detail::for_each_element_offset(t.sizes(), t.strides(), [&](int64_t off) { out.push_back(base[off]); });
  return out;
}

}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "dispatch/core/tensor-inl.hpp"
#include "dispatch/core/tensor_print-inl.hpp"
#endif
