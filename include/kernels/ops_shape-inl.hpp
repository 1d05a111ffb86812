#pragma once
// Out-of-line part of ops_shape.hpp (compiled in src/kernels/register_shape.cpp):
// the kernels' adapters to ATen's signatures, and register_shape().
#include <algorithm>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <vector>

#include "kernels/cpu/broadcast.hpp"
#include "kernels/cpu/convert-inl.hpp"  // throw_not_implemented_for
#include "kernels/cpu/count_true.hpp"
#include "kernels/cpu/masked_expand.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/fill_copy.hpp"
#include "kernels/cpu/shape.hpp"
#include "kernels/ops_arithmetic.hpp"  // check_factory_options
#include "kernels/ops_shape.hpp"
#include "structured/out_semantics.hpp"
#include "structured/structured.hpp"

namespace opd::kernels {

namespace shape_ops_detail {

using ints = std::span<const int64_t>;
using tensor_list = std::span<const Tensor>;
using index_list = std::span<const std::optional<Tensor>>;

inline IntArrayRef as_ref(ints s) { return IntArrayRef(s.data(), s.size()); }

inline Tensor cat(tensor_list t, int64_t dim) { return kernels::cat(t, dim); }
inline Tensor stack(tensor_list t, int64_t dim) { return kernels::stack(t, dim); }
inline Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  return kernels::index_select(self, dim, index);
}
inline Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad) {
  (void)sparse_grad;  // only autograd's backward reads it
  return kernels::gather(self, dim, index);
}
inline Tensor scatter_src(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return kernels::scatter("aten::scatter.src", self, dim, index, src, ScatterReduce::None);
}
inline Tensor scatter_value(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return kernels::scatter_value("aten::scatter.value", self, dim, index, value, ScatterReduce::None);
}
inline Tensor scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                             std::string_view reduce) {
  constexpr std::string_view op = "aten::scatter.reduce";
  return kernels::scatter(op, self, dim, index, src, scatter_reduce_of(op, reduce));
}
inline Tensor scatter_value_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value,
                                   std::string_view reduce) {
  constexpr std::string_view op = "aten::scatter.value_reduce";
  return kernels::scatter_value(op, self, dim, index, value, scatter_reduce_of(op, reduce));
}
inline Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return kernels::scatter("aten::scatter_add", self, dim, index, src, ScatterReduce::Add);
}
inline Tensor flip(const Tensor& self, ints dims) { return kernels::flip(self, as_ref(dims)); }
inline Tensor roll(const Tensor& self, ints shifts, ints dims) { return kernels::roll(self, as_ref(shifts), as_ref(dims)); }
inline Tensor repeat(const Tensor& self, ints repeats) { return kernels::repeat(self, as_ref(repeats)); }
inline Tensor tril(const Tensor& self, int64_t diagonal) { return kernels::tril(self, diagonal); }
inline Tensor triu(const Tensor& self, int64_t diagonal) { return kernels::triu(self, diagonal); }
inline std::vector<Tensor> where_condition(const Tensor& condition) { return kernels::nonzero_numpy(condition); }
inline Tensor nonzero(const Tensor& self) { return kernels::nonzero(self); }
inline Tensor masked_select(const Tensor& self, const Tensor& mask) { return kernels::masked_select(self, mask); }
// ATen 1.13's masked_scatter: self and mask broadcast together, source read
// in order (contiguous) for each true element (C order); every check before
// anything is written. The elements are copied as bytes (every dtype).
inline Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source) {
  constexpr std::string_view op = "aten::masked_scatter";
  for (const Tensor* t : {&self, &mask, &source}) {
    OPD_CHECK(t->defined(), op, ": an argument is an undefined tensor");
    OPD_CHECK(t->device().is_cpu() || t->is_meta(), op, ": the CPU kernel got a tensor on ", t->device());
  }
  OPD_CHECK(mask.dtype() == ScalarType::Bool || mask.dtype() == ScalarType::Byte,
            "masked_scatter: expected BoolTensor or ByteTensor for mask");
  OPD_CHECK(self.dtype() == source.dtype(), "masked_scatter: expected self and source to have same dtypes but got",
            self.dtype(), " and ", source.dtype());
  if (self.dtype() == ScalarType::ComplexHalf && !self.is_meta())  // as ATen 1.13's CPU kernel
    throw_not_implemented_for("masked_scatter", self.dtype());
  const std::vector<int64_t> shape = broadcast_shapes({self.sizes(), mask.sizes()});
  const bool meta = self.is_meta() || mask.is_meta() || source.is_meta();
  Tensor out = opd::empty(shape, self.dtype(), meta ? Device::meta() : Device::cpu());
  if (meta || out.numel() == 0) return out;
  // the mask as Bool of the broadcast shape: itself when it is one already
  Tensor m = mask;
  if (mask.dtype() != ScalarType::Bool || !mask.is_contiguous() || mask.sizes() != IntArrayRef(shape)) {
    m = opd::empty(shape, ScalarType::Bool, Device::cpu());
    kernels::copy_(m, mask);  // broadcast, Byte read as nonzero
  }
  const bool* mp = m.data_ptr<bool>();
  const int64_t n = out.numel();
  const int64_t ones = detail::count_true(mp, n);
  OPD_CHECK(ones <= source.numel(), "masked_scatter: Number of elements of source < number of ones in mask");
  // the elements the mask keeps: read from self itself when it has the broadcast shape, contiguous
  const bool self_as_is = self.is_contiguous() && self.sizes() == IntArrayRef(shape);
  if (!self_as_is || ones == 0) kernels::copy_(out, self);  // broadcast
  if (ones == 0) return out;
  const Tensor kept = self_as_is ? self : out;
  const Tensor src = source.is_contiguous() ? source : contiguous_clone(source);
  // Element i takes source element k (then k + 1) where the mask is true:
  // without a branch (a random mask mispredicts half of them: both words
  // read, one kept by a bit mask), source's index held below its end, each
  // element copied as W words of U (a memcpy of a run-time size was a
  // library call per element).
  const auto scatter = [&]<class U, int W>() {
    constexpr std::size_t kSize = sizeof(U) * W;
    char* o = static_cast<char*>(out.data_ptr());
    const char* s = static_cast<const char*>(src.data_ptr());
    const char* old_values = static_cast<const char*>(kept.data_ptr());  // out itself, or self
    const int64_t last = src.numel() - 1;
    // whole vectors with AVX-512's expand where the CPU has it, the rest here
    const detail::MaskedExpandDone done =
        W == 1 ? detail::masked_expand(o, old_values, mp, s, n, kSize) : detail::MaskedExpandDone{};
    for (int64_t i = done.i, k = done.k; i < n; ++i) {
      const unsigned char on = mp[i];
      const U keep = static_cast<U>(U(0) - static_cast<U>(on));  // all ones where the mask is true
      const char* from = s + static_cast<std::size_t>(std::min(k, last)) * kSize;
      const std::size_t at = static_cast<std::size_t>(i) * kSize;
      for (int w = 0; w < W; ++w) {
        U a, b;
        std::memcpy(&a, from + w * sizeof(U), sizeof(U));
        std::memcpy(&b, old_values + at + w * sizeof(U), sizeof(U));
        b = static_cast<U>((a & keep) | (b & static_cast<U>(~keep)));
        std::memcpy(o + at + w * sizeof(U), &b, sizeof(U));
      }
      k += on;
    }
  };
  switch (out.itemsize()) {
    case 1: scatter.template operator()<uint8_t, 1>(); break;
    case 2: scatter.template operator()<uint16_t, 1>(); break;
    case 4: scatter.template operator()<uint32_t, 1>(); break;
    case 8: scatter.template operator()<uint64_t, 1>(); break;
    default: scatter.template operator()<uint64_t, 2>(); break;  // complex128
  }
  return out;
}
inline Tensor index(const Tensor& self, index_list indices) { return kernels::index(self, indices); }
inline Tensor& index_put_(Tensor& self, index_list indices, const Tensor& values, bool accumulate) {
  return kernels::index_put_(self, indices, values, accumulate);
}
inline Tensor index_put(const Tensor& self, index_list indices, const Tensor& values, bool accumulate) {
  Tensor copy = contiguous_clone(self);
  kernels::index_put_(copy, indices, values, accumulate);
  return copy;
}

