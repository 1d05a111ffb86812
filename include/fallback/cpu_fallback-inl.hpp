#pragma once
// Out-of-line part of cpu_fallback.hpp (compiled once in src/cpu_fallback.cpp,
// or inline under OPD_HEADER_ONLY). One plain function over (operator, keys,
// stack), in the steps the header lists.
#include <algorithm>
#include <array>
#include <iterator>
#include <memory>
#include <new>
#include <span>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dispatch/core/error.hpp"
#include "dispatch/transfer.hpp"
#include "fallback/cpu_fallback.hpp"

namespace opd {

namespace fallback_detail {

// The device a call fell back from, for messages: its first device tensor's,
// else its Device argument's, else the backend key's.
inline std::string device_name(const OperatorEntry& op, DispatchKeySet ks, const IValue* args) {
  for (std::size_t p : op.tensor_argument_positions()) {
    std::string found;
    for_each_tensor(
        [&](const Tensor& t) {
          if (found.empty() && !t.is_cpu()) found = t.device().str();
        },
        args[p]);
    if (!found.empty()) return found;
  }
  for (std::size_t p : op.alias_facts().devices)
    if (args[p].is_device()) return args[p].to_device().str();
  for (DispatchKey k : ks)
    if (is_backend_key(k)) return std::string(to_string(device_type_for(k)));
  return "cpu";
}

inline bool listed(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

[[gnu::cold, gnu::noinline]] inline void report_not_allowed(const OperatorEntry& op, DispatchKeySet ks, const IValue* args) {
  throw NotImplementedError("'" + op.name() + "' is not implemented for device " + device_name(op, ks, args) +
                            " (the device's CPU fallback does not take it)");
}

[[gnu::cold, gnu::noinline]] inline void report_view(const OperatorEntry& op, DispatchKeySet ks, const IValue* args) {
  throw NotImplementedError("'" + op.name() + "' is not implemented for device " + device_name(op, ks, args) +
                            ": it returns a view of its input, and a view computed on the CPU cannot share the "
                            "device tensor's storage, so it cannot fall back to the CPU. Register a kernel for it, or "
                            "let the fallback return a copy (CpuFallbackOptions::views = FallbackViews::warn_and_copy)");
}

[[gnu::cold, gnu::noinline]] inline void warn_view(const CpuFallbackOptions& options, const OperatorEntry& op,
                                                   DispatchKeySet ks, const IValue* args) {
  const std::string message = "Warning: '" + op.name() + "' returns a view of its input; on device " +
                              device_name(op, ks, args) +
                              " it ran on the CPU and returns a copy, which does not share the input's storage";
  if (options.warning_handler != nullptr) options.warning_handler(message);
  else std::fprintf(stderr, "%s\n", message.c_str());
}

// N values inline, then the heap: a call's few tensors cost no allocation.
// The inline slots are raw storage, constructed only when pushed, and data_
// points at them or at the heap block (a call builds several of these lists:
// default-constructed slots, a std::vector member and a branch per access
// cost more than the fallback's own work for one small tensor under callgrind).
template <class T, std::size_t N>
class short_list {
 public:
  short_list() {}
  // n default-constructed values.
  explicit short_list(std::size_t n) {
    if (n > N) [[unlikely]]
      grow(n);
    for (std::size_t i = 0; i < n; ++i) ::new (static_cast<void*>(data_ + i)) T();
    size_ = n;
  }
  short_list(const short_list&) = delete;
  short_list& operator=(const short_list&) = delete;
  ~short_list() {
    std::destroy(data_, data_ + size_);
    if (data_ != inline_) [[unlikely]]
      std::allocator<T>().deallocate(data_, capacity_);
  }
  template <class... A>
  void emplace_back(A&&... a) {
    if (size_ == capacity_) [[unlikely]]
      grow(2 * capacity_);
    ::new (static_cast<void*>(data_ + size_)) T(std::forward<A>(a)...);
    ++size_;
  }
  void push_back(T v) { emplace_back(std::move(v)); }
  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }

 private:
  [[gnu::noinline]] void grow(std::size_t capacity) {
    T* bigger = std::allocator<T>().allocate(capacity);
    std::uninitialized_move(data_, data_ + size_, bigger);
    std::destroy(data_, data_ + size_);
    if (data_ != inline_) std::allocator<T>().deallocate(data_, capacity_);
    data_ = bigger;
    capacity_ = capacity;
  }
  union {
    T inline_[N];
  };
  T* data_ = inline_;
  std::size_t size_ = 0;
  std::size_t capacity_ = N;
};

// Where a device tensor of the batch came from: argument p, list element e
// (-1: the argument itself, moved out of its stack slot), and whether the
// schema marks that argument written.
struct tensor_slot {
  std::size_t argument;
  std::ptrdiff_t element;
  bool written;
};

// An out= device tensor (keyword-only, written): the caller's tensor, and the
// fresh CPU tensor of its sizes and dtype the kernel writes into instead.
struct out_tensor {
  std::size_t argument;
  Tensor original;
  Tensor cpu;
};

// Any other written argument (a list, or a tensor that is CPU or undefined):
// the caller's value and the CPU value the kernel writes into.
struct written_value {
  std::size_t argument;
  IValue original;
  IValue cpu;
};

// The stack slot's Tensor, to move out of or into (a borrowed slot takes its
// own reference first, as a kernel's Tensor& does in boxing.hpp).
inline Tensor& tensor_in_slot(IValue& v) {
  v.make_owned();
  return const_cast<Tensor&>(v.to_tensor());
}

// Moves t's tensors (or the tensors of a list) to `device` for a fresh return.
inline IValue move_result(IValue v, Device device) {
  if (v.is_tensor()) return IValue(to(v.to_tensor(), device));
  if (v.is_tensor_list()) {
    std::vector<Tensor> l = std::move(v).to_tensor_list();
    for (Tensor& t : l) t = to(t, device);
    return IValue(std::move(l));
  }
  if (v.is_optional_tensor_list()) {
    std::vector<std::optional<Tensor>> l = std::move(v).to_optional_tensor_list();
    for (auto& t : l)
      if (t) *t = to(*t, device);
    return IValue(std::move(l));
  }
  return v;
}

// Copies a written argument's CPU value back into the caller's device tensors.
inline void copy_back(const IValue& cpu, const IValue& original) {
  const auto one = [](const Tensor& c, const Tensor& o) {
    if (o.defined() && c.defined() && !o.is_cpu()) copy_from_and_resize(c, o);
  };
  if (original.is_tensor() && cpu.is_tensor()) {
    one(cpu.to_tensor(), original.to_tensor());
  } else if (original.is_tensor_list() && cpu.is_tensor_list()) {
    const auto& c = cpu.to_tensor_list();
    const auto& o = original.to_tensor_list();
    for (std::size_t i = 0; i < o.size() && i < c.size(); ++i) one(c[i], o[i]);
  } else if (original.is_optional_tensor_list() && cpu.is_optional_tensor_list()) {
    const auto& c = cpu.to_optional_tensor_list();
    const auto& o = original.to_optional_tensor_list();
    for (std::size_t i = 0; i < o.size() && i < c.size(); ++i)
      if (o[i] && c[i]) one(*c[i], *o[i]);
  }
}

// Puts the caller's value of written argument p into `result` (a return
// aliasing it gives back the caller's own tensor). A kernel's tensor result
// is owned: its Tensor is assigned in place.
inline void give_back_original(IValue& result, std::size_t p, short_list<tensor_slot, 4>& slots,
                               short_list<Tensor, 4>& device, short_list<out_tensor, 2>& outs,
                               short_list<written_value, 2>& other_written) {
  const auto give = [&](const Tensor& t) {
    if (result.is_tensor() && !result.is_borrowed()) [[likely]]
      const_cast<Tensor&>(result.to_tensor()) = t;
    else
      result = IValue(t);
  };
  for (std::size_t k = 0; k < slots.size(); ++k)
    if (slots[k].argument == p && slots[k].element < 0) return give(device[k]);
  for (out_tensor& o : outs)
    if (o.argument == p) return give(o.original);
  for (written_value& w : other_written)
    if (w.argument == p) {
      result = w.original;
      return;
    }
  result = IValue();
}

}  // namespace fallback_detail

namespace fallback_detail {
// Up to N tensors in raw inline storage, constructed only when pushed, for
// the plain path below (which takes only calls that fit).
template <std::size_t N>
class tensor_array {
 public:
  tensor_array() {}
  tensor_array(const tensor_array&) = delete;
  tensor_array& operator=(const tensor_array&) = delete;
  ~tensor_array() {
    for (std::size_t i = 0; i < size_; ++i) items_[i].~Tensor();
  }
  void push(Tensor t) {
    ::new (static_cast<void*>(items_ + size_)) Tensor(std::move(t));
    ++size_;
  }
  Tensor* data() { return items_; }
  std::size_t size() const { return size_; }
  Tensor& operator[](std::size_t i) { return items_[i]; }

