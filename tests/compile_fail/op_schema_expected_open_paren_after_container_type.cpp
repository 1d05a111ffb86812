// EXPECT: malformed_schema<opd::schema_error::expected_open_paren_after_container_type, 14,
// Dict written with brackets.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(Dict[str, Tensor] x) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
