// EXPECT: malformed_schema<opd::schema_error::expected_close_paren_of_alias_annotation, 20,
// An alias annotation that is not closed.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(Tensor(a! x) -> Tensor(a!)"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
