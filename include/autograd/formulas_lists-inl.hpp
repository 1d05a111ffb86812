#pragma once
// The formulas of operators with Tensor-list arguments or results (cat, stack:
// one gradient per element of `tensors`; split, split_with_sizes, chunk,
// unbind: one output gradient per element, zeros for the unused ones; index and
// index_put: Tensor?[] indices, not differentiable), with PyTorch 1.13's
// semantics (derivatives.yaml), and list_formulas(), which register_autograd()
// merges. Compiled with the reductions (src/autograd_formulas_reductions.cpp).
#include <optional>
#include <span>
#include <vector>

#include "autograd/formulas_common-inl.hpp"
#include "kernels/ops_composites.hpp"  // unsafe_split

namespace opd::autograd {

namespace formulas_detail {
namespace k = kernels::ops;
using fx::int64_t;

namespace lx {  // helpers of this group
inline std::span<const Tensor> list(const variable_list& v) { return {v.data(), v.size()}; }
inline std::span<const std::optional<Tensor>> list(const std::vector<std::optional<Tensor>>& v) { return {v.data(), v.size()}; }
inline Tensor cat(const variable_list& v, int64_t dim) { return call<k::cat>(list(v), dim); }
}  // namespace lx

struct cat_d {  // each element's part of the gradient (PyTorch's cat_tensors_backward)
  using Op = k::cat;
  static variable_list tensors(const Tensor& g, const saved<Op, "tensors.sizes", "tensors.dtype", "dim">& s) {
    const std::vector<SizesVector>& sizes = s.get<"tensors.sizes">();
    const std::vector<ScalarType>& dtypes = s.get<"tensors.dtype">();  // a real element's part: real (handle_r_to_c)
    const int64_t dim = opd::detail::wrap_dim(s.get<"dim">(), g.dim());
    variable_list out;
    int64_t offset = 0;
    for (const SizesVector& sz : sizes) {
      if (sz.size() == 1 && sz[0] == 0) {  // a legacy empty 1-D tensor, skipped by cat
        out.push_back(fx::zeros_like_sizes(IntArrayRef(sz), g));
        continue;
      }
      const int64_t n = sz[static_cast<std::size_t>(dim)];
      out.push_back(fx::r_to_c(dtypes[out.size()], call<k::narrow>(g, dim, offset, n)));
      offset += n;
    }
    return out;
  }
};
struct stack_d {  // the gradient unbound along the new dim
  using Op = k::stack;
  static variable_list tensors(const Tensor& g, const saved<Op, "tensors.dtype", "dim">& s) {
    variable_list out = call<k::unbind>(g, opd::detail::wrap_dim(s.get<"dim">(), g.dim()));
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = fx::r_to_c(s.get<"tensors.dtype">()[i], out[i]);
    return out;
  }
};
template <class Op>
struct split_d {  // split, split_with_sizes, chunk: the gradients concatenated back
  static Tensor self(const variable_list& grads, const saved<Op, "dim">& s) { return lx::cat(grads, s.template get<"dim">()); }
};
struct unbind_d {  // the gradients stacked back
  using Op = k::unbind;
  static Tensor self(const variable_list& grads, const saved<Op, "dim">& s) {
    return call<k::stack>(lx::list(grads), s.get<"dim">());
  }
};
struct index_d {  // grad added at the indices into zeros (index_put with accumulate: differentiable)
  using Op = k::index;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "indices">& s) {
    return call<k::index_put>(fx::zeros_like_sizes(s.get<"self.sizes">(), g), lx::list(s.get<"indices">()), g, true);
  }
  using OpP = k::index_put;
  static Tensor put_self(const Tensor& g, const saved<OpP, "indices", "values.sizes", "accumulate">& s) {
    if (s.get<"accumulate">()) return g;
    return call<k::index_put>(g, lx::list(s.get<"indices">()), fx::zeros_like_sizes(s.get<"values.sizes">(), g), false);
  }
  // (values broadcast to the indexed shape: reduced back, as PyTorch's engine does)
  static Tensor put_values(const Tensor& g, const saved<OpP, "indices", "values.sizes">& s) {
    return fx::sum_to(call<k::index>(g, lx::list(s.get<"indices">())), s.get<"values.sizes">());
  }
};

}  // namespace formulas_detail


namespace fd = formulas_detail;
namespace kops = kernels::ops;

OPD_AUTOGRAD_DERIVATIVES(kops::cat, "CatBackward0", formula<"tensors", &fd::cat_d::tensors>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::stack, "StackBackward0", formula<"tensors", &fd::stack_d::tensors>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::split, "SplitBackward0", formula<"self", &fd::split_d<kops::split>::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::split_with_sizes, "SplitWithSizesBackward0",
                         formula<"self", &fd::split_d<kops::split_with_sizes>::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::chunk, "ChunkBackward0", formula<"self", &fd::split_d<kops::chunk>::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::unsafe_split, "UnsafeSplitBackward0", formula<"self", &fd::split_d<kops::unsafe_split>::self>,
                         complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::unbind, "UnbindBackward0", formula<"self", &fd::unbind_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::index, "IndexBackward0", formula<"self", &fd::index_d::self>,
                         non_differentiable<"indices">, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::index_put, "IndexPutBackward0", formula<"self", &fd::index_d::put_self>,
                         formula<"values", &fd::index_d::put_values>, non_differentiable<"indices">, complex_verified);

OPD_FUNC formulas_detail::registrar formulas_detail::list_formulas() {
  formulas_detail::registrar r;
  r.functional<kops::cat>();
  r.functional<kops::stack>();
  r.functional<kops::split>();
  r.functional<kops::split_with_sizes>();
  r.functional<kops::chunk>();
  r.functional<kops::unsafe_split>();
  r.functional<kops::unbind>();
  r.view_copy<kops::split>();
  r.view_copy<kops::split_with_sizes>();
  r.view_copy<kops::unbind>();
  r.functional<kops::index>();
  r.functional<kops::index_put>();
  return r;
}

}  // namespace opd::autograd