// A two-output out= overload's outs, as ATen's structured kernels treat
// them: the dtype must be the result's, a wrong shape is resized. Both are
// checked before either is written.
OPD_FUNC void check_out(std::string_view op, const Tensor& out, const Tensor& result) {
  OPD_CHECK(out.dtype() == result.dtype(), op, ": Expected out tensor to have dtype ", result.dtype(), ", but got ",
            out.dtype(), " instead");
  OPD_CHECK(out.device() == result.device(), op, ": Expected out tensor to have device ", result.device(), ", but got ",
            out.device(), " instead");
}
OPD_FUNC void write_outs(std::string_view op, Tensor& values, Tensor& indices, const std::tuple<Tensor, Tensor>& r) {
  check_out(op, values, std::get<0>(r));
  check_out(op, indices, std::get<1>(r));
  structured_detail::resize_out(op, values, std::get<0>(r).sizes(), MemoryFormat::Contiguous);
  structured_detail::resize_out(op, indices, std::get<1>(r).sizes(), MemoryFormat::Contiguous);
  if (values.is_meta()) return;  // Meta: checked and resized, no values
  kernels::copy_(values, std::get<0>(r));
  kernels::copy_(indices, std::get<1>(r));
}

// The out= overloads of functional kernels, for the operators that ATen
// declares structured (and masked_select, nonzero, index_select, which check
// alike): out must have the result's dtype exactly; a wrong shape is resized.
// (Plain functions: nvcc cannot match a template deducing them.)
OPD_FUNC Tensor& exact_out(std::string_view op, Tensor& out, const Tensor& result) {
  check_out(op, out, result);
  structured_detail::resize_out(op, out, result.sizes(), MemoryFormat::Contiguous);
  if (!out.is_meta()) kernels::copy_(out, result);
  return out;
}
// The in-place overloads of functional kernels whose result has self's shape
// and dtype (scatter_): self must not have internal overlap (ATen's
// TensorIterator refuses to write through an expanded self).
inline void check_inplace_self(std::string_view op, const Tensor& self) {
  structured_detail::check_no_internal_overlap_strided(op, self);
}
inline Tensor& copy_into_self(Tensor& self, const Tensor& result) {
  if (!self.is_meta()) kernels::copy_(self, result);
  return self;
}
using sv = std::string_view;
inline Tensor& index_select_out(const Tensor& s, int64_t d, const Tensor& i, Tensor& out) {
  return exact_out("aten::index_select.out", out, index_select(s, d, i));
}
inline Tensor& gather_out(const Tensor& s, int64_t d, const Tensor& i, bool g, Tensor& out) {
  return exact_out("aten::gather.out", out, gather(s, d, i, g));
}
inline Tensor& scatter_src_out(const Tensor& s, int64_t d, const Tensor& i, const Tensor& src, Tensor& out) {
  return exact_out("aten::scatter.src_out", out, scatter_src(s, d, i, src));
}
inline Tensor& scatter_value_out(const Tensor& s, int64_t d, const Tensor& i, const Scalar& v, Tensor& out) {
  return exact_out("aten::scatter.value_out", out, scatter_value(s, d, i, v));
}
inline Tensor& scatter_reduce_out(const Tensor& s, int64_t d, const Tensor& i, const Tensor& src, sv r, Tensor& out) {
  return exact_out("aten::scatter.reduce_out", out, scatter_reduce(s, d, i, src, r));
}
inline Tensor& scatter_value_reduce_out(const Tensor& s, int64_t d, const Tensor& i, const Scalar& v, sv r, Tensor& out) {
  return exact_out("aten::scatter.value_reduce_out", out, scatter_value_reduce(s, d, i, v, r));
}
inline Tensor& scatter_add_out(const Tensor& s, int64_t d, const Tensor& i, const Tensor& src, Tensor& out) {
  return exact_out("aten::scatter_add.out", out, scatter_add(s, d, i, src));
}
inline Tensor& tril_out(const Tensor& s, int64_t k, Tensor& out) { return exact_out("aten::tril.out", out, tril(s, k)); }
inline Tensor& triu_out(const Tensor& s, int64_t k, Tensor& out) { return exact_out("aten::triu.out", out, triu(s, k)); }
inline Tensor& nonzero_out(const Tensor& s, Tensor& out) { return exact_out("aten::nonzero.out", out, nonzero(s)); }
inline Tensor& masked_select_out(const Tensor& s, const Tensor& m, Tensor& out) {
  return exact_out("aten::masked_select.out", out, masked_select(s, m));
}
inline Tensor& index_out(const Tensor& s, index_list i, Tensor& out) {
  return exact_out("aten::index.Tensor_out", out, index(s, i));
}
inline Tensor& scatter_add_(Tensor& s, int64_t d, const Tensor& i, const Tensor& src) {
  check_inplace_self("aten::scatter_add_", s);
  return copy_into_self(s, scatter_add(s, d, i, src));
}
inline Tensor& masked_scatter_(Tensor& s, const Tensor& mask, const Tensor& source) {
  check_inplace_self("aten::masked_scatter_", s);
  OPD_CHECK(mask.defined() && broadcast_shapes({s.sizes(), mask.sizes()}) == s.sizes().vec(),
            "masked_scatter_: expected mask to be broadcastable to self");
  return copy_into_self(s, masked_scatter(s, mask, source));
}
inline Tensor& scatter__src(Tensor& s, int64_t d, const Tensor& i, const Tensor& src) {
  check_inplace_self("aten::scatter_.src", s);
  return copy_into_self(s, scatter_src(s, d, i, src));
}
inline Tensor& scatter__value(Tensor& s, int64_t d, const Tensor& i, const Scalar& v) {
  check_inplace_self("aten::scatter_.value", s);
  return copy_into_self(s, scatter_value(s, d, i, v));
}
inline Tensor& scatter__reduce(Tensor& s, int64_t d, const Tensor& i, const Tensor& src, sv r) {
  check_inplace_self("aten::scatter_.reduce", s);
  return copy_into_self(s, scatter_reduce(s, d, i, src, r));
}
inline Tensor& scatter__value_reduce(Tensor& s, int64_t d, const Tensor& i, const Scalar& v, sv r) {
  check_inplace_self("aten::scatter_.value_reduce", s);
  return copy_into_self(s, scatter_value_reduce(s, d, i, v, r));
}
inline Tensor& tril_(Tensor& self, int64_t diagonal) { return kernels::tril_(self, diagonal); }
inline Tensor& triu_(Tensor& self, int64_t diagonal) { return kernels::triu_(self, diagonal); }

