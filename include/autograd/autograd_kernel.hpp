#pragma once
// The Autograd kernel and graph node derived from an operator's derivatives
// (derivatives.hpp), in the steps of PyTorch's generated VariableType kernel:
//
//   1. requires_grad: grad mode is on and a Tensor input requires grad;
//   2. in-place: check it (a leaf that requires grad cannot be written; a
//      view that records grad: PyTorch's refusals, view_history.hpp);
//      out=: an input that requires grad is PyTorch's out= error;
//   3. if required: the node, its next edges (one per Tensor argument, one
//      per element of a Tensor[] / Tensor?[] argument), and the saved values
//      of each formula whose inputs need a gradient;
//   4. redispatch below the Autograd keys (ADInplaceOrView still runs);
//   5. set the history of the output (in-place: self's history is rebased
//      onto the node; several outputs: output k of the node, for the
//      floating-point outputs that output_differentiability allows; a Tensor[]
//      result: element k is output k) and save what the formulas read of the
//      outputs. In-place on a view: the base's history is rebased through
//      CopySlices. A view operator (a Tensor(a) return) records its result
//      as a differentiable view (also in no_grad mode, for PyTorch's refusal
//      of writing it in place later).
//
//   auto h = opd::autograd::register_derivatives<my_mul>();   // Autograd kernel of my_mul
//   auto i = opd::autograd::register_derivatives<my_mul_, derivatives_t<my_mul>>();  // an in-place variant
//
// The kernel is registered at every per-backend Autograd key; tensors that
// require no grad carry no Autograd key, so their calls never reach it.
#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>

#include "autograd/autograd_meta.hpp"
#include "autograd/derivatives.hpp"
#include "autograd/grad_mode.hpp"
#include "autograd/inplace_or_view.hpp"
#include "autograd/node.hpp"
#include "autograd/view_history.hpp"
#include "dispatch/dispatcher.hpp"
#include "dispatch/schema/alias_facts.hpp"
#include "kernels/ops_arithmetic.hpp"
#include "kernels/ops_views.hpp"

