// EXPECT: schema_text
// EXPECT-GNU: opd::schema_text<opd::fixed_string<[0-9]+>[{]"mylib::axpb_with_a_long_name[(]Tensor input, Scalar alpha, Scalr b[)] -> Tensor"[}]>
// EXPECT-Clang: opd::schema_text<'o', 'r', ' ', 'i', 'n', 'p', 'u', 't', ',', ' ', 'S', 'c', 'a', 'l', 'a', 'r', ' ', 'a', 'l', 'p', 'h', 'a', ',', ' ', 'S', 'c', 'a', 'l', 'r'>>
// Far into a long schema, clang's diagnostic shows an excerpt: the 24
// characters before the error's column and the offending text, not the
// schema from its start (g++ still prints the whole schema as a string).
#include <dispatch/op.hpp>

struct axpb : opd::op<"mylib::axpb_with_a_long_name(Tensor input, Scalar alpha, Scalr b) -> Tensor"> {};

int main() { return static_cast<int>(axpb::schema.arguments.size()); }
