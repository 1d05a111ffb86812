#pragma once
// Out-of-line part of dispatcher.hpp (compiled once, or inline under
// OPD_HEADER_ONLY): the registry's one instance and its registration logic.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "dispatch/core/error.hpp"
#include "dispatch/dispatcher/dispatcher.hpp"
#include "dispatch/dispatcher/suggest.hpp"
#include "dispatch/schema/alias_facts.hpp"
#include "dispatch/schema/printer.hpp"
#include "dispatch/schema/runtime.hpp"

namespace opd {

OPD_FUNC std::string where_text(const source_location& where) {
  std::string_view file = where.file_name();
  if (const auto slash = file.find_last_of('/'); slash != std::string_view::npos) file.remove_prefix(slash + 1);
  return detail::concat({file, ":", std::to_string(where.line())});
}

OPD_FUNC Dispatcher& Dispatcher::singleton() {
  // Never destroyed: registration handles in static storage (of this module
  // or of a plugin) may still unregister during exit.
  static Dispatcher* const d = new Dispatcher();
  return *d;
}

struct Dispatcher::state {
  std::mutex mutex;
  std::unordered_map<std::string, std::unique_ptr<OperatorEntry>> entries;
  FallbackTable fallbacks{};
  FallbackProvenance fallback_where{};
  std::vector<std::unique_ptr<KernelFunction>> fallback_storage;  // kept alive for in-flight calls
  DuplicateKernel duplicate_policy = DuplicateKernel::warn;
  WarningHandler warning_handler = nullptr;
};

OPD_FUNC Dispatcher::Dispatcher() : s_(new state()) {}
OPD_FUNC Dispatcher::~Dispatcher() { delete s_; }

OPD_FUNC OperatorEntry& Dispatcher::entry(std::string_view name) {
  std::lock_guard lock(s_->mutex);
  return entry_locked(name);
}

OPD_FUNC OperatorEntry* Dispatcher::find_schema(std::string_view name) {
  std::lock_guard lock(s_->mutex);
  auto it = s_->entries.find(std::string(name));
  return it != s_->entries.end() && it->second->has_schema() ? it->second.get() : nullptr;
}

OPD_FUNC OperatorEntry& Dispatcher::find_schema_or_throw(std::string_view name) {
  std::lock_guard lock(s_->mutex);
  auto it = s_->entries.find(std::string(name));
  if (it != s_->entries.end() && it->second->has_schema()) return *it->second;
  if (it != s_->entries.end() && it->second->has_registrations())
    detail::throw_concat({"operator '", name, "' has kernels (", it->second->registered_keys(),
                          ") but no schema was declared"});
  std::vector<std::string> declared;  // (under the lock already: not operator_names(), which takes it)
  for (auto& [n, e] : s_->entries)
    if (e->has_schema()) declared.push_back(n);
  detail::throw_concat({"no operator named '", name, "' has been declared", suggest_names(name, std::move(declared))});
}

OPD_FUNC RegistrationHandle Dispatcher::declare(std::string_view schema_text, bool permanent) {
  return declare(schema::parse_or_throw(schema_text), permanent);
}

OPD_FUNC bool Dispatcher::claim_schema(OperatorEntry& e, const schema::runtime_schema& s, bool permanent) {
  if (!e.has_schema()) return true;
  if (!schema::same_schema(e.schema().value(), *s))
    detail::throw_concat({"operator '", e.name(), "' is already declared with schema '", e.schema().text(),
                          "', which conflicts with '", s.text(), "'"});
  if (permanent || e.permanent_schema()) {
    if (permanent) e.mark_schema_permanent();
    return false;
  }
  detail::throw_concat({"operator '", e.name(), "' is already declared with schema '", e.schema().text(), "'"});
}

OPD_FUNC RegistrationHandle Dispatcher::declare(schema::runtime_schema s, bool permanent) {
  const std::string name = schema::operator_name(s->ns, s->name, s->overload);
  // A written return must hand back an argument: checked here, once, rather
  // than found wrong by the first layer that needs it (the CPU fallback). An
  // operator type's facts were checked by the compiler (entry_for's static_assert).
  if (const std::size_t r = schema::unmatched_mutable_return(s.value()); r != schema::no_position)
    detail::throw_concat({"operator '", name, "': return ", std::to_string(r), " of '", s.text(),
                          "' is annotated as written, but no argument is written in its alias set; a written return "
                          "must be one of the written arguments"});
  std::lock_guard lock(s_->mutex);
  OperatorEntry& e = entry_locked(name);
  if (!claim_schema(e, s, permanent)) return {};
  e.set_runtime_schema(std::move(s));
  e.update_table(s_->fallbacks);
  if (permanent) {
    e.mark_schema_permanent();
    return {};
  }
  return RegistrationHandle([this, &e] {
    std::lock_guard l(s_->mutex);
    if (!e.permanent_schema()) e.clear_schema();  // a compile-time operator declared it meanwhile: it stays
  });
}

OPD_FUNC OperatorEntry& Dispatcher::declare_permanent(schema::runtime_schema s,
                                                      const schema::precomputed_alias_facts& facts) {
  const std::string name = schema::operator_name(s->ns, s->name, s->overload);
  std::lock_guard lock(s_->mutex);
  OperatorEntry& e = entry_locked(name);
  if (claim_schema(e, s, /*permanent=*/true)) {
    e.set_schema(std::move(s), facts);
    e.update_table(s_->fallbacks);
    e.mark_schema_permanent();
  }
  return e;
}

OPD_FUNC RegistrationHandle Dispatcher::register_kernel(OperatorEntry& e, DispatchKey key, KernelFunction kernel,
                                                        const source_location& where) {
  return register_kernel_impl(e, key, std::move(kernel), where, false);
}

OPD_FUNC RegistrationHandle Dispatcher::register_kernel_strict(OperatorEntry& e, DispatchKey key, KernelFunction kernel,
                                                               const source_location& where) {
  return register_kernel_impl(e, key, std::move(kernel), where, true);
}

OPD_FUNC DuplicateKernel Dispatcher::set_duplicate_kernel_policy(DuplicateKernel policy) {
  std::lock_guard lock(s_->mutex);
  const DuplicateKernel old = s_->duplicate_policy;
  s_->duplicate_policy = policy;
  return old;
}

OPD_FUNC WarningHandler Dispatcher::set_warning_handler(WarningHandler handler) {
  std::lock_guard lock(s_->mutex);
  const WarningHandler old = s_->warning_handler;
  s_->warning_handler = handler;
  return old;
}

OPD_FUNC RegistrationHandle Dispatcher::register_kernel_impl(OperatorEntry& e, DispatchKey key, KernelFunction kernel,
                                                             const source_location& where, bool strict) {
  OPD_CHECK(key != DispatchKey::Undefined && key != DispatchKey::EndOfRuntimeKeys && key != DispatchKey::EndOfAliasKeys,
            "cannot register a kernel for dispatch key ", to_string(key));
  OPD_CHECK(kernel.is_valid(), "registering an empty kernel for ", e.name(), " at ", to_string(key));
  std::string at = where_text(where);
  std::string warning;
  WarningHandler handler = nullptr;
  std::uint64_t id = 0;
  {
    std::lock_guard lock(s_->mutex);
    if (e.registered(key) != nullptr) {
      if (strict || s_->duplicate_policy == DuplicateKernel::error)
        detail::throw_concat({"operator '", e.name(), "' already has a kernel for dispatch key ", to_string(key),
                              " (registered at ", e.registered_at(key), "; this one at ", at, ")"});
      // c10's text, in substance: which operator, which key, both provenances.
      warning = detail::concat({"overriding a previously registered kernel for the same operator and the same "
                                "dispatch key\n  operator: ", e.name(), "\n  dispatch key: ", to_string(key),
                                "\n  previous kernel: registered at ", e.registered_at(key),
                                "\n       new kernel: registered at ", at});
      handler = s_->warning_handler;
    }
    id = e.push_registered(key, std::move(kernel), std::move(at));
    e.update_table(s_->fallbacks);
  }
  if (!warning.empty()) {  // outside the lock: a handler may register or call operators
    if (handler != nullptr) handler(warning);
    else std::fprintf(stderr, "Warning: %s\n", warning.c_str());
  }
  return RegistrationHandle([this, &e, key, id] {
    std::lock_guard l(s_->mutex);
    e.remove_registered(key, id);
    e.update_table(s_->fallbacks);
  });
}

OPD_FUNC RegistrationHandle Dispatcher::register_kernel(std::string_view op_name, DispatchKey key, KernelFunction kernel,
                                                        const source_location& where) {
  return register_kernel(entry(op_name), key, std::move(kernel), where);
}

OPD_FUNC RegistrationHandle Dispatcher::register_fallback(DispatchKey key, KernelFunction kernel,
                                                          const source_location& where) {
  OPD_CHECK(is_runtime_key(key), "a backend fallback needs a runtime dispatch key, not ", to_string(key));
  std::string at = where_text(where);
  std::lock_guard lock(s_->mutex);
  const auto i = static_cast<std::size_t>(key);
  if (s_->fallbacks[i] != nullptr)
    detail::throw_concat({"dispatch key ", to_string(key), " already has a fallback (registered at ",
                          s_->fallback_where[i], "; this one at ", at, ")"});
  s_->fallback_storage.push_back(std::make_unique<KernelFunction>(std::move(kernel)));
  s_->fallbacks[i] = s_->fallback_storage.back().get();
  s_->fallback_where[i] = std::move(at);
  update_all_tables();
  return RegistrationHandle([this, i] {
    std::lock_guard l(s_->mutex);
    s_->fallbacks[i] = nullptr;
    s_->fallback_where[i].clear();
    update_all_tables();
  });
}

OPD_FUNC bool Dispatcher::has_fallback(DispatchKey key) {
  std::lock_guard lock(s_->mutex);
  return s_->fallbacks[static_cast<std::size_t>(key)] != nullptr;
}

OPD_FUNC std::vector<std::string> Dispatcher::operator_names() {
  std::lock_guard lock(s_->mutex);
  std::vector<std::string> out;
  for (auto& [n, e] : s_->entries)
    if (e->has_schema()) out.push_back(n);
  return out;
}

OPD_FUNC std::vector<std::string> Dispatcher::dangling_registrations() {
  std::lock_guard lock(s_->mutex);
  std::vector<std::string> out;
  for (auto& [n, e] : s_->entries) {
    if (e->has_schema()) continue;
    for (std::uint8_t i = 1; i < kNumDispatchKeys; ++i) {
      const auto k = static_cast<DispatchKey>(i);
      for (const std::string& where : e->registrations_at(k))
        out.push_back(detail::concat({n, ": ", to_string(k), " [registered at ", where, "]"}));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

OPD_FUNC std::string Dispatcher::dump_computed_table(std::string_view op_name, bool all) {
  std::lock_guard lock(s_->mutex);
  auto it = s_->entries.find(std::string(op_name));
  if (it == s_->entries.end()) detail::throw_concat({"no operator named '", op_name, "' has been declared"});
  return it->second->dump_computed_table(s_->fallback_where, all);
}

OPD_FUNC OperatorEntry& Dispatcher::entry_locked(std::string_view name) {
  auto [it, inserted] = s_->entries.try_emplace(std::string(name));
  if (inserted) {
    it->second = std::make_unique<OperatorEntry>(std::string(name));
    it->second->update_table(s_->fallbacks);
  }
  return *it->second;
}

OPD_FUNC void Dispatcher::update_all_tables() {
  for (auto& [n, e] : s_->entries) e->update_table(s_->fallbacks);
}

}  // namespace opd
