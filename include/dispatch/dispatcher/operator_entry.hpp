#pragma once
// One operator: its schema, the kernels registered for it per dispatch key
// (runtime or alias), and the dispatch table derived from them. The table is
// what calls read: one atomic pointer per runtime key plus a mask of the keys
// whose entry is a fallthrough, so the hot path takes no lock. Writers (the
// Dispatcher, under its mutex) publish new KernelFunction objects; replaced
// ones are retired but kept until the entry dies, so a reader that loaded a
// pointer just before a deregistration still calls a live kernel.
#include <array>
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dispatch/core/error.hpp"
#include "dispatch/dispatcher/kernel_function.hpp"
#include "dispatch/keys/dispatch_key.hpp"
#include "dispatch/keys/dispatch_key_set.hpp"
#include "dispatch/schema/runtime.hpp"

namespace opd {

// Backend fallbacks, one per runtime key (null: none registered), as the
// Dispatcher keeps them; indexed by the key's value.
using FallbackTable = std::array<const KernelFunction*, kNumDispatchKeys>;

class OperatorEntry {
 public:
  explicit OperatorEntry(std::string name) : name_(std::move(name)) {
    for (auto& slot : table_) slot.store(&missing_kernel(), std::memory_order_relaxed);
  }
  OperatorEntry(const OperatorEntry&) = delete;
  OperatorEntry& operator=(const OperatorEntry&) = delete;

  const std::string& name() const { return name_; }
  bool has_schema() const { return schema_.has_value(); }
  // The schema; throws when only kernels were registered so far.
  const schema::runtime_schema& schema() const {
    if (!schema_) throw Error("operator '" + name_ + "' has kernels but no schema was declared");
    return *schema_;
  }

  // ---- the hot path ------------------------------------------------------
  // Keys whose table entry is not a fallthrough: dispatch masks with it first.
  DispatchKeySet non_fallthrough_keys() const {
    return DispatchKeySet::from_raw_bits(non_fallthrough_.load(std::memory_order_acquire));
  }
  const KernelFunction& lookup(DispatchKey k) const {
    return *table_[static_cast<std::size_t>(k)].load(std::memory_order_acquire);
  }
  // The kernel for a call whose key set (tensors | TLS included - excluded) is ks.
  // A writer republishes slots before the mask, so a slot read with an older
  // mask may already be a fallthrough: then the next key is tried, as the new
  // mask would have done (the Undefined slot is never a fallthrough).
  const KernelFunction& lookup(DispatchKeySet ks) const {
    ks = ks & non_fallthrough_keys();
    for (;;) {
      const DispatchKey k = ks.highest_priority_key();
      const KernelFunction& f = lookup(k);
      if (!f.fallthrough) [[likely]] return f;
      ks = ks.remove(k);
    }
  }

  // Tensor-bearing argument positions, for boxed key extraction.
  const std::vector<std::size_t>& tensor_argument_positions() const { return tensor_positions_; }
  // Position of a Device? argument when the op has no tensor arguments (a
  // factory: its backend comes from the device), else -1.
  std::ptrdiff_t factory_device_position() const { return factory_device_; }
  // The schema's argument count (0 before a schema is declared): read on every boxed call.
  std::size_t num_arguments() const { return num_arguments_; }

  // ---- introspection -----------------------------------------------------
  bool has_kernel_for(DispatchKey k) const { return registered(k) != nullptr; }
  // "CPU, CompositeExplicitAutograd" : every key with a registered kernel.
  std::string registered_keys() const {
    std::string out;
    for (std::size_t i = 0; i < registered_.size(); ++i)
      if (const KernelFunction* k = registered_[i].load(std::memory_order_acquire); k != nullptr && !k->fallthrough) {
        if (!out.empty()) out += ", ";
        out += to_string(static_cast<DispatchKey>(i));
      }
    return out.empty() ? std::string("(none)") : out;
  }

  // ---- registration (called by the Dispatcher under its mutex) ----------
  void set_schema(schema::runtime_schema s) {
    schema_ = std::move(s);
    analyse_schema();
  }
  void clear_schema() { schema_.reset(); }
  // Registrations are atomic too: the "no kernel" error lists them without
  // the Dispatcher's mutex, while a writer may be changing them.
  const KernelFunction* registered(DispatchKey k) const {
    return registered_[static_cast<std::size_t>(k)].load(std::memory_order_acquire);
  }
  void set_registered(DispatchKey k, KernelFunction kernel) {
    owned_.push_back(std::make_unique<KernelFunction>(std::move(kernel)));
    registered_[static_cast<std::size_t>(k)].store(owned_.back().get(), std::memory_order_release);
  }
  void clear_registered(DispatchKey k) { registered_[static_cast<std::size_t>(k)].store(nullptr, std::memory_order_release); }

