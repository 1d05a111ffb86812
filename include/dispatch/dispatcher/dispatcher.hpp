#pragma once
// The registry of operators and backend fallbacks. Registration takes a
// mutex and republishes the affected dispatch tables; calls never lock (they
// read an OperatorEntry's atomic table, see operator_entry.hpp). Entries are
// never destroyed while the process runs, so a pointer to one stays valid:
// a typed call caches it in a function-local static.
#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "dispatch/core/error.hpp"
#include "dispatch/dispatcher/kernel_function.hpp"
#include "dispatch/dispatcher/operator_entry.hpp"
#include "dispatch/dispatcher/registration_handle.hpp"
#include "dispatch/dispatcher/suggest.hpp"
#include "dispatch/schema/printer.hpp"
#include "dispatch/schema/runtime.hpp"

namespace opd {

class Dispatcher {
 public:
  static Dispatcher& singleton() {
    static Dispatcher d;
    return d;
  }

  // The entry named "ns::name.overload", created empty when absent.
  OperatorEntry& entry(std::string_view name) {
    std::lock_guard lock(mutex_);
    return entry_locked(name);
  }
  // The entry when it has a schema, else null.
  OperatorEntry* find_schema(std::string_view name) {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(std::string(name));
    return it != entries_.end() && it->second->has_schema() ? it->second.get() : nullptr;
  }
  OperatorEntry& find_schema_or_throw(std::string_view name) {
    if (auto* e = find_schema(name)) return *e;
    throw Error("no operator named '" + std::string(name) + "' has been declared" + suggest_names(name, operator_names()));
  }

  // Declares a schema. `permanent` schemas (those of a compile-time operator
  // struct) are never removed; the handle of any other one removes it.
  // Declaring a different schema under an existing name is an error.
  RegistrationHandle declare(std::string_view schema_text, bool permanent = false) {
    schema::runtime_schema s = schema::parse_or_throw(schema_text);
    const std::string name = schema::name_of(*s);
    std::lock_guard lock(mutex_);
    OperatorEntry& e = entry_locked(name);
    if (e.has_schema()) {
      const std::string old = schema::to_string(e.schema().value()), now = schema::to_string(*s);
      if (old != now)
        throw Error("operator '" + name + "' is already declared with schema '" + old + "', which conflicts with '" +
                    now + "'");
      if (permanent || permanent_.count(name)) {
        if (permanent) permanent_[name] = true;
        return {};
      }
      throw Error("operator '" + name + "' is already declared with schema '" + old + "'");
    }
    e.set_schema(std::move(s));
    e.update_table(fallbacks_);
    if (permanent) {
      permanent_[name] = true;
      return {};
    }
    return RegistrationHandle([this, &e, name] {
      std::lock_guard l(mutex_);
      if (!permanent_.count(name)) e.clear_schema();  // a compile-time operator declared it meanwhile: it stays
    });
  }

  // Registers `kernel` for `key` (a runtime or alias key) of the operator.
  // A second kernel for the same key of the same operator is an error.
  RegistrationHandle register_kernel(OperatorEntry& e, DispatchKey key, KernelFunction kernel) {
    OPD_CHECK(key != DispatchKey::Undefined && key != DispatchKey::EndOfRuntimeKeys && key != DispatchKey::EndOfAliasKeys,
              "cannot register a kernel for dispatch key ", to_string(key));
    OPD_CHECK(kernel.is_valid(), "registering an empty kernel for ", e.name(), " at ", to_string(key));
    std::lock_guard lock(mutex_);
    if (e.registered(key) != nullptr)
      throw Error("operator '" + e.name() + "' already has a kernel for dispatch key " + std::string(to_string(key)));
    e.set_registered(key, std::move(kernel));
    e.update_table(fallbacks_);
    return RegistrationHandle([this, &e, key] {
      std::lock_guard l(mutex_);
      e.clear_registered(key);
      e.update_table(fallbacks_);
    });
  }
  RegistrationHandle register_kernel(std::string_view op_name, DispatchKey key, KernelFunction kernel) {
    return register_kernel(entry(op_name), key, std::move(kernel));
  }

  // One boxed kernel for every operator at a runtime key (or a fallthrough).
  RegistrationHandle register_fallback(DispatchKey key, KernelFunction kernel) {
    OPD_CHECK(is_runtime_key(key), "a backend fallback needs a runtime dispatch key, not ", to_string(key));
    std::lock_guard lock(mutex_);
    const auto i = static_cast<std::size_t>(key);
    if (fallbacks_[i] != nullptr) throw Error("dispatch key " + std::string(to_string(key)) + " already has a fallback");
    fallback_storage_.push_back(std::make_unique<KernelFunction>(std::move(kernel)));
    fallbacks_[i] = fallback_storage_.back().get();
    update_all_tables();
    return RegistrationHandle([this, i] {
      std::lock_guard l(mutex_);
      fallbacks_[i] = nullptr;
      update_all_tables();
    });
  }
  bool has_fallback(DispatchKey key) {
    std::lock_guard lock(mutex_);
    return fallbacks_[static_cast<std::size_t>(key)] != nullptr;
  }

  // Every declared operator's name (for tools and tests).
  std::vector<std::string> operator_names() {
    std::lock_guard lock(mutex_);
    std::vector<std::string> out;
    for (auto& [n, e] : entries_)
      if (e->has_schema()) out.push_back(n);
    return out;
  }

 private:
  Dispatcher() = default;

  OperatorEntry& entry_locked(std::string_view name) {
    auto [it, inserted] = entries_.try_emplace(std::string(name));
    if (inserted) {
      it->second = std::make_unique<OperatorEntry>(std::string(name));
      it->second->update_table(fallbacks_);
    }
    return *it->second;
  }
  void update_all_tables() {
    for (auto& [n, e] : entries_) e->update_table(fallbacks_);
  }

  std::mutex mutex_;
  std::unordered_map<std::string, std::unique_ptr<OperatorEntry>> entries_;
  std::unordered_map<std::string, bool> permanent_;
  FallbackTable fallbacks_{};
  std::vector<std::unique_ptr<KernelFunction>> fallback_storage_;  // kept alive for in-flight calls
};

}  // namespace opd
