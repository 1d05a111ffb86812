#pragma once
// Declaring an operator's derivatives, in C++, next to the operator:
//
//   struct my_mul : opd::op<"myops::mul(Tensor self, Tensor other) -> Tensor"> {};
//   struct my_mul_derivatives {
//     using saved_other = opd::autograd::saved<my_mul, "other">;   // what d_self needs, no more
//     static opd::Tensor d_self(const opd::Tensor& grad, const saved_other& s) {
//       return opd::call<mul>(grad, s.get<"other">());             // an ordinary, differentiable call
//     }
//     ...
//   };
//   template <> struct opd::autograd::derivatives_of<my_mul>
//       : opd::autograd::derivatives<"MulBackward0", opd::autograd::formula<"self", &my_mul_derivatives::d_self>,
//                                                    opd::autograd::formula<"other", &...::d_other>> {};
//
// (or `using derivatives = opd::autograd::derivatives<...>;` inside the operator struct.)
//
//   formula<"self", &f>          f(const Tensor& grad[, const saved<Op, ...>& s]) -> Tensor
//   formula<"self, other", &f>   one formula for several inputs: f returns std::array<Tensor, N>
//   non_differentiable<"mask">   Tensor inputs that get no gradient (integer indices, masks)
//   output_differentiability<true, false>   for an operator with several outputs: the
//                                outputs that get a history (PyTorch's output_differentiability;
//                                default: every floating-point output)
//   complex_verified             the formulas are right for complex tensors (conjugated where
//                                PyTorch 1.13's are, a real input's gradient real); without it a
//                                call that records grad with a complex tensor is refused
//
// With several outputs, a formula's first parameter is `const Tensor& grad`,
// output 0's gradient (undefined: that formula does not run), or
// `const variable_list& grads`, every output's (an unused one undefined:
// convolution_backward's double backward); a formula reads an output as
// "result0", "result1", ... or by the schema's return name ("indices").
//
// What a formula may read is the parameter type of its second argument,
// saved<Op, Names...>: inputs by name ("other": the tensor, or the value of a
// non-Tensor argument), "result" (the output), or only metadata of a Tensor
// input ("self.sizes", "self.strides", "self.storage_offset", "self.dtype", "self.device",
// "self.dim"), which saves that and not the
// tensor. The Autograd kernel fills a formula's saved values only when one of
// the inputs it serves requires grad (PyTorch's should_compute_output).
//
// Compile errors name the operator and the name at fault (the types
// formula_names_no_argument<Op, Name>, formula_for_non_tensor_argument<Op,
// Name>, formula_does_not_return_tensor<Op, Name>, saved_value_not_declared<Op,
// Name>, saved_value_names_no_argument<Op, Name>,
// differentiable_input_without_formula<Op, Name>; tests/compile_fail/autograd_*).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

#include "autograd/autograd_meta.hpp"
#include "autograd/saved_variable.hpp"
#include "dispatch/core/tensor.hpp"
#include "dispatch/op.hpp"
#include "dispatch/schema/fixed_string.hpp"

