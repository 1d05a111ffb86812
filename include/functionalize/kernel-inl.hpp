#pragma once
// Out-of-line part of kernel.hpp: the steps it lists, as plain functions over
// (operator, keys, stack).
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dispatch/dispatcher.hpp"
#include "functionalize/autograd_link.hpp"
#include "functionalize/functional_tensor.hpp"
#include "functionalize/kernel.hpp"
#include "functionalize/variants.hpp"

namespace opd::functionalization {

namespace kernel_detail {

inline thread_local ViewReplay tls_replay = ViewReplay::keep_views;

inline void call_below(const OperatorEntry& op, Stack& stack) {
  ExcludeDispatchKeyGuard below(DispatchKey::Functionalize);
  call_boxed(op, stack);
}

[[gnu::cold, gnu::noinline]] inline void report_unsupported(const OperatorEntry& op, const std::string& why) {
  throw NotImplementedError("functionalize: cannot functionalize '" + op.name() + "': " + why);
}

// Synced inner values in place of functional tensors (lists too), each
// lent its wrapper's autograd state.
inline void unwrap(IValue& v, autograd_link::Lent& lent) {
  if (v.is_tensor()) {
    if (FunctionalTensorImpl* f = functional_impl(v.to_tensor())) {
      f->sync();
      autograd_link::lend(v.to_tensor(), f->value(), lent);
      v = IValue(f->value());
    }
  } else if (v.is_tensor_list()) {
    const auto& list = v.to_tensor_list();
    if (std::none_of(list.begin(), list.end(), [](const Tensor& t) { return functional_impl(t) != nullptr; })) return;
    std::vector<Tensor> out;
    out.reserve(list.size());
    for (const Tensor& t : list) {
      FunctionalTensorImpl* f = functional_impl(t);
      if (f != nullptr) {
        f->sync();
        autograd_link::lend(t, f->value(), lent);
      }
      out.push_back(f != nullptr ? f->value() : t);
    }
    v = IValue(std::move(out));
  } else if (v.is_optional_tensor_list()) {
    const auto& list = v.to_optional_tensor_list();
    std::vector<std::optional<Tensor>> out;
    out.reserve(list.size());
    for (const auto& t : list) {
      FunctionalTensorImpl* f = t.has_value() ? functional_impl(*t) : nullptr;
      if (f != nullptr) {
        f->sync();
        autograd_link::lend(*t, f->value(), lent);
      }
      out.push_back(f != nullptr ? std::optional<Tensor>(f->value()) : t);
    }
    v = IValue(std::move(out));
  }
}

inline void unwrap_arguments(const OperatorEntry& op, IValue* args, autograd_link::Lent& lent) {
  for (std::size_t p : op.tensor_argument_positions()) unwrap(args[p], lent);
}

// A fresh result becomes a new functional base with its value's history.
inline Tensor wrap_with_history(const Tensor& value, ViewReplay r) {
  Tensor w = wrap(value, r);
  if (w.unsafe_get_impl() != value.unsafe_get_impl()) autograd_link::take_history(w, value);
  return w;
}

inline void wrap_result(IValue& v) {
  const ViewReplay r = tls_replay;
  if (v.is_tensor()) {
    v = IValue(wrap_with_history(v.to_tensor(), r));
  } else if (v.is_tensor_list()) {
    std::vector<Tensor> list = std::move(v).to_tensor_list();
    for (Tensor& t : list) t = wrap_with_history(t, r);
    v = IValue(std::move(list));
  } else if (v.is_optional_tensor_list()) {
    std::vector<std::optional<Tensor>> list = std::move(v).to_optional_tensor_list();
    for (auto& t : list)
      if (t.has_value()) t = wrap_with_history(*t, r);
    v = IValue(std::move(list));
  }
}

inline void run_functional(const OperatorEntry& op, Stack& stack) {
  const std::size_t n = op.num_arguments();
  const std::size_t first = stack.size() - n;
  autograd_link::Lent lent;
  unwrap_arguments(op, stack.data() + first, lent);
  call_below(op, stack);
  for (std::size_t i = first; i < stack.size(); ++i) wrap_result(stack[i]);
}

inline void run_view(const OperatorEntry& op, Stack& stack) {
  const std::size_t n = op.num_arguments();
  const std::size_t first = stack.size() - n;
  IValue* args = stack.data() + first;
  if (n == 0 || !args[0].is_tensor()) report_unsupported(op, "it returns a view of something other than its first (Tensor) argument");
  const Tensor self = args[0].to_tensor();
  FunctionalTensorImpl* parent = functional_impl(self);
  if (parent == nullptr) {  // a plain tensor viewed inside the region: its result is a new base
    run_functional(op, stack);
    return;
  }
  autograd_link::Lent lent;
  for (std::size_t p : op.tensor_argument_positions())
    if (p != 0) unwrap(args[p], lent);
  parent->sync();
  autograd_link::lend(self, parent->value(), lent);
  ViewMeta meta;
  meta.op = &op;
  meta.args.assign(args + 1, args + n);
  // A view that records grad is computed by the view itself: autograd's
  // formulas are the view's (its *_copy has none).
  const ViewReplay replay =
      autograd_link::records(self) ? ViewReplay::keep_views : parent->functional_storage()->replay();
  const OperatorEntry* callee = replay == ViewReplay::remove_views ? copy_variant(op) : &op;
  if (callee == nullptr) {
    // A composite multi-output view (chunk) is the view ATen makes it of
    // (split.Tensor, split_with_sizes): handled as that view, so the backend
    // sees its *_copy and the aliases record its steps.
    if (ViewDecomposition d = decompose_view(op, parent->value(), meta.args); d.op != nullptr) {
      stack.erase(stack.begin() + static_cast<std::ptrdiff_t>(first + 1), stack.end());
      for (IValue& a : d.args) stack.push_back(std::move(a));
      run_view(*d.op, stack);
      return;
    }
    // Another composite view without a *_copy operator: its output from view_forward.
    if (op.schema()->returns.size() != 1 || op.schema()->types[static_cast<std::size_t>(op.schema()->returns[0].type)].kind != schema::type_kind::base)
      report_unsupported(op, "it is a multi-output view without a *_copy operator (remove_views mode)");
    const Tensor value = view_forward(meta, parent->value(), replay);
    stack.erase(stack.begin() + static_cast<std::ptrdiff_t>(first), stack.end());
    stack.emplace_back(value);
  } else {
    args[0] = IValue(parent->value());
    call_below(*callee, stack);
  }
  OPD_CHECK(stack.size() == first + 1, "functionalize: the view '", op.name(), "' must return one Tensor or Tensor[]");
  IValue& r = stack[first];
  auto alias = [&](const Tensor& value, ViewMeta m) {
    Tensor w(make_intrusive<FunctionalTensorImpl>(value, *parent, std::move(m)));
    autograd_link::take_history(w, value);
    return w;
  };
  if (r.is_tensor()) {
    r = IValue(alias(r.to_tensor(), std::move(meta)));
  } else if (r.is_tensor_list()) {
    std::vector<Tensor> list = std::move(r).to_tensor_list();
    for (std::size_t i = 0; i < list.size(); ++i) {
      ViewMeta m = meta;
      m.output_index = static_cast<std::int64_t>(i);
      list[i] = alias(list[i], std::move(m));
    }
    r = IValue(std::move(list));
  } else {
    report_unsupported(op, "its view return is neither Tensor nor Tensor[]");
  }
}

// The written arguments in the order torchgen appends their new values to a
// `_functional` variant's returns: self, then out= arguments, then the others.
inline std::vector<std::size_t> torchgen_written_order(const OperatorEntry& op) {
  const AliasFacts& f = op.alias_facts();
  std::vector<std::size_t> order;
  auto is_out = [&](std::size_t p) { return std::find(f.outs.begin(), f.outs.end(), p) != f.outs.end(); };
  for (std::size_t p : f.written)
    if (p == 0) order.push_back(p);
  for (std::size_t p : f.written)
    if (p != 0 && is_out(p)) order.push_back(p);
  for (std::size_t p : f.written)
    if (p != 0 && !is_out(p)) order.push_back(p);
  return order;
}

// The tensors a written argument holds: one Tensor, or the elements of a
// Tensor(a!)[] (a None optional writes nothing).
template <class F>
void for_each_written_tensor(const IValue& v, F&& f) {
  if (v.is_tensor()) {
    f(v.to_tensor());
  } else if (v.is_tensor_list()) {
    for (const Tensor& t : v.to_tensor_list()) f(t);
  }
}

// Checks one written argument's new value against its wrappers before
// anything changes: a Tensor for a Tensor, a list of as many for a list;
// in-place keeps each shape, out= (and resize_: `resizes`) resizes only bases.
inline void check_update(const OperatorEntry& op, std::string_view arg, const IValue& current, const IValue& next,
                         bool is_out_op, bool resizes) {
  auto check_one = [&](const Tensor& wrapper, const Tensor& v, const std::string& which) {
    autograd_link::check_update(op, wrapper, v, is_out_op);
    const FunctionalTensorImpl& w = *functional_impl(wrapper);
    if (!resizes && !(v.sizes() == w.sizes()))
      throw Error(detail::str_cat("functionalize: '", op.name(), "' would change the shape of its written argument '",
                                  which, "' from ", w.sizes(), " to ", v.sizes(),
                                  " (an in-place result must keep its argument's shape)"));
    // Without a Meta kernel (check_out_call_on_meta), the out= kernel's own
    // rule for data-dependent results (nonzero, masked_select): the result's dtype.
    if (is_out_op && !op.has_kernel_for(DispatchKey::Meta) && v.dtype() != wrapper.dtype())
      throw Error(detail::str_cat("functionalize: '", op.name(), "' expected its out= argument '", which,
                                  "' to have dtype ", v.dtype(), ", its result's, got ", wrapper.dtype()));
    if (resizes && !(v.sizes() == w.sizes()) && !w.view_metas().empty())
      throw Error(detail::str_cat("functionalize: '", op.name(), "' would resize its ",
                                  is_out_op ? "out= argument '" : "argument '", which, "', a view, from ", w.sizes(),
                                  " to ", v.sizes()));
  };
  if (current.is_tensor()) {
    if (!next.is_tensor())
      throw Error(detail::str_cat("functionalize: the functional variant of '", op.name(), "' returns ", next.tag_kind(),
                                  " as the new value of the Tensor '", arg, "'"));
    check_one(current.to_tensor(), next.to_tensor(), std::string(arg));
    return;
  }
  const std::vector<Tensor>& now = current.to_tensor_list();
  if (!next.is_tensor_list() || next.to_tensor_list().size() != now.size())
    throw Error(detail::str_cat("functionalize: '", op.name(), "' expected ", now.size(), " new values for its written list '",
                                arg, "', its functional variant returned ",
                                next.is_tensor_list() ? std::to_string(next.to_tensor_list().size()) : std::string(next.tag_kind())));
  const std::vector<Tensor>& nv = next.to_tensor_list();
  for (std::size_t i = 0; i < now.size(); ++i) check_one(now[i], nv[i], detail::str_cat(arg, "[", i, "]"));
}

// The new value into the wrapper(s): in-place commits to the alias chain of
// each element's own base (elements may be views of different bases or of
// one); out= resizes as out= does.
inline void apply_update(const IValue& current, IValue next, bool resizes) {
  auto apply_one = [&](const Tensor& wrapper, Tensor v) {
    autograd_link::take_history(wrapper, v);  // recorded: the wrapper's history is rebased
    FunctionalTensorImpl& w = *functional_impl(wrapper);
    if (resizes) {
      w.replace_resized(std::move(v));
    } else {
      w.replace(std::move(v));
      w.commit_update();
    }
  };
  if (current.is_tensor()) {
    apply_one(current.to_tensor(), std::move(next).to_tensor());
    return;
  }
  const std::vector<Tensor>& now = current.to_tensor_list();
  std::vector<Tensor> nv = std::move(next).to_tensor_list();
  for (std::size_t i = 0; i < now.size(); ++i) apply_one(now[i], std::move(nv[i]));
}

// An out= call's own checks (the out tensor's dtype, its shape when it is a
// view, ...), which the functional variant does not make: the operator's Meta
// kernel on meta tensors of the arguments' geometry. Its error is the eager
// call's; nothing has changed yet.
inline void check_out_call_on_meta(const OperatorEntry& op, const IValue* args, std::size_t n) {
  if (!op.has_kernel_for(DispatchKey::Meta)) return;
  const auto meta = [](const Tensor& t) {
    if (!t.defined()) return t;
    Tensor m = empty_strided(t.sizes(), t.strides(), t.dtype(), Device::meta());
    if (t.unsafe_get_impl()->is_wrapped_number()) m.unsafe_get_impl()->set_wrapped_number(true);
    return m;
  };
  Stack mstack;
  mstack.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const IValue& v = args[i];
    if (v.is_tensor()) {
      mstack.emplace_back(meta(v.to_tensor()));
    } else if (v.is_tensor_list()) {
      std::vector<Tensor> list;
      for (const Tensor& t : v.to_tensor_list()) list.push_back(meta(t));
      mstack.emplace_back(std::move(list));
    } else if (v.is_optional_tensor_list()) {
      std::vector<std::optional<Tensor>> list;
      for (const std::optional<Tensor>& t : v.to_optional_tensor_list())
        list.push_back(t.has_value() ? std::optional<Tensor>(meta(*t)) : std::nullopt);
      mstack.emplace_back(std::move(list));
    } else if (v.is_device()) {
      mstack.emplace_back(Device::meta());
    } else {
      mstack.push_back(v);
    }
  }
  redispatch_boxed(op, DispatchKeySet(DispatchKey::Meta), mstack);
}

inline void run_mutation(const OperatorEntry& op, Stack& stack) {
  const AliasFacts& facts = op.alias_facts();
  const std::size_t n = op.num_arguments();
  const std::size_t first = stack.size() - n;
  IValue* args = stack.data() + first;
  const auto& sargs = op.schema()->arguments;

  // The written tensors (list elements too): all functional, or none.
  std::size_t functional_written = 0, plain_written = 0;
  for (std::size_t p : facts.written) {
    if (!args[p].is_tensor() && !args[p].is_tensor_list() && !args[p].is_none())
      report_unsupported(op, "its written argument '" + std::string(sargs[p].name) + "' is neither a Tensor nor a Tensor[]");
    for_each_written_tensor(args[p], [&](const Tensor& t) { ++(functional_impl(t) != nullptr ? functional_written : plain_written); });
  }
  autograd_link::Lent lent;
  if (functional_written == 0) {  // only plain tensors are written: not the layer's business
    unwrap_arguments(op, args, lent);
    ExcludeDispatchKeyGuard below(DispatchKey::Functionalize);
    call_boxed(op, stack);
    return;
  }
  if (plain_written != 0) report_unsupported(op, "it writes functional and non-functional tensors in one call");

  const bool is_out_op = !facts.outs.empty() && facts.outs.size() == facts.written.size();
  const bool is_inplace = !is_out_op && is_inplace_name(op.name());
  const OperatorEntry* fn = functional_variant_of(op);
  if (fn == nullptr) {
    const split_name nm = split_operator_name(op.name());
    std::string looked_for =
        is_inplace ? join_operator_name(nm.base.substr(0, nm.base.size() - 1), nm.overload)
        : is_out_op ? "a functional '" + std::string(nm.base) + "' overload of the same signature"
                    : join_operator_name(std::string(nm.base) + "_functional", nm.overload);
    throw NotImplementedError("functionalize: '" + op.name() + "' writes its arguments and its functional variant (" +
                              looked_for + ") is not declared");
  }

  if (is_out_op) check_out_call_on_meta(op, args, n);

  // The functional call on synced values; out= arguments are left out.
  Stack fstack;
  fstack.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (is_out_op && std::find(facts.outs.begin(), facts.outs.end(), i) != facts.outs.end()) continue;
    fstack.push_back(args[i]);
  }
  for (IValue& v : fstack) unwrap(v, lent);
  if (is_out_op && fstack.size() < fn->num_arguments() && args[facts.outs[0]].is_tensor()) {
    // A factory's out= (arange.out, eye.out, full.out): its functional
    // variant takes TensorOptions, which come from the out tensor, as the
    // out= kernel writes the out tensor's dtype on its device.
    const Tensor& out = args[facts.outs[0]].to_tensor();
    const auto& fargs = fn->schema()->arguments;
    for (std::size_t i = fstack.size(); i < fn->num_arguments(); ++i) {
      const std::string_view name = fargs[i].name;
      if (name == "dtype") fstack.emplace_back(out.dtype());
      else if (name == "device") fstack.emplace_back(out.device());
      else if (name == "layout" || name == "pin_memory") fstack.emplace_back();
      else break;
    }
  }
  OPD_CHECK(fstack.size() == fn->num_arguments(), "functionalize: '", fn->name(), "' takes ", fn->num_arguments(),
            " arguments, not the ", fstack.size(), " of '", op.name(), "'");
  call_below(*fn, fstack);

