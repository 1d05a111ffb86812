#pragma once
// Operators the C ABI tests export (c_test_exports.cpp) and call from C,
// Python and C++: between them every C form of the list (optional
// scalars, optional tensors, int lists, optional lists, lists of optional
// tensors, bool, str, several returns, in-place, out=, a failing operator).
#include <dispatch/dispatcher.hpp>

namespace ctest {
// self * factor + offset, each optional (factor: float?, offset: int?).
struct scale : opd::op<"ctest::scale(Tensor self, float? factor=None, int? offset=None) -> Tensor"> {};
// How many of the tensors are given (Tensor?[]), and the sum of their elements.
struct count_present : opd::op<"ctest::count_present(Tensor?[] tensors) -> (int, float)"> {};
// sum(dims) + sum(extra) (int[] and int[]?), times -1 when negate.
struct sum_ints : opd::op<"ctest::sum_ints(int[] dims, int[]? extra=None, *, bool negate=False) -> int"> {};
// (self, the length of mode, the optional tensor's numel or -1): Tensor?, str, several returns.
struct describe : opd::op<"ctest::describe(Tensor self, Tensor? other, str mode) -> (Tensor, int, int)"> {};
// The tensor's elements as one 1-element tensor each: a tensor list return.
struct unbind : opd::op<"ctest::unbind(Tensor self) -> Tensor[]"> {};
// Fills self in place.
struct fill_ : opd::op<"ctest::fill_(Tensor(a!) self, Scalar value) -> Tensor(a!)"> {};
// The Scalar as an int64 (exact through opd_scalar).
struct scalar_to_int : opd::op<"ctest::scalar_to_int(Scalar s) -> int"> {};
// dtype code of the optional dtype (or -1), the device type of the optional device (or -1).
struct codes : opd::op<"ctest::codes(ScalarType? dtype=None, Device? device=None) -> (int, int)"> {};
// sum(stride) + eps + len(mode) + sum(dims): defaults of several kinds for the boxed entry.
struct defaults : opd::op<"ctest::defaults(int[2] stride=1, float eps=0.5, str mode=\"abc\", int[] dims=[3, 4]) -> float"> {};
// Always fails.
struct fail : opd::op<"ctest::fail(Tensor self) -> Tensor"> {};
}  // namespace ctest