namespace opd::autograd {

// ---- the declaration -----------------------------------------------------------------------
template <fixed_string Inputs, auto Fn>
struct formula {
  static constexpr std::string_view inputs = Inputs.view();
  static constexpr auto fn = Fn;
};
template <fixed_string... Names>
struct non_differentiable {};
template <bool... Differentiable>
struct output_differentiability {
  static constexpr std::array<bool, sizeof...(Differentiable)> values{Differentiable...};
};
// Declared among a derivative's parts when its formulas were checked for complex
// tensors (gradcheck's Wirtinger convention, libtorch's values). Without it the
// Autograd kernel refuses, at the forward call, to record a call with a complex
// argument or result: a real formula would give a silently wrong gradient.
struct complex_verified {};
template <fixed_string NodeName, class... Parts>
struct derivatives {
  static constexpr std::string_view node_name = NodeName.view();
  using parts = boost::mp11::mp_list<Parts...>;
};

// Specialize for an operator whose struct cannot hold its derivatives (a
// structured family's variants, an operator declared elsewhere).
template <class Op>
struct derivatives_of {};

namespace derivatives_detail {
template <class Op>
struct find {
  using type = void;
};
template <class Op>
  requires requires { typename Op::derivatives::parts; }
struct find<Op> {
  using type = typename Op::derivatives;
};
template <class Op>
  requires(!requires { typename Op::derivatives::parts; }) && requires { typename derivatives_of<Op>::parts; }
struct find<Op> {
  using type = derivatives_of<Op>;
};
}  // namespace derivatives_detail

// The derivatives declared for Op, or void.
template <class Op>
using derivatives_t = typename derivatives_detail::find<Op>::type;
template <class Op>
inline constexpr bool has_derivatives_v = !std::is_void_v<derivatives_t<Op>>;
// Whether the derivatives D declare complex_verified.
template <class D>
inline constexpr bool complex_verified_v = boost::mp11::mp_contains<typename D::parts, complex_verified>::value;

// ---- compile errors: each names the operator and the name at fault ---------------------------
template <class Op, fixed_string Name>
struct formula_names_no_argument {
  static_assert(std::is_void_v<Op*>, "opd::autograd: a formula names an input that is not an argument of the operator (Op, Name: the template arguments above)");
};
template <class Op, fixed_string Name>
struct formula_for_non_tensor_argument {
  static_assert(std::is_void_v<Op*>, "opd::autograd: a formula is declared for an argument that is not a Tensor (Op, Name: the template arguments above)");
};
template <class Op, fixed_string Name>
struct formula_does_not_return_tensor {
  static_assert(std::is_void_v<Op*>, "opd::autograd: a formula must return opd::Tensor (std::array<opd::Tensor, N> for N inputs; std::vector<opd::Tensor> for a Tensor[] input, which has a formula of its own) (Op, Name: the template arguments above)");
};
template <class Op, fixed_string Name>
struct formula_grad_parameter_mismatch {
  static_assert(std::is_void_v<Op*>, "opd::autograd: a formula's first parameter must be const opd::Tensor& grad, or const opd::autograd::variable_list& grads for an operator that returns Tensor[] (Op, Name: the template arguments above)");
};
template <class Op, fixed_string Name>
struct saved_value_not_declared {
  static_assert(std::is_void_v<Op*>, "opd::autograd: a formula reads a saved value that its saved<Op, ...> parameter does not declare (Op, Name: the template arguments above)");
};
template <class Op, fixed_string Name>
struct saved_value_names_no_argument {
  static_assert(std::is_void_v<Op*>, "opd::autograd: a saved value names no argument of the operator (nor \"result\"), or an unknown metadata (known: .sizes, .strides, .storage_offset, .dtype, .device, .dim) (Op, Name: the template arguments above)");
};
template <class Op, fixed_string Name>
struct differentiable_input_without_formula {
  static_assert(std::is_void_v<Op*>, "opd::autograd: a Tensor input has neither a formula nor non_differentiable<...> (Op, Name: the template arguments above)");
};

namespace derivatives_detail {

// ---- names in a schema, at compile time ----
constexpr std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}
constexpr std::size_t count_names(std::string_view list) {
  std::size_t n = 1;
  for (char c : list) n += c == ',' ? 1 : 0;
  return n;
}
constexpr std::string_view nth_name(std::string_view list, std::size_t i) {
  for (; i > 0; --i) list.remove_prefix(list.find(',') + 1);
  return trim(list.substr(0, list.find(',')));
}
template <class Op>
constexpr int arg_index(std::string_view name) {
  int i = 0;
  for (const auto& a : Op::schema.arguments) {
    if (a.name == name) return i;
    ++i;
  }
  return -1;
}
template <class T>
inline constexpr bool is_tensor_param_v =
    std::is_same_v<std::remove_cvref_t<T>, Tensor> || std::is_same_v<std::remove_cvref_t<T>, std::optional<Tensor>>;
// Tensor[] and Tensor?[]: one next edge per element.
template <class T>
inline constexpr bool is_tensor_list_param_v = std::is_same_v<std::remove_cvref_t<T>, std::span<const Tensor>> ||
                                               std::is_same_v<std::remove_cvref_t<T>, std::span<const std::optional<Tensor>>>;
// An argument that gets next edges (and needs a formula or non_differentiable<...>).
template <class T>
inline constexpr bool is_edge_param_v = is_tensor_param_v<T> || is_tensor_list_param_v<T>;
template <class Op, int I>
constexpr bool is_tensor_arg() {
  if constexpr (I < 0) {
    return false;
  } else {
    return is_tensor_param_v<schema::arg_type_t<Op, static_cast<std::size_t>(I)>>;
  }
}
template <class Op, int I>
constexpr bool is_tensor_list_arg() {
  if constexpr (I < 0) {
    return false;
  } else {
    return is_tensor_list_param_v<schema::arg_type_t<Op, static_cast<std::size_t>(I)>>;
  }
}
// The arguments with next edges (Tensor, Tensor?: one edge; Tensor[], Tensor?[]:
// one per element, counted at run time), and argument I's position among them:
// its group of next edges.
template <class Op>
constexpr std::size_t tensor_arg_count() {
  using namespace boost::mp11;
  std::size_t n = 0;
  mp_for_each<mp_iota<mp_size<schema::arg_types_t<Op>>>>([&](auto i) { n += is_edge_param_v<mp_at_c<schema::arg_types_t<Op>, i>> ? 1 : 0; });
  return n;
}
template <class Op>
constexpr int edge_of(int arg) {
  using namespace boost::mp11;
  int n = 0, found = -1, i = 0;
  mp_for_each<mp_iota<mp_size<schema::arg_types_t<Op>>>>([&](auto k) {
    if (is_edge_param_v<mp_at_c<schema::arg_types_t<Op>, k>>) {
      if (i == arg) found = n;
      ++n;
    }
    ++i;
  });
  return found;
}

// ---- owned copies of non-Tensor arguments ----
template <class T>
T own(const T& v) {
  return v;
}
inline std::vector<std::int64_t> own(std::span<const std::int64_t> s) { return {s.begin(), s.end()}; }
// Tensor?[] (index's indices: integer tensors, not differentiable) as they are.
inline std::vector<std::optional<Tensor>> own(std::span<const std::optional<Tensor>> s) { return {s.begin(), s.end()}; }
inline std::optional<std::vector<std::int64_t>> own(const std::optional<std::span<const std::int64_t>>& s) {
  if (!s) return std::nullopt;
  return std::vector<std::int64_t>(s->begin(), s->end());
}
inline std::optional<std::vector<double>> own(const std::optional<std::span<const double>>& s) {  // float[]?
  if (!s) return std::nullopt;
  return std::vector<double>(s->begin(), s->end());
}
inline std::string own(std::string_view s) { return std::string(s); }
inline std::optional<std::string> own(const std::optional<std::string_view>& s) {  // str? (a view would dangle)
  if (!s) return std::nullopt;
  return std::string(*s);
}
template <class T>
using owned_t = decltype(own(std::declval<const std::remove_cvref_t<T>&>()));

// "self.device" (Device has no default value; a saved value is filled after construction).
struct saved_device {
  Device value = Device::cpu();
};

enum class attr { none, sizes, strides, storage_offset, dtype, device, dim, result, invalid };

constexpr std::string_view base_of(std::string_view n) { return n.substr(0, n.find('.')); }
constexpr attr attr_of(std::string_view n) {
  const std::size_t dot = n.find('.');
  if (dot == std::string_view::npos) return attr::none;
  const std::string_view a = n.substr(dot + 1);
  if (a == "sizes") return attr::sizes;
  if (a == "strides") return attr::strides;
  if (a == "storage_offset") return attr::storage_offset;
  if (a == "dtype") return attr::dtype;
  if (a == "device") return attr::device;
  if (a == "dim") return attr::dim;
  return attr::invalid;  // reported below
}
// The output a saved name reads: "result" (output 0), "result<k>", or a return's name; -1 for none.
template <class Op>
constexpr int result_index(std::string_view n) {
  const int outputs = static_cast<int>(Op::schema.returns.size());
  if (n == "result") return outputs > 0 ? 0 : -1;
  if (n.size() > 6 && n.substr(0, 6) == "result") {
    int k = 0;
    for (char c : n.substr(6)) {
      if (c < '0' || c > '9') return -1;
      k = k * 10 + (c - '0');
    }
    return k < outputs ? k : -1;
  }
  int i = 0;
  for (const auto& r : Op::schema.returns) {
    if (!r.name.empty() && r.name == n) return i;
    ++i;
  }
  return -1;
}
// Output k of a kernel's result (one Tensor, or a tuple of them).
template <std::size_t K, class R>
const Tensor& output_at(const R& r) {
  if constexpr (std::is_same_v<std::remove_cvref_t<R>, Tensor>)
    return r;
  else
    return std::get<K>(r);
}

// One saved value: what is stored, how it is captured and read.
template <class Op, fixed_string Name>
struct slot {
  static constexpr std::string_view name = Name.view();
  static constexpr int output = attr_of(name) == attr::none && arg_index<Op>(name) < 0 ? result_index<Op>(name) : -1;
  static constexpr attr kind = output >= 0 ? attr::result : attr_of(name);
  static constexpr int index = kind == attr::result ? -1 : arg_index<Op>(base_of(name));
  static constexpr bool is_list = is_tensor_list_arg<Op, index>();
  static constexpr bool valid =
      kind == attr::result ||
      (index >= 0 && kind != attr::invalid &&
       (kind == attr::none || is_tensor_arg<Op, index>() || (is_list && (kind == attr::sizes || kind == attr::dtype))));
  static constexpr bool is_tensor = kind == attr::result || (kind == attr::none && is_tensor_arg<Op, index>());
  static constexpr bool is_result = kind == attr::result;

