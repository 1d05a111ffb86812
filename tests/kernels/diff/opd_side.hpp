#pragma once
// The opd side: a boxed call through opd's dispatcher, by ATen's name.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "values.hpp"

namespace diff {
// op: "aten::add", overload: "Tensor" ("" for none). The library's CPU
// kernels must be registered (opd::kernels::register_cpu(); same_as_torch does).
Outcome call_opd(const std::string& op, const std::string& overload, const std::vector<Value>& args);

// Prepare once, call many (bench/kernels/all_ops.cpp): the operator is looked
// up and the arguments are built once; each call() copies the prepared stack
// (tensors shared, as IValues share them) and calls it boxed, so what a call
// costs is the dispatcher and the kernel, not the argument building. Meant
// for functional overloads: a call that writes into an argument writes into
// the prepared tensor, and the next call sees it.
class PreparedOpd {
 public:
  // Throws std::runtime_error (the operator's message) when the operator is
  // unknown; call() throws as the kernel does.
  PreparedOpd(const std::string& op, const std::string& overload, const std::vector<Value>& args);
  ~PreparedOpd();
  PreparedOpd(const PreparedOpd&) = delete;
  PreparedOpd& operator=(const PreparedOpd&) = delete;
  void call() const;
  // One call, its error message or "" (for sorting out refused cases first).
  std::string try_call() const;
  // The memory traffic one call cannot avoid, from one call: the bytes of
  // every tensor argument (each tensor once) and of every returned tensor
  // that is not a view of an argument; 0 for a view (every returned tensor
  // an argument's view). A benchmark divides it by the time to
  // compare both sides with the machine's bandwidth (bench/kernels/all_ops.cpp).
  std::int64_t bytes_moved() const;

 private:
  struct State;  // the operator entry and the stack; opd types stay out of this header
  std::unique_ptr<State> state_;
};
}  // namespace diff
