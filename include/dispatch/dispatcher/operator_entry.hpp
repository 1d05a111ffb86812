#pragma once
// One operator: its schema, the kernels registered for it per dispatch key
// (runtime or alias), and the dispatch table derived from them. The table is
// what calls read: one atomic pointer per runtime key plus a mask of the keys
// whose entry is a fallthrough, so the hot path takes no lock. Writers (the
// Dispatcher, under its mutex) publish new KernelFunction objects; replaced
// ones are retired but kept until the entry dies, so a reader that loaded a
// pointer just before a deregistration still calls a live kernel.
//
// Only the hot path is inline here; computing the table, analysing the
// schema and the error texts are in operator_entry-inl.hpp (compiled once).
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dispatch/config.hpp"
#include "dispatch/dispatcher/kernel_function.hpp"
#include "dispatch/keys/dispatch_key.hpp"
#include "dispatch/keys/dispatch_key_set.hpp"
#include "dispatch/schema/alias_facts.hpp"

namespace opd {

namespace schema {
class runtime_schema;
}

// Backend fallbacks, one per runtime key (null: none registered), as the
// Dispatcher keeps them; indexed by the key's value.
using FallbackTable = std::array<const KernelFunction*, kNumDispatchKeys>;
// Where each backend fallback was registered ("file.cpp:12"), for diagnostics.
using FallbackProvenance = std::array<std::string, kNumDispatchKeys>;

// Why a runtime key's table entry is what it is (see dump_computed_table).
enum class TableEntrySource : std::uint8_t {
  kernel,           // a kernel registered at this very key
  alias,            // a kernel registered at an alias key (CompositeExplicitAutograd, ...)
  fallback,         // the backend fallback of this key
  fallthrough,      // a fallthrough, registered or by default for a layer with no kernel
  missing,          // nothing: a call that reaches this key fails
};

// What an operator's schema says about aliasing, for layers that run it
// elsewhere and must copy written arguments back and return the caller's own
// tensors (opd::cpu_fallback). Computed once per operator, never during a
// call: by the compiler for an operator type (its entry copies the constant
// table, see schema/alias_facts.hpp), when declared for a run-time schema.
struct AliasFacts {
  std::vector<std::size_t> written;            // arguments annotated as written: Tensor(a!), Tensor(a!)?, Tensor(a!)[]
  std::vector<std::ptrdiff_t> return_written;  // per return: the written argument it returns, or -1 (fresh or view)
  std::ptrdiff_t view_return = -1;             // the first return aliasing an argument without a write, or -1
  std::vector<std::size_t> devices;            // Device / Device? arguments (a factory's target device)
  std::vector<std::size_t> outs;               // out= arguments: keyword-only, written (a subset of `written`)
  bool is_view() const { return view_return >= 0; }
};

class OPD_API OperatorEntry {
 public:
  explicit OperatorEntry(std::string name);
  ~OperatorEntry();
  OperatorEntry(const OperatorEntry&) = delete;
  OperatorEntry& operator=(const OperatorEntry&) = delete;

