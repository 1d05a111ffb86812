// Autograd: the engine's cases with PyTorch's messages, the derived kernels
// (saved values, in-place, out=, the fallback), gradcheck and gradgradcheck
// over every operator registered with a formula, and a user's operator whose
// formula is declared next to it.
#include <gtest/gtest.h>

#include <autograd/autograd_kernel.hpp>
#include <autograd/engine.hpp>
#include <autograd/gradcheck.hpp>
#include <dispatch/dispatcher.hpp>
#include <kernels/ops.hpp>
#include <kernels/ops_complex.hpp>
#include <kernels/ops_conv_backward.hpp>
#include <kernels/ops_core_aten.hpp>
#include <kernels/ops_distance.hpp>
#include <kernels/ops_embedding_bag.hpp>

#include <cctype>
#include <complex>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string_view>
#include <thread>

#include "all_formulas.hpp"
#include "all_kernels.hpp"
#include "error_of.hpp"
#include "gradcheck_samples.hpp"
#include "sanitized_build.hpp"

namespace {

namespace k = opd::kernels::ops;
using opd::Tensor;
using opd::autograd::variable_list;
using opd_test::error_of;

class Autograd : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    kernels_ = new opd::RegistrationSet(opd_test::register_all_kernels());
    autograd_ = new opd::RegistrationSet(opd_test::register_all_formulas());
  }
  static void TearDownTestSuite() {
    delete autograd_;
    delete kernels_;
  }
  static inline opd::RegistrationSet* kernels_ = nullptr;
  static inline opd::RegistrationSet* autograd_ = nullptr;
};

Tensor dvec(std::vector<double> v, std::vector<int64_t> sizes) {
  return opd::from_vector<double>(v, opd::IntArrayRef(sizes.data(), sizes.size()));
}
Tensor leaf(std::vector<double> v, std::vector<int64_t> sizes) {
  Tensor t = dvec(std::move(v), std::move(sizes));
  t.set_requires_grad(true);
  return t;
}
Tensor mul(const Tensor& a, const Tensor& b) { return opd::call<k::mul::functional>(a, b); }
Tensor add(const Tensor& a, const Tensor& b) { return opd::call<k::add::functional>(a, b); }
Tensor sum(const Tensor& a) { return opd::call<k::sum>(a); }
std::vector<double> values(const Tensor& t) { return opd::to_vector<double>(t); }

// ---- the tensor API --------------------------------------------------------------------------------

TEST_F(Autograd, LeafAndHistory) {
  Tensor x = leaf({1, 2, 3}, {3});
  EXPECT_TRUE(x.requires_grad());
  EXPECT_TRUE(x.is_leaf());
  EXPECT_EQ(x.grad_fn(), nullptr);
  Tensor y = mul(x, x);
  EXPECT_TRUE(y.requires_grad());
  EXPECT_FALSE(y.is_leaf());
  ASSERT_NE(y.grad_fn(), nullptr);
  EXPECT_EQ(y.grad_fn()->name(), "MulBackward0");
  EXPECT_EQ(add(y, x).grad_fn()->name(), "AddBackward0");
  EXPECT_EQ(opd::call<k::transpose>(opd::call<k::view>(y, std::vector<int64_t>{3, 1}), 0, 1).grad_fn()->name(),
            "TransposeBackward0");
  Tensor d = y.detach();
  EXPECT_FALSE(d.requires_grad());
  EXPECT_TRUE(d.is_alias_of(y));
  EXPECT_EQ(d.key_set().has(opd::DispatchKey::AutogradCPU), false);
  Tensor plain = dvec({1, 2, 3}, {3});
  EXPECT_FALSE(mul(plain, plain).requires_grad());
  EXPECT_FALSE(plain.key_set().has(opd::DispatchKey::AutogradCPU));  // no Autograd key: never enters the layer
}

TEST_F(Autograd, RequiresGradErrors) {
  Tensor i = opd::from_vector<int64_t>({1, 2});
  EXPECT_EQ(error_of([&] { i.set_requires_grad(true); }),
            "only Tensors of floating point and complex dtype can require gradients");
  Tensor y = mul(leaf({1}, {1}), dvec({2}, {1}));
  EXPECT_EQ(error_of([&] { y.set_requires_grad(false); }).rfind("you can only change requires_grad flags of leaf variables.", 0), 0u);
  Tensor p = dvec({1}, {1});
  EXPECT_EQ(error_of([&] { p.backward(); }), "element 0 of tensors does not require grad and does not have a grad_fn");
  Tensor v = mul(leaf({1, 2}, {2}), dvec({1, 1}, {2}));
  EXPECT_EQ(error_of([&] { v.backward(); }), "grad can be implicitly created only for scalar outputs");
  EXPECT_EQ(error_of([&] { v.backward(dvec({1, 1, 1}, {3})); }),
            "Mismatch in shape: grad_output[0] has a shape of torch.Size([3]) and output[0] has a shape of "
            "torch.Size([2]).");
  EXPECT_EQ(error_of([&] { p.register_hook([](const Tensor& g) { return g; }); }),
            "cannot register a hook on a tensor that doesn't require gradient");
}

// ---- the engine ------------------------------------------------------------------------------------

TEST_F(Autograd, ChainRuleAndLeafAccumulation) {
  Tensor x = leaf({1, 2, 3}, {3});
  Tensor w = leaf({4, 5, 6}, {3});
  sum(mul(mul(x, w), x)).backward();  // d/dx = 2 x w, d/dw = x^2
  EXPECT_EQ(values(x.grad()), (std::vector<double>{8, 20, 36}));
  EXPECT_EQ(values(w.grad()), (std::vector<double>{1, 4, 9}));
  sum(x).backward();  // accumulates into .grad
  EXPECT_EQ(values(x.grad()), (std::vector<double>{9, 21, 37}));
}

TEST_F(Autograd, DiamondSumsBothPaths) {
  Tensor x = leaf({2}, {1});
  Tensor a = mul(x, dvec({3}, {1}));
  Tensor b = opd::call<k::exp::functional>(x);
  Tensor top = add(mul(a, a), b);  // 9x^2 + e^x
  top.backward();
  EXPECT_NEAR(values(x.grad())[0], 18 * 2 + std::exp(2.0), 1e-12);
}

TEST_F(Autograd, SeveralRootsAndGradients) {
  Tensor x = leaf({1, 2}, {2});
  Tensor y1 = mul(x, x);
  Tensor y2 = mul(x, dvec({10, 10}, {2}));
  opd::autograd::backward({y1, y2}, {dvec({1, 1}, {2}), dvec({2, 3}, {2})});
  EXPECT_EQ(values(x.grad()), (std::vector<double>{2 + 20, 4 + 30}));
}

TEST_F(Autograd, GradAndAllowUnused) {
  Tensor x = leaf({3}, {1});
  Tensor z = leaf({5}, {1});
  Tensor y = mul(x, x);
  auto g = opd::autograd::grad({y}, {x});
  EXPECT_EQ(values(g[0]), (std::vector<double>{6}));
  EXPECT_FALSE(x.grad().defined());  // grad() leaves .grad alone
  Tensor y2 = mul(x, x);
  EXPECT_EQ(error_of([&] { opd::autograd::grad({y2}, {x, z}); }),
            "One of the differentiated Tensors appears to not have been used in the graph. Set allow_unused=True if "
            "this is the desired behavior.");
  Tensor y3 = mul(x, x);
  auto g2 = opd::autograd::grad({y3}, {x, z}, {}, std::nullopt, false, true);
  EXPECT_TRUE(g2[0].defined());
  EXPECT_FALSE(g2[1].defined());
}

TEST_F(Autograd, RetainGraph) {
  Tensor x = leaf({2}, {1});
  Tensor y = mul(x, x);  // MulBackward0 saves x
  y.backward(Tensor(), true);
  y.backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{8}));
  EXPECT_EQ(error_of([&] { y.backward(); }),
            "Trying to backward through the graph a second time (or directly access saved tensors after they have "
            "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
            "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
            "if you need to access saved tensors after calling backward.");
}

TEST_F(Autograd, CreateGraphGivesSecondDerivatives) {
  Tensor x = leaf({2}, {1});
  Tensor y = mul(mul(x, x), x);  // x^3
  auto g = opd::autograd::grad({y}, {x}, {}, std::nullopt, true);
  EXPECT_EQ(values(g[0]), (std::vector<double>{12}));
  ASSERT_TRUE(g[0].requires_grad());
  auto gg = opd::autograd::grad({g[0]}, {x});
  EXPECT_EQ(values(gg[0]), (std::vector<double>{12}));  // 6x
  // through a saved result (exp saves its output): d2/dx2 e^x = e^x
  Tensor e = opd::call<k::exp::functional>(x);
  auto ge = opd::autograd::grad({e}, {x}, {}, std::nullopt, true);
  auto gge = opd::autograd::grad({ge[0]}, {x});
  EXPECT_NEAR(values(gge[0])[0], std::exp(2.0), 1e-12);
}

