#pragma once
// Out-of-line part of functional_tensor.hpp (compiled once in
// src/functionalize/functionalize.cpp, or inline under OPD_HEADER_ONLY).
#include <limits>
#include <string>
#include <utility>

#include "dispatch/dispatcher.hpp"
#include "dispatch/keys/local_dispatch_key_set.hpp"
#include "functionalize/functional_tensor.hpp"
#include "functionalize/variants.hpp"

namespace opd::functionalization {

namespace tensor_detail {

// The storage every wrapper of one base shares: no data, room for any view.
inline Storage data_less_storage(Device device) {
  return Storage::from_blob(nullptr, std::numeric_limits<std::size_t>::max() / 4, device);
}

// A boxed call below the layer: the callee sees inner tensors only.
inline void call_below(const OperatorEntry& op, Stack& stack) {
  ExcludeDispatchKeyGuard below(DispatchKey::Functionalize);
  call_boxed(op, stack);
}

// aten::_to_copy(self, *, dtype, layout, device, pin_memory, non_blocking=False, memory_format)
inline Tensor to_dtype_below(const Tensor& t, ScalarType dtype) {
  Stack call;
  call.reserve(7);
  call.emplace_back(t);
  call.emplace_back(static_cast<std::int64_t>(dtype));
  call.emplace_back();
  call.emplace_back();
  call.emplace_back();
  call.emplace_back(false);
  call.emplace_back();
  call_below(Dispatcher::singleton().find_schema_or_throw("aten::_to_copy"), call);
  return std::move(call[0]).to_tensor();
}

// aten::clone(self, memory_format=contiguous_format): a functional copy.
inline Tensor contiguous_below(const Tensor& t) {
  Stack call;
  call.reserve(2);
  call.emplace_back(t);
  call.emplace_back(static_cast<std::int64_t>(MemoryFormat::Contiguous));
  call_below(Dispatcher::singleton().find_schema_or_throw("aten::clone"), call);
  return std::move(call[0]).to_tensor();
}

}  // namespace tensor_detail

// ---- FunctionalStorage ------------------------------------------------------------

OPD_FUNC FunctionalStorage::FunctionalStorage(Tensor base, ViewReplay replay)
    : base_(std::move(base)), replay_(replay), wrapper_storage_(tensor_detail::data_less_storage(base_.device())) {}

OPD_FUNC void FunctionalStorage::add_update(Tensor new_value, const ViewMetas& metas) {
  updates_.push_back(Update{std::move(new_value), metas});
  ++generation_;
}

OPD_FUNC bool FunctionalStorage::apply_updates() {
  if (updates_.empty()) return false;
  // Each update is applied as a whole or not at all; a failed one is dropped
  // with those after it (the base keeps its last good value).
  struct drop_all {
    std::vector<Update>& u;
    ~drop_all() { u.clear(); }
  } freed{updates_};
  for (Update& u : updates_) {
    if (u.metas.empty()) {
      base_ = std::move(u.new_value);
    } else {
      // The intermediate aliases, forward from the base, then the new value
      // walked back through each view's inverse.
      std::vector<Tensor> inter;
      inter.reserve(u.metas.size());
      inter.push_back(base_);
      for (std::size_t i = 0; i + 1 < u.metas.size(); ++i) inter.push_back(view_forward(u.metas[i], inter.back(), replay_));
      Tensor t = std::move(u.new_value);
      for (std::size_t i = u.metas.size(); i-- > 0;) t = view_inverse(u.metas[i], inter[i], t, replay_);
      // An in-place write never changes the base's layout eagerly; an inverse
      // (a *_copy keeping its input's layout) may: a contiguous base stays
      // contiguous, so that a later view of it works as it does eagerly.
      if (base_.is_contiguous() && !t.is_contiguous()) t = tensor_detail::contiguous_below(t);
      base_ = std::move(t);
    }
    ++applied_;
  }
  return true;
}

// ---- FunctionalTensorImpl ---------------------------------------------------------

OPD_FUNC FunctionalTensorImpl::FunctionalTensorImpl(const Tensor& value, ViewReplay replay)
    : FunctionalTensorImpl(value, make_intrusive<FunctionalStorage>(value, replay), ViewMetas{}) {}

OPD_FUNC FunctionalTensorImpl::FunctionalTensorImpl(const Tensor& value, const FunctionalTensorImpl& parent, ViewMeta meta)
    : FunctionalTensorImpl(value, parent.storage_, [&] {
        ViewMetas m;
        m.reserve(parent.metas_.size() + 1);
        m = parent.metas_;
        m.push_back(std::move(meta));
        return m;
      }()) {}

OPD_FUNC FunctionalTensorImpl::FunctionalTensorImpl(const Tensor& value, intrusive_ptr<FunctionalStorage> storage,
                                                    ViewMetas metas)
    : TensorImpl(storage->wrapper_storage(), value.key_set().add(DispatchKey::Functionalize), value.dtype()),
      value_(value),
      storage_(std::move(storage)),
      metas_(std::move(metas)),
      generation_(storage_->generation()) {
  OPD_CHECK(functional_impl(value) == nullptr, "to_functional: the value of a functional tensor cannot be functional");
  refresh_metadata();
}

OPD_FUNC void FunctionalTensorImpl::refresh_metadata() {
  set_sizes_and_strides_unchecked(value_.sizes(), value_.strides());  // the value's, validated
}

OPD_FUNC void FunctionalTensorImpl::sync() {
  if (generation_ == storage_->generation() && storage_->pending_updates() == 0) [[likely]]
    return;
  storage_->apply_updates();
  if (generation_ != storage_->generation()) regenerate_from_base();
}

OPD_FUNC void FunctionalTensorImpl::regenerate_from_base() {
  Tensor t = storage_->base();
  for (const ViewMeta& m : metas_) t = view_forward(m, t, storage_->replay());
  value_ = std::move(t);
  generation_ = storage_->generation();
  refresh_metadata();
}

OPD_FUNC void FunctionalTensorImpl::replace(Tensor new_value) {
  if (new_value.dtype() != dtype()) new_value = tensor_detail::to_dtype_below(new_value, dtype());
  value_ = std::move(new_value);
  refresh_metadata();
}

OPD_FUNC void FunctionalTensorImpl::commit_update() {
  storage_->add_update(value_, metas_);
  // This alias's value is the new one already: only the base needs the update.
  storage_->apply_updates();
  generation_ = storage_->generation();
  bump_version();
}

OPD_FUNC void FunctionalTensorImpl::replace_resized(Tensor new_value) {
  if (new_value.sizes() == value_.sizes()) {
    replace(std::move(new_value));
    commit_update();
    return;
  }
  OPD_CHECK(metas_.empty(), "functionalize: cannot resize a view (sizes ", value_.sizes(), " -> ", new_value.sizes(),
            ")");
  if (new_value.dtype() != dtype()) new_value = tensor_detail::to_dtype_below(new_value, dtype());
  value_ = std::move(new_value);
  storage_->replace_base(value_);
  generation_ = storage_->generation();
  refresh_metadata();
  bump_version();
}

// ---- one view step, forward and backward -------------------------------------------

OPD_FUNC Tensor view_forward(const ViewMeta& meta, const Tensor& base, ViewReplay replay) {
  const OperatorEntry* op = meta.op;
  if (replay == ViewReplay::remove_views) {
    op = copy_variant(*meta.op);
    if (op == nullptr) {  // a composite view: view_inverse.hpp knows its copy
      ExcludeDispatchKeyGuard below(DispatchKey::Functionalize);
      return view_forward(*meta.op, base, meta.args, meta.output_index, replay);
    }
  }
  Stack s;
  s.reserve(meta.args.size() + 1);
  s.emplace_back(base);
  for (const IValue& a : meta.args) s.push_back(a);
  tensor_detail::call_below(*op, s);
  OPD_CHECK(!s.empty(), "functionalize: view '", op->name(), "' returned nothing");
  if (s[0].is_tensor_list()) {
    const auto& list = s[0].to_tensor_list();
    OPD_CHECK_INDEX(meta.output_index >= 0 && static_cast<std::size_t>(meta.output_index) < list.size(),
                    "functionalize: view '", op->name(), "' has no output ", meta.output_index, " on regeneration");
    return list[static_cast<std::size_t>(meta.output_index)];
  }
  return std::move(s[0]).to_tensor();
}

// kernels/views' inverses (functionalize/view_inverse.hpp): scatters and
// *_copy operators in remove_views mode, through the dispatcher.
OPD_FUNC Tensor view_inverse(const ViewMeta& meta, const Tensor& base, const Tensor& mutated_view, ViewReplay replay) {
  ExcludeDispatchKeyGuard below(DispatchKey::Functionalize);
  return view_inverse(*meta.op, base, mutated_view, meta.args, meta.output_index, replay);
}

}  // namespace opd::functionalization
