// EXPECT: malformed_schema<opd::schema_error::repeated_return_name, 49,
// Two returns named `values`.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(Tensor self) -> (Tensor values, Tensor values)"> {};

int main() { return static_cast<int>(my_op::schema.returns.size()); }
