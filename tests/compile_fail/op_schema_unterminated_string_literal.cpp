// EXPECT: malformed_schema<opd::schema_error::unterminated_string_literal, 19,
// A string default without its closing quote.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(str mode='mean) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