TEST_F(Autograd, Hooks) {
  Tensor x = leaf({1, 2}, {2});
  Tensor y = mul(x, dvec({3, 3}, {2}));
  std::vector<double> seen;
  y.register_hook([&](const Tensor& g) { seen = values(g); });
  x.register_hook([](const Tensor& g) { return opd::call<k::mul_scalar::functional>(g, opd::Scalar(2)); });
  sum(y).backward();
  EXPECT_EQ(seen, (std::vector<double>{1, 1}));
  EXPECT_EQ(values(x.grad()), (std::vector<double>{6, 6}));
}

TEST_F(Autograd, NoGradAndInferenceMode) {
  Tensor x = leaf({1}, {1});
  {
    opd::NoGradGuard no_grad;
    EXPECT_FALSE(mul(x, x).requires_grad());
    {
      opd::EnableGradGuard enable;
      EXPECT_TRUE(mul(x, x).requires_grad());
    }
  }
  {
    opd::InferenceMode inference;
    EXPECT_TRUE(opd::InferenceMode::is_enabled());
    Tensor y = mul(x, x);
    EXPECT_FALSE(y.requires_grad());
    Tensor p = dvec({1}, {1});
    const uint32_t v = p.version();
    opd::call<k::mul::inplace>(p, p);
    EXPECT_EQ(p.version(), v);  // ADInplaceOrView skipped too
  }
  EXPECT_FALSE(opd::InferenceMode::is_enabled());
  EXPECT_TRUE(mul(x, x).requires_grad());
}

TEST_F(Autograd, VersionCounterBumpsOnWrites) {
  Tensor p = dvec({1, 2}, {2});
  const uint32_t v0 = p.version();
  opd::call<k::mul::inplace>(p, p);   // typed ADInplaceOrView
  EXPECT_EQ(p.version(), v0 + 1);
  opd::call<k::fill_>(p, opd::Scalar(1.0));  // boxed ADInplaceOrView (no formula)
  EXPECT_EQ(p.version(), v0 + 2);
  Tensor out = dvec({0, 0}, {2});
  opd::call<k::add::out>(p, p, opd::Scalar(1), out);
  EXPECT_EQ(out.version(), 1u);
}

// ---- in-place, out=, saved tensors ---------------------------------------------------------------

TEST_F(Autograd, InPlaceOnLeafIsAnError) {
  Tensor x = leaf({1}, {1});
  // (PyTorch's message, named by the operator as every kernel error is: docs/dispatcher.md)
  EXPECT_EQ(error_of([&] { opd::call<k::mul::inplace>(x, x); }),
            "aten::mul_.Tensor: a leaf Variable that requires grad is being used in an in-place operation.");
  EXPECT_EQ(error_of([&] { opd::call<k::fill_>(x, opd::Scalar(0.0)); }),
            "aten::fill_.Scalar: a leaf Variable that requires grad is being used in an in-place operation.");
  opd::NoGradGuard no_grad;
  opd::call<k::mul::inplace>(x, x);  // allowed without grad mode, as in PyTorch
  EXPECT_EQ(values(x), (std::vector<double>{1}));
}

// The in-place variants of plain operators take their functional's formulas: the same gradients
// (through a non-leaf written in place) as the functional call, and the functional's node.
TEST_F(Autograd, InPlaceVariantsOfPlainOperators) {
  const Tensor mask = opd::from_vector<bool>({true, false, false}, {3});
  struct Case {
    const char* node;
    std::function<Tensor(const Tensor&)> functional;
    std::function<void(Tensor&)> inplace;
  };
  const std::vector<Case> cases = {
      {"ReluBackward0", [](const Tensor& t) { return opd::call<k::relu>(t); }, [](Tensor& t) { opd::call<k::relu_>(t); }},
      {"HardtanhBackward0", [](const Tensor& t) { return opd::call<k::hardtanh>(t, opd::Scalar(-1.0), opd::Scalar(1.0)); },
       [](Tensor& t) { opd::call<k::hardtanh_>(t, opd::Scalar(-1.0), opd::Scalar(1.0)); }},
      {"PowBackward0", [](const Tensor& t) { return opd::call<k::pow_scalar>(t, opd::Scalar(3)); },
       [](Tensor& t) { opd::call<k::pow_scalar_>(t, opd::Scalar(3)); }},
      {"PowBackward1", [](const Tensor& t) { return opd::call<k::pow_tensor>(t, dvec({2, 0.5, 3}, {3})); },
       [](Tensor& t) { opd::call<k::pow_tensor_>(t, dvec({2, 0.5, 3}, {3})); }},
      {"MaskedFillBackward0", [&](const Tensor& t) { return opd::call<k::masked_fill_scalar>(t, mask, opd::Scalar(2)); },
       [&](Tensor& t) { opd::call<k::masked_fill_scalar_>(t, mask, opd::Scalar(2)); }},
      {"DivBackward3",
       [](const Tensor& t) { return opd::call<k::div_scalar_mode>(t, opd::Scalar(2.0), std::optional<std::string_view>()); },
       [](Tensor& t) { opd::call<k::div_scalar_mode_>(t, opd::Scalar(2.0), std::optional<std::string_view>()); }},
      {"ScatterReduceBackward0",
       [](const Tensor& t) {
         return opd::call<k::scatter_reduce_two>(t, int64_t{0}, opd::from_vector<int64_t>({2, 0}, {2}), dvec({3, 4}, {2}),
                                                 std::string_view("prod"), true);
       },
       [](Tensor& t) {
         opd::call<k::scatter_reduce__two>(t, int64_t{0}, opd::from_vector<int64_t>({2, 0}, {2}), dvec({3, 4}, {2}),
                                           std::string_view("prod"), true);
       }},
  };
  for (const Case& c : cases) {
    Tensor x = leaf({0.5, 1.5, 0.25}, {3});
    Tensor x2 = leaf({0.5, 1.5, 0.25}, {3});
    Tensor y = c.functional(mul(x, x));
    Tensor z = mul(x2, x2);
    c.inplace(z);
    EXPECT_EQ(z.grad_fn()->name(), c.node);
    EXPECT_EQ(values(z), values(y)) << c.node;
    sum(y).backward();
    sum(z).backward();
    EXPECT_EQ(values(x2.grad()), values(x.grad())) << c.node;
  }
}

TEST_F(Autograd, InPlaceRebasesHistory) {
  Tensor x = leaf({1, 2}, {2});
  Tensor w = leaf({5, 7}, {2});
  Tensor y = mul(x, dvec({3, 3}, {2}));  // y = 3x
  opd::call<k::mul::inplace>(y, w);     // y = 3xw: d/dw reads self's value before the call (a saved clone)
  EXPECT_EQ(y.grad_fn()->name(), "MulBackward0");
  sum(y).backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{15, 21}));
  EXPECT_EQ(values(w.grad()), (std::vector<double>{3, 6}));
  Tensor z = dvec({1, 1}, {2});  // a tensor without grad written with one that requires it
  opd::call<k::add::inplace>(z, x, opd::Scalar(1));
  EXPECT_TRUE(z.requires_grad());
  EXPECT_EQ(z.grad_fn()->name(), "AddBackward0");
}

TEST_F(Autograd, OutVariantWithGradIsAnError) {
  Tensor x = leaf({1}, {1});
  Tensor out = dvec({0}, {1});
  EXPECT_EQ(error_of([&] { opd::call<k::mul::out>(x, x, out); }),
            "mul(): functions with out=... arguments don't support automatic differentiation, but one of the "
            "arguments requires grad.");
}

TEST_F(Autograd, SavedTensorModifiedInPlace) {
  Tensor x = leaf({1, 2}, {2});
  Tensor w = dvec({3, 4}, {2});
  Tensor y = mul(x, w);                  // MulBackward0 saves w for x's gradient
  opd::call<k::add::inplace>(w, w, opd::Scalar(1));
  const std::string e = error_of([&] { sum(y).backward(); });
  EXPECT_EQ(e.rfind("one of the variables needed for gradient computation has been modified by an inplace operation: "
                    "[torch.DoubleTensor [2]] is at version 1; expected version 0 instead. (saved for MulBackward0)",
                    0),
            0u)
      << e;
  Tensor a = mul(x, dvec({1, 1}, {2}));
  Tensor b = opd::call<k::exp::functional>(a);  // saves its result
  opd::call<k::mul::inplace>(b, dvec({2, 2}, {2}));
  const std::string e2 = error_of([&] { sum(b).backward(); });
  EXPECT_NE(e2.find("which is output 0 of ExpBackward0, is at version 1; expected version 0 instead."), std::string::npos) << e2;
}

// ---- in-place writes to views (CopySlices) --------------------------------------------------------
// (Errors raised in a kernel are prefixed with the operator's name by the dispatcher; the rest is
// libtorch 1.13's text, checked against torch 1.13.)

Tensor select(const Tensor& t, int64_t dim, int64_t index) { return opd::call<k::select>(t, dim, index); }
Tensor narrow(const Tensor& t, int64_t dim, int64_t start, int64_t length) {
  return opd::call<k::narrow>(t, dim, start, length);
}
void scale_(Tensor t, double s) { opd::call<k::mul_scalar::inplace>(t, opd::Scalar(s)); }
std::string grad_fn_name(const Tensor& t) { return t.grad_fn() ? t.grad_fn()->name() : "<none>"; }