namespace opd::autograd {

namespace kernel_detail {
namespace mp = boost::mp11;
using namespace derivatives_detail;

struct no_saved {
  template <class A, class C>
  void capture_inputs(const A&, C&&) {}
  template <class R>
  void capture_result(const R&, const std::shared_ptr<Node>&) {}
  void set_owner(const Node*) noexcept {}
  void release() {}
};

// A formula's first parameter: `const Tensor& grad` (output 0's gradient), or
// `const variable_list& grads`: for an operator whose result is a Tensor[] (one
// per element, undefined ones already zeros), or for one with several outputs
// whose formula reads them all (every output's gradient, an undefined one
// undefined: PyTorch's grads[i] with grads[i].defined()).
template <class Fn>
struct fn_traits;
template <class R, class G>
struct fn_traits<R (*)(const G&)> {
  using result = R;
  using grad_type = G;
  using saved_type = no_saved;
};
template <class R, class G, class S>
struct fn_traits<R (*)(const G&, const S&)> {
  using result = R;
  using grad_type = G;
  using saved_type = S;
};

template <class T>
struct is_formula : std::false_type {};
template <fixed_string I, auto F>
struct is_formula<formula<I, F>> : std::true_type {};
template <class T>
struct is_nondiff : std::false_type {};
template <fixed_string... N>
struct is_nondiff<non_differentiable<N...>> : std::true_type {};

template <class F>
struct formula_text;
template <fixed_string I, auto Fn>
struct formula_text<formula<I, Fn>> {
  static constexpr auto value = I;
};

template <class T>
struct is_outdiff : std::false_type {};
template <bool... B>
struct is_outdiff<output_differentiability<B...>> : std::true_type {};

template <class D>
using formulas_of = mp::mp_copy_if<typename D::parts, is_formula>;
template <class D>
using outdiffs_of = mp::mp_copy_if<typename D::parts, is_outdiff>;
// Whether output k may get a history (output_differentiability; default: yes).
template <class D>
constexpr bool output_differentiable(std::size_t k) {
  if constexpr (mp::mp_empty<outdiffs_of<D>>::value) {
    return true;
  } else {
    return k < mp::mp_front<outdiffs_of<D>>::values.size() && mp::mp_front<outdiffs_of<D>>::values[k];
  }
}
template <class D>
using nondiffs_of = mp::mp_copy_if<typename D::parts, is_nondiff>;

template <class F>
using saved_type_of = typename fn_traits<std::remove_cv_t<decltype(F::fn)>>::saved_type;
// Whether formula F takes every output's gradient (const variable_list&).
template <class F>
inline constexpr bool reads_all_grads_v =
    std::is_same_v<typename fn_traits<std::remove_cv_t<decltype(F::fn)>>::grad_type, variable_list>;
template <class F>
using reads_all_grads_t = std::bool_constant<reads_all_grads_v<F>>;

// A name of the schema as a fixed_string (to name it in an error type).
template <std::string_view const& S>
constexpr auto as_fixed() {
  fixed_string<S.size()> f;
  for (std::size_t i = 0; i < S.size(); ++i) f.data[i] = S[i];
  return f;
}
template <class Op, std::size_t I>
struct arg_name {
  static constexpr std::string_view value = Op::schema.arguments[I].name;
};

template <class N>
constexpr bool nondiff_lists(std::string_view name);
template <fixed_string... N>
struct nondiff_names {
  static constexpr bool has(std::string_view name) { return ((N.view() == name) || ...); }
};
template <class T>
struct nondiff_of;
template <fixed_string... N>
struct nondiff_of<non_differentiable<N...>> {
  using type = nondiff_names<N...>;
};

template <class D>
constexpr bool covered(std::string_view name) {
  bool c = false;
  mp::mp_for_each<formulas_of<D>>([&](auto f) {
    using F = decltype(f);
    for (std::size_t k = 0; k < count_names(F::inputs); ++k) c = c || nth_name(F::inputs, k) == name;
  });
  mp::mp_for_each<nondiffs_of<D>>([&](auto n) { c = c || nondiff_of<decltype(n)>::type::has(name); });
  return c;
}

template <class Sig>
struct sig_result;
template <class R, class... A>
struct sig_result<R(A...)> {
  using type = std::remove_cvref_t<R>;
};
// An operator whose result is a Tensor[] (split, unbind, ...).
template <class Op>
inline constexpr bool returns_tensor_list_v =
    std::is_same_v<typename sig_result<schema::kernel_signature_t<Op>>::type, std::vector<Tensor>>;

template <class Op>
constexpr bool is_out_arg(std::size_t i) {
  return schema::is_out(Op::schema, Op::schema.arguments[i]);
}

// Whether argument i is a Tensor[] / Tensor?[] (a run-time index over the types).
template <class Op>
constexpr bool list_arg_at(std::size_t i) {
  bool r = false;
  mp::mp_for_each<mp::mp_iota<mp::mp_size<schema::arg_types_t<Op>>>>(
      [&](auto k) { r = r || (k.value == i && is_tensor_list_param_v<mp::mp_at_c<schema::arg_types_t<Op>, k>>); });
  return r;
}

// The checks, instantiated with the kernel: each failure is one error type.
template <class Op, class D, class F>
constexpr bool check_formula() {
  using R = typename fn_traits<std::remove_cv_t<decltype(F::fn)>>::result;
  constexpr std::size_t n = count_names(F::inputs);
  constexpr bool names_ok = [] {
    for (std::size_t k = 0; k < count_names(F::inputs); ++k)
      if (arg_index<Op>(nth_name(F::inputs, k)) < 0) return false;
    return true;
  }();
  if constexpr (!names_ok) {
    return sizeof(formula_names_no_argument<Op, formula_text<F>::value>) == 0;
  } else {
    constexpr bool tensors_ok = [] {
      bool ok = true;
      mp::mp_for_each<mp::mp_iota<mp::mp_size<schema::arg_types_t<Op>>>>([&](auto i) {
        for (std::size_t k = 0; k < count_names(F::inputs); ++k)
          if (arg_index<Op>(nth_name(F::inputs, k)) == static_cast<int>(i.value))
            ok = ok && is_edge_param_v<mp::mp_at_c<schema::arg_types_t<Op>, i>>;
      });
      return ok;
    }();
    constexpr bool has_list = [] {
      for (std::size_t k = 0; k < count_names(F::inputs); ++k)
        if (arg_index<Op>(nth_name(F::inputs, k)) >= 0 &&
            list_arg_at<Op>(static_cast<std::size_t>(arg_index<Op>(nth_name(F::inputs, k)))))
          return true;
      return false;
    }();
    using G = typename fn_traits<std::remove_cv_t<decltype(F::fn)>>::grad_type;
    if constexpr (!tensors_ok) {
      return sizeof(formula_for_non_tensor_argument<Op, formula_text<F>::value>) == 0;
    } else if constexpr (!std::is_same_v<G, std::conditional_t<returns_tensor_list_v<Op>, variable_list, Tensor>> &&
                         !(Op::schema.returns.size() > 1 && std::is_same_v<G, variable_list>)) {
      return sizeof(formula_grad_parameter_mismatch<Op, formula_text<F>::value>) == 0;
    } else if constexpr (n == 1 && !std::is_same_v<R, std::conditional_t<has_list, std::vector<Tensor>, Tensor>>) {
      return sizeof(formula_does_not_return_tensor<Op, formula_text<F>::value>) == 0;
    } else if constexpr (n > 1 && (has_list || !std::is_same_v<R, std::array<Tensor, n>>)) {
      return sizeof(formula_does_not_return_tensor<Op, formula_text<F>::value>) == 0;
    } else {
      return true;
    }
  }
}

template <class Op, class D>
constexpr bool check_derivatives() {
  static_assert(mp::mp_size<outdiffs_of<D>>::value <= 1, "opd::autograd: output_differentiability is declared twice");
  if constexpr (!mp::mp_empty<outdiffs_of<D>>::value) {
    static_assert(mp::mp_front<outdiffs_of<D>>::values.size() == Op::schema.returns.size(),
                  "opd::autograd: output_differentiability must name every output of the operator");
  }
  bool ok = true;
  mp::mp_for_each<formulas_of<D>>([&](auto f) { ok = ok && check_formula<Op, D, decltype(f)>(); });
  mp::mp_for_each<mp::mp_iota<mp::mp_size<schema::arg_types_t<Op>>>>([&](auto i) {
    constexpr std::size_t I = i.value;
    if constexpr (is_edge_param_v<mp::mp_at_c<schema::arg_types_t<Op>, I>>) {
      if constexpr (!is_out_arg<Op>(I) && !covered<D>(arg_name<Op, I>::value)) {
        ok = ok && sizeof(differentiable_input_without_formula<Op, as_fixed<arg_name<Op, I>::value>()>) == 0;
      }
    }
  });
  return ok;
}

// A node's printable name ("ExpandBackward0", "ExpandBackward0_copy"): one
// copy of the string code per translation unit rather than per node type.
[[gnu::noinline]] inline std::string node_display_name(std::string_view name, bool for_copy) {
  std::string s(name);
  if (for_copy) s += "_copy";
  return s;
}

// The graph node of Op's calls. Its next edges come in groups, one per
// argument with edges (edge_of): one edge for a Tensor, one per element for a
// Tensor[]. Without Tensor[] arguments group g is edge g; with them `begin_`
// holds where each group starts, set by the kernel for each call.
template <class Op, class D>
class derived_node final : public Node {
  using formulas = formulas_of<D>;
  using saved_tuple = mp::mp_rename<mp::mp_transform<std::optional, mp::mp_transform<saved_type_of, formulas>>, std::tuple>;
  static constexpr bool list_result = returns_tensor_list_v<Op>;
  static constexpr bool reads_all_grads = mp::mp_any_of<formulas, reads_all_grads_t>::value;

