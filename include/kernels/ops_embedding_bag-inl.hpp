#pragma once
// Out-of-line part of ops_embedding_bag.hpp (compiled in src/kernels/embedding_bag.cpp).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <tuple>
#include <type_traits>
#include <vector>

#include "dispatch/core/error.hpp"
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
        const T s = weighted ? scale[static_cast<std::size_t>(i)] : T(1);
        for (int64_t d = 0; d < dim; ++d) dst[d] += weighted ? s * row[d * ws1] : row[d * ws1];
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

}  // namespace embedding_bag_detail

OPD_FUNC RegistrationSet register_embedding_bag() {
  RegistrationSet set;
  // Meta: the same kernel, which stops after its checks on Meta tensors.
  for (DispatchKey key : {DispatchKey::CPU, DispatchKey::Meta}) {
    set.add(register_kernel<ops::embedding_bag_, &embedding_bag_detail::embedding_bag>(key));
  }
  return set;
}

}  // namespace opd::kernels