  const std::string& name() const { return name_; }
  bool has_schema() const { return schema_ != nullptr; }
  // The schema; throws when only kernels were registered so far.
  const schema::runtime_schema& schema() const {
    if (schema_ == nullptr) [[unlikely]]
      report_missing_schema();
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
  const KernelFunction& lookup(DispatchKeySet ks) const { return lookup_and_mask(ks); }
  // The same, leaving in ks the set the kernel receives: as in c10, the call's
  // set masked with the non-fallthrough keys (so a kernel never sees the
  // default-included BackendSelect / ADInplaceOrView unless they have kernels).
  // (c10's per-backend fallthrough at autograd keys is a table entry, not a
  // step here: see update_table.)
  const KernelFunction& lookup_and_mask(DispatchKeySet& ks) const {
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
  // Written arguments, returns aliasing them, views (empty before a schema is declared).
  const AliasFacts& alias_facts() const { return alias_facts_; }

  // ---- introspection -----------------------------------------------------
  bool has_kernel_for(DispatchKey k) const { return registered(k) != nullptr; }
  // How many kernels are stacked at k (the newest one is in effect, see push_registered).
  std::size_t num_registered(DispatchKey k) const { return stacks_[static_cast<std::size_t>(k)].size(); }
  // Whether any kernel (fallthroughs included) is registered at any key.
  bool has_registrations() const;
  // "CPU, CompositeExplicitAutograd" : every key with a registered kernel.
  std::string registered_keys() const;
  // Where the kernel in effect at k was registered ("file.cpp:12"), empty if none.
  std::string registered_at(DispatchKey k) const;
  // Where every kernel stacked at k was registered, oldest first.
  std::vector<std::string> registrations_at(DispatchKey k) const;
  // Every runtime key's computed table entry and why, one line each, as
  // c10's dumpComputedTable: "CPU: kernel [registered at ops.cpp:12]".
  // Keys whose entry is a default fallthrough are left out unless `all`.
  // Not concurrently with registration: Dispatcher::dump_computed_table locks.
  std::string dump_computed_table(const FallbackProvenance& fallbacks_at, bool all = false) const;

  // ---- registration (called by the Dispatcher under its mutex) ----------
  // An operator type's schema, with the alias facts the compiler computed
  // (copied, not computed again).
  void set_schema(schema::runtime_schema s, const schema::precomputed_alias_facts& facts);
  // A schema known only at run time: its alias facts computed here. (Apart,
  // so that a file declaring only operator types never compiles the run-time
  // alias analysis.)
  void set_runtime_schema(schema::runtime_schema s);
  void clear_schema();
  // A permanent declaration (an operator type's, or declare(..., permanent))
  // is never undone: a handle of an earlier non-permanent one leaves it.
  bool permanent_schema() const { return permanent_schema_; }
  void mark_schema_permanent() { permanent_schema_ = true; }
  // Registrations are atomic too: the "no kernel" error lists them without
  // the Dispatcher's mutex, while a writer may be changing them.
  const KernelFunction* registered(DispatchKey k) const {
    return registered_[static_cast<std::size_t>(k)].load(std::memory_order_acquire);
  }
  // Kernels stack per key, as c10's list of AnnotatedKernels: the newest one
  // is in effect; removing it (by the id push_registered returned) brings the
  // previous one back, removing an older one changes nothing visible.
  std::uint64_t push_registered(DispatchKey k, KernelFunction kernel, std::string where);
  void remove_registered(DispatchKey k, std::uint64_t id);

  // Recomputes every runtime key's table entry from the registrations and the
  // backend fallbacks; c10's precedence (see docs/dispatcher.md).
  void update_table(const FallbackTable& fallbacks);

  // The sentinel in every empty slot: its boxed entry throws the "no kernel" error.
  static const KernelFunction& missing_kernel();
  [[noreturn]] void report_missing_kernel(DispatchKeySet ks) const;

 private:
  struct computed_entry {
    const KernelFunction* kernel;
    TableEntrySource source;
    DispatchKey from;  // the key the kernel was registered at (alias or fallback key)
  };
  computed_entry compute_entry(DispatchKey k, const FallbackTable& fallbacks) const;
  computed_entry compute_undefined_entry() const;
  void analyse_arguments();
  [[noreturn]] void report_missing_schema() const;

  std::string name_;
  std::unique_ptr<const schema::runtime_schema> schema_;
  std::vector<std::size_t> tensor_positions_;
  std::ptrdiff_t factory_device_ = -1;
  std::size_t num_arguments_ = 0;
  bool permanent_schema_ = false;  // guarded by the Dispatcher's mutex
  AliasFacts alias_facts_;
  std::array<std::atomic<const KernelFunction*>, kNumDispatchKeys> registered_{};
  struct stacked_kernel {
    std::uint64_t id;
    const KernelFunction* kernel;
    std::string where;
  };
  std::array<std::vector<stacked_kernel>, kNumDispatchKeys> stacks_{};  // guarded by the Dispatcher's mutex
  std::uint64_t next_id_ = 1;
  std::vector<std::unique_ptr<KernelFunction>> owned_;  // every kernel ever registered here (see top)
  std::array<std::atomic<const KernelFunction*>, kNumDispatchKeys> table_{};
  std::array<computed_entry, kNumDispatchKeys> table_why_{};  // for dump_computed_table
  std::atomic<std::uint64_t> non_fallthrough_{0};
};

}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "dispatch/dispatcher/operator_entry-inl.hpp"
#endif