 public:
  static constexpr bool list_args = [] {
    bool r = false;
    mp::mp_for_each<mp::mp_iota<mp::mp_size<schema::arg_types_t<Op>>>>(
        [&](auto i) { r = r || is_tensor_list_param_v<mp::mp_at_c<schema::arg_types_t<Op>, i>>; });
    return r;
  }();
  struct none {};
  using formulas_t = formulas;
  derived_node() : Node(static_cast<std::uint32_t>(Op::schema.returns.size())) {}
  std::string name() const override { return node_display_name(D::node_name, for_copy_); }
  // recorded for a view's *_copy operator, which shares the view's node type (PyTorch: ExpandBackward0_copy)
  bool for_copy_ = false;

  variable_list apply(variable_list&& grads) override {
    variable_list out(next_edges().size());
    if constexpr (list_result) {
      // an element nobody used has no gradient: zeros of its shape (PyTorch's split_backward)
      if (std::none_of(grads.begin(), grads.end(), [](const Tensor& g) { return g.defined(); })) return out;
      grads.resize(outputs_.size());
      for (std::size_t k = 0; k < grads.size(); ++k)
        if (!grads[k].defined()) grads[k] = zeros_of(outputs_[k]);
    } else if constexpr (reads_all_grads) {
      // several outputs, a formula reads them all: it runs unless every gradient is undefined
      if (std::none_of(grads.begin(), grads.end(), [](const Tensor& g) { return g.defined(); })) return out;
      grads.resize(Op::schema.returns.size());
    } else {
      if (!grads.at(0).defined()) return out;  // several outputs: the formulas read output 0's
    }
    mp::mp_for_each<mp::mp_iota<mp::mp_size<formulas>>>([&](auto k) {
      using F = mp::mp_at_c<formulas, k>;
      auto& s = std::get<k.value>(saved_);
      if (!s) return;  // none of its inputs needs a gradient
      const auto& grad = [&]() -> const auto& {
        if constexpr (list_result || reads_all_grads_v<F>) return grads;
        else return grads[0];
      }();
      if constexpr (!list_result && !reads_all_grads_v<F>) {
        if (!grad.defined()) return;  // beside a formula that reads every gradient: output 0's is undefined
      }
      constexpr std::size_t n = count_names(F::inputs);
      auto r = [&] {
        if constexpr (std::is_same_v<saved_type_of<F>, no_saved>)
          return F::fn(grad);
        else
          return F::fn(grad, *s);
      }();
      if constexpr (n == 1) {
        constexpr std::size_t group = static_cast<std::size_t>(edge_of<Op>(arg_index<Op>(nth_name(F::inputs, 0))));
        if constexpr (std::is_same_v<decltype(r), Tensor>) {
          out[begin(group)] = std::move(r);
        } else {  // a Tensor[] input: one gradient per element
          check_list_grads(r.size(), begin(group + 1) - begin(group));
          for (std::size_t j = 0; j < r.size(); ++j)
            if (should_compute_output(begin(group) + j)) out[begin(group) + j] = std::move(r[j]);
        }
      } else {
        for (std::size_t j = 0; j < n; ++j) {
          const std::size_t e = begin(static_cast<std::size_t>(edge_of<Op>(arg_index<Op>(nth_name(F::inputs, j)))));
          if (should_compute_output(e)) out[e] = std::move(r[j]);
        }
      }
    });
    return out;
  }
  void release_variables() override {
    std::apply([](auto&... s) { ((s ? s->release() : void()), ...); }, saved_);
  }

