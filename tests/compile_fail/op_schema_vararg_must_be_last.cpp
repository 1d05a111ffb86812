// EXPECT: malformed_schema<opd::schema_error::vararg_must_be_last, 15,
// An argument after '...'.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(..., Tensor x) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
