#pragma once
// Random operators with ATen 1.13's schemas, drawing from the library's
// generator (opd::Generator: a seeded MT19937-64, std::mt19937_64's numbers;
// `generator=None` is opd::default_cpu_generator()), so that a seeded
// generator gives the same values on every run and platform (the library's
// own draws, not PyTorch's stream). The kernels take the numbers a block at
// a time (simd::random_bits, the same numbers as one call each):
//
//   rand, rand.generator (+ .out, .generator_out)     uniform in [0, 1): 53 bits of one number
//   randn, randn.generator (+ .out, .generator_out)   standard normal (Box-Muller on two numbers a pair)
//   randperm, randperm.generator (+ .out, .generator_out)   a permutation of 0 .. n-1 (Fisher-Yates, one number a swap)
//   native_dropout(input, p, train)    (input * mask / (1 - p), mask), mask Bool, kept with probability 1 - p
//   native_dropout_backward(grad_output, mask, scale)   grad_output * mask * scale
//
// CPU and Meta kernels (a Meta call checks and sizes its result, and draws
// nothing); native_dropout_backward is ATen's composite
// (CompositeExplicitAutograd over mul).
//
//   auto kernels = opd::kernels::register_random();   // also part of register_cpu()
//   opd::Generator g(42);
//   opd::Tensor u = opd::call<opd::kernels::ops::rand_generator>(std::vector<int64_t>{2, 3}, g);
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"

namespace opd::kernels {

namespace ops {

struct rand : op<"aten::rand(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"> {};
struct rand_generator : op<"aten::rand.generator(int[] size, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"> {};
struct rand_out : op<"aten::rand.out(int[] size, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct rand_generator_out : op<"aten::rand.generator_out(int[] size, *, Generator? generator, Tensor(a!) out) -> Tensor(a!)"> {};
struct randn : op<"aten::randn(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"> {};
struct randn_generator : op<"aten::randn.generator(int[] size, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"> {};
struct randn_out : op<"aten::randn.out(int[] size, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct randn_generator_out : op<"aten::randn.generator_out(int[] size, *, Generator? generator, Tensor(a!) out) -> Tensor(a!)"> {};
struct randperm : op<"aten::randperm(int n, *, ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"> {};
struct randperm_generator : op<"aten::randperm.generator(int n, *, Generator? generator, ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"> {};
struct randperm_out : op<"aten::randperm.out(int n, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct randperm_generator_out : op<"aten::randperm.generator_out(int n, *, Generator? generator, Tensor(a!) out) -> Tensor(a!)"> {};
struct native_dropout : op<"aten::native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)"> {};
struct native_dropout_backward : op<"aten::native_dropout_backward(Tensor grad_output, Tensor mask, float scale) -> Tensor"> {};

}  // namespace ops

// Registers the operators above. Compiled once, in libopdispatch
// (src/kernels/random.cpp).
OPD_API RegistrationSet register_random();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_random-inl.hpp"
#endif
