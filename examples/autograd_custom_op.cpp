// A user's operator with its derivative declared in the same struct, trained
// end to end: y = scale * x^3 fitted by gradient descent on `scale`.
//
// The formula is an ordinary call of the library's operators, so it is itself
// differentiable: the second derivative below comes from create_graph.
#include <autograd/autograd.hpp>
#include <autograd/autograd_kernel.hpp>
#include <dispatch/dispatcher.hpp>
#include <kernels/ops.hpp>

#include <cmath>
#include <cstdio>

namespace k = opd::kernels::ops;
using opd::Tensor;

Tensor mul(const Tensor& a, const Tensor& b) { return opd::call<k::mul::functional>(a, b); }

// scaled_cube(x, s) = s * x^3 ; d/dx = 3 s x^2 ; d/ds = sum-to-size(x^3)
struct scaled_cube : opd::op<"example::scaled_cube(Tensor self, Tensor scale) -> Tensor"> {
  using saved_for_self = opd::autograd::saved<scaled_cube, "self", "scale">;
  using saved_for_scale = opd::autograd::saved<scaled_cube, "self">;
  static Tensor d_self(const Tensor& grad, const saved_for_self& s) {
    const Tensor x = s.get<"self">();
    const Tensor three_s = opd::call<k::mul_scalar::functional>(s.get<"scale">(), opd::Scalar(3));
    return mul(mul(grad, three_s), mul(x, x));
  }
  static Tensor d_scale(const Tensor& grad, const saved_for_scale& s) {
    const Tensor x = s.get<"self">();
    const Tensor g = mul(grad, mul(mul(x, x), x));
    return opd::call<k::sum_dim>(g, std::vector<int64_t>{0}, true);  // scale is [1]: the broadcast summed away
  }
  using derivatives = opd::autograd::derivatives<"ScaledCubeBackward0", opd::autograd::formula<"self", &d_self>,
                                                 opd::autograd::formula<"scale", &d_scale>>;
};

// Its CPU kernel, written with the library's operators (below autograd, these
// calls record nothing).
Tensor scaled_cube_cpu(const Tensor& self, const Tensor& scale) { return mul(mul(mul(self, self), self), scale); }

int main() {
  auto kernels = opd::kernels::register_cpu();
  auto autograd = opd::autograd::register_autograd();
  auto op_kernel = opd::register_kernel<scaled_cube, &scaled_cube_cpu>(opd::DispatchKey::CPU);
  auto op_grad = opd::autograd::register_derivatives<scaled_cube>();

  // data from scale 1.5
  const Tensor x = opd::from_vector<double>({-1.0, -0.5, 0.25, 0.5, 1.0});
  const Tensor target = opd::call<k::mul_scalar::functional>(mul(mul(x, x), x), opd::Scalar(1.5));
  Tensor scale = opd::from_vector<double>({0.1});
  scale.set_requires_grad(true);
  double loss_value = 0;
  for (int step = 0; step < 200; ++step) {
    Tensor diff = opd::call<k::sub::functional>(opd::call<scaled_cube>(x, scale), target, opd::Scalar(1));
    Tensor loss = opd::call<k::mean>(mul(diff, diff));
    if (step == 0) std::printf("grad_fn of the prediction: %s\n", opd::call<scaled_cube>(x, scale).grad_fn()->name().c_str());
    loss.backward();
    {
      opd::NoGradGuard no_grad;  // the SGD update is not recorded
      Tensor next = opd::call<k::sub::functional>(scale, scale.grad(), opd::Scalar(0.5));
      scale = next.detach();
      scale.set_requires_grad(true);
    }
    loss_value = opd::to_vector<double>(loss)[0];
  }
  const double fitted = opd::to_vector<double>(scale)[0];
  std::printf("fitted scale %.6f (true 1.5), loss %.3g\n", fitted, loss_value);

  // Second derivative through the formula: d2/dx2 (s x^3) = 6 s x at x = 2, s = 1.5
  Tensor x2 = opd::from_vector<double>({2.0});
  x2.set_requires_grad(true);
  Tensor y = opd::call<scaled_cube>(x2, opd::from_vector<double>({1.5}));
  auto g = opd::autograd::grad({y}, {x2}, {}, std::nullopt, true);
  auto gg = opd::autograd::grad({g[0]}, {x2});
  std::printf("dy/dx %.3f (expected 18), d2y/dx2 %.3f (expected 18)\n", opd::to_vector<double>(g[0])[0],
              opd::to_vector<double>(gg[0])[0]);
  const bool ok = std::abs(fitted - 1.5) < 1e-6 && std::abs(opd::to_vector<double>(gg[0])[0] - 18.0) < 1e-12;
  return ok ? 0 : 1;
}
