#pragma once
// Arguments for one call of any operator, built from its schema alone: the
// tests that iterate over the Dispatcher (the CPU fallback's, the lazy
// backend's) call every operator with them.
#include <functional>
#include <string>
#include <vector>

#include <dispatch/dispatcher.hpp>

namespace opd_test {

// Values for one call: tensors are [2, 3] Float with no zero (div), or
// empty for a written out= argument; Device arguments name `device`; a str
// is "none". Operators that refuse these (where's Float condition, ...) must
// refuse them on the device too.
// Returns false for an argument type this builder does not know.
// `place` puts each CPU tensor where the call wants it (a device, a lazy
// tensor).
inline bool build_arguments(const opd::OperatorEntry& op, opd::Device device,
                            const std::function<opd::Tensor(const opd::Tensor&)>& place, opd::Stack& stack) {
  using opd::schema::base_type;
  using opd::schema::type_kind;
  using opd::Tensor;
  const auto& s = op.schema().value();
  const std::vector<float> values = {1.5f, -2.f, 3.25f, 4.f, -5.5f, 6.f};
  const auto tensor = [&](std::size_t i) {
    Tensor t = opd::from_vector<float>(values, {2, 3});
    if (opd::schema::is_out_argument(s, i)) t = opd::empty(std::vector<int64_t>{0});
    return place(t);
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
    const auto* n = &s.type(s.arguments[i].type);
    if (n->kind == type_kind::optional) {  // any other optional: None
      stack.emplace_back();
      continue;
    }
    const auto is_int = [](const auto& t) {
      return t.kind == type_kind::base && (t.base == base_type::int_ || t.base == base_type::SymInt);
    };
    if (n->kind == type_kind::list && is_int(s.type(n->child))) {
      // A dim list (reductions) names dim 1 of the [2, 3] tensors; any other
      // int list (sizes, shapes) is their shape.
      if (s.arguments[i].name == "dim") stack.emplace_back(std::vector<int64_t>{1});
      else stack.emplace_back(std::vector<int64_t>{2, 3});
      continue;
    }
    if (n->kind == type_kind::list && s.type(n->child).kind == type_kind::base &&
        s.type(n->child).base == base_type::bool_) {  // output_mask (bool[3]): every output
      stack.emplace_back(std::vector<bool>(n->fixed_size > 0 ? static_cast<std::size_t>(n->fixed_size) : 3u, true));
      continue;
    }
    if (n->kind != type_kind::base) return false;
    switch (n->base) {
      case base_type::Scalar: stack.emplace_back(0.75); break;
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
