#pragma once
// PyTorch's gradcheck and gradgradcheck: the analytical Jacobian (the engine's
// vector-Jacobian products with one-hot output gradients) against the
// numerical one (central differences), in double precision, with PyTorch
// 1.13's defaults (eps 1e-6, atol 1e-5, rtol 1e-3), double or complex128.
//
//   auto r = opd::autograd::gradcheck([](const opd::autograd::variable_list& x) {
//     return opd::autograd::variable_list{opd::call<mul>(x[0], x[1])};
//   }, {a, b});                       // a, b: double leaves that require grad
//   if (!r.ok) std::cerr << r.message;
//
// Complex inputs and outputs (complex128) as PyTorch 1.13's gradcheck: a complex
// output is checked as its real and its imaginary part (two real functions), and
// a complex input's Jacobian entry is d/dx + i d/dy (its real and imaginary parts
// perturbed one after the other), which the backward pass must compute.
//
// Inputs are perturbed in place, element by element, through their strides
// (non-contiguous inputs are fine); an output gradient that is undefined
// counts as zeros. gradgradcheck checks the function (x, v) -> grad(f(x), x, v,
// create_graph) the same way, v being random output gradients.
#include <functional>
#include <string>

#include "autograd/engine.hpp"
#include "dispatch/config.hpp"

namespace opd::autograd {

struct GradcheckResult {
  bool ok = true;
  std::string message;  // "Jacobian mismatch for output 0 with respect to input 1, ..." when !ok
};

struct GradcheckOptions {
  double eps = 1e-6;
  double atol = 1e-5;
  double rtol = 1e-3;
};

using DifferentiableFn = std::function<variable_list(const variable_list&)>;

OPD_API GradcheckResult gradcheck(const DifferentiableFn& fn, const variable_list& inputs, GradcheckOptions options = {});
OPD_API GradcheckResult gradgradcheck(const DifferentiableFn& fn, const variable_list& inputs,
                                      GradcheckOptions options = {}, unsigned seed = 0);

}  // namespace opd::autograd

#ifdef OPD_HEADER_ONLY
#include "autograd/gradcheck-inl.hpp"
#endif