TEST_F(Autograd, InPlaceOnViewRebasesTheBaseThroughCopySlices) {
  // b = a * 1; b[0] *= 2; b.sum().backward()
  Tensor a = leaf({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor b = mul(a, dvec({1, 1, 1, 1, 1, 1}, {2, 3}));
  Tensor v = select(b, 0, 0);
  EXPECT_EQ(grad_fn_name(v), "SelectBackward0");
  const uint32_t before = b.version();
  scale_(v, 2);
  EXPECT_EQ(b.version(), before + 1);  // one counter for the base and its views
  EXPECT_EQ(v.version(), b.version());
  EXPECT_EQ(grad_fn_name(b), "CopySlices");
  EXPECT_EQ(grad_fn_name(v), "AsStridedBackward0");
  EXPECT_EQ(b.grad_fn()->next_edges().size(), 1u);  // mul_.Scalar has no other tensor input
  EXPECT_EQ(values(b), (std::vector<double>{2, 4, 6, 4, 5, 6}));
  sum(b).backward();
  EXPECT_EQ(values(a.grad()), (std::vector<double>{2, 2, 2, 1, 1, 1}));
}

TEST_F(Autograd, CopyIntoANarrowedViewGivesBothGradients) {
  // b.narrow(0, 1, 2).copy_(c): a's gradient loses the overwritten region, c gets it
  Tensor a = leaf({1, 2, 3, 4}, {4});
  Tensor c = leaf({10, 20}, {2});
  Tensor b = mul(a, dvec({1, 2, 3, 4}, {4}));
  Tensor bv = narrow(b, 0, 1, 2);
  opd::call<k::copy_>(bv, c, false);
  EXPECT_EQ(values(b), (std::vector<double>{1, 10, 20, 16}));
  EXPECT_EQ(grad_fn_name(b), "CopySlices");
  sum(mul(b, dvec({1, 10, 100, 1000}, {4}))).backward();
  EXPECT_EQ(values(a.grad()), (std::vector<double>{1, 0, 0, 4000}));
  EXPECT_EQ(values(c.grad()), (std::vector<double>{10, 100}));
}

TEST_F(Autograd, InPlaceOnAViewOfAView) {
  Tensor a = leaf({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor b = opd::call<k::mul_scalar::functional>(a, opd::Scalar(3));
  Tensor v = narrow(b, 1, 1, 2);   // b[:, 1:3]
  Tensor vv = select(v, 0, 1);     // b[1, 1:3]: its base is b, not v
  EXPECT_EQ(vv._base().unsafe_get_impl(), b.unsafe_get_impl());
  opd::call<k::mul::inplace>(vv, dvec({5, 7}, {2}));
  EXPECT_EQ(values(b), (std::vector<double>{3, 6, 9, 12, 75, 126}));
  EXPECT_EQ(grad_fn_name(b), "CopySlices");
  EXPECT_EQ(grad_fn_name(v), "AsStridedBackward0");  // its base was written through another view
  sum(b).backward();
  EXPECT_EQ(values(a.grad()), (std::vector<double>{3, 3, 3, 3, 15, 21}));
}

TEST_F(Autograd, TheWrittenViewsOwnHistoryAfterwards) {
  Tensor a = leaf({1, 2, 3}, {3});
  Tensor b = mul(a, a);
  Tensor v = narrow(b, 0, 0, 2);
  opd::call<k::mul::inplace>(v, dvec({2, 3}, {2}));  // v = [2 a0^2, 3 a1^2]
  sum(v).backward();                                 // through AsStridedBackward0 -> CopySlices -> MulBackward0
  EXPECT_EQ(values(a.grad()), (std::vector<double>{4, 12, 0}));
}

TEST_F(Autograd, AViewOfABaseWrittenInPlaceRegeneratesItsHistory) {
  Tensor a = leaf({1, 2, 3}, {3});
  Tensor b = mul(a, dvec({1, 1, 1}, {3}));
  Tensor v = narrow(b, 0, 1, 2);
  EXPECT_NE(grad_fn_name(v), "AsStridedBackward0");
  opd::call<k::mul::inplace>(b, dvec({2, 3, 4}, {3}));
  EXPECT_EQ(grad_fn_name(v), "AsStridedBackward0");
  EXPECT_EQ(grad_fn_name(b), "MulBackward0");
  sum(v).backward();
  EXPECT_EQ(values(a.grad()), (std::vector<double>{0, 3, 4}));
}

TEST_F(Autograd, InPlaceOnATransposedView) {
  Tensor a = leaf({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor b = mul(a, dvec({1, 1, 1, 1, 1, 1}, {2, 3}));
  Tensor column = select(opd::call<k::transpose>(b, int64_t{0}, int64_t{1}), 0, 2);  // b[:, 2], strided
  opd::call<k::mul::inplace>(column, dvec({10, 100}, {2}));
  EXPECT_EQ(values(b), (std::vector<double>{1, 2, 30, 4, 5, 600}));
  sum(mul(b, b)).backward();  // d/da = 2 b * (10 or 100 where written)
  EXPECT_EQ(values(a.grad()), (std::vector<double>{2, 4, 600, 8, 10, 120000}));
}

TEST_F(Autograd, ABaseWithoutGradGetsOneFromAViewWrittenWithGrad) {
  Tensor p = dvec({1, 2}, {2});
  Tensor pv = narrow(p, 0, 0, 1);  // made before p needed grad: no view record
  Tensor x = leaf({3}, {1});
  opd::call<k::mul::inplace>(pv, x);
  EXPECT_EQ(values(p), (std::vector<double>{3, 2}));
  EXPECT_TRUE(p.requires_grad());
  EXPECT_EQ(grad_fn_name(p), "CopySlices");
  sum(mul(p, p)).backward();  // d(x^2 + 4)/dx
  EXPECT_EQ(values(x.grad()), (std::vector<double>{6}));
  // without grad it runs as before
  Tensor q = dvec({1, 2}, {2});
  Tensor qv = narrow(q, 0, 1, 1);
  opd::call<k::mul::inplace>(qv, dvec({5}, {1}));
  EXPECT_EQ(values(q), (std::vector<double>{1, 10}));
  EXPECT_FALSE(q.requires_grad());
}

TEST_F(Autograd, InPlaceOnViewsRefusedWithPyTorchsMessages) {
  Tensor a = leaf({1, 2, 3, 4}, {2, 2});
  // a view of a leaf
  Tensor av = select(a, 0, 0);
  EXPECT_EQ(error_of([&] { scale_(av, 2); }),
            "aten::mul_.Scalar: a view of a leaf Variable that requires grad is being used in an in-place operation.");
  EXPECT_EQ(values(a), (std::vector<double>{1, 2, 3, 4}));
  // a view from an operator that returns several
  Tensor b = mul(a, dvec({1, 1, 1, 1}, {2, 2}));
  const std::vector<Tensor> parts = opd::call<k::split>(b, int64_t{1}, int64_t{0});
  EXPECT_EQ(error_of([&] { scale_(parts[0], 2); }),
            "aten::mul_.Scalar: Output 0 of SplitBackward0 is a view and is being modified inplace. This view is the output of a function "
            "that returns multiple views. Such functions do not allow the output views to be modified inplace. You "
            "should replace the inplace operation by an out-of-place one.");
  const std::vector<Tensor> rows = opd::call<k::unbind>(b, int64_t{0});
  Tensor of_row = narrow(rows[1], 0, 0, 1);  // a view of such a view keeps its creation
  EXPECT_EQ(error_of([&] { scale_(of_row, 2); }).rfind("aten::mul_.Scalar: Output 0 of SliceBackward0 is a view and is being modified inplace. "
                                                       "This view is the output of a function that returns multiple views.", 0),
            0u);
  EXPECT_EQ(values(b), (std::vector<double>{1, 2, 3, 4}));
  // ... and its base written in place: the view's history cannot be regenerated
  scale_(b, 2);
  EXPECT_EQ(error_of([&] { (void)parts[1].grad_fn(); }),
            "Output 1 of SplitBackward0 is a view and its base or another view of its base has been modified inplace. "
            "This view is the output of a function that returns multiple views. Such functions do not allow the output "
            "views to be modified inplace. You should replace the inplace operation by an out-of-place one.");
  // a view made in no_grad mode
  Tensor c = mul(a, dvec({1, 1, 1, 1}, {2, 2}));
  Tensor cv;
  {
    opd::NoGradGuard no_grad;
    cv = select(c, 0, 1);
  }
  EXPECT_EQ(error_of([&] { scale_(cv, 2); }),
            "aten::mul_.Scalar: A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this use "
            "case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and "
            "the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both "
            "outside (if you want the inplace to be tracked).");
  EXPECT_EQ(values(c), (std::vector<double>{1, 2, 3, 4}));
  {
    opd::NoGradGuard no_grad;  // both inside: not tracked
    scale_(cv, 2);
  }
  EXPECT_EQ(values(c), (std::vector<double>{1, 2, 6, 8}));
  // a broadcast view
  Tensor e = opd::call<k::expand>(select(c, 0, 0), std::vector<int64_t>{2, 2});
  EXPECT_EQ(error_of([&] { opd::call<k::mul::inplace>(e, b); }).rfind("aten::mul_.Tensor: unsupported operation: more than one element of the written-to tensor refers to a single memory location.", 0),
            0u);
}

TEST_F(Autograd, AViewOfABroadcastBaseSumsItsGradient) {
  // a view regenerated from a base written in place: broadcast dimensions sum their gradient
  Tensor a = leaf({1, 2}, {2});
  Tensor b = mul(a, dvec({1, 1}, {2}));
  Tensor e = opd::call<k::expand>(b, std::vector<int64_t>{3, 2});
  scale_(b, 2);
  EXPECT_EQ(grad_fn_name(e), "AsStridedBackward0");
  sum(e).backward();
  EXPECT_EQ(values(a.grad()), (std::vector<double>{6, 6}));
}

// create_graph through CopySlices and a regenerated view history: the
// gradients have their own history, so second derivatives are PyTorch's.
// b = a * a; b[:2] *= c; d(sum b)/da = 2a (times c on the first two), and
// d/dc of the sum of that gradient weighted by a (a second derivative).
TEST_F(Autograd, CreateGraphThroughCopySlices) {
  Tensor a = leaf({1, 2, 3}, {3});
  Tensor c = leaf({4, 5}, {2});
  Tensor b = mul(a, a);
  Tensor bv = narrow(b, 0, 0, 2);
  opd::call<k::mul::inplace>(bv, c);
  const variable_list g = opd::autograd::grad({sum(b)}, {a, c}, {}, std::nullopt, true);
  EXPECT_EQ(values(g[0]), (std::vector<double>{8, 20, 6}));  // 2 a c, 2 a c, 2 a
  EXPECT_EQ(values(g[1]), (std::vector<double>{1, 4}));      // a^2
  ASSERT_TRUE(g[0].requires_grad());
  ASSERT_TRUE(g[1].requires_grad());
  // d/dc of sum(g_a * a) = sum(2 a^2 c) over the first two: 2 a^2
  const variable_list gg = opd::autograd::grad({sum(mul(g[0], a))}, {c}, {}, std::nullopt, false);
  EXPECT_EQ(values(gg[0]), (std::vector<double>{2, 8}));
  // d/da of sum(g_c) = sum(a^2) over the first two: 2 a there, 0 after
  const variable_list ga = opd::autograd::grad({sum(g[1])}, {a}, {}, std::nullopt, false);
  EXPECT_EQ(values(ga[0]), (std::vector<double>{2, 4, 0}));
}

TEST_F(Autograd, GradcheckOfAFunctionThatWritesIntoAView) {
  std::mt19937 gen(7);
  std::normal_distribution<double> dist;
  auto rnd = [&](std::vector<int64_t> sizes) {
    std::vector<double> v(static_cast<std::size_t>(std::accumulate(sizes.begin(), sizes.end(), int64_t{1}, std::multiplies<>())));
    for (double& x : v) x = dist(gen);
    return leaf(v, sizes);
  };
  const opd::autograd::DifferentiableFn fn = [](const variable_list& in) {
    Tensor b = mul(in[0], in[0]);
    Tensor v = narrow(b, 1, 1, 2);
    opd::call<k::mul::inplace>(v, in[1]);  // broadcast over v's rows
    Tensor row = select(v, 0, 0);
    opd::call<k::add::inplace>(row, in[2], opd::Scalar(0.5));
    return variable_list{b, mul(v, v)};
  };
  const variable_list inputs = {rnd({3, 4}), rnd({2}), rnd({2})};
  const auto r = opd::autograd::gradcheck(fn, inputs);
  EXPECT_TRUE(r.ok) << r.message;
  // second derivatives through CopySlices and the views' regenerated histories
  const auto rr = opd::autograd::gradgradcheck(fn, inputs);
  EXPECT_TRUE(rr.ok) << rr.message;
}

// The loss composites are differentiated through their parts (nll_loss_forward's
// formula, log_softmax, masked_fill, gather, ...): cross_entropy_loss's three
// paths and nll_loss_nd over a 3-D input pass gradcheck and gradgradcheck; a
// class weight that requires grad is refused at backward, naming it.
// aten::dropout is composite (as ATen's): in training it is differentiated through native_dropout's
// formula (the gradient is the mask times 1 / (1 - p)), not training it is the input itself.
TEST_F(Autograd, DropoutInTrainingIsDifferentiatedThroughNativeDropout) {
  Tensor x = leaf({1, -2, 3, 4, -5, 6, 7, 8}, {8});
  const Tensor y = opd::call<k::dropout>(x, 0.5, true);
  ASSERT_TRUE(y.requires_grad());
  EXPECT_EQ(y.grad_fn()->name(), "NativeDropoutBackward0");
  sum(y).backward();
  const std::vector<double> yv = values(y), gv = values(x.grad()), xv = values(x);
  for (std::size_t i = 0; i < yv.size(); ++i) {
    const bool keep = yv[i] != 0;
    EXPECT_EQ(yv[i], keep ? 2 * xv[i] : 0.0) << i;
    EXPECT_EQ(gv[i], keep ? 2.0 : 0.0) << i;
  }
  EXPECT_TRUE(opd::call<k::dropout>(x, 0.5, false).is_same(x));
}

TEST_F(Autograd, LossCompositesThroughTheirParts) {
  namespace ko = opd::kernels::ops;
  std::mt19937 g(11);
  const Tensor target = opd::from_vector<int64_t>({1, -100, 3, 0}, {4});
  const Tensor target3 = opd::from_vector<int64_t>({1, 2, 0, 3, 3, 1}, {2, 3});
  const Tensor probs = opd_test::rnd({4, 4}, g, 0.1, 1.0);
  const Tensor w = opd_test::rnd({4}, g, 0.5, 1.5);
  const std::vector<std::pair<std::string, opd::autograd::DifferentiableFn>> cases = {
      {"cross_entropy_loss, indices", [&](const variable_list& in) {
         return variable_list{opd::call<ko::cross_entropy_loss>(in[0], target, w, int64_t{1}, int64_t{-100}, 0.0)};
       }},
      {"cross_entropy_loss, label smoothing", [&](const variable_list& in) {
         return variable_list{opd::call<ko::cross_entropy_loss>(in[0], target, w, int64_t{1}, int64_t{-100}, 0.2)};
       }},
      {"cross_entropy_loss, probabilities", [&](const variable_list& in) {
         return variable_list{opd::call<ko::cross_entropy_loss>(in[0], in[1], std::nullopt, int64_t{0}, int64_t{-100}, 0.1)};
       }},
      {"nll_loss_nd, 3-D", [&](const variable_list& in) {
         return variable_list{opd::call<ko::nll_loss_nd>(in[2], target3, std::nullopt, int64_t{2}, int64_t{-100})};
       }},
  };
  for (const auto& [name, fn] : cases) {
    variable_list inputs{opd_test::rnd({4, 4}, g), probs, opd_test::rnd({2, 4, 3}, g)};
    for (Tensor& t : inputs) t.set_requires_grad(true);
    const auto first = opd::autograd::gradcheck(fn, inputs);
    EXPECT_TRUE(first.ok) << name << ": " << first.message;
    const auto second = opd::autograd::gradgradcheck(fn, inputs);
    EXPECT_TRUE(second.ok) << name << ": " << second.message;
  }
  Tensor x = opd_test::rnd({4, 4}, g), wg = opd_test::rnd({4}, g, 0.5, 1.5);
  x.set_requires_grad(true);
  wg.set_requires_grad(true);
  const Tensor loss = opd::call<ko::nll_loss>(x, target, wg, int64_t{1}, int64_t{-100});
  EXPECT_EQ(loss.grad_fn()->name(), "NllLossBackward0");
  const std::string e = error_of([&] { (void)opd::autograd::grad({loss}, {x, wg}); });
  EXPECT_NE(e.find("the derivative for 'weight' is not implemented"), std::string::npos) << e;
}

TEST_F(Autograd, OperatorWithoutFormulaIsAnErrorAtTheForwardCall) {
  Tensor x = leaf({1, 2}, {2});
  // _pdist_backward: 1.13's derivatives for it are all not_implemented
  Tensor m = leaf({1, 2, 3, 4}, {2, 2});
  const Tensor g = dvec({1}, {1}), d = dvec({2}, {1});
  const std::string e = error_of([&] { opd::call<k::pdist_backward>(g, m, 2.0, d); });
  EXPECT_NE(e.find("the derivative for 'aten::_pdist_backward' is not implemented"), std::string::npos) << e;
  // without grad mode, or on outputs that cannot require grad, it runs
  {
    opd::NoGradGuard no_grad;
    EXPECT_FALSE(opd::call<k::pdist_backward>(g, m, 2.0, d).requires_grad());
  }
  EXPECT_EQ(opd::call<k::gt_scalar::functional>(x, opd::Scalar(1)).dtype(), opd::ScalarType::Bool);
  // a composite operator is differentiated through its parts: matmul's backward is tested by gradcheck;
  // conv2d reaches aten::convolution, whose node it records
  Tensor img = opd::from_vector<float>(std::vector<float>(9, 1.f), {1, 1, 3, 3}).set_requires_grad(true);
  Tensor w = opd::from_vector<float>(std::vector<float>(4, 1.f), {1, 1, 2, 2});
  EXPECT_EQ(opd::call<k::conv2d>(img, w).grad_fn()->name(), "ConvolutionBackward0");
  // a composite view that makes its results directly (chunk) takes its own formula, not its parts
  EXPECT_EQ(opd::call<k::chunk>(x, 2, 0)[1].grad_fn()->name(), "ChunkBackward0");
  Tensor r = opd::call<k::reshape>(x, std::vector<int64_t>{2, 1});
  EXPECT_EQ(r.grad_fn()->name(), "ViewBackward0");
}

TEST_F(Autograd, IndependentBackwardCallsOnSeveralThreads) {
  std::vector<std::thread> threads;
  std::vector<double> results(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &results] {
      Tensor x = leaf({static_cast<double>(t)}, {1});
      Tensor y = x;
      for (int i = 0; i < 50; ++i) y = add(mul(y, dvec({1.0}, {1})), x);
      y.backward();
      results[static_cast<std::size_t>(t)] = values(x.grad())[0];
    });
  }
  for (auto& th : threads) th.join();
  for (double r : results) EXPECT_EQ(r, 51.0);
}

TEST_F(Autograd, SeveralOutputsIndicesAreNotDifferentiable) {
  Tensor x = leaf({3, 1, 2, 5, 4, 6}, {2, 3});
  auto [vals, indices] = opd::call<k::max_dim>(x, int64_t{1}, false);
  ASSERT_NE(vals.grad_fn(), nullptr);
  EXPECT_EQ(vals.grad_fn()->name(), "MaxBackward0");
  EXPECT_EQ(vals.grad_fn()->num_inputs(), 2u);  // one gradient per output
  EXPECT_FALSE(indices.requires_grad());
  EXPECT_EQ(indices.grad_fn(), nullptr);
  sum(vals).backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{1, 0, 0, 0, 0, 1}));
  Tensor y = leaf({3, 1, 2}, {3});
  auto [sorted, order] = opd::call<k::sort>(y, int64_t{-1}, false);
  EXPECT_EQ(sorted.grad_fn()->name(), "SortBackward0");
  sum(mul(sorted, dvec({1, 10, 100}, {3}))).backward();  // y[1] is first, y[2] second, y[0] third
  EXPECT_EQ(values(y.grad()), (std::vector<double>{100, 1, 10}));
  // every output of native_layer_norm has a history (mean and rstd too, as in PyTorch)
  Tensor z = leaf({1, 2, 3, 4}, {2, 2});
  auto [out, mean, rstd] = opd::call<k::native_layer_norm>(z, std::vector<int64_t>{2}, std::nullopt, std::nullopt, 1e-5);
  EXPECT_EQ(out.grad_fn()->name(), "NativeLayerNormBackward0");
  EXPECT_EQ(mean.grad_fn(), out.grad_fn());
  EXPECT_EQ(opd::autograd::autograd_meta(rstd)->output_nr, 2u);
}

TEST_F(Autograd, SeveralOutputsEdgeCases) {
  // max.dim of a 0-dim tensor: the gradient goes back to it
  Tensor s = leaf({2.5}, {});
  Tensor v = std::get<0>(opd::call<k::max_dim>(s, int64_t{0}, false));
  v.backward();
  EXPECT_EQ(values(s.grad()), (std::vector<double>{1}));
  // only an output that is not output 0 used: the formulas (which read output 0's gradient) do not run
  Tensor z = leaf({1, 2, 3, 4}, {2, 2});
  Tensor mean = std::get<1>(opd::call<k::native_layer_norm>(z, std::vector<int64_t>{2}, std::nullopt, std::nullopt, 1e-5));
  auto g = opd::autograd::grad({sum(mean)}, {z}, {}, std::nullopt, false, true);
  EXPECT_FALSE(g[0].defined());
  // bad arguments fail in the forward call, with the kernel's message, before any node
  Tensor w = leaf({1, 2, 3}, {3});
  EXPECT_FALSE(error_of([&] { opd::call<k::max_dim>(w, int64_t{3}, false); }).empty());
  EXPECT_FALSE(error_of([&] { opd::call<k::topk>(w, int64_t{4}, int64_t{-1}, true, true); }).empty());
}

TEST_F(Autograd, FormulaReadingEveryOutputsGradient) {
  // convolution_backward's formula reads (ggI, ggW, ggB): only gW used, so only ggW is defined and
  // grad_output and input get gradients (the node runs although output 0's gradient is undefined),
  // weight none (its gradient reads ggI). sum(gW) = sum_p go[p] * (window sum of x at p).
  Tensor go = leaf({1, 1, 1, 1}, {1, 1, 2, 2});
  Tensor x = leaf({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 3, 3});
  Tensor w = leaf({1, -1, 2, 0.5}, {1, 1, 2, 2});
  const std::vector<int64_t> one{1, 1}, zero{0, 0};
  auto [gi, gw, gb] = opd::call<k::convolution_backward>(go, x, w, std::nullopt, one, zero, one, false, zero, int64_t{1},
                                                         std::array<bool, 3>{true, true, true});
  EXPECT_EQ(gw.grad_fn()->name(), "ConvolutionBackwardBackward0");
  auto g = opd::autograd::grad({sum(gw)}, {go, x, w}, {}, true, false, true);
  ASSERT_TRUE(g[0].defined() && g[1].defined());
  EXPECT_EQ(values(g[0]), (std::vector<double>{12, 16, 24, 28}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{1, 2, 1, 2, 4, 2, 1, 2, 1}));
  EXPECT_FALSE(g[2].defined());
  // only gB used: grad_output's gradient is ggB broadcast over the batch and positions
  auto gbias = opd::autograd::grad({sum(gb)}, {go, x, w}, {}, std::nullopt, false, true);
  ASSERT_TRUE(gbias[0].defined());
  EXPECT_EQ(values(gbias[0]), (std::vector<double>{1, 1, 1, 1}));
  EXPECT_FALSE(gbias[1].defined());
  EXPECT_FALSE(gbias[2].defined());
}

// ---- gradcheck / gradgradcheck over every operator with a formula -----------------------------------

TEST_F(Autograd, TensorListInputsAndOutputs) {
  // a Tensor[] input: one next edge per element; an element that requires no grad gets none
  Tensor a = leaf({1, 2}, {2});
  Tensor c = dvec({5}, {1});
  Tensor b = leaf({3, 4, 5}, {3});
  const std::vector<Tensor> parts{a, c, b};
  Tensor y = opd::call<k::cat>(std::span<const Tensor>(parts), int64_t{0});
  ASSERT_EQ(y.grad_fn()->name(), "CatBackward0");
  EXPECT_EQ(y.grad_fn()->next_edges().size(), 3u);
  EXPECT_FALSE(y.grad_fn()->next_edges()[1].is_valid());
  sum(mul(y, dvec({1, 2, 3, 4, 5, 6}, {6}))).backward();
  EXPECT_EQ(values(a.grad()), (std::vector<double>{1, 2}));
  EXPECT_EQ(values(b.grad()), (std::vector<double>{4, 5, 6}));
  EXPECT_FALSE(c.requires_grad());
  // more next edges than a node keeps inside it (EdgeList::kInline, 3): on the heap, in order
  std::vector<Tensor> many;
  for (int i = 0; i < 7; ++i) many.push_back(i == 4 ? dvec({9}, {1}) : leaf({double(i)}, {1}));
  Tensor z = opd::call<k::cat>(std::span<const Tensor>(many), int64_t{0});
  ASSERT_EQ(z.grad_fn()->next_edges().size(), 7u);
  for (std::size_t i = 0; i < 7; ++i) EXPECT_EQ(z.grad_fn()->next_edges()[i].is_valid(), i != 4) << i;
  sum(mul(z, dvec({1, 2, 3, 4, 5, 6, 7}, {7}))).backward();
  for (std::size_t i = 0; i < 7; ++i) {
    if (i == 4) continue;
    EXPECT_EQ(values(many[i].grad()), (std::vector<double>{double(i + 1)})) << i;
  }
  // a Tensor[] result: output k is element k (one node); an element nobody used gets zeros
  Tensor x = leaf({1, 2, 3, 4, 5}, {5});
  const std::vector<Tensor> pieces = opd::call<k::split>(x, int64_t{2}, int64_t{0});
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(pieces[0].grad_fn()->name(), "SplitBackward0");
  EXPECT_EQ(pieces[0].grad_fn(), pieces[2].grad_fn());
  EXPECT_EQ(pieces[0].grad_fn()->num_inputs(), 3u);
  EXPECT_EQ(opd::autograd::autograd_meta(pieces[2])->output_nr, 2u);
  sum(mul(pieces[1], pieces[1])).backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{0, 0, 6, 8, 0}));
  // no element requires grad: no node; grad mode off: none either
  const std::vector<Tensor> plain{dvec({1}, {1}), dvec({2}, {1})};
  EXPECT_EQ(opd::call<k::stack>(std::span<const Tensor>(plain), int64_t{0}).grad_fn(), nullptr);
  {
    opd::NoGradGuard no_grad;
    EXPECT_EQ(opd::call<k::unbind>(x, int64_t{0})[0].grad_fn(), nullptr);
  }
  // index: the indices are not differentiable; repeated indices accumulate
  Tensor w = leaf({1, 2, 3}, {3});
  const std::vector<std::optional<Tensor>> idx{opd::from_vector<int64_t>({2, 0, 2}, {3})};
  Tensor picked = opd::call<k::index>(w, std::span<const std::optional<Tensor>>(idx));
  EXPECT_EQ(picked.grad_fn()->name(), "IndexBackward0");
  sum(picked).backward();
  EXPECT_EQ(values(w.grad()), (std::vector<double>{1, 0, 2}));
  // bad arguments fail in the forward call with the kernel's message, before any node
  EXPECT_FALSE(error_of([&] { opd::call<k::split_with_sizes>(x, std::vector<int64_t>{2, 2}, int64_t{0}); }).empty());
  EXPECT_FALSE(error_of([&] { opd::call<k::cat>(std::span<const Tensor>(parts), int64_t{1}); }).empty());
}