  static auto stored_type() {
    if constexpr (!valid) {
      return std::type_identity<decltype(saved_value_names_no_argument<Op, Name>{})>{};
    } else if constexpr (is_tensor) {
      return std::type_identity<SavedVariable>{};
    } else if constexpr (kind == attr::sizes && is_list) {
      return std::type_identity<std::vector<SizesVector>>{};  // "tensors.sizes": each element's
    } else if constexpr (kind == attr::dtype && is_list) {
      return std::type_identity<std::vector<ScalarType>>{};  // "tensors.dtype": each element's
    } else if constexpr (kind == attr::sizes || kind == attr::strides) {
      return std::type_identity<SizesVector>{};
    } else if constexpr (kind == attr::dtype) {
      return std::type_identity<ScalarType>{};
    } else if constexpr (kind == attr::device) {
      return std::type_identity<saved_device>{};
    } else if constexpr (kind == attr::dim || kind == attr::storage_offset) {
      return std::type_identity<std::int64_t>{};
    } else {
      return std::type_identity<owned_t<schema::arg_type_t<Op, static_cast<std::size_t>(index)>>>{};
    }
  }
  using stored = typename decltype(stored_type())::type;

  // Before the call (inputs); `clone_written`: the input is about to be
  // overwritten (an in-place variant), save a copy of its value.
  template <class Args, class Clone>
  static void capture_input(stored& out, const Args& args, Clone&& clone) {
    if constexpr (!is_result) {
      const auto& v = std::get<static_cast<std::size_t>(index)>(args);
      if constexpr (is_tensor) {
        if constexpr (std::is_same_v<std::remove_cvref_t<decltype(v)>, std::optional<Tensor>>)
          out = SavedVariable(v ? clone(*v, index) : Tensor(), false);
        else
          out = SavedVariable(clone(v, index), false);
      } else if constexpr (kind == attr::sizes && is_list) {
        out.clear();
        for (const Tensor& t : v) out.emplace_back(t.sizes());
      } else if constexpr (kind == attr::dtype && is_list) {
        out.clear();
        for (const Tensor& t : v) out.push_back(t.dtype());
      } else if constexpr (kind == attr::sizes) {
        out.assign(v.sizes());
      } else if constexpr (kind == attr::strides) {
        out.assign(v.strides());
      } else if constexpr (kind == attr::storage_offset) {
        out = v.storage_offset();
      } else if constexpr (kind == attr::dtype) {
        out = v.dtype();
      } else if constexpr (kind == attr::device) {
        out.value = v.device();
      } else if constexpr (kind == attr::dim) {
        out = v.dim();
      } else {
        out = own(v);
      }
    }
  }
};

template <class Op, fixed_string Name, class Stored>
decltype(auto) read(const Stored& s, const Node* owner) {
  if constexpr (std::is_same_v<Stored, SavedVariable>) {
    return s.unpack(owner);
  } else if constexpr (std::is_same_v<Stored, SizesVector>) {
    return IntArrayRef(s);
  } else if constexpr (std::is_same_v<Stored, saved_device>) {
    return s.value;
  } else {
    return (s);
  }
}

}  // namespace derivatives_detail