  // Recomputes every runtime key's table entry from the registrations and the
  // backend fallbacks; c10's precedence (see docs/dispatcher.md).
  void update_table(const FallbackTable& fallbacks) {
    std::uint64_t mask = 0;
    for (std::uint8_t i = kFirstRuntimeKey; i < static_cast<std::uint8_t>(DispatchKey::EndOfRuntimeKeys); ++i) {
      const auto k = static_cast<DispatchKey>(i);
      const KernelFunction* kernel = compute_entry(k, fallbacks);
      if (!kernel->fallthrough) mask |= DispatchKeySet(k).raw_bits();
      table_[i].store(kernel, std::memory_order_release);
    }
    non_fallthrough_.store(mask, std::memory_order_release);
  }

  // The sentinel in every empty slot: its boxed entry throws the "no kernel" error.
  static const KernelFunction& missing_kernel() {
    static const KernelFunction k = [] {
      KernelFunction f;
      f.boxed = [](void*, const OperatorEntry& op, DispatchKeySet ks, Stack*) { op.report_missing_kernel(ks); };
      return f;
    }();
    return k;
  }
  [[noreturn]] void report_missing_kernel(DispatchKeySet ks) const {
    const DispatchKey k = (ks & non_fallthrough_keys()).highest_priority_key();
    throw NotImplementedError("operator '" + name_ + "' has no kernel for dispatch key " + std::string(to_string(k)) +
                              " (dispatch key set " + ks.str() + "); it has kernels for: " + registered_keys());
  }

 private:
  static const KernelFunction& fallthrough_kernel() {
    static const KernelFunction k = KernelFunction::make_fallthrough();
    return k;
  }

  const KernelFunction* compute_entry(DispatchKey k, const FallbackTable& fallbacks) const {
    if (auto* direct = registered(k)) return direct;
    const bool backend = is_backend_key(k);
    const bool autograd = is_autograd_key(k);
    if (backend) {
      if (auto* cea = registered(DispatchKey::CompositeExplicitAutograd)) return cea;
    }
    if (auto* cia = registered(DispatchKey::CompositeImplicitAutograd); cia && (backend || autograd)) {
      // An autograd key takes the composite kernel only while its backend has no
      // kernel of its own: otherwise autograd would bypass that backend kernel.
      const bool backend_has_own = autograd && k != DispatchKey::AutogradOther &&
                                   (registered(backend_key_for_autograd(k)) ||
                                    registered(DispatchKey::CompositeExplicitAutograd));
      if (!backend_has_own) return cia;
    }
    if (autograd) {
      if (auto* ag = registered(DispatchKey::Autograd)) return ag;
    }
    if (auto* fb = fallbacks[static_cast<std::size_t>(k)]) return fb;
    // Layers this library does not implement by default pass calls through.
    return backend ? &missing_kernel() : &fallthrough_kernel();
  }

  void analyse_schema() {
    tensor_positions_.clear();
    factory_device_ = -1;
    const auto& s = schema_->value();
    num_arguments_ = s.arguments.size();
    std::ptrdiff_t device = -1;
    for (std::size_t i = 0; i < s.arguments.size(); ++i) {
      if (bears_tensor(s, s.arguments[i].type)) tensor_positions_.push_back(i);
      const auto& t = s.type_of(s.arguments[i]);
      const auto& inner = t.kind == schema::type_kind::optional ? s.type(t.child) : t;
      if (inner.kind == schema::type_kind::base && inner.base == schema::base_type::Device && device < 0)
        device = static_cast<std::ptrdiff_t>(i);
    }
    if (tensor_positions_.empty()) factory_device_ = device;
  }
  template <class S>
  static bool bears_tensor(const S& s, std::int16_t t) {
    const auto& n = s.type(t);
    switch (n.kind) {
      case schema::type_kind::base: return n.base == schema::base_type::Tensor;
      case schema::type_kind::list:
      case schema::type_kind::optional: return bears_tensor(s, n.child);
      default: return false;
    }
  }

  std::string name_;
  std::optional<schema::runtime_schema> schema_;
  std::vector<std::size_t> tensor_positions_;
  std::ptrdiff_t factory_device_ = -1;
  std::size_t num_arguments_ = 0;
  std::array<std::atomic<const KernelFunction*>, kNumDispatchKeys> registered_{};
  std::vector<std::unique_ptr<KernelFunction>> owned_;  // every kernel ever registered here (see top)
  std::array<std::atomic<const KernelFunction*>, kNumDispatchKeys> table_{};
  std::atomic<std::uint64_t> non_fallthrough_{0};
};

}  // namespace opd
