#pragma once
// The views that change the dtype between complex and real, with ATen 1.13's
// schemas verbatim: view_as_real, view_as_complex, real, imag. Declarations
// only, so that the *_copy operators (ops_view_copies.hpp) derive theirs
// without the complex kernels; register_complex() (ops_complex.hpp) registers
// their kernels.
//
//   opd::Tensor r = opd::call<opd::kernels::ops::view_as_real>(z);   // [..., 2] Float view of a ComplexFloat z
#include "dispatch/config.hpp"  // first: a pre-C++20 compile stops with one readable error

#include "dispatch/dispatcher.hpp"

namespace opd::kernels::ops {

struct view_as_real : op<"aten::view_as_real(Tensor(a) self) -> Tensor(a)"> {};
struct view_as_complex : op<"aten::view_as_complex(Tensor(a) self) -> Tensor(a)"> {};
struct real : op<"aten::real(Tensor(a) self) -> Tensor(a)"> {};
struct imag : op<"aten::imag(Tensor(a) self) -> Tensor(a)"> {};

}  // namespace opd::kernels::ops