TEST_F(Autograd, GradcheckEveryOperatorWithAFormula) {
  const auto all = opd_test::samples();
  const std::vector<std::string> ops = opd_test::operators_with_formulas();
  ASSERT_GE(ops.size(), 140u);
  for (const std::string& op : ops) {
    auto it = all.find(op);
    ASSERT_NE(it, all.end()) << op << " has a formula but no gradcheck sample";
    for (const opd_test::Sample& s : it->second) {
      // Under ASan+UBSan (5x slower) each operator's first sample only: the other builds check every
      // sample, and the formulas are dispatched calls whose kernels the sanitized suite covers elsewhere.
      if (opd_test::sanitized_build && &s != &it->second.front()) break;
      variable_list inputs = s.inputs();
      for (Tensor& t : inputs) t.set_requires_grad(true);
      auto fn = opd_test::boxed_fn(op, s);
      try {
        if (s.jacobian) {
          auto r1 = opd::autograd::gradcheck(fn, inputs);
          EXPECT_TRUE(r1.ok) << op << ": " << r1.message;
        }
        if (!s.second_order) {  // as PyTorch 1.13: no second derivative, an error naming the backward kernel
          const std::string e = error_of([&] { (void)opd::autograd::gradgradcheck(fn, inputs); });
          EXPECT_NE(e.find("_backward"), std::string::npos) << op << " (second order): " << e;
          EXPECT_NE(e.find("not implemented"), std::string::npos) << op << " (second order): " << e;
          continue;
        }
        auto r2 = opd::autograd::gradgradcheck(fn, inputs);
        EXPECT_TRUE(r2.ok) << op << " (second order): " << r2.message;
      } catch (const std::exception& e) {
        ADD_FAILURE() << op << ": " << e.what();
      }
    }
  }
}

