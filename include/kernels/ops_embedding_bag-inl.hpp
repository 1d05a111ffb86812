#pragma once
// Out-of-line part of ops_embedding_bag.hpp (compiled in src/kernels/embedding_bag.cpp):
// _embedding_bag, its backward kernels, and register_embedding_bag().
#include <cblas.h>

#include <algorithm>
#include <climits>
#include <numeric>
#include <cstdint>
#include <optional>
#include <tuple>
#include <type_traits>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/arith_simd.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/factory.hpp"
#include "kernels/ops_embedding_bag.hpp"

namespace opd::kernels {

namespace embedding_bag_detail {

// indices / offsets as int64 values (Long or Int tensors, any strides).
inline std::vector<int64_t> long_values(const Tensor& t) {
  const Tensor c = t.is_contiguous() ? t : contiguous_clone(t);
  std::vector<int64_t> v(static_cast<std::size_t>(c.numel()));
  if (c.dtype() == ScalarType::Long) {
    const int64_t* p = c.data_ptr<int64_t>();
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = p[i];
  } else {
    const int32_t* p = c.data_ptr<int32_t>();
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = p[i];
  }
  return v;
}

// A 1-D tensor of `dtype` (Long or Int) holding `values`.
inline Tensor index_tensor(const std::vector<int64_t>& values, ScalarType dtype) {
  const int64_t n = static_cast<int64_t>(values.size());
  Tensor t = opd::empty(IntArrayRef(&n, 1), dtype, Device::cpu());
  for (int64_t i = 0; i < n; ++i) {
    if (dtype == ScalarType::Long) t.data_ptr<int64_t>()[i] = values[static_cast<std::size_t>(i)];
    else t.data_ptr<int32_t>()[i] = static_cast<int32_t>(values[static_cast<std::size_t>(i)]);
  }
  return t;
}

inline std::tuple<Tensor, Tensor, Tensor, Tensor> embedding_bag(const Tensor& weight, const Tensor& indices,
                                                                 const Tensor& offsets, bool scale_grad_by_freq,
                                                                 int64_t mode, bool sparse,
                                                                 const std::optional<Tensor>& per_sample_weights,
                                                                 bool include_last_offset, int64_t padding_idx) {
  (void)scale_grad_by_freq;  // the backward's
  (void)sparse;
  constexpr const char* op = "embedding_bag";
  for (const auto& [t, name] : {std::pair<const Tensor&, const char*>{weight, "weight"}, {indices, "indices"},
                                {offsets, "offsets"}}) {
    OPD_CHECK(t.defined(), op, ": argument '", name, "' is an undefined tensor");
    OPD_CHECK(t.device().is_cpu() || t.device().is_meta(), op, ": the CPU kernel got argument '", name, "' on device ",
              t.device());
  }
  const auto index_type = [](ScalarType t) { return t == ScalarType::Long || t == ScalarType::Int; };
  OPD_CHECK(index_type(indices.dtype()), "embedding_bag: Expected tensor for argument #1 'indices' to have one of the "
            "following scalar types: Long, Int; but got ", indices.dtype(), " instead");
  OPD_CHECK(index_type(offsets.dtype()), "embedding_bag: Expected tensor for argument #1 'offsets' to have one of the "
            "following scalar types: Long, Int; but got ", offsets.dtype(), " instead");
  // indices and offsets promoted to one type (Long unless both are Int)
  const ScalarType itype =
      indices.dtype() == ScalarType::Int && offsets.dtype() == ScalarType::Int ? ScalarType::Int : ScalarType::Long;
  const ScalarType wt = weight.dtype();
  if (wt != ScalarType::Float && wt != ScalarType::Double) throw_not_implemented_for("embedding_bag", wt);
  OPD_CHECK(weight.dim() == 2, "embedding_bag: expected weight to be 2-D (num_embeddings, embedding_dim), got ",
            weight.sizes());
  OPD_CHECK(indices.dim() == 1, "embedding_bag: expected 1-D indices, got ", indices.sizes());
  OPD_CHECK(offsets.dim() == 1, "offsets has to be a 1D Tensor, but got Tensor of dimension ", offsets.dim());
  OPD_CHECK(mode >= 0 && mode <= 2, "embedding_bag: mode must be 0 (sum), 1 (mean) or 2 (max), got ", mode);
  const bool weighted = per_sample_weights.has_value() && per_sample_weights->defined();
  if (weighted) {
    OPD_CHECK(mode == 0, "embedding_bag: per_sample_weights only supported with mode='sum'");
    OPD_CHECK(per_sample_weights->dtype() == wt, "embedding_bag: expected per_sample_weights of dtype ", wt,
              ", but got ", per_sample_weights->dtype());
    OPD_CHECK(per_sample_weights->dim() == 1 && per_sample_weights->numel() == indices.numel(),
              "embedding_bag: expected per_sample_weights of one value per index (", indices.numel(), "), got ",
              per_sample_weights->sizes());
  }
  if (include_last_offset) {
    OPD_CHECK(offsets.size(0) >= 1, "include_last_offset: number of offset should be at least 1");
  }
  const int64_t n = indices.size(0), dim = weight.size(1), num_weights = weight.size(0);
  const int64_t bags = include_last_offset ? offsets.size(0) - 1 : offsets.size(0);
  const int64_t out_sizes[2] = {bags, dim};
  const bool meta = weight.is_meta() || indices.is_meta() || offsets.is_meta();
  const Device device = meta ? Device::meta() : Device::cpu();
  // ATen's sum fast path (a Float weight of unit column stride, no
  // padding_idx, unit-stride per_sample_weights) computes no offset2bag.
  const bool fast_path = mode == 0 && wt == ScalarType::Float && weight.stride(1) == 1 && padding_idx < 0 &&
                         (!weighted || per_sample_weights->stride(0) == 1);
  if (meta) {
    const int64_t n_bag_of = fast_path ? 0 : n;
    return {opd::empty(IntArrayRef(out_sizes, 2), wt, device), opd::empty(IntArrayRef(&n_bag_of, 1), itype, device),
            opd::empty(IntArrayRef(&bags, 1), itype, device),
            mode == 2 ? opd::empty(IntArrayRef(out_sizes, 2), itype, device)
                      : opd::empty(IntArrayRef(&bags, 1), itype, device)};
  }
  const std::vector<int64_t> idx = long_values(indices), off = long_values(offsets);
  // ATen's checks of offsets, then the library's: non-decreasing, within the indices
  if (!off.empty()) {
    OPD_CHECK(off.front() == 0, "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
              "position 0. However, got ", off.front());
    OPD_CHECK(off.back() <= n, "offsets[-1] can not be greater than input's length ", n, " but got offsets[-1] of ",
              off.back());
    for (std::size_t b = 1; b < off.size(); ++b) {
      OPD_CHECK(off[b] >= off[b - 1], "embedding_bag: offsets must be non-decreasing, but offsets[", b, "] = ", off[b],
                " < offsets[", b - 1, "] = ", off[b - 1]);
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    const int64_t v = idx[static_cast<std::size_t>(i)];
    OPD_CHECK(v >= 0 && v < num_weights,
              "embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be ", v);
  }
  // each index's bag: the last bag runs to the end of indices
  std::vector<int64_t> bag_of(static_cast<std::size_t>(n), 0);
  for (int64_t b = 0; b < bags; ++b) {
    const int64_t end = b + 1 < bags ? off[static_cast<std::size_t>(b + 1)] : n;
    for (int64_t i = off[static_cast<std::size_t>(b)]; i < end; ++i) bag_of[static_cast<std::size_t>(i)] = b;
  }
  std::vector<int64_t> bag_size(static_cast<std::size_t>(bags), 0);
  for (int64_t b = 0; b < bags; ++b) {
    const int64_t end = b + 1 < bags ? off[static_cast<std::size_t>(b + 1)] : n;
    bag_size[static_cast<std::size_t>(b)] = end - off[static_cast<std::size_t>(b)];
  }
  Tensor output = kernels::zeros(IntArrayRef(out_sizes, 2), wt, device);
  std::vector<int64_t> max_indices(static_cast<std::size_t>(mode == 2 ? bags * dim : 0), 0);
  const Tensor w = weight;  // read by its strides
  const int64_t ws0 = weight.stride(0), ws1 = weight.stride(1);
  const auto run = [&](auto* o, const auto* wp) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(wp)>>;
    std::vector<T> scale;
    if (weighted) {
      const Tensor psw = per_sample_weights->is_contiguous() ? *per_sample_weights : contiguous_clone(*per_sample_weights);
      scale.assign(psw.data_ptr<T>(), psw.data_ptr<T>() + n);
    }
    std::vector<bool> seen(static_cast<std::size_t>(bags), false);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t v = idx[static_cast<std::size_t>(i)], b = bag_of[static_cast<std::size_t>(i)];
      if (v == padding_idx) {
        --bag_size[static_cast<std::size_t>(b)];
        continue;
      }
      const T* row = wp + v * ws0;
      T* dst = o + b * dim;
      if (mode == 2) {
        const bool first = !seen[static_cast<std::size_t>(b)];
        for (int64_t d = 0; d < dim; ++d) {
          const T x = row[d * ws1];
          if (first || x > dst[d]) {
            dst[d] = x;
            max_indices[static_cast<std::size_t>(b * dim + d)] = v;
          }
        }
        seen[static_cast<std::size_t>(b)] = true;
      } else {
        // a contiguous row unweighted: the vectorized add row at the CPU's full width (the
        // default build's loop ran 4 floats wide: 1.3x ATen's time on weight [1000, 256])
        const T s = weighted ? scale[static_cast<std::size_t>(i)] : T(1);
        const bool added = ws1 == 1 && !weighted && simd::basic_arith_row(BasicArith::Add, dst, row, dst, dim, 0);
        if (!added) {
          for (int64_t d = 0; d < dim; ++d) dst[d] += weighted ? s * row[d * ws1] : row[d * ws1];
        }
      }
    }
    if (mode == 1) {
      for (int64_t b = 0; b < bags; ++b) {
        const T divisor = static_cast<T>(std::max<int64_t>(bag_size[static_cast<std::size_t>(b)], 1));
        for (int64_t d = 0; d < dim; ++d) o[b * dim + d] /= divisor;
      }
    }
  };
  if (wt == ScalarType::Float) run(output.data_ptr<float>(), w.data_ptr<float>());
  else run(output.data_ptr<double>(), w.data_ptr<double>());
  // The auxiliary results as ATen 1.13's CPU kernel returns them: in sum mode
  // bag_size (and max_indices, its copy) zero, and no offset2bag on the fast path.
  if (mode == 0) std::fill(bag_size.begin(), bag_size.end(), int64_t{0});
  Tensor offset2bag = index_tensor(fast_path ? std::vector<int64_t>{} : bag_of, itype);
  Tensor sizes = index_tensor(bag_size, itype);
  Tensor max_idx;
  if (mode == 2) {
    max_idx = index_tensor(max_indices, itype);
    max_idx = max_idx.as_strided(std::vector<int64_t>{bags, dim}, std::vector<int64_t>{dim, 1}, 0);
  } else {
    max_idx = index_tensor(bag_size, itype);
  }
  return {output, offset2bag, sizes, max_idx};
}

// ---- the backward kernels ----

inline void check_arg(const char* op, const Tensor& t, const char* name) {
  OPD_CHECK(t.defined(), op, ": argument '", name, "' is an undefined tensor");
  OPD_CHECK(t.device().is_cpu() || t.device().is_meta(), op, ": the CPU kernel got argument '", name, "' on device ",
            t.device());
}
inline void check_index(const Tensor& t, const char* name) {
  OPD_CHECK(t.dtype() == ScalarType::Long || t.dtype() == ScalarType::Int, "embedding_bag: Expected tensor for argument #1 '",
            name, "' to have one of the following scalar types: Long, Int; but got ", t.dtype(), " instead");
}
// ATen's make_offset2bag, for an offset2bag the forward left empty: each index's bag is the number
// of offsets at or before it, less one.
inline std::vector<int64_t> offset2bag_from(const Tensor& offsets, int64_t n) {
  std::vector<int64_t> hits(static_cast<std::size_t>(n + 1), 0);
  for (int64_t v : long_values(offsets)) {
    OPD_CHECK(v >= 0 && v <= n, "embedding_bag: offsets must lie in [0, ", n, "], got ", v);
    ++hits[static_cast<std::size_t>(v)];
  }
  std::vector<int64_t> o2b(static_cast<std::size_t>(n));
  int64_t bag = -1;
  for (std::size_t i = 0; i < o2b.size(); ++i) o2b[i] = bag += hits[i];
  return o2b;
}
// offset2bag's values, checked: one per index, each a bag of grad
inline std::vector<int64_t> bags_of(const Tensor& offset2bag, const Tensor& offsets, int64_t n, int64_t bags) {
  std::vector<int64_t> o2b = offset2bag.numel() == 0 && n != 0 ? offset2bag_from(offsets, n) : long_values(offset2bag);
  OPD_CHECK(static_cast<int64_t>(o2b.size()) == n, "embedding_bag_backward: expected offset2bag of one value per index (", n,
            "), got ", o2b.size());
  for (int64_t b : o2b) OPD_CHECK(b >= 0 && b < bags, "embedding_bag_backward: offset2bag value ", b, " is not a bag of grad (", bags, " bags)");
  return o2b;
}

inline Tensor embedding_bag_dense_backward(const Tensor& grad, const Tensor& indices, const Tensor& offset2bag,
                                           const Tensor& bag_size, const Tensor& maximum_indices, int64_t num_weights,
                                           bool scale_grad_by_freq, int64_t mode,
                                           const std::optional<Tensor>& per_sample_weights, int64_t padding_idx) {
  constexpr const char* op = "_embedding_bag_dense_backward";
  check_arg(op, grad, "grad");
  check_arg(op, indices, "indices");
  check_arg(op, offset2bag, "offset2bag");
  check_arg(op, bag_size, "bag_size");
  check_arg(op, maximum_indices, "maximum_indices");
  check_index(indices, "indices");
  check_index(offset2bag, "offset2bag");
  if (mode != 0) check_index(bag_size, "bag_size");
  const ScalarType dt = grad.dtype();
  if (dt != ScalarType::Float && dt != ScalarType::Double) throw_not_implemented_for("embedding_bag_backward", dt);
  OPD_CHECK(grad.dim() == 2, op, ": expected grad to be 2-D (bags, embedding_dim), got ", grad.sizes());
  OPD_CHECK(indices.dim() == 1, op, ": expected 1-D indices, got ", indices.sizes());
  OPD_CHECK(mode >= 0 && mode <= 2, op, ": mode must be 0 (sum), 1 (mean) or 2 (max), got ", mode);
  OPD_CHECK(num_weights >= 0, op, ": num_weights must be non-negative, got ", num_weights);
  const bool weighted = per_sample_weights.has_value() && per_sample_weights->defined();
  const int64_t bags = grad.size(0), dim = grad.size(1), n = indices.numel();
  if (weighted) {
    OPD_CHECK(mode == 0, "embedding_bag_backward: per_sample_weights only supported for mode='sum'");
    OPD_CHECK(per_sample_weights->dtype() == dt, "expected scalar type ", dt, " but found ", per_sample_weights->dtype());
    OPD_CHECK(per_sample_weights->dim() == 1 && per_sample_weights->numel() == n, op,
              ": expected per_sample_weights of one value per index (", n, "), got ", per_sample_weights->sizes());
  }
  const int64_t out_sizes[2] = {num_weights, dim};
  if (grad.is_meta() || indices.is_meta() || offset2bag.is_meta() || bag_size.is_meta() || maximum_indices.is_meta())
    return opd::empty(IntArrayRef(out_sizes, 2), dt, Device::meta());
  Tensor result = kernels::zeros(IntArrayRef(out_sizes, 2), dt, Device::cpu());
  const Tensor g = grad.is_contiguous() ? grad : contiguous_clone(grad);
  const auto in_range = [&](int64_t v) {
    OPD_CHECK(v >= 0 && v < num_weights, "embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be ", v);
  };
  const auto run = [&](auto* r, const auto* gp) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(gp)>>;
    if (mode == 2) {  // each non-empty bag's gradient at its maximum_indices, bag by bag
      check_index(maximum_indices, "maximum_indices");
      const std::vector<int64_t> size = long_values(bag_size), at = long_values(maximum_indices);
      OPD_CHECK(static_cast<int64_t>(size.size()) == bags && static_cast<int64_t>(at.size()) == bags * dim, op,
                ": expected bag_size of ", bags, " and maximum_indices of ", bags, " x ", dim, " values");
      for (int64_t b = 0; b < bags; ++b) {
        if (size[static_cast<std::size_t>(b)] == 0) continue;
        for (int64_t d = 0; d < dim; ++d) {
          const int64_t v = at[static_cast<std::size_t>(b * dim + d)];
          in_range(v);
          r[v * dim + d] += gp[b * dim + d];
        }
      }
      return;
    }
    OPD_CHECK(offset2bag.numel() == n, op, ": expected offset2bag of one value per index (", n, "), got ",
              offset2bag.sizes());
    const std::vector<int64_t> idx = long_values(indices), o2b = bags_of(offset2bag, offset2bag, n, bags);
    std::vector<int64_t> size;
    if (mode == 1) {
      size = long_values(bag_size);
      OPD_CHECK(static_cast<int64_t>(size.size()) == bags, op, ": expected bag_size of ", bags, " values, got ", size.size());
    }
    std::vector<T> psw;
    if (weighted) {
      const Tensor w = per_sample_weights->is_contiguous() ? *per_sample_weights : contiguous_clone(*per_sample_weights);
      psw.assign(w.data_ptr<T>(), w.data_ptr<T>() + n);
    }
    std::vector<int64_t> counts(static_cast<std::size_t>(num_weights), 0);
    for (int64_t v : idx) {
      in_range(v);
      ++counts[static_cast<std::size_t>(v)];
    }
    // the indices sorted (stable), in groups of one value; group u's rows scaled by ATen 1.13's count,
    // that of the value at position u of the sorted indices
    std::vector<int64_t> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), int64_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return idx[static_cast<std::size_t>(a)] < idx[static_cast<std::size_t>(b)]; });
    int64_t u = 0;
    for (std::size_t start = 0; start < order.size(); ++u) {
      const int64_t v = idx[static_cast<std::size_t>(order[start])];
      std::size_t end = start;
      while (end < order.size() && idx[static_cast<std::size_t>(order[end])] == v) ++end;
      if (v != padding_idx) {
        const int64_t freq = counts[static_cast<std::size_t>(idx[static_cast<std::size_t>(order[static_cast<std::size_t>(u)])])];
        for (std::size_t j = start; j < end; ++j) {
          const int64_t source = o2b[static_cast<std::size_t>(order[j])];
          double scale = 1.0;
          if (scale_grad_by_freq) scale /= static_cast<double>(freq);
          if (mode == 1 && size[static_cast<std::size_t>(source)] != 0) scale /= static_cast<double>(size[static_cast<std::size_t>(source)]);
          const T alpha = weighted ? static_cast<T>(scale) * psw[static_cast<std::size_t>(order[j])] : static_cast<T>(scale);
          for (int64_t d = 0; d < dim; ++d) r[v * dim + d] += alpha * gp[source * dim + d];
        }
      }
      start = end;
    }
  };
  if (dt == ScalarType::Float) run(result.data_ptr<float>(), g.data_ptr<float>());
  else run(result.data_ptr<double>(), g.data_ptr<double>());
  return result;
}