  // The functional variant returns what torchgen's signature() says, for the
  // in-place, out= and mutable kinds alike: the operator's own returns (a
  // written one is that argument's new value), then the new values of the
  // written arguments it does not return, in torchgen's order
  // (_foreach_add_.Scalar(Tensor(a!)[] self, ...) -> () gives -> Tensor[]).
  const std::size_t nret = facts.return_written.size();
  std::vector<std::pair<std::size_t, IValue>> updates;  // (argument, new value)
  std::vector<IValue> returns(nret);
  std::size_t k = 0;
  for (std::size_t r = 0; r < nret; ++r) {
    const std::ptrdiff_t a = facts.return_written[r];
    OPD_CHECK(k < fstack.size(), "functionalize: '", fn->name(), "' returns too few values");
    if (a >= 0) updates.emplace_back(static_cast<std::size_t>(a), std::move(fstack[k]));
    else returns[r] = std::move(fstack[k]);
    ++k;
  }
  for (std::size_t p : torchgen_written_order(op)) {
    if (std::find(facts.return_written.begin(), facts.return_written.end(), static_cast<std::ptrdiff_t>(p)) !=
        facts.return_written.end())
      continue;
    OPD_CHECK(k < fstack.size(), "functionalize: '", fn->name(), "' does not return the new value of '",
              sargs[p].name, "'");
    updates.emplace_back(p, std::move(fstack[k++]));
  }
  OPD_CHECK(k == fstack.size(), "functionalize: '", fn->name(), "' returns ", fstack.size(), " values, '", op.name(),
            "' and the new values of its written arguments are ", k);