  // Whether formula F serves an input that needs a gradient.
  template <class F>
  bool serves_needed_input() const {
    for (const std::size_t group : groups_of<F>)
      for (std::size_t e = begin(group); e < begin(group + 1); ++e)
        if (should_compute_output(e)) return true;
    return false;
  }
  // The edge groups of F's inputs (computed once, at compile time).
  template <class F>
  static constexpr auto groups_of = [] {
    std::array<std::size_t, count_names(F::inputs)> g{};
    for (std::size_t k = 0; k < g.size(); ++k) g[k] = static_cast<std::size_t>(edge_of<Op>(arg_index<Op>(nth_name(F::inputs, k))));
    return g;
  }();
  // A Tensor[] result: one output per element, whose shape a missing gradient takes.
  void set_list_outputs(const std::vector<Tensor>& result) {
    set_num_inputs(static_cast<std::uint32_t>(result.size()));
    outputs_.clear();
    for (const Tensor& t : result) outputs_.push_back({SizesVector(t.sizes()), t.dtype(), t.device()});
  }

  saved_tuple saved_;
  // group g: next edges [begin(g), begin(g + 1))
  std::size_t begin(std::size_t g) const noexcept {
    if constexpr (list_args)
      return begin_[g];
    else
      return g;
  }
  void set_begin(std::size_t g, std::size_t e) noexcept {
    if constexpr (list_args) begin_[g] = e;
  }
  [[no_unique_address]] std::conditional_t<list_args, std::array<std::size_t, tensor_arg_count<Op>() + 1>, none> begin_{};

