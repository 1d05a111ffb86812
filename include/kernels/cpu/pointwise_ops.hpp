#pragma once
// The op ids of the pointwise families (pointwise.hpp) and their dtype
// kinds, apart: the SIMD rows (unary_simd.hpp, compiled once per instruction
// set) include only this.
#include <cstdint>

namespace opd::kernels {

enum class UnaryOp : uint8_t {
  // float: integral and Bool inputs compute in the default dtype
  Exp, Exp2, Expm1, Log, Log2, Log10, Log1p, Sqrt, Rsqrt, Reciprocal, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh,
  Tanh, Sigmoid, Erf, Erfc, Acosh, Asinh, Atanh,
  Angle,  // complex: the real dtype of the same precision (as abs)
  // keep: the input's dtype
  Neg, Abs, Sign, Relu, Gelu, GeluTanh, Silu, Hardswish, Hardsigmoid, Softplus, Elu, LeakyRelu, Floor, Ceil, Round, Trunc, Frac, BitwiseNot,
  Sgn,           // real dtypes: Sign's loops
  ConjPhysical,  // complex only (the kernels return or copy a real self)
  NanToNum,
  // bool: a Bool result
  LogicalNot, IsNan, IsInf, IsFinite,
};
inline constexpr int kNumUnaryOps = static_cast<int>(UnaryOp::IsFinite) + 1;

enum class UnaryKind : uint8_t { Float, Keep, Bool };

constexpr UnaryKind unary_kind(UnaryOp op) noexcept {
  if (op <= UnaryOp::Angle) return UnaryKind::Float;
  if (op <= UnaryOp::NanToNum) return UnaryKind::Keep;
  return UnaryKind::Bool;
}

// The unary ops with loops for complex64/complex128 (unary_complex_loops-inl.hpp);
// the others refuse complex.
constexpr bool has_complex_loop(UnaryOp op) noexcept {
  switch (op) {
    case UnaryOp::Neg:
    case UnaryOp::Abs:
    case UnaryOp::Exp:
    case UnaryOp::Log:
    case UnaryOp::Log10:
    case UnaryOp::Sqrt:
    case UnaryOp::Reciprocal:
    case UnaryOp::Sin:
    case UnaryOp::Cos:
    case UnaryOp::Tan:
    case UnaryOp::Sinh:
    case UnaryOp::Cosh:
    case UnaryOp::Tanh:
    case UnaryOp::Silu:
    case UnaryOp::Sigmoid:
    case UnaryOp::Log2:
    case UnaryOp::Rsqrt:
    case UnaryOp::Asin:
    case UnaryOp::Acos:
    case UnaryOp::Atan:
    case UnaryOp::Asinh:
    case UnaryOp::Acosh:
    case UnaryOp::Atanh:
    case UnaryOp::Angle:
    case UnaryOp::Sgn:
    case UnaryOp::ConjPhysical:
    case UnaryOp::IsNan:
    case UnaryOp::IsInf:
    case UnaryOp::IsFinite:
    case UnaryOp::LogicalNot: return true;
    default: return false;
  }
}

enum class PointwiseOp : uint8_t {
  // comparison / logical: a Bool result
  Eq, Ne, Lt, Le, Gt, Ge, LogicalAnd, LogicalOr, LogicalXor,
  // the common dtype (atan2: integral/Bool promote to the default dtype)
  Maximum, Minimum, Pow, Remainder, Fmod, Atan2, FloorDivide, DivTrunc, DivFloor, BitwiseAnd, BitwiseOr, BitwiseXor,
  LeftShift, RightShift,
};

constexpr bool gives_bool(PointwiseOp op) noexcept { return op <= PointwiseOp::LogicalXor; }

}  // namespace opd::kernels
