#pragma once
// Header-only, the definitions come after the declarations of every lazy
// header this one includes: only the outermost lazy header includes them,
// at its end (an inner one would reach lazy-inl.hpp mid-declaration).
#ifndef OPD_LAZY_DECLARING
#define OPD_LAZY_DECLARING
#define OPD_LAZY_OUTERMOST_LAZY_TENSOR
#endif
// Lazy tensors (docs/lazy.md): a TensorImpl on the Lazy device whose value is
// an IR value (a node and an output index), computed when it is read.
//
//   opd::Tensor x = opd::lazy::to_lazy(cpu);   // a functional tensor over a lazy one
//   ... ordinary operators, views and in-place ones included ...
//   opd::Tensor y = opd::lazy::to_cpu(x);      // runs the pending graph, copies to the CPU
//
// Functionalization sits above the Lazy key: to_lazy wraps the lazy tensor in
// a functional tensor (remove_views mode), so views and in-place operators
// reach the lazy kernels only as functional and *_copy operators. A lazy
// tensor holds no memory of its own: its storage is an empty blob on the Lazy
// device, and its sizes, strides and dtype are those the Meta kernel gave.
#include <cstdint>

#include "dispatch/config.hpp"
#include "dispatch/core/object_pool.hpp"
#include "dispatch/core/tensor.hpp"
#include "dispatch/core/tensor_impl.hpp"
#include "lazy/ir.hpp"

namespace opd::lazy {

inline constexpr DispatchKey kLazyKey = DispatchKey::Lazy;
inline constexpr Device kLazyDevice{DeviceType::Lazy, 0};

class OPD_API LazyTensorImpl final : public TensorImpl {
 public:
  OPD_POOLED_NEW(LazyTensorImpl)  // made and dropped by the hundred per step
  LazyTensorImpl(NodePtr node, std::uint32_t index);
  ~LazyTensorImpl() override;
  LazyTensorImpl(const LazyTensorImpl&) = delete;
  LazyTensorImpl& operator=(const LazyTensorImpl&) = delete;

  const NodePtr& node() const noexcept { return node_; }
  std::uint32_t index() const noexcept { return index_; }
  // Pending: its node has not run yet.
  bool pending() const noexcept { return !node_->is_data(); }

  // The registry of live lazy tensors (sync collects their graph), an
  // intrusive list under the executor's registry lock.
  LazyTensorImpl* live_prev = nullptr;
  LazyTensorImpl* live_next = nullptr;

 private:
  NodePtr node_;
  std::uint32_t index_;
};

// The lazy tensor itself: t's impl, or the value of a functional tensor over
// one; nullptr when t is no lazy tensor.
OPD_API LazyTensorImpl* lazy_impl(const Tensor& t);
inline bool is_lazy(const Tensor& t) { return lazy_impl(t) != nullptr; }

// A lazy tensor (graph input) holding a copy of a CPU tensor, without a
// functional wrapper: operators on it must write nothing (views are traced as
// their values).
OPD_API Tensor make_lazy(const Tensor& cpu);
// The same, wrapped in a functional tensor (remove_views): what user code
// holds, so views and in-place operators work on it.
OPD_API Tensor to_lazy(const Tensor& cpu);
// Runs what t's value still needs (syncing a functional wrapper first) and
// returns a CPU copy of it.
OPD_API Tensor to_cpu(const Tensor& t);

// Handed over (an rvalue; the caller's tensor is left undefined): no copy when
// nothing else holds the memory. make_lazy / to_lazy adopt a CPU tensor that no
// other tensor shares (its storage included); to_cpu returns the lazy value's
// CPU buffer itself when no other tensor, alias or pending operator reads it.
// Otherwise they copy, as the const& forms.
OPD_API Tensor make_lazy(Tensor&& cpu);
OPD_API Tensor to_lazy(Tensor&& cpu);
OPD_API Tensor to_cpu(Tensor&& t);

}  // namespace opd::lazy

#ifdef OPD_LAZY_OUTERMOST_LAZY_TENSOR
#undef OPD_LAZY_OUTERMOST_LAZY_TENSOR
#undef OPD_LAZY_DECLARING
// Header-only: the definitions (lazy/lazy.hpp includes them).
#ifdef OPD_HEADER_ONLY
#include "lazy/lazy.hpp"
#endif
#endif
