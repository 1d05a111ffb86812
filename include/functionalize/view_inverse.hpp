#pragma once
// The forward and inverse of every view operator, for functionalization
// (PyTorch's FunctionalInverses.cpp and ViewMeta): a layer that replaces a
// view by a copy replays the view from its base (view_forward) and, after a
// mutation of the view's value, computes the base's new value from it
// (view_inverse). Every tensor operation both make goes through the
// dispatcher, so a backend below the layer sees (and may trace) them.
//
//   // v = aten::transpose.int(base, 0, 1); then v's value became `v_new`:
//   opd::Stack args{int64_t{0}, int64_t{1}};
//   opd::Tensor base_new = opd::functionalization::view_inverse("aten::transpose.int", base, v_new, args, 0,
//                                                          opd::functionalization::InverseMode::remove_views);
//
// The views handled: those of kernels/ops_views.hpp -- view, reshape,
// flatten.using_ints, transpose.int, t, permute, slice.Tensor, narrow,
// select.int, diagonal, unsqueeze, squeeze, squeeze.dim, expand, expand_as,
// as_strided, alias, detach, split.Tensor, split_with_sizes, chunk,
// unbind.int, unfold (not _unsafe_view, which is no view).
// docs/functionalization-ops.md has the table of inverses and what each is
// exact for.
#include "dispatch/config.hpp"  // first: a pre-C++20 compile stops with one readable error
#include <cstdint>
#include <string_view>

#include "dispatch/core/ivalue.hpp"
#include "dispatch/core/tensor.hpp"
#include "dispatch/fwd.hpp"

namespace opd {
class OperatorEntry;
}

namespace opd::functionalization {

// keep_views: the forward replays the view itself and inverses may use views.
// remove_views: only *_copy, *_scatter and functional operators are called
// (a backend below sees no view), as PyTorch's "never view" mode.
enum class InverseMode { keep_views, remove_views };

// The new value of `base` after the view's output number `output_index` (0
// for single-output views) took the value `mutated_view`. `base` is the
// current value of the tensor the view was taken from; `view_args` the view
// call's boxed arguments after `self`, as on its stack (defaults included).
// `view_op` is the operator's full name ("aten::transpose.int", "aten::view").
// Throws opd::Error naming the operator for an operator that is no known view
// or for arguments that do not fit it.
OPD_API Tensor view_inverse(std::string_view view_op, const Tensor& base, const Tensor& mutated_view,
                            const Stack& view_args, int64_t output_index, InverseMode mode);
OPD_API Tensor view_inverse(const OperatorEntry& view_op, const Tensor& base, const Tensor& mutated_view,
                            const Stack& view_args, int64_t output_index, InverseMode mode);

// The view's output number `output_index` taken from `base` again, boxed:
// the view itself (keep_views) or its *_copy operator (remove_views).
OPD_API Tensor view_forward(std::string_view view_op, const Tensor& base, const Stack& view_args,
                            int64_t output_index, InverseMode mode);
OPD_API Tensor view_forward(const OperatorEntry& view_op, const Tensor& base, const Stack& view_args,
                            int64_t output_index, InverseMode mode);

// The view a composite multi-output view is made of, as ATen's kernel makes
// it (ATen decomposes it above functionalization, so only the parts reach a
// backend): chunk -> split.Tensor by ceil(n / chunks) along dim, or, when n
// is 0, split_with_sizes into `chunks` empty pieces. `self` is the current
// value of the tensor viewed, `view_args` the call's arguments after self.
// op is null for a view that is not decomposed (every other one).
struct ViewDecomposition {
  const OperatorEntry* op = nullptr;
  Stack args;  // op's arguments after self
};
OPD_API ViewDecomposition decompose_view(const OperatorEntry& view_op, const Tensor& self, const Stack& view_args);

// Whether view_inverse / view_forward know the operator (full name).
OPD_API bool has_view_inverse(std::string_view view_op);

}  // namespace opd::functionalization

#ifdef OPD_HEADER_ONLY
#include "functionalize/view_inverse-inl.hpp"
#endif
