#pragma once
// The samples of every operator with a formula (several shapes each:
// broadcasting, 0-dim, non-contiguous, optional tensors left out), shared by
// autograd_test.cpp (gradcheck, gradgradcheck) and grad_torch_diff_test.cpp
// (first and second derivatives against libtorch's). Call after the kernels
// are registered (some samples are made by operators).
#include <algorithm>
#include <complex>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <autograd/gradcheck.hpp>
#include <autograd/tensor_api.hpp>
#include <dispatch/dispatcher.hpp>
#include <kernels/ops.hpp>
#include <kernels/ops_embedding_bag.hpp>
#include <kernels/ops_loss.hpp>
#include <kernels/ops_pooling3d.hpp>

namespace opd_test {

using opd::Tensor;
using opd::autograd::variable_list;

// double, or complex128 (the samples of the operators whose formulas are complex_verified)
inline bool differentiable_dtype(opd::ScalarType t) { return opd::is_floating_type(t) || opd::is_complex_type(t); }

struct Sample {
  std::vector<opd::IValue> args;  // floating-point tensors are double leaves that require grad...
  std::vector<std::size_t> constant = {};  // ...except the arguments at these positions
  // false: PyTorch's gradient is by definition not the Jacobian here (embedding's padding_idx and
  // scale_grad_by_freq): no first-order gradcheck; the second order and libtorch's values still checked
  bool jacobian = true;
  // false: PyTorch 1.13 has no second derivative (grid_sampler_2d's backward kernel is not
  // differentiable): first derivatives only, and a create_graph backward is the error naming it
  bool second_order = true;
  // argument positions whose gradient libtorch 1.13 gets wrong (as_strided_scatter's self: 1.13 returns the
  // gradient inside the scattered region and uninitialized memory outside; its own gradcheck fails):
  // gradchecked here, not compared with libtorch
  std::vector<std::size_t> wrong_in_libtorch = {};
  // the leading results checked (every one with its own gradient); default: output 0 (a Tensor[]: each element)
  std::size_t outputs = 1;
  bool differentiated(std::size_t i) const {
    return ((args[i].is_tensor() && differentiable_dtype(args[i].to_tensor().dtype())) || args[i].is_tensor_list()) &&
           std::find(constant.begin(), constant.end(), i) == constant.end();
  }
  // The differentiated tensors in argument order, a Tensor[]'s floating-point elements each.
  variable_list inputs() const {
    variable_list out;
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (!differentiated(i)) continue;
      for (const Tensor& t : args[i].is_tensor() ? variable_list{args[i].to_tensor()} : args[i].to_tensor_list())
        if (differentiable_dtype(t.dtype())) out.push_back(t);
    }
    return out;
  }
  // (argument, element) of each of inputs(); element 0 for a Tensor argument
  std::vector<std::pair<std::size_t, std::size_t>> input_positions() const {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (!differentiated(i)) continue;
      const variable_list ts = args[i].is_tensor() ? variable_list{args[i].to_tensor()} : args[i].to_tensor_list();
      for (std::size_t j = 0; j < ts.size(); ++j)
        if (differentiable_dtype(ts[j].dtype())) out.emplace_back(i, j);
    }
    return out;
  }
};

inline Tensor rnd(std::vector<int64_t> sizes, std::mt19937& gen, double lo = -1, double hi = 1, bool away_from_zero = false) {
  Tensor t = opd::empty(opd::IntArrayRef(sizes.data(), sizes.size()), opd::ScalarType::Double);
  std::uniform_real_distribution<double> d(lo, hi);
  double* p = t.data_ptr<double>();
  for (int64_t i = 0; i < t.numel(); ++i) {
    double v = d(gen);
    if (away_from_zero) v = (v < 0 ? -1 : 1) * (0.2 + std::abs(v));
    p[i] = v;
  }
  return t;
}

// complex128 with each part uniform in [lo, hi) (away_from_zero: |each part| >= 0.2)
inline Tensor crnd(std::vector<int64_t> sizes, std::mt19937& gen, double lo = -1, double hi = 1, bool away_from_zero = false) {
  Tensor t = opd::empty(opd::IntArrayRef(sizes.data(), sizes.size()), opd::ScalarType::ComplexDouble);
  std::uniform_real_distribution<double> d(lo, hi);
  auto part = [&] {
    double v = d(gen);
    return away_from_zero ? (v < 0 ? -1 : 1) * (0.2 + std::abs(v)) : v;
  };
  auto* p = t.data_ptr<std::complex<double>>();
  for (int64_t i = 0; i < t.numel(); ++i) {
    const double re = part();
    p[i] = {re, part()};
  }
  return t;
}

// Samples per operator (several shapes: broadcasting, 0-dim, non-contiguous). One long function of
// test data: compiled once, in gradcheck_samples.cpp, without optimization (-O2 tripled its compile time
// in each test program that included it).
std::map<std::string, std::vector<Sample>> samples();

// The operator called boxed on xs (in the order of Sample::inputs()); its output 0, or
// every element of a Tensor[] result.
inline opd::autograd::DifferentiableFn boxed_fn(const std::string& op, const Sample& s) {
  return [op, s](const variable_list& xs) {
    opd::Stack stack;
    for (const opd::IValue& a : s.args) stack.push_back(a);
    std::size_t k = 0;
    for (const auto& [i, j] : s.input_positions()) {
      if (stack[i].is_tensor()) {
        stack[i] = opd::IValue(xs.at(k++));
      } else {
        variable_list list = stack[i].to_tensor_list();
        list.at(j) = xs.at(k++);
        stack[i] = opd::IValue(std::move(list));
      }
    }
    opd::call_boxed(op, stack);
    if (stack.at(0).is_tensor_list()) return stack.at(0).to_tensor_list();
    variable_list out;
    for (std::size_t k = 0; k < s.outputs; ++k) out.push_back(stack.at(k).to_tensor());
    return out;
  };
}

}  // namespace opd_test
