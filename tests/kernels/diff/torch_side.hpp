#pragma once
// The libtorch side: a boxed call through c10's dispatcher, by ATen's name.
#include <memory>
#include <string>
#include <vector>

#include "values.hpp"

namespace diff {
// op: "aten::add", overload: "Tensor" ("" for none).
Outcome call_torch(const std::string& op, const std::string& overload, const std::vector<Value>& args);
void torch_set_num_threads(int n);
std::string torch_version();

// Prepare once, call many, as opd_side.hpp's PreparedOpd: the operator handle
// and the stack are made once; call() copies the stack and calls callBoxed.
class PreparedTorch {
 public:
  PreparedTorch(const std::string& op, const std::string& overload, const std::vector<Value>& args);
  ~PreparedTorch();
  PreparedTorch(const PreparedTorch&) = delete;
  PreparedTorch& operator=(const PreparedTorch&) = delete;
  void call() const;
  std::string try_call() const;

 private:
  struct State;  // the c10 handle and the stack; ATen types stay out of this header
  std::unique_ptr<State> state_;
};
}  // namespace diff
