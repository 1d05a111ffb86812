// EXPECT: malformed_schema<opd::schema_error::expected_overload_name_after_dot, 10,
// A '.' with no overload name after it.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f.(Tensor x) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
