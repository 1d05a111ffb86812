#pragma once
// The opd side: a boxed call through opd's dispatcher, by ATen's name.
#include <string>
#include <vector>

#include "values.hpp"

namespace diff {
// op: "aten::add", overload: "Tensor" ("" for none). The library's CPU
// kernels must be registered (opd::kernels::register_cpu(); same_as_torch does).
Outcome call_opd(const std::string& op, const std::string& overload, const std::vector<Value>& args);
}  // namespace diff
