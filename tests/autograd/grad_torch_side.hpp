#pragma once
// The libtorch side of grad_torch_diff_test.cpp (C++17, ATen's headers kept
// out of the test): one operator called boxed by name on double tensors, then
// torch::autograd::grad twice, as the test does with opd:
//   first  = grad(output0 (or each element of a Tensor[] result, or the first v.size()
//            results), inputs, v, create_graph)
//   second = grad(sum_i sum(first_i * u_i), inputs, allow_unused)
// Plain data only (tests/kernels/diff/values.hpp).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "values.hpp"

namespace grad_diff {

struct Grads {
  std::optional<std::string> error;
  // libtorch 1.13 has no second derivative for some (hardsigmoid_backward): the first ones still compare
  std::optional<std::string> second_error;
  std::vector<std::optional<diff::RawTensor>> first, second;  // per differentiated input; nullopt: undefined
};

// args: the boxed arguments; differentiated: the (argument, element) of each tensor that
// requires grad (doubles; element 0 of a Tensor); v: the gradient of output 0, or one
// per element of a Tensor[] result, or one per leading result checked; u: one per differentiated input.
Grads torch_grads(const std::string& op, const std::string& overload, const std::vector<diff::Value>& args,
                  const std::vector<std::pair<std::size_t, std::size_t>>& differentiated,
                  const std::vector<diff::RawTensor>& v, const std::vector<diff::RawTensor>& u);

// Programs that write views in place (PyTorch's CopySlices), on a [3, 4], c [2, 4] and
// w [3, 4] (doubles, row-major): {d loss / d a, d loss / d c, then the derivatives of
// s = sum(d loss / d a * w) + sum((d loss / d c)^2) by a and c} (zeros where unused).
// grad_torch_diff_test.cpp runs the same programs with opd (kInplaceViewPrograms of them).
inline constexpr int kInplaceViewPrograms = 5;
std::vector<std::vector<double>> torch_inplace_view_grads(int program, const std::vector<double>& a,
                                                          const std::vector<double>& c, const std::vector<double>& w);

// A conv2d + layer_norm model's first and second derivatives through the public API: on x [2, 2, 5, 5],
// w [3, 2, 3, 3], b [3], lw and lb [3, 5, 5] (the layer norm's weight and bias), t [2, 3, 5, 5], ux like x,
// uw like w (doubles, row-major): loss = sum(tanh(layer_norm(conv2d(x, w, b, padding 1), [3, 5, 5], lw, lb)) * t),
// g = grad(loss, {x, w, b, lw, lb}, create_graph), then (sum(g_x * ux) + sum(g_w * uw) + sum(g_lw * g_lw)).backward():
// {g_x, g_w, g_b, g_lw, g_lb, then the .grad of x, w, b, lw, lb} (zeros where undefined).
inline constexpr int kModelInputs = 5;
std::vector<std::vector<double>> torch_conv_layer_norm_model_grads(const std::vector<std::vector<double>>& data);

}  // namespace grad_diff