 private:
  union {
    Tensor items_[N];
  };
  std::size_t size_ = 0;
};

// Steps 2 to 5 for the common call: every tensor-bearing argument holds a
// Tensor (no lists, no None), at most kPlainTensors of them, every written
// one on a device, and no Device argument. Fixed inline arrays instead of
// the general path's lists; false (the stack untouched) for any other call.
inline constexpr std::size_t kPlainTensors = 4;
[[gnu::always_inline]] inline bool run_plain(const OperatorEntry& op, const AliasFacts& facts, Stack* stack,
                                             std::size_t base) {
  const std::vector<std::size_t>& positions = op.tensor_argument_positions();
  if (positions.size() > kPlainTensors || !facts.devices.empty()) return false;
  IValue* args = stack->data() + base;

  // Which arguments hold device tensors (read only: a call that does not fit
  // leaves here untouched). Written and out= arguments are found by walking
  // the entry's sorted position lists beside the tensor positions. The
  // out= ones go last: the first `moving` of them are the batch.
  enum : std::uint8_t { read = 0, written = 1, out = 2 };
  std::size_t at[kPlainTensors];
  std::uint8_t role[kPlainTensors];
  std::size_t moving = 0, outs[kPlainTensors], num_outs = 0;
  const std::size_t* next_written = facts.written.data();
  const std::size_t* const written_end = next_written + facts.written.size();
  const std::size_t* next_out = facts.outs.data();
  const std::size_t* const outs_end = next_out + facts.outs.size();
  for (std::size_t p : positions) {
    if (!args[p].is_tensor()) return false;
    const Tensor& t = args[p].to_tensor();
    const bool device_tensor = t.defined() && !t.is_cpu();
    std::uint8_t r = read;
    if (next_written != written_end && *next_written == p) {
      ++next_written;
      if (!device_tensor) return false;  // (a written CPU or undefined tensor: the general path)
      r = written;
      if (next_out != outs_end && *next_out == p) {
        ++next_out;
        r = out;
      }
    }
    if (!device_tensor) continue;
    if (r == out) {
      outs[num_outs++] = p;
      continue;
    }
    at[moving] = p;
    role[moving] = r;
    ++moving;
  }
  const std::size_t count = moving + num_outs;
  if (count == 0) return false;  // (nothing on a device: the general path runs the CPU kernel)
  for (std::size_t j = 0; j < num_outs; ++j) {
    at[moving + j] = outs[j];
    role[moving + j] = out;
  }

  // 2. The device tensors move out of their stack slots (no reference count
  // traffic) into `device`, which then holds the caller's tensors: what
  // written arguments are copied back into and what aliasing returns give.
  // An out= tensor is only written: the CPU kernel gets a fresh tensor of
  // its sizes and dtype (in `cpu` and its slot), and its old values are not
  // moved.
  tensor_array<kPlainTensors> device, cpu;  // device[k] and cpu[k]: argument at[k]
  Tensor* slot[kPlainTensors];              // its Tensor in the stack
  for (std::size_t k = 0; k < moving; ++k) {
    slot[k] = &tensor_in_slot(args[at[k]]);
    device.push(std::move(*slot[k]));
    cpu.push(Tensor());
  }
  for (std::size_t k = moving; k < count; ++k) {
    Tensor& in_slot = tensor_in_slot(args[at[k]]);
    Tensor fresh = empty(in_slot.sizes(), in_slot.dtype());
    device.push(std::move(in_slot));
    in_slot = fresh;
    cpu.push(std::move(fresh));
  }

  // One batched transfer. A written tensor's CPU value stays in `cpu` too
  // (the kernel's results replace the stack's arguments).
  if (moving != 0) {
    to_cpu(std::span<const Tensor>(device.data(), moving), std::span<Tensor>(cpu.data(), moving));
    for (std::size_t k = 0; k < moving; ++k) {
      if (role[k] == written) *slot[k] = cpu[k];
      else *slot[k] = std::move(cpu[k]);
    }
  }

  // 3. Run on the CPU. An exception leaves here: nothing was copied back.
  redispatch_boxed(op, DispatchKeySet(DispatchKey::CPU), *stack);

  // 4. Written arguments back into the caller's device tensors.
  for (std::size_t k = 0; k < count; ++k)
    if (role[k] != read) copy_from_and_resize(cpu[k], device[k]);

  // 5. Returns: the caller's own tensor for a written alias, else moved to the target.
  const std::size_t num_returns = facts.return_written.size();
  if (stack->size() < base + num_returns) return true;  // (the kernel's own error, if any, was raised already)
  for (std::size_t r = 0; r < num_returns; ++r) {
    IValue& result = (*stack)[base + r];
    const std::ptrdiff_t a = facts.return_written[r];
    if (a >= 0) {
      std::size_t k = 0;
      while (at[k] != static_cast<std::size_t>(a)) ++k;  // (every written argument is one of them)
      // The last return takes the caller's tensor (nothing reads it after);
      // a kernel's tensor result is owned: its Tensor is assigned in place.
      if (!result.is_tensor() || result.is_borrowed()) [[unlikely]]
        result = IValue(device[k]);
      else if (r + 1 == num_returns)
        const_cast<Tensor&>(result.to_tensor()) = std::move(device[k]);
      else
        const_cast<Tensor&>(result.to_tensor()) = device[k];
    } else {
      // A fresh return moves to the first device tensor argument's device
      // (the batch and the out= tensors are each in argument order).
      const Tensor& first = num_outs == 0 || (moving != 0 && at[0] < at[moving]) ? device[0] : device[moving];
      result = move_result(std::move(result), first.device());
    }
  }
  return true;
}

// Steps 2 to 5 for any call (lists, Device arguments, written CPU or
// undefined tensors, many tensors): short lists that grow as needed.
[[gnu::noinline]] inline void run_general(const OperatorEntry& op, Stack* stack, std::size_t base) {
  using fallback_detail::out_tensor;
  using fallback_detail::short_list;
  using fallback_detail::tensor_slot;
  using fallback_detail::written_value;
  const AliasFacts& facts = op.alias_facts();
  IValue* args = stack->data() + base;

  // 2. Collect the device tensors, in argument order, and the target device
  // (plain Devices and flags rather than optionals: this runs on every call).
  // A plain device Tensor argument is moved out of its stack slot (no
  // reference count traffic): `device` then holds the caller's tensor, which
  // is also what a written argument is copied back into and what a return
  // aliasing it gives back. Written and out= arguments are found by walking
  // the entry's sorted position lists beside the tensor positions.
  short_list<Tensor, 4> device;       // moves to the CPU in one batch
  short_list<tensor_slot, 4> slots;   // where each of `device` came from
  short_list<out_tensor, 2> outs;     // out= device tensors: not moved, a fresh CPU tensor instead
  short_list<written_value, 2> other_written;  // written lists, written CPU or undefined tensors
  Device target = Device::cpu(), first_tensor_device = target, first_list_device = target;
  bool has_target = false, has_tensor_device = false, has_list_device = false;
  const std::size_t* next_written = facts.written.data();
  const std::size_t* const written_end = next_written + facts.written.size();
  const std::size_t* next_out = facts.outs.data();
  const std::size_t* const outs_end = next_out + facts.outs.size();
  for (std::size_t p : op.tensor_argument_positions()) {
    IValue& v = args[p];
    const bool written = next_written != written_end && *next_written == p;
    if (written) ++next_written;
    const bool out = written && next_out != outs_end && *next_out == p;
    if (out) ++next_out;
    if (v.is_tensor()) {
      const Tensor& t = v.to_tensor();
      if (!t.defined() || t.is_cpu()) {
        if (written) [[unlikely]]
          other_written.emplace_back(written_value{p, v, IValue()});
        continue;
      }
      if (!has_tensor_device) {
        first_tensor_device = t.device();
        has_tensor_device = true;
      }
      Tensor& in_slot = fallback_detail::tensor_in_slot(v);
      if (out) {
        // An out= tensor is only written: the CPU kernel gets a fresh one of
        // its sizes and dtype, and its old values are not moved.
        Tensor fresh = empty(t.sizes(), t.dtype());
        outs.emplace_back(out_tensor{p, std::move(in_slot), fresh});
        in_slot = std::move(fresh);
        continue;
      }
      slots.push_back({p, -1, written});
      device.emplace_back(std::move(in_slot));
    } else if (v.is_tensor_list() || v.is_optional_tensor_list()) {
      if (written) other_written.emplace_back(written_value{p, v, IValue()});
      std::ptrdiff_t e = 0;
      const auto visit = [&](const Tensor& t) {
        if (t.defined() && !t.is_cpu()) {
          if (!has_list_device) {
            first_list_device = t.device();
            has_list_device = true;
          }
          slots.push_back({p, e, written});
          device.emplace_back(t);
        }
        ++e;
      };
      if (v.is_tensor_list()) {
        for (const Tensor& t : v.to_tensor_list()) visit(t);
      } else {
        for (const auto& t : v.to_optional_tensor_list()) {
          if (t) visit(*t);
          else ++e;
        }
      }
    } else if (written) {  // a written Tensor? passed as None
      other_written.emplace_back(written_value{p, v, IValue()});
    }
  }
  for (std::size_t p : facts.devices)
    if (args[p].is_device()) {
      if (!has_target) target = args[p].to_device();
      has_target = true;
      args[p] = IValue(Device::cpu());
    }
  if (!has_target) target = has_tensor_device ? first_tensor_device : first_list_device;  // (CPU: nothing moves)

  // One batched transfer for the whole call. A written tensor's CPU value is
  // kept here as well as put on the stack: the kernel's results replace the
  // stack's arguments, and step 4 copies it back from here.
  short_list<Tensor, 4> cpu(device.size());
  if (!device.empty()) {
    to_cpu(std::span<const Tensor>(device.data(), device.size()), std::span<Tensor>(cpu.data(), cpu.size()));
    std::size_t k = 0;
    while (k < slots.size()) {
      const std::size_t p = slots[k].argument;
      if (slots[k].element < 0) {
        Tensor& in_slot = const_cast<Tensor&>(args[p].to_tensor());  // (owned and emptied above)
        if (slots[k].written) in_slot = cpu[k];
        else in_slot = std::move(cpu[k]);
        ++k;
        continue;
      }
      if (args[p].is_tensor_list()) {
        std::vector<Tensor> l = args[p].to_tensor_list();
        for (; k < slots.size() && slots[k].argument == p; ++k) l[static_cast<std::size_t>(slots[k].element)] = std::move(cpu[k]);
        args[p] = IValue(std::move(l));
      } else {
        std::vector<std::optional<Tensor>> l = args[p].to_optional_tensor_list();
        for (; k < slots.size() && slots[k].argument == p; ++k) l[static_cast<std::size_t>(slots[k].element)] = std::move(cpu[k]);
        args[p] = IValue(std::move(l));
      }
    }
  }
  // The CPU values of the other written arguments (the kernel writes into them).
  for (written_value& w : other_written) w.cpu = args[w.argument];

  // 3. Run on the CPU. An exception leaves here: nothing was copied back.
  redispatch_boxed(op, DispatchKeySet(DispatchKey::CPU), *stack);

  // 4. Written arguments back into the caller's device tensors.
  for (std::size_t k = 0; k < slots.size(); ++k)
    if (slots[k].written && slots[k].element < 0) copy_from_and_resize(cpu[k], device[k]);
  for (out_tensor& o : outs) copy_from_and_resize(o.cpu, o.original);
  for (written_value& w : other_written) fallback_detail::copy_back(w.cpu, w.original);

  // 5. Returns: the caller's own value for a written alias, else moved to the target.
  const std::size_t num_returns = facts.return_written.size();
  if (stack->size() < base + num_returns) return;  // (the kernel's own error, if any, was raised already)
  for (std::size_t r = 0; r < num_returns; ++r) {
    IValue& result = (*stack)[base + r];
    const std::ptrdiff_t a = facts.return_written[r];
    if (a >= 0) {
      give_back_original(result, static_cast<std::size_t>(a), slots, device, outs, other_written);
    } else if (!target.is_cpu()) {
      result = fallback_detail::move_result(std::move(result), target);
    }
  }
}

// The fallback's body; options == nullptr: the defaults (every operator,
// views are an error). Inlined into both entry points, so cpu_fallback
// itself is the body (no second call, no static options object to guard).
[[gnu::always_inline]] inline void run(const CpuFallbackOptions* options, const OperatorEntry& op, DispatchKeySet ks,
                                       Stack* stack) {
  const AliasFacts& facts = op.alias_facts();
  const std::size_t base = stack->size() - op.num_arguments();
  IValue* args = stack->data() + base;

  // 1. Policy, views.
  if (options != nullptr &&
      ((!options->only.empty() && !listed(options->only, op.name())) ||
       (!options->blocked.empty() && listed(options->blocked, op.name())))) [[unlikely]]
    report_not_allowed(op, ks, args);
  if (facts.is_view()) [[unlikely]] {
    if (options == nullptr || options->views == FallbackViews::error) report_view(op, ks, args);
    warn_view(*options, op, ks, args);
  }

  if (!run_plain(op, facts, stack, base)) run_general(op, stack, base);
}
}  // namespace fallback_detail

OPD_FUNC void cpu_fallback_with(const CpuFallbackOptions& options, const OperatorEntry& op, DispatchKeySet ks,
                                Stack* stack) {
  fallback_detail::run(&options, op, ks, stack);
}

OPD_FUNC void cpu_fallback(const OperatorEntry& op, DispatchKeySet ks, Stack* stack) {
  fallback_detail::run(nullptr, op, ks, stack);
}

OPD_FUNC RegistrationHandle register_cpu_fallback(DispatchKey key, CpuFallbackOptions options,
                                                  const source_location& where) {
  return Dispatcher::singleton().register_fallback(
      key,
      make_boxed_kernel([options = std::move(options)](const OperatorEntry& op, DispatchKeySet ks, Stack* stack) {
        cpu_fallback_with(options, op, ks, stack);
      }),
      where);
}

}  // namespace opd