// CompositeImplicitAutograd, as ATen's: differentiated through the dense backward (which has no formula)
inline Tensor embedding_bag_backward(const Tensor& grad, const Tensor& indices, const Tensor& offsets,
                                     const Tensor& offset2bag, const Tensor& bag_size, const Tensor& maximum_indices,
                                     int64_t num_weights, bool scale_grad_by_freq, int64_t mode, bool sparse,
                                     const std::optional<Tensor>& per_sample_weights, int64_t padding_idx) {
  constexpr const char* op = "_embedding_bag_backward";
  check_arg(op, indices, "indices");
  check_arg(op, offsets, "offsets");
  check_arg(op, offset2bag, "offset2bag");
  check_index(indices, "indices");
  check_index(offsets, "offsets");
  OPD_CHECK(!sparse, op, ": sparse=True gradients are not supported (the library has no sparse tensors)");
  Tensor o2b = offset2bag;
  const int64_t n = indices.numel();
  if (n != 0 && offset2bag.numel() == 0) {  // the forward's sum fast path made none
    o2b = indices.is_meta() || offsets.is_meta() ? opd::empty(IntArrayRef(&n, 1), ScalarType::Long, Device::meta())
                                                 : index_tensor(offset2bag_from(offsets, n), ScalarType::Long);
  }
  return call<ops::embedding_bag_dense_backward>(grad, indices, o2b, bag_size, maximum_indices, num_weights,
                                                 scale_grad_by_freq, mode, per_sample_weights, padding_idx);
}