// ---- complex tensors ------------------------------------------------------------------------------

Tensor cvec(std::vector<std::complex<double>> v, std::vector<int64_t> sizes) {
  return opd::from_vector<std::complex<double>>(v, opd::IntArrayRef(sizes.data(), sizes.size()));
}

// Every operator whose formulas are declared complex_verified has a sample with a complex input or
// result (gradcheck above checks it with PyTorch's convention, grad_torch_diff_test against libtorch).
TEST_F(Autograd, ComplexVerifiedOperatorsHaveComplexSamples) {
  const auto all = opd_test::samples();
  const std::vector<std::string> ops = opd_test::operators_with_complex_formulas();
  ASSERT_GE(ops.size(), 50u);
  for (const std::string& op : ops) {
    auto it = all.find(op);
    ASSERT_NE(it, all.end()) << op << " is complex_verified but has no sample";
    bool complex_sample = false;
    for (const opd_test::Sample& s : it->second) {
      variable_list inputs = s.inputs();
      for (const Tensor& x : inputs) complex_sample = complex_sample || opd::is_complex_type(x.dtype());
      for (const Tensor& y : opd_test::boxed_fn(op, s)(inputs)) complex_sample = complex_sample || opd::is_complex_type(y.dtype());
    }
    EXPECT_TRUE(complex_sample) << op << " is complex_verified but no sample has a complex input or result";
  }
}

