// EXPECT: malformed_schema<opd::schema_error::expected_type, 20,
// An empty slot in the argument list.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(Tensor x, , Tensor y) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
