#pragma once
// Autograd: what a program that trains includes.
//
//   #include <autograd/autograd.hpp>
//   auto reg = opd::autograd::register_autograd();   // after the kernels: Autograd kernels of the library's
//                                                    // operators with formulas, ADInplaceOrView, the fallback
//   x.set_requires_grad(true);
//   opd::Tensor y = opd::call<opd::kernels::ops::mul::functional>(x, x);
//   y.backward(ones);                                // x.grad() == 2 * x
//
// Parts, one concept per header: grad_mode.hpp (NoGradGuard, InferenceMode),
// autograd_meta.hpp (per-tensor state), node.hpp (graph), saved_variable.hpp,
// engine.hpp (backward, grad), derivatives.hpp (declaring formulas),
// autograd_kernel.hpp (the derived Autograd kernel), layers.hpp
// (ADInplaceOrView and the fallback for operators without formulas),
// view_history.hpp (in-place writes to views: CopySlices), formulas.hpp (the library's operators), gradcheck.hpp.
#include "autograd/autograd_meta.hpp"
#include "autograd/engine.hpp"
#include "autograd/formulas.hpp"
#include "autograd/grad_mode.hpp"
#include "autograd/layers.hpp"
#include "autograd/node.hpp"
#include "autograd/tensor_api.hpp"
#include "autograd/view_history.hpp"