// An operator whose formulas are not complex_verified refuses, at the forward call, to record grad
// with a complex argument or result (its real formula would give a wrong gradient silently; zero:
// PyTorch 1.13 refuses it for complex outputs).
TEST_F(Autograd, OperatorsNotVerifiedForComplexRefuseIt) {
  Tensor z = cvec({{1, 2}, {-0.5, 0.25}}, {2});
  z.set_requires_grad(true);
  const std::string e = error_of([&] { opd::call<k::zero>(z); });
  EXPECT_NE(e.find("aten::zero: autograd for complex inputs is not implemented yet"), std::string::npos) << e;
  try {
    opd::call<k::zero>(z);
    ADD_FAILURE() << "no error";
  } catch (const opd::NotImplementedError&) {
  }
  // a real input that requires grad beside a complex one that does not: refused too
  Tensor x = leaf({1, 2}, {2});
  const Tensor c = cvec({{1, 2}, {3, 4}}, {2});
  EXPECT_NE(error_of([&] { opd::call<k::atan2::functional>(x, c); }).find("aten::atan2"), std::string::npos);
  // without grad, or without an input that requires it, the operator runs
  {
    opd::NoGradGuard no_grad;
    EXPECT_FALSE(opd::call<k::zero>(z).requires_grad());
  }
  EXPECT_FALSE(opd::call<k::zero>(c).requires_grad());
  // a verified operator records it
  EXPECT_EQ(opd::call<k::exp::functional>(z).grad_fn()->name(), "ExpBackward0");
}

// PyTorch's convention: for a real loss L of z = x + iy, z.grad is dL/dx + i dL/dy; a real input
// that meets a complex one gets a real gradient (handle_r_to_c).
// conj_physical of a real tensor returns the tensor itself (as ATen's composite): it stays a leaf
// with its own history, and its gradient flows as through the identity. (A node here rewrote the
// input's history and, under gradgradcheck, made reference cycles that LeakSanitizer reported.)
TEST_F(Autograd, AnOperatorThatReturnsItsInputKeepsTheInputsHistory) {
  Tensor x = leaf({1, 2}, {2});
  const Tensor y = opd::call<k::conj_physical>(x);
  EXPECT_TRUE(y.is_same(x));
  EXPECT_TRUE(x.is_leaf());
  EXPECT_EQ(x.grad_fn(), nullptr);
  sum(mul(y, dvec({2, 2}, {2}))).backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{2, 2}));
  // a non-leaf keeps its own node
  const Tensor h = mul(x, dvec({3, 3}, {2}));
  const std::string before = h.grad_fn()->name();
  EXPECT_EQ(opd::call<k::conj_physical>(h).grad_fn()->name(), before);
}

TEST_F(Autograd, ComplexGradientsFollowPyTorchsConvention) {
  using cd = std::complex<double>;
  Tensor z = cvec({{1, 2}, {-0.5, 0.25}}, {2});
  z.set_requires_grad(true);
  // |z|^2 = z conj(z): gradient 2z
  const Tensor sq = opd::call<k::real>(mul(z, opd::call<k::conj>(z)));
  sum(sq).backward();
  EXPECT_EQ(opd::to_vector<cd>(z.grad()), (std::vector<cd>{{2, 4}, {-1, 0.5}}));
  // real(z) and imag(z): 1 and i
  std::vector<Tensor> g = opd::autograd::grad({sum(opd::call<k::real>(z))}, {z});
  EXPECT_EQ(opd::to_vector<cd>(g[0]), (std::vector<cd>{{1, 0}, {1, 0}}));
  g = opd::autograd::grad({sum(opd::call<k::imag>(z))}, {z});
  EXPECT_EQ(opd::to_vector<cd>(g[0]), (std::vector<cd>{{0, 1}, {0, 1}}));
  // a real leaf times a complex constant, the real part summed: the gradient is real(c), a double
  Tensor x = leaf({1, 2}, {2});
  const Tensor c = cvec({{3, 4}, {-1, 2}}, {2});
  g = opd::autograd::grad({sum(opd::call<k::real>(mul(x, c)))}, {x});
  EXPECT_EQ(g[0].dtype(), opd::ScalarType::Double);
  EXPECT_EQ(values(g[0]), (std::vector<double>{3, -1}));
  // real and imag through gradcheck (composites: view_as_real, then select)
  for (auto part : {+[](const Tensor& t) { return opd::call<k::real>(t); }, +[](const Tensor& t) { return opd::call<k::imag>(t); }}) {
    auto fn = [part](const variable_list& xs) { return variable_list{part(mul(xs[0], xs[0]))}; };
    Tensor w = cvec({{0.3, -0.7}, {1.1, 0.4}, {-0.2, 0.9}}, {3});
    w.set_requires_grad(true);
    auto r1 = opd::autograd::gradcheck(fn, {w});
    EXPECT_TRUE(r1.ok) << r1.message;
    auto r2 = opd::autograd::gradgradcheck(fn, {w});
    EXPECT_TRUE(r2.ok) << r2.message;
  }
}