 private:
  struct output_meta {
    SizesVector sizes;
    ScalarType dtype;
    Device device;
  };
  static Tensor zeros_of(const output_meta& m) {
    Tensor z = empty(IntArrayRef(m.sizes), m.dtype, m.device);
    call<kernels::ops::fill_>(z, Scalar(0));
    return z;
  }
  [[gnu::cold, gnu::noinline]] static void throw_list_grads(std::size_t got, std::size_t expected) {
    throw Error(std::string(D::node_name) + " returned " + std::to_string(got) + " gradients for a Tensor[] of " +
                std::to_string(expected) + " elements");
  }
  static void check_list_grads(std::size_t got, std::size_t expected) {
    if (got != expected) throw_list_grads(got, expected);
  }
  [[no_unique_address]] std::conditional_t<list_result, std::vector<output_meta>, none> outputs_{};  // a Tensor[] result's elements
};

// Whether Op's calls can be recorded by NodeOp's node: Tensor and Tensor[] arguments at the same
// positions, the same number and kind of results.
template <class Op, class NodeOp>
constexpr bool same_edge_layout() {
  using P = schema::arg_types_t<Op>;
  using Q = schema::arg_types_t<NodeOp>;
  if constexpr (mp::mp_size<P>::value != mp::mp_size<Q>::value) {
    return false;
  } else {
    bool same = returns_tensor_list_v<Op> == returns_tensor_list_v<NodeOp> &&
                Op::schema.returns.size() == NodeOp::schema.returns.size();
    mp::mp_for_each<mp::mp_iota<mp::mp_size<P>>>([&](auto i) {
      using X = mp::mp_at_c<P, i>;
      using Y = mp::mp_at_c<Q, i>;
      same = same && is_tensor_param_v<X> == is_tensor_param_v<Y> && is_tensor_list_param_v<X> == is_tensor_list_param_v<Y>;
    });
    return same;
  }
}

[[gnu::cold, gnu::noinline]] inline void throw_out_variant(std::string_view op_name) {
  // PyTorch names the operator without namespace and overload: "mul(): ..."
  std::string_view base = op_name.substr(op_name.find("::") == std::string_view::npos ? 0 : op_name.find("::") + 2);
  base = base.substr(0, base.find('.'));
  throw Error(std::string(base) + "(): functions with out=... arguments don't support automatic differentiation, but one of the "
                     "arguments requires grad.");
}
[[gnu::cold, gnu::noinline]] inline void throw_leaf_inplace() {
  throw Error("a leaf Variable that requires grad is being used in an in-place operation.");
}

template <class T>
bool any_requires_grad(const T& v) {
  using V = std::remove_cvref_t<T>;
  if constexpr (std::is_same_v<V, Tensor>) {
    return requires_grad(v);
  } else if constexpr (std::is_same_v<V, std::optional<Tensor>>) {
    return v.has_value() && requires_grad(*v);
  } else if constexpr (is_tensor_list_param_v<V>) {
    for (const auto& t : v)
      if (any_requires_grad(t)) return true;
    return false;
  } else {
    return false;
  }
}

// A complex tensor among an argument (Tensor, Tensor?, Tensor[], Tensor?[]) or a result.
template <class T>
bool any_complex(const T& v) {
  using V = std::remove_cvref_t<T>;
  if constexpr (std::is_same_v<V, Tensor>) {
    return v.defined() && is_complex_type(v.dtype());
  } else if constexpr (std::is_same_v<V, std::optional<Tensor>>) {
    return v.has_value() && any_complex(*v);
  } else if constexpr (is_tensor_list_param_v<V> || std::is_same_v<V, std::vector<Tensor>>) {
    for (const auto& t : v)
      if (any_complex(t)) return true;
    return false;
  } else if constexpr (requires { std::tuple_size<V>::value; }) {
    return std::apply([](const auto&... t) { return (any_complex(t) || ...); }, v);
  } else {
    return false;
  }
}
// An operator whose formulas are not complex_verified, called with a complex tensor
// while recording grad: refused rather than differentiated wrongly.
[[gnu::cold, gnu::noinline]] inline void throw_complex_not_verified(std::string_view name, std::string_view overload) {
  std::string op(name);
  if (!overload.empty()) op.append(".").append(overload);
  throw NotImplementedError(op + ": autograd for complex inputs is not implemented yet (its derivative formulas are not "
                                 "verified for complex tensors)");
}

// A single output's history; an integer result (_to_copy to int64) gets none, as in PyTorch.
[[gnu::noinline]] inline void set_output_history(const Tensor& result, const std::shared_ptr<Node>& node) {
  if (is_floating_type(result.dtype()) || is_complex_type(result.dtype())) set_history(result, node, 0);
}

// Whether an alias operator's result is its input tensor itself.
template <class R>
bool is_input_itself(const R& result, const Tensor& input) {
  if constexpr (std::is_same_v<std::remove_cvref_t<R>, Tensor>) return result.is_same(input);
  else return false;
}

// A view operator's result(s): differentiable views of its first argument's base.
template <class R>
void record_views(const R& result, const Tensor& input, CreationMeta creation) {
  if constexpr (std::is_same_v<std::remove_cvref_t<R>, Tensor>) {
    record_view(result, input, creation);
  } else if constexpr (std::is_same_v<std::remove_cvref_t<R>, std::vector<Tensor>>) {
    for (const Tensor& t : result) record_view(t, input, creation);
  }
}

}  // namespace kernel_detail

inline constexpr DispatchKeySet kBelowAutograd = DispatchKeySet::full_after(DispatchKey::AutogradOther);

// Op's Autograd kernel from the derivatives D (Op's own, or for an in-place
// variant its functional's: the arguments are the same, by name and position).
// NodeOp: the operator whose derived_node records the calls (default: Op). A variant with its
// functional's arguments (an in-place variant, a view's *_copy) records into the functional's node
// type, so that the node and its formulas are compiled once for both.
template <class Op, class D, class NodeOp = Op, class Sig = schema::kernel_signature_t<Op>>
struct autograd_kernel;
template <class Op, class D, class NodeOp, class R, class... A>
struct autograd_kernel<Op, D, NodeOp, R(A...)> {
  static_assert(kernel_detail::same_edge_layout<Op, NodeOp>(),
                "opd::autograd: a variant records into its functional's node only with the same Tensor arguments at the "
                "same positions and the same kind of result");
  static constexpr auto facts = schema::alias_table_of<sizeof...(A), 1>(Op::schema);
  static constexpr int written = [] {
    for (std::size_t i = 0; i < sizeof...(A); ++i)
      if (facts.written[i]) return static_cast<int>(i);
    return -1;
  }();
  static constexpr bool is_inplace = written >= 0 && !schema::is_out(Op::schema, Op::schema.arguments[static_cast<std::size_t>(written < 0 ? 0 : written)]);
  // A view operator whose result is a Tensor or a Tensor[] over its first argument.
  static constexpr bool is_view_op = [] {
    if constexpr (sizeof...(A) == 0) {
      return false;
    } else {
      using First = std::remove_cvref_t<std::tuple_element_t<0, std::tuple<A...>>>;
      using Res = std::remove_cvref_t<R>;
      return facts.view_return >= 0 && std::is_same_v<First, Tensor> &&
             (std::is_same_v<Res, Tensor> || std::is_same_v<Res, std::vector<Tensor>>);
    }
  }();
  // A functional operator with one Tensor result over a Tensor first argument: its kernel may
  // return that argument itself (conj_physical of a real tensor, as ATen's composite does).
  static constexpr bool may_return_input = [] {
    if constexpr (sizeof...(A) == 0 || is_inplace) {
      return false;
    } else {
      using First = std::remove_cvref_t<std::tuple_element_t<0, std::tuple<A...>>>;
      return std::is_same_v<First, Tensor> && std::is_same_v<std::remove_cvref_t<R>, Tensor>;
    }
  }();
  static constexpr std::size_t num_outputs = Op::schema.returns.size();
  static_assert(std::is_same_v<std::remove_cvref_t<R>, Tensor> || kernel_detail::returns_tensor_list_v<Op> ||
                    (num_outputs > 1 && std::is_same_v<std::remove_cvref_t<R>, kernel_detail::mp::mp_repeat_c<std::tuple<Tensor>, num_outputs>>),
                "opd::autograd: an operator with formulas returns one Tensor, a tuple of Tensors or a Tensor[]");

