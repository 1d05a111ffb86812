#pragma once
// The derivatives of the library's operators (formulas-inl.hpp declares them,
// next to nothing else, and registers them) and register_autograd(), which
// turns autograd on for a program:
//
//   auto kernels = opd::kernels::register_cpu();
//   auto grad = opd::autograd::register_autograd();   // keep it: destroying it turns autograd off
//
// It registers (a RegistrationSet): the derived Autograd kernel of every
// operator with formulas (functional and in-place variants), their typed
// ADInplaceOrView kernels, the boxed ADInplaceOrView fallback for every other
// operator that writes an argument (declared before the call or after it), and
// the Autograd fallback.
// docs/autograd.md lists the operators with formulas.
#include <string>
#include <vector>

#include "dispatch/config.hpp"
#include "dispatch/fwd.hpp"

namespace opd::autograd {

OPD_API RegistrationSet register_autograd();
// The names of the operators that have formulas (the differentiable ones, for gradcheck).
OPD_API std::vector<std::string> operators_with_formulas();
// Those of them whose formulas are declared complex_verified (the others refuse a
// complex tensor while recording grad).
OPD_API std::vector<std::string> operators_with_complex_formulas();

}  // namespace opd::autograd

#ifdef OPD_HEADER_ONLY
#include "autograd/formulas-inl.hpp"
#include "autograd/formulas_pointwise-inl.hpp"
#include "autograd/formulas_reductions-inl.hpp"
#include "autograd/formulas_lists-inl.hpp"
#include "autograd/formulas_spatial-inl.hpp"
#include "autograd/formulas_complex-inl.hpp"
#endif
