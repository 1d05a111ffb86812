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

// Where a device tensor of the call sits: argument p, list element e (-1: the argument itself).
struct tensor_slot {
  std::size_t argument;
  std::ptrdiff_t element;
};

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

}  // namespace fallback_detail

OPD_FUNC void cpu_fallback_with(const CpuFallbackOptions& options, const OperatorEntry& op, DispatchKeySet ks,
                                Stack* stack) {
  using fallback_detail::tensor_slot;
  const AliasFacts& facts = op.alias_facts();
  const std::size_t n = op.num_arguments();
  const std::size_t base = stack->size() - n;
  IValue* args = stack->data() + base;

  // 1. Policy, views.
  if ((!options.only.empty() && !fallback_detail::listed(options.only, op.name())) ||
      (!options.blocked.empty() && fallback_detail::listed(options.blocked, op.name()))) [[unlikely]]
    fallback_detail::report_not_allowed(op, ks, args);
  if (facts.is_view()) [[unlikely]] {
    if (options.views == FallbackViews::error) fallback_detail::report_view(op, ks, args);
    fallback_detail::warn_view(options, op, ks, args);
  }

  // The caller's written arguments, as they were (copy-back targets, and what
  // returns aliasing them give back).
  using fallback_detail::short_list;
  short_list<IValue, 4> originals;
  for (std::size_t p : facts.written) originals.emplace_back(args[p]);

  // 2. Collect the device tensors, in argument order, and the target device
  // (plain Devices and flags rather than optionals: this runs on every call).
  short_list<Tensor, 4> device_tensors;
  short_list<tensor_slot, 4> slots;
  Device target = Device::cpu(), first_tensor_device = target, first_list_device = target;
  bool has_target = false, has_tensor_device = false, has_list_device = false;
  for (std::size_t p : op.tensor_argument_positions()) {
    IValue& v = args[p];
    if (v.is_tensor()) {
      const Tensor& t = v.to_tensor();
      if (!t.defined() || t.is_cpu()) continue;
      if (!has_tensor_device) {
        first_tensor_device = t.device();
        has_tensor_device = true;
      }
      if (std::find(facts.outs.begin(), facts.outs.end(), p) != facts.outs.end()) {
        // An out= tensor is only written: the CPU kernel gets a fresh one of
        // its sizes and dtype, and its old values are not moved (the caller's
        // tensor is in `originals`).
        Tensor fresh = empty(t.sizes(), t.dtype());
        v = IValue(std::move(fresh));
        continue;
      }
      slots.push_back({p, -1});
      device_tensors.emplace_back(t);
    } else if (v.is_tensor_list() || v.is_optional_tensor_list()) {
      std::ptrdiff_t e = 0;
      const auto visit = [&](const Tensor& t) {
        if (t.defined() && !t.is_cpu()) {
          if (!has_list_device) {
            first_list_device = t.device();
            has_list_device = true;
          }
          slots.push_back({p, e});
          device_tensors.emplace_back(t);
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
    }
  }
  for (std::size_t p : facts.devices)
    if (args[p].is_device()) {
      if (!has_target) target = args[p].to_device();
      has_target = true;
      args[p] = IValue(Device::cpu());
    }
  if (!has_target) target = has_tensor_device ? first_tensor_device : first_list_device;  // (CPU: nothing moves)

  // One batched transfer for the whole call.
  if (!device_tensors.empty()) {
    short_list<Tensor, 4> cpu(device_tensors.size());
    to_cpu(std::span<const Tensor>(device_tensors.data(), device_tensors.size()),
           std::span<Tensor>(cpu.data(), cpu.size()));
    std::size_t k = 0;
    while (k < slots.size()) {
      const std::size_t p = slots[k].argument;
      if (slots[k].element < 0) {
        args[p] = IValue(std::move(cpu[k]));
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
  // The CPU values of the written arguments (the kernel writes into them).
  short_list<IValue, 4> written_cpu;
  for (std::size_t p : facts.written) written_cpu.emplace_back(args[p]);

  // 3. Run on the CPU. An exception leaves here: nothing was copied back.
  redispatch_boxed(op, DispatchKeySet(DispatchKey::CPU), *stack);

  // 4. Written arguments back into the caller's device tensors.
  for (std::size_t w = 0; w < originals.size(); ++w) fallback_detail::copy_back(written_cpu[w], originals[w]);

  // 5. Returns: the caller's own tensor for a written alias, else moved to the target.
  const std::size_t num_returns = facts.return_written.size();
  if (stack->size() < base + num_returns) return;  // (the kernel's own error, if any, was raised already)
  for (std::size_t r = 0; r < num_returns; ++r) {
    IValue& result = (*stack)[base + r];
    const std::ptrdiff_t a = facts.return_written[r];
    if (a >= 0) {
      const auto it = std::find(facts.written.begin(), facts.written.end(), static_cast<std::size_t>(a));
      result = originals[static_cast<std::size_t>(it - facts.written.begin())];
    } else if (!target.is_cpu()) {
      result = fallback_detail::move_result(std::move(result), target);
    }
  }
}

OPD_FUNC void cpu_fallback(const OperatorEntry& op, DispatchKeySet ks, Stack* stack) {
  static const CpuFallbackOptions defaults{};
  cpu_fallback_with(defaults, op, ks, stack);
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