  static R run(DispatchKeySet ks, A... args) {
    // 1. requires_grad
    const bool grad_mode = GradMode::is_enabled();
    const bool needs_grad = grad_mode && (kernel_detail::any_requires_grad(args) || ...);
    // 2. in-place checks
    if constexpr (is_inplace) {
      const Tensor& self = std::get<static_cast<std::size_t>(written)>(std::forward_as_tuple(args...));
      if (grad_mode) {
        const AutogradMeta* m = autograd_meta(self);
        if (m != nullptr && m->requires_grad && !m->grad_fn) kernel_detail::throw_leaf_inplace();
        if (needs_grad && self.is_view()) check_inplace_on_view(self, Op::name);
      }
    }
    if (!needs_grad) [[likely]] {
      if constexpr (is_view_op) {
        // a view made in no_grad mode of a tensor that requires grad: refused if written in place with grad
        if (!grad_mode) [[unlikely]] {
          const Tensor& input = std::get<0>(std::forward_as_tuple(args...));
          const bool input_requires_grad = requires_grad(input);
          R result = below(ks, std::forward<A>(args)...);
          if (input_requires_grad && !kernel_detail::is_input_itself(result, input))
            kernel_detail::record_views(result, input, CreationMeta::NO_GRAD_MODE);
          return result;
        }
      }
      return below(ks, std::forward<A>(args)...);
    }
    // (formulas not verified for complex: refuse a complex argument, below a complex result)
    if constexpr (!complex_verified_v<D>) {
      if ((kernel_detail::any_complex(args) || ...)) [[unlikely]]
        kernel_detail::throw_complex_not_verified(Op::name, Op::overload_name);
    }
    // 3. the node, its edges and saved inputs
    using node_t = kernel_detail::derived_node<NodeOp, D>;
    std::shared_ptr<node_t> typed = make_node<node_t>();
    node_t& n = *typed;
    const std::shared_ptr<Node> node = std::move(typed);  // as set_history and the saved outputs take it
    if constexpr (requires { typename Op::view_op; }) n.for_copy_ = true;  // kernels::view_copy_of<View>
    auto all = std::forward_as_tuple(args...);
    collect_edges(n, all, std::make_index_sequence<sizeof...(A)>{});
    save_inputs(n, all);
    // 4. below autograd (the kernel's own calls too: PyTorch's AutoDispatchBelowAutograd)
    R result = below(ks, std::forward<A>(args)...);
    if constexpr (!complex_verified_v<D>) {
      if (kernel_detail::any_complex(result)) [[unlikely]]  // a complex result of real inputs
        kernel_detail::throw_complex_not_verified(Op::name, Op::overload_name);
    }
    if constexpr (is_view_op || may_return_input) {
      // An operator that returned its input itself (contiguous of a contiguous
      // tensor, to() that changes nothing, conj_physical of a real tensor): no
      // history, as PyTorch's composites return self. (A node here would make a
      // leaf a non-leaf, rewrite the input's history, and with a saved input a
      // reference cycle.)
      if (kernel_detail::is_input_itself(result, std::get<0>(all))) return result;
    }
    // 5. history (rebased for in-place: result is self) and saved outputs
    if constexpr (kernel_detail::returns_tensor_list_v<Op>) {
      n.set_list_outputs(result);
      for (std::size_t k = 0; k < result.size(); ++k) set_history(result[k], node, static_cast<std::uint32_t>(k));
    } else if constexpr (num_outputs == 1) {
      kernel_detail::set_output_history(result, node);
    } else {
      kernel_detail::mp::mp_for_each<kernel_detail::mp::mp_iota_c<num_outputs>>([&](auto k) {
        const Tensor& t = std::get<k.value>(result);
        if (kernel_detail::output_differentiable<D>(k.value) && t.defined() &&
            (is_floating_type(t.dtype()) || is_complex_type(t.dtype())))
          set_history(t, node, static_cast<std::uint32_t>(k.value));
      });
    }
    std::apply([&](auto&... s) { ((s ? s->capture_result(result, node) : void()), ...); }, n.saved_);
    if constexpr (is_inplace && num_outputs == 1) {
      // a view: its base's history is rebased through CopySlices (after the saved
      // result was taken as the node's own output, which holds no reference cycle)
      if (result.is_view()) rebase_view_history(result, node);
    }
    if constexpr (is_view_op) {
      kernel_detail::record_views(result, std::get<0>(all), kernel_detail::returns_tensor_list_v<Op> ? CreationMeta::MULTI_OUTPUT_NODE
                                                                                                 : CreationMeta::DEFAULT);
    }
    return result;
  }

