#pragma once
// Out-of-line part of variants.hpp.
#include <mutex>
#include <unordered_map>

#include "dispatch/dispatcher.hpp"
#include "dispatch/schema/variants.hpp"
#include "functionalize/variants.hpp"

namespace opd::functionalization {

namespace variants_detail {

// Remembered look-ups: entries live as long as the Dispatcher (an entry is
// never freed, only its schema and kernels come and go).
struct memo {
  std::mutex mu;
  std::unordered_map<const OperatorEntry*, const OperatorEntry*> functional;
  std::unordered_map<const OperatorEntry*, const OperatorEntry*> copies;
};
inline memo& memo_instance() {
  static memo m;
  return m;
}

inline bool writes_nothing(const OperatorEntry& e) { return e.has_schema() && e.alias_facts().written.empty(); }

// The operator named `base` or `base.<any overload>` that writes nothing and
// has this family key (torchgen's signature()).
inline const OperatorEntry* find_in_family(std::string_view base, const std::string& key) {
  Dispatcher& d = Dispatcher::singleton();
  const std::string prefix = std::string(base) + ".";
  for (const std::string& name : d.operator_names()) {
    if (name != base && name.compare(0, prefix.size(), prefix) != 0) continue;
    const OperatorEntry* f = d.find_schema(name);
    if (f != nullptr && writes_nothing(*f) && schema::family_key(f->schema().value()) == key) return f;
  }
  return nullptr;
}

inline const OperatorEntry* find_functional(const OperatorEntry& op) {
  Dispatcher& d = Dispatcher::singleton();
  const split_name n = split_operator_name(op.name());
  const auto& s = op.schema().value();
  if (is_inplace_name(op.name())) {
    // The same overload name first; else the family member under another
    // name (aten::pow_.Scalar -> aten::pow.Tensor_Scalar, aten::floor_divide_.Tensor -> aten::floor_divide).
    const std::string_view base = n.base.substr(0, n.base.size() - 1);
    const std::string key = schema::family_key(s);
    const OperatorEntry* f = d.find_schema(join_operator_name(base, n.overload));
    if (f != nullptr && writes_nothing(*f) && schema::family_key(f->schema().value()) == key) return f;
    return find_in_family(base, key);
  }
  if (!op.alias_facts().outs.empty() && op.alias_facts().outs.size() == op.alias_facts().written.size()) {
    // out=: the functional member of the same family, under any overload name.
    return find_in_family(n.base, schema::family_key(s));
  }
  // Other mutable operators: torchgen's ns::name_functional.overload.
  const OperatorEntry* f = d.find_schema(join_operator_name(std::string(n.base) + "_functional", n.overload));
  return f != nullptr && writes_nothing(*f) ? f : nullptr;
}

}  // namespace variants_detail

OPD_FUNC const OperatorEntry* functional_variant_of(const OperatorEntry& op) {
  // A per-thread front of the shared memo: no lock on the hot path.
  thread_local std::unordered_map<const OperatorEntry*, const OperatorEntry*> seen;
  if (auto it = seen.find(&op); it != seen.end()) return it->second;
  const OperatorEntry* f = functional_variant_lookup(op);
  if (f != nullptr) seen.emplace(&op, f);
  return f;
}

OPD_FUNC const OperatorEntry* functional_variant_lookup(const OperatorEntry& op) {
  auto& m = variants_detail::memo_instance();
  {
    std::lock_guard<std::mutex> lock(m.mu);
    auto it = m.functional.find(&op);
    if (it != m.functional.end()) return it->second;
  }
  const OperatorEntry* f = variants_detail::find_functional(op);
  if (f != nullptr) {
    std::lock_guard<std::mutex> lock(m.mu);
    m.functional.emplace(&op, f);
  }
  return f;
}

OPD_FUNC const OperatorEntry* copy_variant(const OperatorEntry& view) {
  thread_local std::unordered_map<const OperatorEntry*, const OperatorEntry*> seen;
  if (auto it = seen.find(&view); it != seen.end()) return it->second;
  const OperatorEntry* c = copy_variant_lookup(view);
  if (c != nullptr) seen.emplace(&view, c);
  return c;
}

OPD_FUNC const OperatorEntry* copy_variant_lookup(const OperatorEntry& view) {
  auto& m = variants_detail::memo_instance();
  {
    std::lock_guard<std::mutex> lock(m.mu);
    auto it = m.copies.find(&view);
    if (it != m.copies.end()) return it->second;
  }
  const split_name n = split_operator_name(view.name());
  const OperatorEntry* c =
      Dispatcher::singleton().find_schema(join_operator_name(std::string(n.base) + "_copy", n.overload));
  if (c == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(m.mu);
  m.copies.emplace(&view, c);
  return c;
}

}  // namespace opd::functionalization