// The overloads without `stable`: ATen's unstable order (kernels::sort).
// `stable=None` is refused, as ATen 1.13's sort_stable asserts a value.
inline void check_stable_given(std::string_view op, const std::optional<bool>& stable) {
  OPD_CHECK(stable.has_value(), op, ": sort(): c10::optional<bool> for stable has to have value.");
}
inline std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim, bool descending) {
  return kernels::sort(self, dim, descending, false);
}
inline std::tuple<Tensor, Tensor> sort_stable(const Tensor& self, std::optional<bool> stable, int64_t dim,
                                              bool descending) {
  check_stable_given("aten::sort.stable", stable);
  return kernels::sort(self, dim, descending, *stable);
}
inline std::tuple<Tensor&, Tensor&> sort_values(const Tensor& self, int64_t dim, bool descending, Tensor& values,
                                                Tensor& indices) {
  write_outs("aten::sort.values", values, indices, kernels::sort(self, dim, descending, false));
  return {values, indices};
}
inline std::tuple<Tensor&, Tensor&> sort_values_stable(const Tensor& self, std::optional<bool> stable, int64_t dim,
                                                       bool descending, Tensor& values, Tensor& indices) {
  check_stable_given("aten::sort.values_stable", stable);
  write_outs("aten::sort.values_stable", values, indices, kernels::sort(self, dim, descending, *stable));
  return {values, indices};
}
inline Tensor argsort(const Tensor& self, int64_t dim, bool descending) {
  return std::get<1>(kernels::sort(self, dim, descending, false));
}
inline Tensor argsort_stable(const Tensor& self, bool stable, int64_t dim, bool descending) {
  return std::get<1>(kernels::sort(self, dim, descending, stable));
}
inline std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim, bool largest, bool sorted) {
  return kernels::topk(self, k, dim, largest, sorted);
}
inline std::tuple<Tensor&, Tensor&> topk_values(const Tensor& self, int64_t k, int64_t dim, bool largest, bool sorted,
                                                Tensor& values, Tensor& indices) {
  write_outs("aten::topk.values", values, indices, kernels::topk(self, k, dim, largest, sorted));
  return {values, indices};
}