// gradcheck's complex convention catches a formula that forgets PyTorch's conjugation.
struct unconj_mul : opd::op<"autograd_test::unconj_mul(Tensor self, Tensor other) -> Tensor"> {
  static Tensor d_self(const Tensor& g, const opd::autograd::saved<unconj_mul, "other">& s) { return mul(g, s.get<"other">()); }
  static Tensor d_other(const Tensor& g, const opd::autograd::saved<unconj_mul, "self">& s) { return mul(g, s.get<"self">()); }
  using derivatives = opd::autograd::derivatives<"UnconjMulBackward0", opd::autograd::formula<"self", &d_self>,
                                                 opd::autograd::formula<"other", &d_other>, opd::autograd::complex_verified>;
};
Tensor unconj_mul_cpu(const Tensor& a, const Tensor& b) { return mul(a, b); }

TEST_F(Autograd, GradcheckDetectsAMissingConjugate) {
  auto kernel = opd::register_kernel<unconj_mul, &unconj_mul_cpu>(opd::DispatchKey::CPU);
  auto d = opd::autograd::register_derivatives<unconj_mul>();
  Tensor a = cvec({{1, 2}, {-0.5, 0.25}}, {2}), b = cvec({{0.5, -1}, {2, 0.3}}, {2});
  a.set_requires_grad(true);
  b.set_requires_grad(true);
  auto fn = [](const variable_list& xs) { return variable_list{opd::call<unconj_mul>(xs[0], xs[1])}; };
  EXPECT_FALSE(opd::autograd::gradcheck(fn, {a, b}).ok);
  // with real inputs the same formula is right
  Tensor ra = leaf({1, 2}, {2}), rb = leaf({0.5, -1}, {2});
  EXPECT_TRUE(opd::autograd::gradcheck(fn, {ra, rb}).ok);
}

// ---- which of the library's operators PyTorch 1.13's derivatives.yaml differentiates -----------------

// The name of the graph nodes of an operator's derivatives.yaml entry: the operator's name in CamelCase
// as Python's str.title() writes each '_'-separated part ("max_pool2d" -> "MaxPool2D", "_softmax" ->
// "Softmax"); the nodes are that, "Backward" and a number per entry of that name.
std::string node_family(std::string_view base) {
  std::string out;
  bool after_letter = false;
  for (char c : base) {
    if (c == '_') {
      after_letter = false;
      continue;
    }
    const bool letter = std::isalpha(static_cast<unsigned char>(c)) != 0;
    out += !letter ? c : static_cast<char>(after_letter ? std::tolower(c) : std::toupper(c));
    after_letter = letter;
  }
  return out;
}

// Operators that 1.13 differentiates and that have no formula here yet (docs/autograd.md, "Not done
// yet"): a call with an input that requires grad is the fallback's error naming the operator.
const std::set<std::string>& not_yet() {
  static const std::set<std::string> s = {};
  return s;
}
// Operators whose name has 1.13 nodes that are other overloads' (checked by calling them in libtorch
// 1.13): the comparisons' nodes are their in-place variants' (eq_: zeros), the functional ones return
// Bool; where(condition) returns indices; remainder.Scalar_Tensor and scatter's reduce overloads get
// PyTorch's NotImplemented node; squeeze.dims is PyTorch 2.x's.
const std::set<std::string>& other_overloads_in_113() {
  static const std::set<std::string> s = {
      "aten::eq.Scalar",   "aten::eq.Tensor", "aten::ne.Scalar",           "aten::ne.Tensor",
      "aten::lt.Scalar",   "aten::lt.Tensor", "aten::le.Scalar",           "aten::le.Tensor",
      "aten::gt.Scalar",   "aten::gt.Tensor", "aten::ge.Scalar",           "aten::ge.Tensor",
      "aten::where",       "aten::remainder.Scalar_Tensor", "aten::scatter.reduce", "aten::scatter.value_reduce",
      "aten::squeeze.dims",
  };
  return s;
}

// Operators whose 1.13 node has only not_implemented formulas: no formula here either, so that a call
// on an input that requires grad is the fallback's error naming the operator (1.13 raises at backward).
const std::set<std::string>& not_implemented_in_113() {
  static const std::set<std::string> s = {"aten::_pdist_backward"};
  return s;
}

// Every operator of the library (not composite, not in-place or out=: those take their functional's
// formulas or are never differentiable) whose name has a graph node in PyTorch 1.13
// (tests/data/autograd_nodes_1.13.txt, a view's *_copy its view's, "_forward" dropped) has a formula,
// or is listed above; a listed operator that has a formula now, or is not one of those, is an error too.
TEST_F(Autograd, DerivativesYamlCoverage) {
  std::ifstream in(OPD_TEST_DATA_DIR "/autograd_nodes_1.13.txt");
  ASSERT_TRUE(in.good()) << "cannot read autograd_nodes_1.13.txt";
  std::set<std::string> families;
  std::size_t nodes = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t b = line.rfind("Backward");
    ASSERT_NE(b, std::string::npos) << line;
    families.insert(line.substr(0, b));
    ++nodes;
  }
  ASSERT_EQ(nodes, 596u);  // 1.13's graph-node classes
  const std::vector<std::string> with = opd_test::operators_with_formulas();
  const std::set<std::string> formulas(with.begin(), with.end());
  auto differentiated_in_113 = [&](std::string_view base) {
    auto has = [&](std::string_view b) { return families.count(node_family(b)) != 0; };
    return has(base) || (base.ends_with("_forward") && has(base.substr(0, base.size() - 8))) ||
           (base.ends_with("_copy") && has(base.substr(0, base.size() - 5)));
  };
  opd::Dispatcher& d = opd::Dispatcher::singleton();
  std::set<std::string> required;
  std::size_t covered = 0;
  for (const std::string& name : d.operator_names()) {
    if (!name.starts_with("aten::")) continue;
    const opd::OperatorEntry* e = d.find_schema(name);
    if (e == nullptr || e->registered_keys().find("CompositeImplicitAutograd") != std::string::npos) continue;
    const std::string text(e->schema().text());
    if (text.substr(0, text.find("->")).find('!') != std::string::npos) continue;
    const std::string_view full = std::string_view(name).substr(6);
    if (!differentiated_in_113(full.substr(0, full.find('.')))) continue;
    required.insert(name);
    if (formulas.count(name) != 0) {
      ++covered;
    } else {
      EXPECT_TRUE(not_yet().count(name) != 0 || other_overloads_in_113().count(name) != 0 ||
                  not_implemented_in_113().count(name) != 0)
          << name << ": PyTorch 1.13 differentiates it; give it a formula (or list it in not_yet())";
    }
  }
  for (const auto* list : {&not_yet(), &other_overloads_in_113(), &not_implemented_in_113()})
    for (const std::string& name : *list)
      EXPECT_TRUE(required.count(name) != 0 && formulas.count(name) == 0)
          << name << " is listed but has a formula or is not a library operator 1.13 differentiates: remove it";
  std::cout << required.size() << " operators of the library have 1.13 graph nodes: " << covered << " with formulas, "
            << not_yet().size() << " not yet, " << other_overloads_in_113().size() << " other overloads, "
            << not_implemented_in_113().size() << " not implemented in 1.13\n";
  EXPECT_GE(covered, 170u);
}

// as_strided_scatter: self's gradient is zero where src was written, src's is the gradient read
// there; a non-contiguous self is refused with PyTorch 1.13's message (its output keeps self's
// strides, which 1.13's formula does not follow), for src's gradient too.
TEST_F(Autograd, AsStridedScatterGradientsAndNonContiguousSelf) {
  Tensor x = leaf({0, 1, 2, 3, 4, 5}, {2, 3});
  Tensor src = leaf({7, 8}, {2});
  const std::vector<int64_t> size{2}, stride{2};
  Tensor y = opd::call<k::as_strided_scatter>(x, src, size, stride, int64_t{1});
  EXPECT_EQ(y.grad_fn()->name(), "AsStridedScatterBackward0");
  Tensor w = leaf({1, 2, 3, 4, 5, 6}, {2, 3});
  w.set_requires_grad(false);
  sum(mul(y, w)).backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{1, 0, 3, 0, 5, 6}));
  EXPECT_EQ(values(src.grad()), (std::vector<double>{2, 4}));
  Tensor xt = opd::call<k::transpose>(leaf({0, 1, 2, 3, 4, 5}, {3, 2}), int64_t{0}, int64_t{1});
  Tensor s2 = leaf({7, 8}, {2});
  Tensor yt = opd::call<k::as_strided_scatter>(xt.detach(), s2, size, stride, int64_t{1});
  EXPECT_NE(error_of([&] { sum(yt).backward(); }).find("as_strided_scatter is currently only supported for contiguous inputs"),
            std::string::npos);
}

