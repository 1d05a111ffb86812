// EXPECT: malformed_schema<opd::schema_error::reserved_word_used_as_name, 28,
// A TorchScript keyword as an argument name.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(Tensor self, bool True) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
