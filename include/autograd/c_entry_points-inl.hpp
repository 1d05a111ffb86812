#pragma once
// The autograd functions of the C ABI (dispatch/c_abi/opd_c.h, "autograd"):
// requires_grad, .grad, backward and grad from C, every exception a status.
// Compiled once into libopdispatch (src/autograd.cpp); a header-only program
// that needs them includes this file in exactly one of its translation units.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "autograd/autograd_meta.hpp"
#include "autograd/engine.hpp"
#include "autograd/grad_mode.hpp"
#include "autograd/node.hpp"
#include "autograd/tensor_api.hpp"
#include "dispatch/c_abi/handles.hpp"
#include "dispatch/c_abi/opd_c.h"

namespace opd::c_abi::detail {
// n handles as tensors (NULL entries as undefined ones when allowed).
inline autograd::variable_list tensors_of(const opd_tensor* handles, int64_t n, bool null_ok, const char* function) {
  autograd::variable_list v;
  v.reserve(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v.push_back(null_ok && handles[i] == nullptr ? Tensor() : tensor_of(handles[i], function));
  return v;
}
}  // namespace opd::c_abi::detail

extern "C" {

OPD_C_API int32_t opd_tensor_requires_grad(opd_tensor t, int32_t* out) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (out == nullptr) return invalid("opd_tensor_requires_grad: out is NULL");
    *out = opd::autograd::requires_grad(tensor_of(t, "opd_tensor_requires_grad")) ? 1 : 0;
    return OPD_OK;
  });
}
OPD_C_API int32_t opd_tensor_set_requires_grad(opd_tensor t, int32_t flag) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    opd::autograd::set_requires_grad(tensor_of(t, "opd_tensor_set_requires_grad"), flag != 0);
    return OPD_OK;
  });
}
OPD_C_API int32_t opd_tensor_is_leaf(opd_tensor t, int32_t* out) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (out == nullptr) return invalid("opd_tensor_is_leaf: out is NULL");
    *out = opd::autograd::grad_fn(tensor_of(t, "opd_tensor_is_leaf")) == nullptr ? 1 : 0;
    return OPD_OK;
  });
}
OPD_C_API int32_t opd_tensor_grad_fn_name(opd_tensor t, const char** out) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (out == nullptr) return invalid("opd_tensor_grad_fn_name: out is NULL");
    const auto& fn = opd::autograd::grad_fn(tensor_of(t, "opd_tensor_grad_fn_name"));
    thread_local std::string name;
    if (fn == nullptr) {
      *out = nullptr;
    } else {
      name = fn->name();
      *out = name.c_str();
    }
    return OPD_OK;
  });
}
OPD_C_API int32_t opd_tensor_grad(opd_tensor t, opd_tensor* out) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (out == nullptr) return invalid("opd_tensor_grad: out is NULL");
    opd::Tensor g = tensor_of(t, "opd_tensor_grad").grad();
    *out = g.defined() ? new_tensor(std::move(g)) : nullptr;
    return OPD_OK;
  });
}
OPD_C_API int32_t opd_tensor_set_grad(opd_tensor t, opd_tensor grad) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    opd::autograd::set_grad(tensor_of(t, "opd_tensor_set_grad"), grad == nullptr ? opd::Tensor() : grad->t);
    return OPD_OK;
  });
}
OPD_C_API int32_t opd_tensor_detach(opd_tensor t, opd_tensor* out) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (out == nullptr) return invalid("opd_tensor_detach: out is NULL");
    *out = new_tensor(opd::autograd::detach(tensor_of(t, "opd_tensor_detach")));
    return OPD_OK;
  });
}
OPD_C_API int32_t opd_backward(opd_tensor t, opd_tensor gradient, int32_t retain_graph, int32_t create_graph) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    const opd::Tensor& root = tensor_of(t, "opd_backward");
    opd::autograd::backward({root}, {gradient == nullptr ? opd::Tensor() : gradient->t},
                            retain_graph < 0 ? std::nullopt : std::optional<bool>(retain_graph != 0), create_graph != 0);
    return OPD_OK;
  });
}
OPD_C_API int32_t opd_autograd_grad(const opd_tensor* outputs, int64_t n_outputs, const opd_tensor* inputs,
                                    int64_t n_inputs, const opd_tensor* grad_outputs, int32_t retain_graph,
                                    int32_t create_graph, int32_t allow_unused, opd_tensor* results) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (n_outputs < 0 || (n_outputs > 0 && outputs == nullptr))
      return invalid("opd_autograd_grad: bad outputs array");
    if (n_inputs < 0 || (n_inputs > 0 && (inputs == nullptr || results == nullptr)))
      return invalid("opd_autograd_grad: bad inputs or results array");
    const auto outs = tensors_of(outputs, n_outputs, false, "opd_autograd_grad");
    const auto ins = tensors_of(inputs, n_inputs, false, "opd_autograd_grad");
    const auto grads = grad_outputs == nullptr ? opd::autograd::variable_list()
                                               : tensors_of(grad_outputs, n_outputs, true, "opd_autograd_grad");
    const auto got = opd::autograd::grad(outs, ins, grads,
                                         retain_graph < 0 ? std::nullopt : std::optional<bool>(retain_graph != 0),
                                         create_graph != 0, allow_unused != 0);
    // Every handle made before any is handed out, so a failure leaks none.
    std::vector<opd_tensor> made(got.size(), nullptr);
    try {
      for (std::size_t i = 0; i < got.size(); ++i)
        if (got[i].defined()) made[i] = new_tensor(got[i]);
    } catch (...) {
      for (opd_tensor h : made) delete_tensor(h);
      throw;
    }
    for (std::size_t i = 0; i < made.size(); ++i) results[i] = made[i];
    return OPD_OK;
  });
}
OPD_C_API int32_t opd_set_grad_enabled(int32_t enabled, int32_t* previous) {
  if (previous != nullptr) *previous = opd::GradMode::is_enabled() ? 1 : 0;
  opd::GradMode::set_enabled(enabled != 0);
  return OPD_OK;
}

}  // extern "C"
