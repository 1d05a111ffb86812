#pragma once
// Out-of-line part of ops_complex.hpp (compiled in src/kernels/complex.cpp):
// the kernels of the complex operators and register_complex(). The element
// loops are the pointwise engine's (UnaryOp::Angle, UnaryOp::ConjPhysical in
// unary_complex_loops-inl.hpp); the views only compute a geometry
// (views::view_as_real / view_as_complex) and reinterpret the storage.
#include "kernels/ops_complex.hpp"
#include "kernels/ops_pointwise.hpp"  // first: header-only, its -inl parts need the kernels below
#include "kernels/ops_pointwise_kernels-inl.hpp"
#include "kernels/ops_views.hpp"
#include "kernels/views/geometry.hpp"

namespace opd::kernels {

namespace complex_detail {

inline views::Geometry geometry_of(const Tensor& t) {
  return views::Geometry{SizesVector(t.sizes()), SizesVector(t.strides()), t.storage_offset()};
}

// A view of self's storage with another element type (c10's view_tensor).
inline Tensor make_dtype_view(const Tensor& self, ScalarType dtype, const views::Geometry& g) {
  return Tensor(self.unsafe_get_impl()->make_view(g.sizes, g.strides, g.offset, dtype));
}

// c10::toRealValueType / toComplexType for the types with both.
constexpr ScalarType real_value_type(ScalarType t) noexcept {
  return t == ScalarType::ComplexHalf ? ScalarType::Half
         : t == ScalarType::ComplexFloat ? ScalarType::Float
                                         : ScalarType::Double;
}
constexpr ScalarType complex_type(ScalarType t) noexcept {
  return t == ScalarType::Half ? ScalarType::ComplexHalf
         : t == ScalarType::Float ? ScalarType::ComplexFloat
                                  : ScalarType::ComplexDouble;
}

OPD_FUNC Tensor view_as_real(const Tensor& self) {
  OPD_CHECK(is_complex_type(self.dtype()), "aten::view_as_real: view_as_real is only supported for complex tensors");
  return make_dtype_view(self, real_value_type(self.dtype()), views::view_as_real(geometry_of(self)));
}

OPD_FUNC Tensor view_as_complex(const Tensor& self) {
  constexpr std::string_view op = "aten::view_as_complex";
  const ScalarType t = self.dtype();
  OPD_CHECK(t == ScalarType::Float || t == ScalarType::Double || t == ScalarType::Half, op,
            ": view_as_complex is only supported for half, float and double tensors, but got a tensor of scalar type: ",
            t);
  return make_dtype_view(self, complex_type(t), views::view_as_complex(op, geometry_of(self)));
}

// CompositeImplicitAutograd, as ATen: a select of view_as_real; real of a
// real tensor is the tensor itself.
inline Tensor real(const Tensor& self) {
  if (!is_complex_type(self.dtype())) return self;
  const Tensor pairs = call<ops::view_as_real>(self);
  return call<ops::select>(pairs, pairs.dim() - 1, int64_t{0});
}
OPD_FUNC Tensor imag(const Tensor& self) {
  OPD_CHECK(is_complex_type(self.dtype()), "aten::imag: imag is not implemented for tensors with non-complex dtypes.");
  const Tensor pairs = call<ops::view_as_real>(self);
  return call<ops::select>(pairs, pairs.dim() - 1, int64_t{1});
}

// conj_physical of a real tensor is the tensor itself (ATen returns self);
// of a complex one a fresh conjugate.
inline Tensor conj_physical(const Tensor& self) {
  if (!is_complex_type(self.dtype())) return self;
  return detail::unary_functional(UnaryOp::ConjPhysical, self);
}
inline Tensor& conj_physical_inplace(Tensor& self) {
  if (is_complex_type(self.dtype())) unary_impl(UnaryOp::ConjPhysical, self, self);
  return self;
}
inline Tensor conj_physical_meta(const Tensor& self) {
  if (!is_complex_type(self.dtype())) return self;
  return detail::unary_meta_kernel<UnaryOp::ConjPhysical>(self);
}
inline Tensor& conj_physical_inplace_meta(Tensor& self) {
  if (is_complex_type(self.dtype())) (void)unary_meta(UnaryOp::ConjPhysical, self);
  return self;
}
// No conjugate bit: conj is conj_physical (through the dispatcher, so that
// a backend's conj_physical serves both).
inline Tensor conj(const Tensor& self) {
  if (!is_complex_type(self.dtype())) return self;
  return call<ops::conj_physical>(self);
}
inline Tensor resolve_self(const Tensor& self) { return self; }
inline bool is_conj(const Tensor&) { return false; }
inline bool is_complex(const Tensor& self) { return is_complex_type(self.dtype()); }

inline Tensor angle(const Tensor& self) { return detail::unary_functional(UnaryOp::Angle, self); }

}  // namespace complex_detail

OPD_FUNC RegistrationSet register_complex() {
  namespace c = complex_detail;
  constexpr DispatchKey explicit_ = DispatchKey::CompositeExplicitAutograd;
  constexpr DispatchKey implicit_ = DispatchKey::CompositeImplicitAutograd;
  RegistrationSet set;
  set.add(register_kernel<ops::view_as_real, &c::view_as_real>(explicit_));
  set.add(register_kernel<ops::view_as_complex, &c::view_as_complex>(explicit_));
  set.add(register_kernel<ops::real, &c::real>(implicit_));
  set.add(register_kernel<ops::imag, &c::imag>(implicit_));
  set.add(register_kernel<ops::conj, &c::conj>(implicit_));
  set.add(register_kernel<ops::resolve_conj, &c::resolve_self>(implicit_));
  set.add(register_kernel<ops::resolve_neg, &c::resolve_self>(implicit_));
  set.add(register_kernel<ops::is_conj, &c::is_conj>(implicit_));
  set.add(register_kernel<ops::is_complex, &c::is_complex>(implicit_));
  constexpr DispatchKey cpu = DispatchKey::CPU;
  constexpr DispatchKey meta = DispatchKey::Meta;
  set.add(register_kernel<ops::conj_physical, &c::conj_physical>(cpu));
  set.add(register_kernel<ops::conj_physical_, &c::conj_physical_inplace>(cpu));
  set.add(register_kernel<ops::conj_physical, &c::conj_physical_meta>(meta));
  set.add(register_kernel<ops::conj_physical_, &c::conj_physical_inplace_meta>(meta));
  set.add(register_kernel<ops::angle, &c::angle>(cpu));
  set.add(register_kernel<ops::angle, &detail::unary_meta_kernel<UnaryOp::Angle>>(meta));
  for (DispatchKey key : {cpu, meta}) {
    set.add(derive_missing_variants<ops::conj_physical, ops::conj_physical_, ops::conj_physical_out>(key));
    set.add(derive_missing_variants<ops::angle, void, ops::angle_out>(key));
  }
  return set;
}

}  // namespace opd::kernels
