// EXPECT: op_node_names_no_argument<.*my_add.*alpah
// EXPECT-Clang: op_node_names_no_argument<my_add, [{][{]97, 108, 112, 97, 104, 0[}][}]>
// (clang 14 prints the name "alpah" as character codes, g++ as a string.)
// A typed lazy node read by a name that is not an argument of the operator's
// schema: the error names the operator and the name.
#include <dispatch/op.hpp>
#include <lazy/op_node.hpp>

struct my_add : opd::op<"cf::my_add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"> {};

opd::Scalar alpha_of(const opd::lazy::Node& n) { return opd::lazy::OpNode<my_add>::match(n)->get<"alpah">(); }
