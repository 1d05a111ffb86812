#pragma once
// The registry of operators and backend fallbacks. Registration takes a
// mutex and republishes the affected dispatch tables; calls never lock (they
// read an OperatorEntry's atomic table, see operator_entry.hpp). Entries are
// never destroyed while the process runs, so a pointer to one stays valid:
// a typed call caches it in a function-local static.
//
// There is one Dispatcher per process: singleton() is defined out of line
// (in libopdispatch, or under OPD_HEADER_ONLY with default visibility), so a
// plugin loaded with dlopen registers into its host's registry
// (docs/building.md says under which conditions for header-only use).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dispatch/config.hpp"
#include "dispatch/dispatcher/kernel_function.hpp"
#include "dispatch/dispatcher/operator_entry.hpp"
#include "dispatch/dispatcher/registration_handle.hpp"
#include "dispatch/dispatcher/source_location.hpp"

namespace opd {

// "file.cpp:12" for a registration's provenance.
OPD_API std::string where_text(const source_location& where);

// What registering a second kernel for the same operator and key does.
enum class DuplicateKernel : std::uint8_t {
  warn,   // c10's behaviour (the default): warn, stack it; it is in effect until its handle dies
  error,  // strict: throw opd::Error saying where the first one was registered
};

// Receives the dispatcher's warnings (today: a kernel overriding another).
// The default (a null handler) writes "Warning: <message>" to stderr.
using WarningHandler = void (*)(std::string_view message);

class OPD_API Dispatcher {
 public:
  static Dispatcher& singleton();

  // The entry named "ns::name.overload", created empty when absent.
  OperatorEntry& entry(std::string_view name);
  // The entry when it has a schema, else null.
  OperatorEntry* find_schema(std::string_view name);
  OperatorEntry& find_schema_or_throw(std::string_view name);

  // Declares a schema. `permanent` schemas (those of a compile-time operator
  // struct) are never removed; the handle of any other one removes it.
  // Declaring a different schema under an existing name is an error.
  RegistrationHandle declare(std::string_view schema_text, bool permanent = false);
  // The same for a schema parsed already; its alias facts are computed and
  // checked here.
  RegistrationHandle declare(schema::runtime_schema s, bool permanent = false);
  // An operator type's schema, declared permanently, with the alias facts
  // the compiler computed and checked; returns the operator's entry.
  OperatorEntry& declare_permanent(schema::runtime_schema s, const schema::precomputed_alias_facts& facts);

  // Registers `kernel` for `key` (a runtime or alias key) of the operator.
  // A second kernel for the same key of the same operator is, as in c10,
  // accepted with a warning (see set_warning_handler) and stacked: the newest
  // is called, and destroying either handle restores the other. Under
  // DuplicateKernel::error (set_duplicate_kernel_policy) it throws instead.
  RegistrationHandle register_kernel(OperatorEntry& e, DispatchKey key, KernelFunction kernel,
                                                   const source_location& where = source_location::current());
  RegistrationHandle register_kernel(std::string_view op_name, DispatchKey key, KernelFunction kernel,
                                                   const source_location& where = source_location::current());

  // Always strict: a second kernel for the key throws opd::Error naming where
  // the first one was registered, whatever the policy.
  RegistrationHandle register_kernel_strict(OperatorEntry& e, DispatchKey key, KernelFunction kernel,
                                            const source_location& where = source_location::current());

  // The process-wide policy for duplicate kernels; returns the previous one.
  DuplicateKernel set_duplicate_kernel_policy(DuplicateKernel policy);
  // Installs a warning handler (null: the default, stderr); returns the previous one.
  WarningHandler set_warning_handler(WarningHandler handler);

  // One boxed kernel for every operator at a runtime key (or a fallthrough).
  RegistrationHandle register_fallback(DispatchKey key, KernelFunction kernel,
                                                     const source_location& where = source_location::current());
  bool has_fallback(DispatchKey key);

  // Every declared operator's name (for tools and tests).
  std::vector<std::string> operator_names();

  // Operators that have kernels but no schema ("ns::op: CPU [registered at
  // a.cpp:12]", one per registered key), c10's findDanglingImpls: a kernel
  // may be registered before its schema is declared (static initialisation
  // order across files), so registering it is not an error, but it cannot be
  // called until the schema comes. A program can check this list once its
  // registrations are done.
  std::vector<std::string> dangling_registrations();

  // The operator's computed dispatch table, a line per runtime key with the
  // reason for its entry (kernel, alias key, fallback, fallthrough, missing)
  // and where the kernel was registered: c10's dumpComputedTable.
  std::string dump_computed_table(std::string_view op_name, bool all = false);

 private:
  Dispatcher();
  ~Dispatcher();

  OperatorEntry& entry_locked(std::string_view name);
  // Under the lock: true when e has no schema yet (the caller sets s);
  // false when it has s already (kept; made permanent if `permanent`);
  // throws when it has another schema, or s again from a non-permanent declaration.
  bool claim_schema(OperatorEntry& e, const schema::runtime_schema& s, bool permanent);
  RegistrationHandle register_kernel_impl(OperatorEntry& e, DispatchKey key, KernelFunction kernel,
                                          const source_location& where, bool strict);
  void update_all_tables();

  // The registry's state (dispatcher-inl.hpp), behind a pointer so that
  // this header needs neither <mutex> nor <unordered_map>.
  struct state;
  state* const s_;
};

}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "dispatch/dispatcher/dispatcher-inl.hpp"
#endif
