// EXPECT: malformed_schema<opd::schema_error::unknown_type, 20,
// A capitalised name that is no known type (lower-case would be a type variable).
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(Tensor x, Foo y) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
