#pragma once
// Out-of-line part of write_back.hpp (compiled in src/structured.cpp).
#include "dispatch/core/tensor.hpp"
#include "structured/copy.hpp"
#include "structured/out_semantics.hpp"
#include "structured/write_back.hpp"

namespace opd::structured_detail {

// impl() into a fresh tensor of meta()'s layout on dst's device, then that
// copied into dst.
inline void write_through_temporary(const TensorMeta& m, Tensor& dst, DispatchKey key, RunImplFn run,
                                    const void* args) {
  Tensor tmp = empty_of_meta(m, dst.device());
  if (run) run(args, tmp);
  copy_into(dst, tmp, key);
}

OPD_FUNC void write_out_checked(std::string_view op, const TensorMeta& m, Tensor& result, DispatchKey key,
                                RunImplFn run, const void* args) {
  check_no_internal_overlap(op, result);
  check_castable(op, m.dtype, result.dtype());
  const bool resized = !(result.sizes() == m.sizes.ref());
  resize_out(op, result, m.sizes, m.memory_format);
  // A resized out takes meta's explicit strides, as ATen's resize_out
  // restrides it (the storage that resize_ gave holds the same extent).
  if (resized && !m.strides.empty()) result.impl_ptr()->set_sizes_and_strides(m.sizes, m.strides);
  if (fits_meta(result, m)) {
    if (run) run(args, result);
  } else {
    write_through_temporary(m, result, key, run, args);
  }
}

OPD_FUNC void write_inplace_checked(std::string_view op, const TensorMeta& m, Tensor& self, DispatchKey key,
                                    RunImplFn run, const void* args) {
  check_no_internal_overlap(op, self);
  check_inplace(op, m.sizes, m.dtype, self);
  if (fits_meta(self, m)) {
    if (run) run(args, self);
  } else {
    write_through_temporary(m, self, key, run, args);
  }
}

}  // namespace opd::structured_detail