inline Tensor embedding_bag_per_sample_weights_backward(const Tensor& grad, const Tensor& weight, const Tensor& indices,
                                                        const Tensor& offsets, const Tensor& offset2bag, int64_t mode,
                                                        int64_t padding_idx) {
  constexpr const char* op = "_embedding_bag_per_sample_weights_backward";
  check_arg(op, grad, "grad");
  check_arg(op, weight, "weight");
  check_arg(op, indices, "indices");
  check_arg(op, offsets, "offsets");
  check_arg(op, offset2bag, "offset2bag");
  OPD_CHECK(mode == 0, "embedding_bag_backward: per_sample_weights only supported for mode='sum'");
  check_index(indices, "indices");
  check_index(offsets, "offsets");
  check_index(offset2bag, "offset2bag");
  const ScalarType dt = grad.dtype();
  if (dt != ScalarType::Float && dt != ScalarType::Double)
    throw_not_implemented_for("_embedding_bag_per_sample_weights_backward_cpu", dt);
  OPD_CHECK(weight.dtype() == dt, "expected scalar type ", dt, " but found ", weight.dtype());
  OPD_CHECK(grad.dim() == 2 && weight.dim() == 2 && weight.size(1) == grad.size(1), op,
            ": expected grad (bags, D) and weight (num_weights, D), got ", grad.sizes(), " and ", weight.sizes());
  OPD_CHECK(indices.dim() == 1, op, ": expected 1-D indices, got ", indices.sizes());
  const int64_t n = indices.numel(), bags = grad.size(0), dim = grad.size(1);
  if (grad.is_meta() || weight.is_meta() || indices.is_meta() || offsets.is_meta() || offset2bag.is_meta())
    return opd::empty(IntArrayRef(&n, 1), dt, Device::meta());
  Tensor out = kernels::zeros(IntArrayRef(&n, 1), dt, Device::cpu());
  const std::vector<int64_t> idx = long_values(indices), o2b = bags_of(offset2bag, offsets, n, bags);
  const int64_t gs0 = grad.stride(0), gs1 = grad.stride(1), ws0 = weight.stride(0), ws1 = weight.stride(1);
  const auto fits_int = [](int64_t v) { return v > INT_MIN && v < INT_MAX; };
  const bool blas_sized = fits_int(dim) && fits_int(gs1) && fits_int(ws1);
  const auto run = [&](auto* o, const auto* gp, const auto* wp) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(gp)>>;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t v = idx[static_cast<std::size_t>(i)], b = o2b[static_cast<std::size_t>(i)];
      OPD_CHECK(v >= 0 && v < weight.size(0), "embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be ", v);
      if (v == padding_idx) continue;
      const T* gb = gp + b * gs0;
      const T* wv = wp + v * ws0;
      if (blas_sized) {  // ATen's dot_impl: the BLAS dot
        if constexpr (std::is_same_v<T, float>) o[i] = cblas_sdot(static_cast<int>(dim), gb, static_cast<int>(gs1), wv, static_cast<int>(ws1));
        else o[i] = cblas_ddot(static_cast<int>(dim), gb, static_cast<int>(gs1), wv, static_cast<int>(ws1));
      } else {
        T acc = 0;
        for (int64_t d = 0; d < dim; ++d) acc += gb[d * gs1] * wv[d * ws1];
        o[i] = acc;
      }
    }
  };
  if (dt == ScalarType::Float) run(out.data_ptr<float>(), grad.data_ptr<float>(), weight.data_ptr<float>());
  else run(out.data_ptr<double>(), grad.data_ptr<double>(), weight.data_ptr<double>());
  return out;
}

}  // namespace embedding_bag_detail

OPD_FUNC RegistrationSet register_embedding_bag() {
  RegistrationSet set;
  // Meta: the same kernel, which stops after its checks on Meta tensors.
  for (DispatchKey key : {DispatchKey::CPU, DispatchKey::Meta}) {
    set.add(register_kernel<ops::embedding_bag_, &embedding_bag_detail::embedding_bag>(key));
    set.add(register_kernel<ops::embedding_bag_dense_backward, &embedding_bag_detail::embedding_bag_dense_backward>(key));
    set.add(register_kernel<ops::embedding_bag_per_sample_weights_backward,
                            &embedding_bag_detail::embedding_bag_per_sample_weights_backward>(key));
  }
  set.add(register_kernel<ops::embedding_bag_backward, &embedding_bag_detail::embedding_bag_backward>(
      DispatchKey::CompositeImplicitAutograd));
  return set;
}

}  // namespace opd::kernels
