#pragma once
// Out-of-line part of operator_entry.hpp: the table computation, schema
// analysis and error texts, compiled once (or inline under OPD_HEADER_ONLY).
#include "dispatch/core/error.hpp"
#include "dispatch/dispatcher/tensor_args.hpp"
#include "dispatch/dispatcher/operator_entry.hpp"
#include "dispatch/schema/alias_facts.hpp"
#include "dispatch/schema/runtime.hpp"

namespace opd {

namespace detail {
OPD_FUNC const KernelFunction& fallthrough_kernel() {
  static const KernelFunction k = KernelFunction::make_fallthrough();
  return k;
}
// The entry of an autograd key whose fallthrough must pass the whole autograd
// layer (update_table): it redispatches below every autograd key, so a call
// reaches its own backend's kernel rather than another backend's autograd
// kernel. Boxed only: a typed call reaching it boxes its arguments (the rare
// case pays, the table's fast path stays as it is).
OPD_FUNC const KernelFunction& autograd_layer_fallthrough_kernel() {
  static const KernelFunction k = [] {
    KernelFunction f;
    f.boxed = [](void*, const OperatorEntry& op, DispatchKeySet ks, Stack* stack) {
      // lookup_and_mask's loop, written out: the hot path's inlining stays as it was.
      DispatchKeySet below = (ks - kAutogradKeys) & op.non_fallthrough_keys();
      const KernelFunction* next = &op.lookup(below.highest_priority_key());
      while (next->fallthrough) {
        below = below.remove(below.highest_priority_key());
        next = &op.lookup(below.highest_priority_key());
      }
      next->boxed(next->functor, op, below, stack);
    };
    return f;
  }();
  return k;
}
}  // namespace detail

OPD_FUNC OperatorEntry::OperatorEntry(std::string name) : name_(std::move(name)) {
  for (auto& slot : table_) slot.store(&missing_kernel(), std::memory_order_relaxed);
  table_why_.fill({&missing_kernel(), TableEntrySource::missing, DispatchKey::Undefined});
}
OPD_FUNC OperatorEntry::~OperatorEntry() = default;

OPD_FUNC void OperatorEntry::report_missing_schema() const {
  detail::throw_concat({"operator '", name_, "' has kernels but no schema was declared"});
}

OPD_FUNC bool OperatorEntry::has_registrations() const {
  for (const auto& stack : stacks_)
    if (!stack.empty()) return true;
  return false;
}

OPD_FUNC std::string OperatorEntry::registered_keys() const {
  std::string out;
  for (std::size_t i = 0; i < registered_.size(); ++i)
    if (const KernelFunction* k = registered_[i].load(std::memory_order_acquire); k != nullptr && !k->fallthrough) {
      if (!out.empty()) out += ", ";
      out += to_string(static_cast<DispatchKey>(i));
    }
  return out.empty() ? std::string("(none)") : out;
}

OPD_FUNC std::string OperatorEntry::registered_at(DispatchKey k) const {
  const auto& stack = stacks_[static_cast<std::size_t>(k)];
  return stack.empty() ? std::string() : stack.back().where;
}

OPD_FUNC std::vector<std::string> OperatorEntry::registrations_at(DispatchKey k) const {
  std::vector<std::string> out;
  for (const stacked_kernel& s : stacks_[static_cast<std::size_t>(k)]) out.push_back(s.where);
  return out;
}

OPD_FUNC void OperatorEntry::set_schema(schema::runtime_schema s, const schema::precomputed_alias_facts& facts) {
  schema_ = std::make_unique<const schema::runtime_schema>(std::move(s));
  analyse_arguments();
  const auto& v = schema_->value();
  for (std::size_t i = 0; i < facts.written.size(); ++i)
    if (facts.written[i]) {
      alias_facts_.written.push_back(i);
      if (v.arguments[i].kwarg_only) alias_facts_.outs.push_back(i);
    }
  alias_facts_.return_written.assign(facts.return_written.begin(), facts.return_written.end());
  alias_facts_.view_return = facts.view_return;
}

OPD_FUNC void OperatorEntry::set_runtime_schema(schema::runtime_schema s) {
  schema_ = std::make_unique<const schema::runtime_schema>(std::move(s));
  analyse_arguments();
  // The same functions alias_table_of runs at compile time.
  const auto& v = schema_->value();
  for (std::size_t i = 0; i < v.arguments.size(); ++i)
    if (schema::is_mutable_argument(v, i)) {
      alias_facts_.written.push_back(i);
      if (v.arguments[i].kwarg_only) alias_facts_.outs.push_back(i);
    }
  for (std::size_t r = 0; r < v.returns.size(); ++r) {
    const std::size_t a = schema::return_written_argument(v, r);
    alias_facts_.return_written.push_back(a == schema::no_position ? -1 : static_cast<std::ptrdiff_t>(a));
    if (alias_facts_.view_return < 0 && schema::return_is_view(v, r))
      alias_facts_.view_return = static_cast<std::ptrdiff_t>(r);
  }
}
OPD_FUNC void OperatorEntry::clear_schema() { schema_.reset(); }

OPD_FUNC std::uint64_t OperatorEntry::push_registered(DispatchKey k, KernelFunction kernel, std::string where) {
  owned_.push_back(std::make_unique<KernelFunction>(std::move(kernel)));
  const std::uint64_t id = next_id_++;
  auto& stack = stacks_[static_cast<std::size_t>(k)];
  stack.push_back({id, owned_.back().get(), std::move(where)});
  registered_[static_cast<std::size_t>(k)].store(owned_.back().get(), std::memory_order_release);
  return id;
}
OPD_FUNC void OperatorEntry::remove_registered(DispatchKey k, std::uint64_t id) {
  auto& stack = stacks_[static_cast<std::size_t>(k)];
  for (auto it = stack.begin(); it != stack.end(); ++it)
    if (it->id == id) {
      stack.erase(it);
      break;
    }
  registered_[static_cast<std::size_t>(k)].store(stack.empty() ? nullptr : stack.back().kernel,
                                                  std::memory_order_release);
}

OPD_FUNC void OperatorEntry::update_table(const FallbackTable& fallbacks) {
  std::uint64_t mask = 0;
  // The Undefined slot is what a call with an empty key set reaches (an op
  // whose only tensor is an absent Tensor?): c10 fills it from the
  // composite kernels; it is never a fallthrough and has no mask bit.
  table_why_[0] = compute_undefined_entry();
  table_[0].store(table_why_[0].kernel, std::memory_order_release);
  for (std::uint8_t i = kFirstRuntimeKey; i < static_cast<std::uint8_t>(DispatchKey::EndOfRuntimeKeys); ++i) {
    const auto k = static_cast<DispatchKey>(i);
    const computed_entry entry = compute_entry(k, fallbacks);
    if (!entry.kernel->fallthrough) mask |= DispatchKeySet(k).raw_bits();
    table_why_[i] = entry;
    table_[i].store(entry.kernel, std::memory_order_release);
  }
  // c10 (1.12 and later) masks fallthroughs per backend: a fallthrough at the
  // autograd key of the call's backend skips the autograd layer and reaches
  // that backend's kernel, even when a tensor of another backend brings an
  // autograd key with a kernel (c10 before 1.12, and a flat mask, would run
  // that one). So an autograd fallthrough with an autograd kernel below it
  // is not masked out: its slot redispatches below every autograd key.
  // Elsewhere (the common case) it is masked out as any fallthrough.
  const std::uint64_t autograd_bits = kAutogradKeys.raw_bits();
  if (const std::uint64_t autograd_kernels = mask & autograd_bits; autograd_kernels != 0) {
    const std::uint64_t lowest_kernel = autograd_kernels & (~autograd_kernels + 1);
    const std::uint64_t above = autograd_bits & ~mask & ~(lowest_kernel | (lowest_kernel - 1));
    for (const DispatchKey k : DispatchKeySet::from_raw_bits(above))
      table_[static_cast<std::size_t>(k)].store(&detail::autograd_layer_fallthrough_kernel(), std::memory_order_release);
    mask |= above;
  }
  non_fallthrough_.store(mask, std::memory_order_release);
}

OPD_FUNC const KernelFunction& OperatorEntry::missing_kernel() {
  static const KernelFunction k = [] {
    KernelFunction f;
    f.boxed = [](void*, const OperatorEntry& op, DispatchKeySet ks, Stack*) { op.report_missing_kernel(ks); };
    return f;
  }();
  return k;
}

OPD_FUNC void OperatorEntry::report_missing_kernel(DispatchKeySet ks) const {
  const DispatchKey k = (ks & non_fallthrough_keys()).highest_priority_key();
  detail::throw_concat<NotImplementedError>({"operator '", name_, "' has no kernel for dispatch key ", to_string(k),
                                             " (dispatch key set ", ks.str(), "); it has kernels for: ",
                                             registered_keys()});
}

OPD_FUNC OperatorEntry::computed_entry OperatorEntry::compute_undefined_entry() const {
  // c10: CompositeExplicitAutograd first, then CompositeImplicitAutograd.
  if (auto* cea = registered(DispatchKey::CompositeExplicitAutograd))
    return {cea, TableEntrySource::alias, DispatchKey::CompositeExplicitAutograd};
  if (auto* cia = registered(DispatchKey::CompositeImplicitAutograd))
    return {cia, TableEntrySource::alias, DispatchKey::CompositeImplicitAutograd};
  return {&missing_kernel(), TableEntrySource::missing, DispatchKey::Undefined};
}

OPD_FUNC OperatorEntry::computed_entry OperatorEntry::compute_entry(DispatchKey k, const FallbackTable& fallbacks) const {
  if (auto* direct = registered(k))
    return {direct, direct->fallthrough ? TableEntrySource::fallthrough : TableEntrySource::kernel, k};
  const bool backend = is_backend_key(k);
  const bool autograd = is_autograd_key(k);
  if (backend) {
    if (auto* cea = registered(DispatchKey::CompositeExplicitAutograd))
      return {cea, TableEntrySource::alias, DispatchKey::CompositeExplicitAutograd};
  }
  if (auto* cia = registered(DispatchKey::CompositeImplicitAutograd); cia && (backend || autograd)) {
    // An autograd key takes the composite kernel only while its backend has no
    // kernel of its own (or a CompositeExplicitAutograd one): otherwise
    // autograd would bypass that backend kernel. AutogradOther serves the
    // backends with no autograd key of their own; this library has none (each
    // backend key has its Autograd* key), so for it only the explicit kernel
    // counts, and c10's "ambiguous AutogradOther" case cannot arise.
    const DispatchKey own_backend = backend_key_for_autograd(k);
    const bool backend_has_own =
        autograd && ((own_backend != DispatchKey::Undefined && registered(own_backend)) ||
                     registered(DispatchKey::CompositeExplicitAutograd));
    if (!backend_has_own) return {cia, TableEntrySource::alias, DispatchKey::CompositeImplicitAutograd};
  }
  if (autograd) {
    if (auto* ag = registered(DispatchKey::Autograd)) return {ag, TableEntrySource::alias, DispatchKey::Autograd};
  }
  if (auto* fb = fallbacks[static_cast<std::size_t>(k)]) {
    // ADInplaceOrView concerns the operators that write an argument (version counters): for the others
    // its fallback is a fallthrough, as c10 has that layer's kernels for in-place and view operators only
    if (k == DispatchKey::ADInplaceOrView && alias_facts().written.empty())
      return {&detail::fallthrough_kernel(), TableEntrySource::fallthrough, DispatchKey::Undefined};
    return {fb, fb->fallthrough ? TableEntrySource::fallthrough : TableEntrySource::fallback, k};
  }
  // Layers this library does not implement by default pass calls through.
  if (backend) return {&missing_kernel(), TableEntrySource::missing, DispatchKey::Undefined};
  return {&detail::fallthrough_kernel(), TableEntrySource::fallthrough, DispatchKey::Undefined};
}

OPD_FUNC std::string OperatorEntry::dump_computed_table(const FallbackProvenance& fallbacks_at, bool all) const {
  std::string out;
  for (std::uint8_t i = kFirstRuntimeKey; i < static_cast<std::uint8_t>(DispatchKey::EndOfRuntimeKeys); ++i) {
    const auto k = static_cast<DispatchKey>(i);
    const computed_entry& e = table_why_[i];
    const bool default_fallthrough = e.source == TableEntrySource::fallthrough && e.from == DispatchKey::Undefined;
    if (default_fallthrough && !all) continue;
    out += to_string(k);
    out += ": ";
    switch (e.source) {
      case TableEntrySource::kernel:
        out += detail::concat({"kernel [registered at ", registered_at(k), "]"});
        break;
      case TableEntrySource::alias:
        out += detail::concat({"kernel from ", to_string(e.from), " [registered at ", registered_at(e.from), "]"});
        break;
      case TableEntrySource::fallback:
        out += detail::concat({"backend fallback [registered at ", fallbacks_at[i], "]"});
        break;
      case TableEntrySource::fallthrough:
        if (e.from == DispatchKey::Undefined) out += "fallthrough (no kernel at this layer)";
        else if (registered(k) != nullptr) out += detail::concat({"fallthrough [registered at ", registered_at(k), "]"});
        else out += detail::concat({"fallthrough (backend fallback) [registered at ", fallbacks_at[i], "]"});
        break;
      case TableEntrySource::missing:
        out += "missing";
        break;
    }
    out += '\n';
  }
  return out;
}

// What every schema needs, whoever computed its alias facts: the positions
// of tensor-bearing and Device arguments (dispatch-key extraction).
OPD_FUNC void OperatorEntry::analyse_arguments() {
  tensor_positions_.clear();
  factory_device_ = -1;
  const auto& s = schema_->value();
  num_arguments_ = s.arguments.size();
  alias_facts_ = AliasFacts{};
  for (std::size_t i = 0; i < s.arguments.size(); ++i) {
    const argument_kind kind = schema::classify_argument(s, s.arguments[i].type);
    if (bears_tensor(kind)) tensor_positions_.push_back(i);
    if (kind == argument_kind::device) alias_facts_.devices.push_back(i);
  }
  if (tensor_positions_.empty() && !alias_facts_.devices.empty())
    factory_device_ = static_cast<std::ptrdiff_t>(alias_facts_.devices.front());
}

}  // namespace opd