// The values one formula reads, saved by the Autograd kernel of Op.
template <class Op, fixed_string... Names>
class saved {
 public:
  using op_type = Op;
  template <fixed_string Name>
  static constexpr std::size_t position() {
    constexpr std::string_view names[] = {Names.view()..., {}};
    for (std::size_t i = 0; i < sizeof...(Names); ++i)
      if (names[i] == Name.view()) return i;
    return sizeof...(Names);
  }

  // The saved value `Name`: a Tensor (unpacked: checked against in-place
  // changes and release), IntArrayRef for ".sizes", or the argument's value.
  template <fixed_string Name>
  decltype(auto) get() const {
    constexpr std::size_t i = position<Name>();
    if constexpr (i == sizeof...(Names)) {
      return saved_value_not_declared<Op, Name>{};
    } else {
      return derivatives_detail::read<Op, Name>(std::get<i>(values_), owner_);
    }
  }

  // ---- filled by the Autograd kernel ----
  template <class Args, class Clone>
  void capture_inputs(const Args& args, Clone&& clone) {
    capture_inputs_impl(args, clone, std::index_sequence_for<decltype(Names)...>{});
  }
  // After the call: the outputs it reads (an output with this node's history is
  // saved as an output, without a reference cycle; an integer one as it is).
  template <class R>
  void capture_result(const R& result, const std::shared_ptr<Node>& node) {
    capture_result_impl(result, node, std::index_sequence_for<decltype(Names)...>{});
  }
  void set_owner(const Node* n) noexcept { owner_ = n; }
  void release() {
    std::apply([](auto&... v) { (release_one(v), ...); }, values_);
  }

 private:
  template <class Args, class Clone, std::size_t... I>
  void capture_inputs_impl(const Args& args, Clone& clone, std::index_sequence<I...>) {
    (derivatives_detail::slot<Op, Names>::capture_input(std::get<I>(values_), args, clone), ...);
  }
  template <class R, std::size_t... I>
  void capture_result_impl(const R& result, const std::shared_ptr<Node>& node, std::index_sequence<I...>) {
    (save_result<I, derivatives_detail::slot<Op, Names>>(result, node), ...);
  }
  template <std::size_t I, class Slot, class R>
  void save_result(const R& result, const std::shared_ptr<Node>& node) {
    if constexpr (Slot::is_result) {
      const Tensor& t = derivatives_detail::output_at<static_cast<std::size_t>(Slot::output)>(result);
      std::get<I>(values_) = SavedVariable(t, grad_fn(t).get() == node.get(), node);
    }
  }
  template <class V>
  static void release_one(V& v) {
    if constexpr (std::is_same_v<V, SavedVariable>) v.release();
  }

  std::tuple<typename derivatives_detail::slot<Op, Names>::stored...> values_{};
  const Node* owner_ = nullptr;
};

}  // namespace opd::autograd
