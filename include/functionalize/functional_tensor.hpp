#pragma once
// The functional tensor: what a tensor is above the Functionalize key.
//
//   FunctionalTensorImpl   a TensorImpl with the Functionalize key whose data is
//                          an inner tensor (its current value), plus
//   FunctionalStorage      shared by every alias of one base: the base's value,
//                          the queue of updates not yet applied to it, and a
//                          generation counter bumped by each update, and
//   ViewMeta chain         per alias, the views that lead from the base to it
//                          (operator, its boxed arguments after `self`, which
//                          output), replayed forward to regenerate the alias
//                          and backward (the view's inverse) to apply an update.
//
// Why a queue that empties at once: a mutation through an alias commits its
// new value to the queue and syncs that alias immediately (as PyTorch does),
// which applies every pending update to the base and FREES it; other aliases
// only compare generations and regenerate when next used. So the queue never
// holds more than the updates of one operator call, however long a program
// mutates a view without reading it (PyTorch's grows: pytorch/xla#4806).
//
// Why the wrapper's own storage holds no data: aliases of one base share it,
// so `is_alias_of` answers as for the eager tensors, and any kernel that
// reaches a wrapper by mistake reads a null data pointer rather than stale values.
#include <cstdint>
#include <memory>
#include <vector>

#include "dispatch/config.hpp"
#include "dispatch/core/ivalue.hpp"
#include "dispatch/core/object_pool.hpp"
#include "dispatch/core/tensor.hpp"
#include "dispatch/dispatcher/operator_entry.hpp"
#include "functionalize/view_inverse.hpp"

namespace opd::functionalization {

// How views are replayed below the layer: keep_views, the view operator
// itself (aten::transpose.int); remove_views, its *_copy operator
// (aten::transpose_copy.int) and scatter inverses, so the backend sees no alias.
using ViewReplay = InverseMode;

// One step of an alias's chain from its base.
struct ViewMeta {
  const OperatorEntry* op = nullptr;  // the view operator
  std::vector<IValue> args;           // its arguments after `self`, as on its stack
  std::int64_t output_index = 0;      // which output of a multi-output view (split, unbind); 0 otherwise
};
using ViewMetas = std::vector<ViewMeta>;

struct Update {
  Tensor new_value;   // the new value of the alias that was mutated
  ViewMetas metas;    // that alias's chain from the base
};

class OPD_API FunctionalStorage final : public intrusive_target {
 public:
  OPD_POOLED_NEW(FunctionalStorage)  // one per operator result
  FunctionalStorage(Tensor base, ViewReplay replay);

  const Tensor& base() const noexcept { return base_; }
  std::uint64_t generation() const noexcept { return generation_; }
  ViewReplay replay() const noexcept { return replay_; }
  std::size_t pending_updates() const noexcept { return updates_.size(); }
  // Total updates ever applied to the base (for tests and statistics).
  std::uint64_t applied_updates() const noexcept { return applied_; }
  // The data-less storage every wrapper of this base shares.
  const Storage& wrapper_storage() const noexcept { return wrapper_storage_; }
  // Whether any update was ever committed (an input that was mutated).
  bool mutated() const noexcept { return generation_ > 0; }

  void add_update(Tensor new_value, const ViewMetas& metas);
  // Applies every pending update to the base, oldest first, and frees them.
  // Returns whether there was any.
  bool apply_updates();
  // Replaces the base wholesale (out= resizing a base, set_-like operations).
  void replace_base(Tensor value) {
    base_ = std::move(value);
    ++generation_;
  }

 private:
  Tensor base_;
  std::vector<Update> updates_;
  std::uint64_t generation_ = 0;
  std::uint64_t applied_ = 0;
  ViewReplay replay_;
  Storage wrapper_storage_;
};

class OPD_API FunctionalTensorImpl final : public TensorImpl {
 public:
  OPD_POOLED_NEW(FunctionalTensorImpl)  // one per operator result
  // A new base: value is the inner tensor (not itself functional).
  FunctionalTensorImpl(const Tensor& value, ViewReplay replay);
  // A view of `parent`: shares its storage, chain = parent's + `meta`.
  FunctionalTensorImpl(const Tensor& value, const FunctionalTensorImpl& parent, ViewMeta meta);

  // The current value, possibly stale: call sync() first to read it.
  const Tensor& value() const noexcept { return value_; }
  const intrusive_ptr<FunctionalStorage>& functional_storage() const noexcept { return storage_; }
  const ViewMetas& view_metas() const noexcept { return metas_; }
  bool is_up_to_date() const noexcept { return generation_ == storage_->generation(); }

  // Brings the value up to date: applies pending updates to the base and,
  // when the base changed since this alias last looked, regenerates the value
  // from it by replaying the view chain.
  void sync();
  // The value after a mutation of this alias (same sizes; dtype cast when it differs).
  void replace(Tensor new_value);
  // Queues this alias's current value as an update of the base and bumps the
  // generation, then syncs: applied and freed at once.
  void commit_update();
  // Replaces the value with any sizes (out= resizing): rebases a base alias.
  void replace_resized(Tensor new_value);

 private:
  FunctionalTensorImpl(const Tensor& value, intrusive_ptr<FunctionalStorage> storage, ViewMetas metas);
  void regenerate_from_base();
  void refresh_metadata();

  Tensor value_;
  intrusive_ptr<FunctionalStorage> storage_;
  ViewMetas metas_;
  std::uint64_t generation_ = 0;
};

// The forward replay of one view step: the view (keep_views) or its *_copy
// (remove_views) of `base`, called below the Functionalize key.
OPD_API Tensor view_forward(const ViewMeta& meta, const Tensor& base, ViewReplay replay);
// The new value of `base` after the view step's output became `mutated_view`.
OPD_API Tensor view_inverse(const ViewMeta& meta, const Tensor& base, const Tensor& mutated_view, ViewReplay replay);

}  // namespace opd::functionalization

namespace opd {

// t's wrapper, or null when t is no functional tensor. Only
// FunctionalTensorImpl carries the Functionalize key on a tensor, so the key
// is the type test.
inline functionalization::FunctionalTensorImpl* functional_impl(const Tensor& t) noexcept {
  if (!t.defined() || !t.key_set().has(DispatchKey::Functionalize)) return nullptr;
  return static_cast<functionalization::FunctionalTensorImpl*>(t.unsafe_get_impl());
}

}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "functionalize/functional_tensor-inl.hpp"
#endif
