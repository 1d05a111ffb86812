// The compile-fail snippets' operators declared correctly compile: a formula per input, saved values
// declared and read, non_differentiable for an index.
#include <autograd/autograd_kernel.hpp>

struct my_gather : opd::op<"cf::my_gather(Tensor self, Tensor index, float factor) -> Tensor"> {};
struct my_gather_d {
  static opd::Tensor d(const opd::Tensor& g, const opd::autograd::saved<my_gather, "index", "factor", "self.sizes">& s) {
    (void)s.get<"factor">();
    (void)s.get<"self.sizes">();
    return s.get<"index">().defined() ? g : opd::Tensor();
  }
};
template <>
struct opd::autograd::derivatives_of<my_gather>
    : opd::autograd::derivatives<"MyGatherBackward0", opd::autograd::formula<"self", &my_gather_d::d>,
                                 opd::autograd::non_differentiable<"index">> {};

auto registration() { return opd::autograd::register_derivatives<my_gather>(); }