// ---- factories ----------------------------------------------------------------

inline Tensor arange(const Scalar& end, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                     std::optional<Device> device, std::optional<bool> pin_memory) {
  detail::check_factory_options("aten::arange", layout, pin_memory, std::nullopt);
  return kernels::arange(Scalar(int64_t{0}), end, Scalar(int64_t{1}), dtype, device);
}
inline Tensor arange_start(const Scalar& start, const Scalar& end, std::optional<ScalarType> dtype,
                           std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  detail::check_factory_options("aten::arange.start", layout, pin_memory, std::nullopt);
  return kernels::arange(start, end, Scalar(int64_t{1}), dtype, device);
}
inline Tensor arange_start_step(const Scalar& start, const Scalar& end, const Scalar& step,
                                std::optional<ScalarType> dtype, std::optional<Layout> layout,
                                std::optional<Device> device, std::optional<bool> pin_memory) {
  detail::check_factory_options("aten::arange.start_step", layout, pin_memory, std::nullopt);
  return kernels::arange(start, end, step, dtype, device);
}
// ATen's factory out= overloads resize out silently and compute in its dtype.
inline Tensor& fill_factory_out(Tensor& out, const Tensor& result) {
  OPD_CHECK(out.device() == result.device(), "expected an out tensor on the ", result.device(), ", got ", out.device());
  if (out.sizes() != result.sizes()) out.resize_(result.sizes());
  if (!out.is_meta()) kernels::copy_(out, result);
  return out;
}
inline Tensor& arange_out(const Scalar& end, Tensor& out) {
  return fill_factory_out(out, kernels::arange(Scalar(int64_t{0}), end, Scalar(int64_t{1}), out.dtype(), out.device()));
}
inline Tensor& arange_start_out(const Scalar& start, const Scalar& end, const Scalar& step, Tensor& out) {
  return fill_factory_out(out, kernels::arange(start, end, step, out.dtype(), out.device()));
}
inline Tensor full(ints size, const Scalar& fill_value, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                   std::optional<Device> device, std::optional<bool> pin_memory) {
  detail::check_factory_options("aten::full", layout, pin_memory, std::nullopt);
  return kernels::full(as_ref(size), fill_value, dtype, device);
}
inline Tensor& full_out(ints size, const Scalar& fill_value, Tensor& out) {
  OPD_CHECK(out.device().is_cpu() || out.device().is_meta(), "aten::full.out: expected an out tensor on the CPU, got ",
            out.device());
  if (out.sizes() != as_ref(size)) out.resize_(as_ref(size));
  kernels::fill_(out, fill_value);
  return out;
}
inline Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, std::optional<ScalarType> dtype,
                       std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  detail::check_factory_options("aten::linspace", layout, pin_memory, std::nullopt);
  return kernels::linspace(start, end, steps, dtype, device);
}
inline Tensor& linspace_out(const Scalar& start, const Scalar& end, int64_t steps, Tensor& out) {
  return fill_factory_out(out, kernels::linspace(start, end, steps, out.dtype(), out.device()));
}
inline Tensor eye(int64_t n, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                  std::optional<Device> device, std::optional<bool> pin_memory) {
  detail::check_factory_options("aten::eye", layout, pin_memory, std::nullopt);
  return kernels::eye(n, n, dtype, device);
}
inline Tensor eye_m(int64_t n, int64_t m, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                    std::optional<Device> device, std::optional<bool> pin_memory) {
  detail::check_factory_options("aten::eye.m", layout, pin_memory, std::nullopt);
  return kernels::eye(n, m, dtype, device);
}
inline Tensor& eye_out(int64_t n, Tensor& out) {
  return fill_factory_out(out, kernels::eye(n, n, out.dtype(), out.device()));
}
inline Tensor& eye_m_out(int64_t n, int64_t m, Tensor& out) {
  return fill_factory_out(out, kernels::eye(n, m, out.dtype(), out.device()));
}

}  // namespace shape_ops_detail

