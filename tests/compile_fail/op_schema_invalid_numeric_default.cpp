// EXPECT: malformed_schema<opd::schema_error::invalid_numeric_default, 40,
// PyTorch reads `long`, `float` and `complex` as dtype defaults, not `int`.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(Tensor self, ScalarType dtype=int) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
