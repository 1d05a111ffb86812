#pragma once
// The libtorch side: a boxed call through c10's dispatcher, by ATen's name.
#include <string>
#include <vector>

#include "values.hpp"

namespace diff {
// op: "aten::add", overload: "Tensor" ("" for none).
Outcome call_torch(const std::string& op, const std::string& overload, const std::vector<Value>& args);
void torch_set_num_threads(int n);
std::string torch_version();
}  // namespace diff