 private:
  // The call below the Autograd keys, with them excluded for the kernel's own calls (PyTorch's
  // AutoDispatchBelowAutograd). Out of line: the kernel's three paths share one copy.
  [[gnu::noinline]] static R below(DispatchKeySet ks, A... args) {
    ExcludeDispatchKeyGuard guard(kAutogradKeys);
    return redispatch<Op>(ks & kBelowAutograd, std::forward<A>(args)...);
  }
  template <class Node_, class Tuple, std::size_t... I>
  static void collect_edges(Node_& node, const Tuple& all, std::index_sequence<I...>) {
    std::size_t group = 0;
    auto edge = [](const auto& t) {
      if constexpr (std::is_same_v<std::remove_cvref_t<decltype(t)>, Tensor>)
        return gradient_edge(t);
      else
        return t ? gradient_edge(*t) : Edge{};
    };
    auto one = [&](const auto& v) {
      using T = std::remove_cvref_t<decltype(v)>;
      if constexpr (kernel_detail::is_tensor_param_v<T>) {
        node.set_begin(group++, node.next_edges().size());
        node.add_next_edge(edge(v));
      } else if constexpr (kernel_detail::is_tensor_list_param_v<T>) {
        node.set_begin(group++, node.next_edges().size());
        for (const auto& t : v) node.add_next_edge(edge(t));
      }
    };
    (one(std::get<I>(all)), ...);
    node.set_begin(group, node.next_edges().size());
  }
  template <class Node_, class Tuple>
  static void save_inputs(Node_& node, const Tuple& all) {
    auto clone_written = [](const Tensor& t, int index) -> Tensor {
      if (index == written && t.defined()) return call<kernels::ops::clone>(t);  // its value before the call
      return t;
    };
    kernel_detail::mp::mp_for_each<kernel_detail::mp::mp_iota<kernel_detail::mp::mp_size<typename Node_::formulas_t>>>(
        [&](auto k) {
          using F = kernel_detail::mp::mp_at_c<typename Node_::formulas_t, k>;
          if (!node.template serves_needed_input<F>()) return;
          auto& s = std::get<k.value>(node.saved_);
          s.emplace();
          s->set_owner(&node);
          s->capture_inputs(all, clone_written);
        });
  }
};

// Every per-backend Autograd key. A kernel is registered at each of them, not at
// the Autograd alias key: an alias-key kernel loses to a CompositeImplicitAutograd
// one (c10's order), and a composite view may make its result without calling
// view operators.
inline constexpr DispatchKey kAutogradKeyList[] = {
    DispatchKey::AutogradOther,       DispatchKey::AutogradCPU,         DispatchKey::AutogradCUDA,
    DispatchKey::AutogradMeta,        DispatchKey::AutogradPrivateUse1, DispatchKey::AutogradPrivateUse2,
    DispatchKey::AutogradPrivateUse3};

namespace kernel_detail {
// One kernel at every Autograd key. Not a template: one copy per translation
// unit rather than one per operator.
[[gnu::noinline]] inline RegistrationSet register_at_autograd_keys(OperatorEntry& entry, const KernelFunction& kernel,
                                                                  const source_location& where) {
  RegistrationSet set;
  for (DispatchKey k : kAutogradKeyList) set.add(Dispatcher::singleton().register_kernel(entry, k, kernel, where));
  return set;
}
}  // namespace kernel_detail

// Registers Op's Autograd kernel, and for an operator that writes an argument its ADInplaceOrView
// kernel (register_autograd()'s boxed one covers only the operators declared before it runs).
// NodeOp: see autograd_kernel (an in-place variant or a view's *_copy passes its functional).
template <class Op, class D = derivatives_t<Op>, class NodeOp = Op>
RegistrationSet register_derivatives(const source_location& where = source_location::current()) {
  static_assert(!std::is_void_v<D>, "opd::autograd::register_derivatives: no derivatives are declared for this operator");
  static_assert(kernel_detail::check_derivatives<Op, D>());
  RegistrationSet set =
      kernel_detail::register_at_autograd_keys(entry_for<Op>(), make_kernel<Op, &autograd_kernel<Op, D, NodeOp>::run>(), where);
  if constexpr (writes_an_argument_v<Op>) set.add(register_inplace_or_view<Op>(where));
  return set;
}

}  // namespace opd::autograd