// _embedding_bag with a Float weight in sum mode takes ATen's fast path, which returns no offset2bag:
// the backward makes it from offsets (the composite _embedding_bag_backward); with create_graph and a
// gradient that requires grad, the dense backward is the fallback's error naming it, as 1.13 has no
// derivatives for it.
TEST_F(Autograd, EmbeddingBagFastPathAndNoSecondDerivative) {
  Tensor w = opd::call<k::to_dtype>(leaf({0, 1, 2, 3, 4, 5, 6, 7}, {4, 2}).detach(), opd::ScalarType::Float, false, false,
                                    std::nullopt);
  w.set_requires_grad(true);
  const Tensor ids = opd::from_vector<int64_t>({1, 3, 3, 0}, {4}), offs = opd::from_vector<int64_t>({0, 1}, {2});
  auto [out, offset2bag, bag_size, max_indices] = opd::call<k::embedding_bag_>(w, ids, offs, false, int64_t{0}, false,
                                                                               std::nullopt, false, int64_t{-1});
  EXPECT_EQ(offset2bag.numel(), 0);
  EXPECT_EQ(out.grad_fn()->name(), "EmbeddingBagBackward0");
  const Tensor g = opd::from_vector<float>({1, 2, 10, 20}, {2, 2});
  out.backward(g);
  EXPECT_EQ(opd::to_vector<float>(w.grad()), (std::vector<float>{10, 20, 1, 2, 0, 0, 20, 40}));
  Tensor w2 = leaf({0, 1, 2, 3, 4, 5, 6, 7}, {4, 2});
  Tensor out2 = std::get<0>(opd::call<k::embedding_bag_>(w2, ids, offs, false, int64_t{1}, false, std::nullopt, false,
                                                         int64_t{-1}));
  Tensor g2 = leaf({1, 2, 10, 20}, {2, 2});
  const std::string e = error_of([&] { (void)opd::autograd::grad({out2}, {w2}, {g2}, true, true); });
  EXPECT_NE(e.find("_embedding_bag_dense_backward"), std::string::npos) << e;
}

// _to_copy's gradient comes back in the input's dtype; an integer result gets no history (PyTorch's
// isDifferentiableType), although the call recorded with an input that requires grad.
TEST_F(Autograd, ToCopyGradientInTheInputsDtype) {
  Tensor x = leaf({1, 2, 3}, {3});
  Tensor y = opd::call<k::to_copy>(x, opd::arg<"dtype"> = opd::ScalarType::Float);
  ASSERT_NE(y.grad_fn(), nullptr);
  EXPECT_EQ(y.grad_fn()->name(), "ToCopyBackward0");
  sum(mul(y, y)).backward();
  ASSERT_TRUE(x.grad().defined());
  EXPECT_EQ(x.grad().dtype(), opd::ScalarType::Double);
  EXPECT_EQ(values(x.grad()), (std::vector<double>{2, 4, 6}));
  Tensor i = opd::call<k::to_copy>(x, opd::arg<"dtype"> = opd::ScalarType::Long);
  EXPECT_FALSE(i.requires_grad());
  EXPECT_EQ(i.grad_fn(), nullptr);
}

// contiguous of a contiguous leaf returns the leaf itself, which stays a leaf
// (no node on it, no view of itself: ASan found the cycle that made); of a
// transposed one, a copy with CloneBackward0.
TEST_F(Autograd, AliasOperatorReturningItsInputAddsNoHistory) {
  Tensor x = leaf({1, 2, 3, 4}, {2, 2});
  Tensor y = opd::call<k::contiguous>(x, opd::MemoryFormat::Contiguous);
  EXPECT_TRUE(y.is_same(x));
  EXPECT_TRUE(x.is_leaf());
  EXPECT_EQ(x.grad_fn(), nullptr);
  EXPECT_FALSE(x.is_view());
  sum(mul(y, y)).backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{2, 4, 6, 8}));
  Tensor t = opd::call<k::contiguous>(opd::call<k::transpose>(x, 0, 1), opd::MemoryFormat::Contiguous);
  ASSERT_NE(t.grad_fn(), nullptr);
  EXPECT_EQ(t.grad_fn()->name(), "CloneBackward0");
}

// A view's *_copy operator records its view's node (its type and formulas), named as PyTorch 1.13 names it.
TEST_F(Autograd, ViewCopyRecordsTheViewsNode) {
  Tensor x = leaf({1, 2, 3}, {3, 1});
  Tensor y = opd::call<k::expand_copy>(x, std::vector<int64_t>{3, 2});
  ASSERT_NE(y.grad_fn(), nullptr);
  EXPECT_EQ(y.grad_fn()->name(), "ExpandBackward0_copy");
  EXPECT_FALSE(y.is_view());
  sum(mul(y, y)).backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{4, 8, 12}));
  EXPECT_EQ(opd::call<k::expand>(x, std::vector<int64_t>{3, 2}).grad_fn()->name(), "ExpandBackward0");
}

TEST_F(Autograd, GradcheckDetectsAWrongFormula) {
  // a function whose "gradient" is wrong: y = x * x where the graph only sees x * c
  Tensor x = leaf({1, 2}, {2});
  auto fn = [](const variable_list& xs) {
    Tensor c = xs[0].detach();
    return variable_list{mul(xs[0], c)};  // true derivative 2x, graph's x
  };
  EXPECT_FALSE(opd::autograd::gradcheck(fn, {x}).ok);
}

// ---- a user's operator with its formula -------------------------------------------------------------

struct cube : opd::op<"autograd_test::cube(Tensor self, float scale) -> Tensor"> {
  // d/dself scale * self^3 = 3 * scale * self^2
  static Tensor d_self(const Tensor& g, const opd::autograd::saved<cube, "self", "scale">& s) {
    const Tensor x = s.get<"self">();
    return mul(mul(g, opd::call<k::mul_scalar::functional>(x, opd::Scalar(3 * s.get<"scale">()))), x);
  }
  using derivatives = opd::autograd::derivatives<"CubeBackward0", opd::autograd::formula<"self", &d_self>>;
};
Tensor cube_cpu(const Tensor& self, double scale) {
  Tensor t = mul(mul(self, self), self);
  return opd::call<k::mul_scalar::functional>(t, opd::Scalar(scale));
}

TEST_F(Autograd, UserOperatorWithItsFormula) {
  auto kernel = opd::register_kernel<cube, &cube_cpu>(opd::DispatchKey::CPU);
  auto grad = opd::autograd::register_derivatives<cube>();
  Tensor x = leaf({1, 2}, {2});
  Tensor y = opd::call<cube>(x, 2.0);
  EXPECT_EQ(y.grad_fn()->name(), "CubeBackward0");
  sum(y).backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{6, 24}));
  auto fn = [](const variable_list& xs) { return variable_list{opd::call<cube>(xs[0], 0.5)}; };
  EXPECT_TRUE(opd::autograd::gradcheck(fn, {x}).ok);
  EXPECT_TRUE(opd::autograd::gradgradcheck(fn, {x}).ok);
}

// Operators declared after register_autograd() (which gives the library's writing operators their
// ADInplaceOrView kernels) bump the version counters of what they write too: one with a formula through
// register_derivatives, one without through the Autograd fallback. So a saved tensor they modify is
// detected, and one without formula refuses, before writing, a tensor whose history requires grad.
struct twice_ : opd::op<"test::twice_(Tensor(a!) self) -> Tensor(a!)"> {
  static Tensor d_self(const Tensor& g) { return opd::call<k::mul_scalar::functional>(g, opd::Scalar(2)); }
  using derivatives = opd::autograd::derivatives<"TwiceBackward0", opd::autograd::formula<"self", &d_self>>;
};
struct thrice_ : opd::op<"test::thrice_(Tensor(a!) self) -> Tensor(a!)"> {};
template <int F>
Tensor& scale_data(Tensor& self) {  // writes the data directly: no dispatched call that would bump
  double* p = self.data_ptr<double>();
  for (int64_t i = 0; i < self.numel(); ++i) p[i] *= F;
  return self;
}

TEST_F(Autograd, OperatorsDeclaredAfterRegisterAutogradBumpVersions) {
  auto kernels = opd::register_kernel<twice_, &scale_data<2>>(opd::DispatchKey::CPU);
  auto grad = opd::autograd::register_derivatives<twice_>();
  auto plain = opd::register_kernel<thrice_, &scale_data<3>>(opd::DispatchKey::CPU);
  for (int which = 0; which < 2; ++which) {
    Tensor x = leaf({1, 2}, {2});
    Tensor w = dvec({3, 4}, {2});
    Tensor y = mul(x, w);  // saves w
    const uint32_t before = w.version();
    if (which == 0) opd::call<twice_>(w);
    else opd::call<thrice_>(w);
    EXPECT_EQ(w.version(), before + 1) << which;
    EXPECT_EQ(values(w), (std::vector<double>{3.0 * (2 + which), 4.0 * (2 + which)}));
    EXPECT_NE(error_of([&] { sum(y).backward(); }).find("modified by an inplace operation"), std::string::npos) << which;
  }
  // with its formula: differentiated in place; without: refused before the write
  Tensor a = mul(leaf({1, 2}, {2}), dvec({1, 1}, {2}));
  opd::call<twice_>(a);
  EXPECT_EQ(a.grad_fn()->name(), "TwiceBackward0");
  Tensor b = mul(leaf({1, 2}, {2}), dvec({1, 1}, {2}));
  EXPECT_NE(error_of([&] { opd::call<thrice_>(b); }).find("the derivative for 'test::thrice_' is not implemented"),
            std::string::npos);
  EXPECT_EQ(values(b), (std::vector<double>{1, 2}));
  EXPECT_EQ(b.version(), 0u);
}

}  // namespace
