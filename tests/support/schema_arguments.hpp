#pragma once
// Arguments for one call of any operator, built from its schema alone: the
// tests that iterate over the Dispatcher (the CPU fallback's, the lazy
// backend's) call every operator with them.
#include <functional>
#include <string>
#include <vector>

#include <dispatch/dispatcher.hpp>

namespace opd_test {

// The tensors a call gets. `generic` is the first try; a test that wants
// more operators to accept their arguments tries the others in order
// (argument_profiles) until the eager call accepts one.
enum class ArgumentProfile {
  generic,  // every tensor [2, 3] Float with no zero (div)
  typed,    // [2, 3]; by name: index / indices / target Long zeros, mask / condition Bool, others Float;
            // in this and the profiles below optional min / max (clamp) are -1 / 1, not None
  integer,  // every tensor [2, 3] Long, 1..6, every Scalar 2 (bitwise and shift operators)
  image,    // [1, 2, 4, 4] Float (pooling with a 2x2 window, upsampling, convolution with a [2, 2, 1, 1] weight),
            // index / indices / target / mask typed as in `typed`
  square,   // [3, 3] Float (matrix products), typed as in `typed`
  vector,   // [3] Float (dot, mv's vec, outer), typed as in `typed`
};
inline constexpr ArgumentProfile argument_profiles[] = {ArgumentProfile::generic, ArgumentProfile::typed,
                                                        ArgumentProfile::integer, ArgumentProfile::image,
                                                        ArgumentProfile::square,  ArgumentProfile::vector};

// Values for one call: tensors as `profile` says, or empty for a written
// out= argument; Device arguments name `device`; a str is "none" (gelu's
// approximate) or "add"; an int list named dim is [1], any other the
// shape [2, 3]. Operators that refuse these must refuse them on the device too.
// Returns false for an argument type this builder does not know.
// `place` puts each CPU tensor where the call wants it (a device, a lazy
// tensor).
inline bool build_arguments(const opd::OperatorEntry& op, opd::Device device,
                            const std::function<opd::Tensor(const opd::Tensor&)>& place, opd::Stack& stack,
                            ArgumentProfile profile = ArgumentProfile::generic) {
  using opd::schema::base_type;
  using opd::schema::type_kind;
  using opd::Tensor;
  const auto& s = op.schema().value();
  const auto filled = [](std::vector<int64_t> sizes, auto value_of) {
    int64_t n = 1;
    for (const int64_t d : sizes) n *= d;
    std::vector<float> v(static_cast<std::size_t>(n));
    for (std::size_t k = 0; k < v.size(); ++k) v[k] = value_of(k);
    return opd::from_vector<float>(v, sizes);
  };
  // Long or Bool tensors, filled element by element.
  const auto integral = [](const std::vector<int64_t>& sizes, opd::ScalarType dtype, auto value_of) {
    Tensor t = opd::empty(sizes, dtype);
    for (int64_t k = 0; k < t.numel(); ++k) {
      const int64_t v = value_of(static_cast<std::size_t>(k));
      if (dtype == opd::ScalarType::Bool) static_cast<bool*>(t.data_ptr())[k] = v != 0;
      else static_cast<int64_t*>(t.data_ptr())[k] = v;
    }
    return t;
  };
  const auto tensor = [&](std::size_t i) {
    if (opd::schema::is_out_argument(s, i)) return place(opd::empty(std::vector<int64_t>{0}));
    const std::string_view name = s.arguments[i].name;
    std::vector<int64_t> sizes{2, 3};
    if (profile == ArgumentProfile::image) sizes = name == "weight" ? std::vector<int64_t>{2, 2, 1, 1}
                                                   : name == "bias"  ? std::vector<int64_t>{2}
                                                                     : std::vector<int64_t>{1, 2, 4, 4};
    if (profile == ArgumentProfile::square) sizes = {3, 3};
    if (profile == ArgumentProfile::vector) sizes = {3};
    const Tensor floats = filled(sizes, [](std::size_t k) { return static_cast<float>(k % 7) * 0.75f - 2.125f; });
    if (profile == ArgumentProfile::generic) {
      return place(opd::from_vector<float>({1.5f, -2.f, 3.25f, 4.f, -5.5f, 6.f}, {2, 3}));
    }
    if (profile == ArgumentProfile::integer) {
      return place(integral(sizes, opd::ScalarType::Long, [](std::size_t k) { return static_cast<int64_t>(k % 6 + 1); }));
    }
    if (name == "index" || name == "indices" || name == "target")
      return place(integral(sizes, opd::ScalarType::Long, [](std::size_t) { return int64_t{0}; }));
    if (name == "mask" || name == "condition")
      return place(integral(sizes, opd::ScalarType::Bool, [](std::size_t k) { return static_cast<int64_t>(k % 2); }));
    return place(floats);
  };
  for (std::size_t i = 0; i < s.arguments.size(); ++i) {
    const auto kind = opd::schema::classify_argument(s, s.arguments[i].type);
    switch (kind) {
      case opd::argument_kind::tensor:
      case opd::argument_kind::optional_tensor: stack.emplace_back(tensor(i)); continue;
      case opd::argument_kind::tensor_list: stack.emplace_back(std::vector<Tensor>{tensor(i), tensor(i)}); continue;
      case opd::argument_kind::optional_tensor_list:
        stack.emplace_back(std::vector<std::optional<Tensor>>{tensor(i), std::nullopt});
        continue;
      case opd::argument_kind::device: stack.emplace_back(device); continue;
      case opd::argument_kind::other: break;
    }
    const std::string_view name = s.arguments[i].name;
    const auto* n = &s.type(s.arguments[i].type);
    if (n->kind == type_kind::optional) {
      // clamp's bounds get values past the generic try; any other optional: None
      if (profile != ArgumentProfile::generic && (name == "min" || name == "max")) {
        stack.emplace_back(name == "min" ? -1.0 : 1.0);
      } else {
        stack.emplace_back();
      }
      continue;
    }
    const auto is_int = [](const auto& t) {
      return t.kind == type_kind::base && (t.base == base_type::int_ || t.base == base_type::SymInt);
    };
    if (n->kind == type_kind::list && is_int(s.type(n->child))) {
      // A dim list (reductions) names dim 1 of the [2, 3] tensors; any other
      // int list (sizes, shapes) is their shape.
      // Images: a 2x2 window (kernel_size, stride), padding 0, dilation 1.
      if (name == "dim") stack.emplace_back(std::vector<int64_t>{1});
      else if (profile != ArgumentProfile::image) stack.emplace_back(std::vector<int64_t>{2, 3});
      else if (name == "padding") stack.emplace_back(std::vector<int64_t>{0, 0});
      else if (name == "dilation") stack.emplace_back(std::vector<int64_t>{1, 1});
      else stack.emplace_back(std::vector<int64_t>{2, 2});
      continue;
    }
    if (n->kind == type_kind::list && s.type(n->child).kind == type_kind::base &&
        s.type(n->child).base == base_type::bool_) {  // output_mask (bool[3]): every output
      stack.emplace_back(std::vector<bool>(n->fixed_size > 0 ? static_cast<std::size_t>(n->fixed_size) : 3u, true));
      continue;
    }
    if (n->kind != type_kind::base) return false;
    switch (n->base) {
      case base_type::Scalar:  // an integer for the integer operators (bitwise, shifts)
        if (profile == ArgumentProfile::integer) stack.emplace_back(int64_t{2});
        else stack.emplace_back(0.75);
        break;
      case base_type::float_: stack.emplace_back(0.5); break;
      case base_type::int_:
      case base_type::SymInt: stack.emplace_back(int64_t{1}); break;
      case base_type::bool_: stack.emplace_back(false); break;
      case base_type::ScalarType: stack.emplace_back(opd::ScalarType::Float); break;
      case base_type::str:  // gelu's approximate, scatter's reduce
        stack.emplace_back(std::string(s.arguments[i].name == "approximate" ? "none" : "add"));
        break;
      default: return false;
    }
  }
  return true;
}

}  // namespace opd_test
