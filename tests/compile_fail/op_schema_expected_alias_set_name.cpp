// EXPECT: malformed_schema<opd::schema_error::expected_alias_set_name, 17,
// An alias annotation without an alias set name.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(Tensor(!) x) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