  // Every check before any change: a failed call leaves its inputs unchanged.
  // A None written optional has no new value to take.
  std::erase_if(updates, [&](const auto& u) { return args[u.first].is_none(); });
  // resize_ writes its argument's new shape (PyTorch special-cases it too);
  // like an out= argument, a view cannot take another shape.
  const bool resizes = is_out_op || op.name() == "aten::resize_";
  for (const auto& [p, v] : updates) check_update(op, sargs[p].name, args[p], v, is_out_op, resizes);
  for (auto& [p, v] : updates) apply_update(args[p], std::move(v), resizes);
  for (std::size_t r = 0; r < nret; ++r) {
    const std::ptrdiff_t a = facts.return_written[r];
    if (a >= 0) returns[r] = args[a];
    else wrap_result(returns[r]);
  }
  stack.erase(stack.begin() + static_cast<std::ptrdiff_t>(first), stack.end());
  for (IValue& v : returns) stack.push_back(std::move(v));
}

}  // namespace kernel_detail

OPD_FUNC ViewReplay current_replay() noexcept { return kernel_detail::tls_replay; }
OPD_FUNC ViewReplay exchange_current_replay(ViewReplay mode) noexcept {
  return std::exchange(kernel_detail::tls_replay, mode);
}

OPD_FUNC Tensor wrap(const Tensor& value, ViewReplay replay) {
  if (!value.defined() || functional_impl(value) != nullptr) return value;
  return Tensor(make_intrusive<FunctionalTensorImpl>(value, replay));
}