OPD_FUNC RegistrationSet register_shape() {
  namespace d = shape_ops_detail;
  // The kernels are the Meta kernels too (kernels/cpu/shape-inl.hpp): on Meta
  // tensors they check, size the result and stop. nonzero, masked_select and
  // where(condition) have none: their result's shape is data, as in ATen.
  RegistrationSet set;
  for (const DispatchKey cpu : {DispatchKey::CPU, DispatchKey::Meta}) {
    // functional kernels first: derive_missing_variants builds cat's and
    // stack's out= from the functional kernel registered at the key
    set.add(register_kernel<ops::cat, &d::cat>(cpu));
    set.add(derive_missing_variants<ops::cat, void, ops::cat_out>(cpu));
    set.add(register_kernel<ops::stack, &d::stack>(cpu));
    set.add(derive_missing_variants<ops::stack, void, ops::stack_out>(cpu));
    set.add(register_kernel<ops::index_select, &d::index_select>(cpu));
    set.add(register_kernel<ops::index_select_out, &d::index_select_out>(cpu));
    set.add(register_kernel<ops::gather, &d::gather>(cpu));
    set.add(register_kernel<ops::gather_out, &d::gather_out>(cpu));
    set.add(register_kernel<ops::scatter_src, &d::scatter_src>(cpu));
    set.add(register_kernel<ops::scatter_src_out, &d::scatter_src_out>(cpu));
    set.add(register_kernel<ops::scatter__src, &d::scatter__src>(cpu));
    set.add(register_kernel<ops::scatter_value, &d::scatter_value>(cpu));
    set.add(register_kernel<ops::scatter_value_out, &d::scatter_value_out>(cpu));
    set.add(register_kernel<ops::scatter__value, &d::scatter__value>(cpu));
    set.add(register_kernel<ops::scatter_reduce, &d::scatter_reduce>(cpu));
    set.add(register_kernel<ops::scatter_reduce_out, &d::scatter_reduce_out>(cpu));
    set.add(register_kernel<ops::scatter__reduce, &d::scatter__reduce>(cpu));
    set.add(register_kernel<ops::scatter_value_reduce, &d::scatter_value_reduce>(cpu));
    set.add(register_kernel<ops::scatter_value_reduce_out, &d::scatter_value_reduce_out>(cpu));
    set.add(register_kernel<ops::scatter__value_reduce, &d::scatter__value_reduce>(cpu));
    set.add(register_kernel<ops::scatter_add, &d::scatter_add>(cpu));
    set.add(register_kernel<ops::scatter_add_out, &d::scatter_add_out>(cpu));
    set.add(register_kernel<ops::scatter_add_, &d::scatter_add_>(cpu));
    set.add(register_kernel<ops::masked_scatter, &d::masked_scatter>(cpu));
    set.add(register_kernel<ops::masked_scatter_, &d::masked_scatter_>(cpu));
    set.add(register_kernel<ops::flip, &d::flip>(cpu));
    set.add(register_kernel<ops::roll, &d::roll>(cpu));
    set.add(register_kernel<ops::repeat, &d::repeat>(cpu));
    set.add(register_kernel<ops::tril, &d::tril>(cpu));
    set.add(register_kernel<ops::tril_out, &d::tril_out>(cpu));
    set.add(register_kernel<ops::tril_, &d::tril_>(cpu));
    set.add(register_kernel<ops::triu, &d::triu>(cpu));
    set.add(register_kernel<ops::triu_out, &d::triu_out>(cpu));
    set.add(register_kernel<ops::triu_, &d::triu_>(cpu));
    if (cpu == DispatchKey::CPU) set.add(register_kernel<ops::where_condition, &d::where_condition>(cpu));
    if (cpu == DispatchKey::CPU) set.add(register_kernel<ops::nonzero, &d::nonzero>(cpu));
    if (cpu == DispatchKey::CPU) set.add(register_kernel<ops::nonzero_out, &d::nonzero_out>(cpu));
    if (cpu == DispatchKey::CPU) set.add(register_kernel<ops::masked_select, &d::masked_select>(cpu));
    if (cpu == DispatchKey::CPU) set.add(register_kernel<ops::masked_select_out, &d::masked_select_out>(cpu));
    set.add(register_kernel<ops::index, &d::index>(cpu));
    set.add(register_kernel<ops::index_out, &d::index_out>(cpu));
    set.add(register_kernel<ops::index_put_, &d::index_put_>(cpu));
    set.add(register_kernel<ops::index_put, &d::index_put>(cpu));
    set.add(register_kernel<ops::sort, &d::sort>(cpu));
    set.add(register_kernel<ops::sort_stable, &d::sort_stable>(cpu));
    set.add(register_kernel<ops::sort_values, &d::sort_values>(cpu));
    set.add(register_kernel<ops::sort_values_stable, &d::sort_values_stable>(cpu));
    set.add(register_kernel<ops::argsort, &d::argsort>(cpu));
    set.add(register_kernel<ops::argsort_stable, &d::argsort_stable>(cpu));
    set.add(register_kernel<ops::topk, &d::topk>(cpu));
    set.add(register_kernel<ops::topk_values, &d::topk_values>(cpu));
    set.add(register_kernel<ops::arange, &d::arange>(cpu));
    set.add(register_kernel<ops::arange_start, &d::arange_start>(cpu));
    set.add(register_kernel<ops::arange_start_step, &d::arange_start_step>(cpu));
    set.add(register_kernel<ops::arange_out, &d::arange_out>(cpu));
    set.add(register_kernel<ops::arange_start_out, &d::arange_start_out>(cpu));
    set.add(register_kernel<ops::full, &d::full>(cpu));
    set.add(register_kernel<ops::full_out, &d::full_out>(cpu));
    set.add(register_kernel<ops::linspace, &d::linspace>(cpu));
    set.add(register_kernel<ops::linspace_out, &d::linspace_out>(cpu));
    set.add(register_kernel<ops::eye, &d::eye>(cpu));
    set.add(register_kernel<ops::eye_m, &d::eye_m>(cpu));
    set.add(register_kernel<ops::eye_out, &d::eye_out>(cpu));
    set.add(register_kernel<ops::eye_m_out, &d::eye_m_out>(cpu));
  }
  return set;
}

}  // namespace opd::kernels