OPD_FUNC void functionalize_kernel(const OperatorEntry& op, DispatchKeySet ks, Stack* stack) {
  const AliasFacts& facts = op.alias_facts();
  // A composite that is no view decomposes here: its parts come back through
  // the dispatcher. Composite views (reshape, narrow, flatten, chunk) are
  // replayed as views: the library's kernels for them build the view
  // directly from the tensor's geometry, which a wrapper does not hold.
  if (facts.view_return < 0) {
    if (const KernelFunction* k = op.registered(DispatchKey::CompositeImplicitAutograd)) {
      k->boxed(k->functor, op, ks, stack);
      return;
    }
  }
  if (facts.view_return >= 0) {
    if (!facts.written.empty()) kernel_detail::report_unsupported(op, "it returns a view and writes an argument");
    kernel_detail::run_view(op, *stack);
  } else if (!facts.written.empty()) {
    kernel_detail::run_mutation(op, *stack);
  } else {
    kernel_detail::run_functional(op, *stack);
  }
}

OPD_FUNC void ensure_registered() {
  // For the whole process: never unregistered (and reachable, for leak checkers).
  static RegistrationSet* const kept = [] {
    auto* set = new RegistrationSet();
    set->add(register_fallback(DispatchKey::Functionalize, &functionalize_kernel));
    return set;
  }();
  (void)kept;
}

}  // namespace opd::functionalization
