// The Functionalize layer: every program here runs twice, eagerly on the CPU
// and functionalized, and the outputs and the inputs' mutations are compared
// (the eager run is the expected value, nothing is hard-coded); plus the
// layer's own guarantees: bounded update queue, errors that name the
// operator and leave inputs unchanged, operators declared at run time.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <autograd/tensor_api.hpp>
#include <functionalize/functionalize.hpp>
#include <kernels/ops_arithmetic.hpp>
#include "all_kernels.hpp"
#include <kernels/ops_views.hpp>

#include "lazy_trace/trace_backend.hpp"

namespace {

using opd::IValue;
using opd::Stack;
using opd::Tensor;
using Mode = opd::FunctionalizeMode;
namespace ops = opd::kernels::ops;

struct Kernels {
  opd::RegistrationSet cpu = opd_test::register_all_kernels();
};
Kernels& kernels() {
  static Kernels k;
  return k;
}

Tensor arange(std::vector<int64_t> sizes, float offset = 0) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i) * 0.5f - 3.0f + offset;
  return opd::from_vector<float>(v, sizes);
}
// Boxed call by name, one return.
IValue run(std::string_view name, std::vector<IValue> args) {
  Stack s(std::make_move_iterator(args.begin()), std::make_move_iterator(args.end()));
  opd::call_boxed(name, s);
  return s.empty() ? IValue() : s[0];
}
Tensor T(std::string_view name, std::vector<IValue> args) { return run(name, std::move(args)).to_tensor(); }

Tensor zeros(std::vector<int64_t> sizes) { return T("aten::mul.Scalar", {arange(sizes), 0.0}); }
Tensor clone(const Tensor& t) { return opd::call<ops::clone>(t, std::optional<opd::MemoryFormat>{}); }
std::vector<float> values(const Tensor& t) { return opd::to_vector<float>(t); }

using Program = std::function<std::vector<Tensor>(std::vector<Tensor>&)>;

// Runs p eagerly on clones of inputs, then functionalized; expects the same
// outputs (sizes and values) and the same inputs afterwards.
void expect_same_as_eager(const Program& p, const std::vector<Tensor>& inputs, Mode mode) {
  std::vector<Tensor> eager_in;
  for (const Tensor& t : inputs) eager_in.push_back(clone(t));
  const std::vector<Tensor> eager_out = p(eager_in);

  std::vector<Tensor> fn_in;
  for (const Tensor& t : inputs) fn_in.push_back(clone(t));
  std::vector<Tensor> wrapped;
  for (const Tensor& t : fn_in) wrapped.push_back(opd::to_functional(t, mode));
  std::vector<Tensor> fn_out;
  {
    opd::FunctionalizeGuard on(mode);
    fn_out = p(wrapped);
  }
  ASSERT_EQ(fn_out.size(), eager_out.size());
  for (std::size_t i = 0; i < fn_out.size(); ++i) {
    ASSERT_TRUE(opd::is_functional(fn_out[i])) << "output " << i;
    opd::sync(fn_out[i]);
    const Tensor v = opd::from_functional(fn_out[i]);
    EXPECT_EQ(std::vector<int64_t>(v.sizes().begin(), v.sizes().end()),
              std::vector<int64_t>(eager_out[i].sizes().begin(), eager_out[i].sizes().end()))
        << "output " << i;
    EXPECT_EQ(values(v), values(eager_out[i])) << "output " << i;
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    opd::copy_back_mutation(fn_in[i], wrapped[i]);
    EXPECT_EQ(values(fn_in[i]), values(eager_in[i])) << "input " << i;
  }
}

class Functionalize : public ::testing::TestWithParam<Mode> {
 protected:
  void SetUp() override { (void)kernels(); }
};

TEST_P(Functionalize, InPlaceThroughTransposedViewReachesBaseAndOtherViews) {
  expect_same_as_eager(
      [](std::vector<Tensor>& in) {
        Tensor v = opd::call<ops::transpose>(in[0], 0, 1);
        Tensor row = opd::call<ops::select>(in[0], 0, 1);
        run("aten::add_.Scalar", {v, 1.5, 1});
        run("aten::mul_.Tensor", {row, row});
        return std::vector<Tensor>{v, row, T("aten::add.Tensor", {in[0], v.defined() ? in[0] : in[0], 1})};
      },
      {arange({2, 3})}, GetParam());
}

TEST_P(Functionalize, ViewOfViewMutatedThenBaseRead) {
  expect_same_as_eager(
      [](std::vector<Tensor>& in) {
        Tensor a = T("aten::view", {in[0], std::vector<int64_t>{3, 4}});
        Tensor b = T("aten::slice.Tensor", {a, 1, 1, 3, 1});
        Tensor c = T("aten::diagonal", {b, 0, 0, 1});
        run("aten::fill_.Scalar", {c, 7.0});
        run("aten::add_.Tensor", {in[1], T("aten::t", {b}), 2});
        return std::vector<Tensor>{in[0], a, b, c};
      },
      {arange({12}), arange({2, 3}, 1)}, GetParam());
}

TEST_P(Functionalize, MultiOutputViewsAndUnfold) {
  expect_same_as_eager(
      [](std::vector<Tensor>& in) {
        std::vector<Tensor> parts = run("aten::split.Tensor", {in[0], 2, 0}).to_tensor_list();
        run("aten::mul_.Scalar", {parts[1], -2.0});
        std::vector<Tensor> rows = run("aten::unbind.int", {in[0], 1}).to_tensor_list();
        run("aten::add_.Scalar", {rows[0], 10.0, 1});
        Tensor w = T("aten::unfold", {in[0], 0, 2, 1});
        return std::vector<Tensor>{parts[0], parts[2], rows[1], w, in[0]};
      },
      {arange({5, 2})}, GetParam());
}

TEST_P(Functionalize, OutVariantWritesAndResizesTheOutWrapper) {
  expect_same_as_eager(
      [](std::vector<Tensor>& in) {
        Tensor out = T("aten::empty.memory_format", {std::vector<int64_t>{0}, IValue(), IValue(), IValue(), IValue(), IValue()});
        run("aten::mul.out", {in[0], in[1], out});
        Tensor v = T("aten::select.int", {in[1], 0, 0});
        run("aten::add.out", {in[0], in[0], 1, v});  // out= through a view, same shape
        return std::vector<Tensor>{out, in[1]};
      },
      {arange({3}), arange({2, 3}, 2)}, GetParam());
}

TEST_P(Functionalize, CompositeImplicitViewsAreReplayedAsViews) {
  expect_same_as_eager(
      [](std::vector<Tensor>& in) {
        Tensor r = T("aten::reshape", {in[0], std::vector<int64_t>{2, 3}});
        Tensor n = T("aten::narrow", {r, 1, 1, 2});
        run("aten::fill_.Scalar", {n, 0.0});
        return std::vector<Tensor>{r, n};
      },
      {arange({6})}, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Modes, Functionalize, ::testing::Values(Mode::keep_views, Mode::remove_views));

TEST(FunctionalizeLayer, FunctionalizeWrapsRunsAndCopiesMutationsBack) {
  (void)kernels();
  const Tensor x = arange({2, 2});
  const Tensor expected_in = clone(x);
  run("aten::mul_.Scalar", {expected_in, 3.0});
  const Tensor expected_out = T("aten::add.Scalar", {expected_in, 1.0, 1});

  auto g = opd::functionalize([](const Tensor& a) {
    EXPECT_TRUE(opd::is_functional(a));
    run("aten::mul_.Scalar", {a, 3.0});
    return T("aten::add.Scalar", {a, 1.0, 1});
  });
  const Tensor y = g(x);
  EXPECT_FALSE(opd::is_functional(y));
  EXPECT_EQ(values(y), values(expected_out));
  EXPECT_EQ(values(x), values(expected_in));
}

TEST(FunctionalizeLayer, FactoriesInsideTheRegionReturnFunctionalTensors) {
  (void)kernels();
  opd::FunctionalizeGuard on;
  const Tensor z = opd::call<ops::zeros>(std::vector<int64_t>{2, 2});
  EXPECT_TRUE(opd::is_functional(z));
  EXPECT_EQ(values(opd::from_functional(z)), std::vector<float>(4, 0.0f));
}

// detach() of a functional tensor is a functional alias (it was a plain
// TensorImpl carrying the Functionalize key: a segfault at the next call).
TEST(FunctionalizeLayer, DetachOfAFunctionalTensorIsAFunctionalAlias) {
  (void)kernels();
  const Tensor w = opd::to_functional(zeros({2, 2}));
  const Tensor d = w.detach();
  EXPECT_TRUE(opd::is_functional(d));
  opd::FunctionalizeGuard on;
  const Tensor y = opd::call<ops::add::functional>(d, d, opd::Scalar(1));
  run("aten::add_.Scalar", {w, 2.0, 1});  // d aliases w: it sees the write
  opd::sync(d);
  EXPECT_EQ(values(opd::from_functional(d)), std::vector<float>(4, 2.0f));
  EXPECT_EQ(values(opd::from_functional(y)), std::vector<float>(4, 0.0f));
}

// 100,000 in-place updates on one view, read every 100: the queue of pending
// updates never holds more than the one being applied.
TEST(FunctionalizeLayer, UpdateQueueStaysBoundedOverManyMutationsOfAView) {
  (void)kernels();
  const Tensor x = opd::to_functional(zeros({4, 4}));
  opd::FunctionalizeGuard on;
  const Tensor v = opd::call<ops::select>(x, 0, 2);
  const auto& storage = opd::functional_impl(x)->functional_storage();
  std::size_t max_pending = 0;
  constexpr int kSteps = 100000;
  for (int i = 1; i <= kSteps; ++i) {
    run("aten::add_.Scalar", {v, 1.0, 1});
    max_pending = std::max(max_pending, storage->pending_updates());
    if (i % 100 == 0) {
      opd::sync(x);
      ASSERT_EQ(values(opd::from_functional(x))[8], static_cast<float>(i));
    }
  }
  EXPECT_LE(max_pending, 1u);
  EXPECT_EQ(storage->pending_updates(), 0u);
  EXPECT_EQ(storage->applied_updates(), static_cast<std::uint64_t>(kSteps));
}

TEST(FunctionalizeLayer, InPlaceShapeChangeIsAnErrorNamingOperatorAndLeavesInputsUnchanged) {
  (void)kernels();
  const Tensor x = opd::to_functional(arange({3}));
  const Tensor y = opd::to_functional(arange({2, 3}));
  opd::FunctionalizeGuard on;
  const std::vector<float> before = values(opd::from_functional(x));
  try {
    run("aten::add_.Tensor", {x, y, 1});
    FAIL() << "expected an error";
  } catch (const opd::Error& e) {
    EXPECT_NE(std::string(e.what()).find("aten::add_.Tensor"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'self'"), std::string::npos) << e.what();
  }
  opd::sync(x);
  EXPECT_EQ(values(opd::from_functional(x)), before);
  EXPECT_FALSE(opd::functional_impl(x)->functional_storage()->mutated());
}

// In-place variants whose functional member has another overload name, a
// factory's out= (its functional variant takes TensorOptions: from the out
// tensor), and an out= call the functional variant alone would let through
// (the out tensor's dtype): each as eager mode has it.
TEST(FunctionalizeLayer, VariantsUnderOtherNamesFactoriesOutAndOutChecks) {
  (void)kernels();
  const Tensor x = arange({4});
  auto g = opd::functionalize([](const Tensor& a) {
    run("aten::pow_.Scalar", {a, 2.0});            // -> aten::pow.Tensor_Scalar
    run("aten::floor_divide_.Tensor", {a, a});     // -> aten::floor_divide
    return a;
  });
  const Tensor eager = arange({4});
  run("aten::pow_.Scalar", {eager, 2.0});
  run("aten::floor_divide_.Tensor", {eager, eager});
  EXPECT_EQ(values(g(x)), values(eager));
  EXPECT_EQ(values(x), values(eager));

  const Tensor out = opd::to_functional(zeros({0}));
  {
    opd::FunctionalizeGuard on;
    run("aten::arange.start_out", {1.0, 4.0, 1.0, out});  // -> aten::arange.start_step(..., dtype=Float, device=cpu)
  }
  opd::sync(out);
  EXPECT_EQ(values(opd::from_functional(out)), (std::vector<float>{1.f, 2.f, 3.f}));

  const Tensor f = opd::to_functional(zeros({2}));  // any.out writes Bool (or Byte) only
  std::string eager_error, functional_error;
  try {
    run("aten::any.all_out", {arange({2}), zeros({2})});
  } catch (const opd::Error& e) {
    eager_error = e.what();
  }
  try {
    opd::FunctionalizeGuard on;
    run("aten::any.all_out", {opd::to_functional(arange({2})), f});
  } catch (const opd::Error& e) {
    functional_error = e.what();
  }
  EXPECT_FALSE(eager_error.empty());
  EXPECT_EQ(functional_error, eager_error);
  opd::sync(f);
  EXPECT_EQ(values(opd::from_functional(f)), (std::vector<float>{0.f, 0.f}));
}

// resize_ on a functional base: its functional variant (aten::resize) gives
// the new value, of another shape, as eager resize_ does (the first elements
// kept); a view cannot be resized, and nothing changes then.
TEST(FunctionalizeLayer, ResizeOfABaseTakesTheNewShapeAndAViewIsRefused) {
  (void)kernels();
  const Tensor x = opd::to_functional(arange({2, 3}));
  {
    opd::FunctionalizeGuard on;
    run("aten::resize_", {x, std::vector<int64_t>{4}});
  }
  opd::sync(x);
  EXPECT_EQ(x.sizes().vec(), (std::vector<int64_t>{4}));
  const std::vector<float> all = values(arange({2, 3}));
  EXPECT_EQ(values(opd::from_functional(x)), std::vector<float>(all.begin(), all.begin() + 4));

  const Tensor base = opd::to_functional(arange({2, 3}));
  opd::FunctionalizeGuard on;
  const Tensor row = T("aten::select.int", {base, 0, 1});
  try {
    run("aten::resize_", {row, std::vector<int64_t>{5}});
    FAIL() << "expected an error";
  } catch (const opd::Error& e) {
    EXPECT_NE(std::string(e.what()).find("a view"), std::string::npos) << e.what();
  }
  EXPECT_EQ(row.sizes().vec(), (std::vector<int64_t>{3}));
}

// ---- operators declared at run time ---------------------------------------------------

Tensor twice(const Tensor& a) { return T("aten::mul.Scalar", {a, 2.0}); }

TEST(FunctionalizeLayer, RunTimeDeclaredInPlaceOperatorUsesItsFunctionalVariantByName) {
  (void)kernels();
  auto d1 = opd::declare("t_fz::twice(Tensor self) -> Tensor");
  auto d2 = opd::declare("t_fz::twice_(Tensor(a!) self) -> Tensor(a!)");
  int functional_calls = 0, inplace_calls = 0;
  auto k1 = opd::register_boxed_kernel("t_fz::twice", opd::DispatchKey::CPU,
                                       [&](const opd::OperatorEntry&, opd::DispatchKeySet, Stack* s) {
                                         ++functional_calls;
                                         s->back() = IValue(twice(s->back().to_tensor()));
                                       });
  auto k2 = opd::register_boxed_kernel("t_fz::twice_", opd::DispatchKey::CPU,
                                       [&](const opd::OperatorEntry&, opd::DispatchKeySet, Stack* s) {
                                         ++inplace_calls;
                                         run("aten::mul_.Scalar", {s->back(), 2.0});
                                       });
  const Tensor x = arange({4});
  const Tensor expected = twice(T("aten::select.int", {x, 0, 1}));
  auto g = opd::functionalize([](const Tensor& a) {
    Tensor v = T("aten::select.int", {a, 0, 1});
    run("t_fz::twice_", {v});
    return v;
  });
  const Tensor out = g(x);
  EXPECT_EQ(values(out), values(expected));
  EXPECT_EQ(values(x)[1], values(expected)[0]);
  EXPECT_EQ(functional_calls, 1);
  EXPECT_EQ(inplace_calls, 0);
}

TEST(FunctionalizeLayer, MutableOperatorUsesItsUnderscoreFunctionalVariant) {
  (void)kernels();
  auto d1 = opd::declare("t_fz::accumulate(Tensor(a!) acc, Tensor x) -> ()");
  auto d2 = opd::declare("t_fz::accumulate_functional(Tensor acc, Tensor x) -> Tensor acc_out");
  auto k1 = opd::register_boxed_kernel("t_fz::accumulate_functional", opd::DispatchKey::CPU,
                                       [](const opd::OperatorEntry&, opd::DispatchKeySet, Stack* s) {
                                         Tensor r = T("aten::add.Tensor", {(*s)[s->size() - 2], s->back(), 1});
                                         s->clear();
                                         s->emplace_back(r);
                                       });
  const Tensor acc = zeros({3});
  const Tensor x = arange({3});
  auto g = opd::functionalize([](const Tensor& a, const Tensor& b) {
    run("t_fz::accumulate", {a, b});
    run("t_fz::accumulate", {a, b});
  });
  g(acc, x);
  EXPECT_EQ(values(acc), values(T("aten::add.Tensor", {x, x, 1})));
}

TEST(FunctionalizeLayer, MutableOperatorWithoutFunctionalVariantIsAnErrorNamingIt) {
  (void)kernels();
  auto d1 = opd::declare("t_fz::poke_(Tensor(a!) self) -> Tensor(a!)");
  const Tensor x = opd::to_functional(arange({2}));
  opd::FunctionalizeGuard on;
  try {
    run("t_fz::poke_", {x});
    FAIL() << "expected an error";
  } catch (const opd::NotImplementedError& e) {
    EXPECT_NE(std::string(e.what()).find("t_fz::poke_"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("t_fz::poke"), std::string::npos) << e.what();
  }
}

TEST(FunctionalizeLayer, ViewThatAlsoWritesCannotBeFunctionalized) {
  (void)kernels();
  auto d1 = opd::declare("t_fz::odd(Tensor(a!) self, Tensor(b) other) -> Tensor(b)");
  const Tensor x = opd::to_functional(arange({2}));
  opd::FunctionalizeGuard on;
  try {
    run("t_fz::odd", {x, x});
    FAIL() << "expected an error";
  } catch (const opd::NotImplementedError& e) {
    EXPECT_NE(std::string(e.what()).find("'t_fz::odd'"), std::string::npos) << e.what();
  }
}

TEST(FunctionalizeLayer, TensorListArgumentsAreUnwrapped) {
  (void)kernels();
  auto d1 = opd::declare("t_fz::total(Tensor[] xs, Tensor?[] ys) -> Tensor");
  auto k1 = opd::register_boxed_kernel("t_fz::total", opd::DispatchKey::CPU,
                                       [](const opd::OperatorEntry&, opd::DispatchKeySet, Stack* s) {
                                         const auto xs = (*s)[0].to_tensor_list();
                                         const auto ys = (*s)[1].to_optional_tensor_list();
                                         Tensor acc = clone(xs[0]);
                                         for (std::size_t i = 1; i < xs.size(); ++i) acc = T("aten::add.Tensor", {acc, xs[i], 1});
                                         for (const auto& y : ys)
                                           if (y) acc = T("aten::add.Tensor", {acc, *y, 1});
                                         s->clear();
                                         s->emplace_back(acc);
                                       });
  expect_same_as_eager(
      [](std::vector<Tensor>& in) {
        Tensor v = T("aten::select.int", {in[0], 0, 0});
        run("aten::add_.Scalar", {v, 5.0, 1});
        std::vector<Tensor> xs{in[0], in[1]};
        std::vector<std::optional<Tensor>> ys{std::nullopt, in[0]};
        return std::vector<Tensor>{T("t_fz::total", {xs, ys})};
      },
      {arange({2, 2}), arange({2, 2}, 1)}, Mode::keep_views);
}

// ---- written tensor lists, chunk in remove_views ------------------------------------

// A foreach-style in-place list operator declared at compile time; its
// functional variant's schema is derived from it at compile time, as torchgen
// derives _foreach_add.Scalar(Tensor[] self, Scalar scalar) -> Tensor[].
struct foreach_add_ : opd::op<"t_fzl::_foreach_add_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()"> {};
struct foreach_add : opd::op<opd::schema::functional_variant_of<foreach_add_>::text> {};

void foreach_add_inplace_cpu(std::span<const Tensor> self, const opd::Scalar& scalar) {
  for (const Tensor& t : self) run("aten::add_.Scalar", {t, scalar, 1});
}
std::vector<Tensor> foreach_add_cpu(std::span<const Tensor> self, const opd::Scalar& scalar) {
  std::vector<Tensor> out;
  for (const Tensor& t : self) out.push_back(T("aten::add.Scalar", {t, scalar, 1}));
  return out;
}

// The test's list operators: compile-time declared ones with CPU kernels, and
// (declared at run time, boxed kernels) a list in-place operator with a
// Tensor?[] argument, an out= operator writing a Tensor(a!)[] (ATen's
// split_copy.Tensor_out pattern) and a mutable operator writing a list, with
// their functional variants.
struct ListOps {
  opd::RegistrationSet set;
  ListOps() {
    (void)kernels();
    set.add(opd::register_kernel<foreach_add_, &foreach_add_inplace_cpu>(opd::DispatchKey::CPU));
    set.add(opd::register_kernel<foreach_add, &foreach_add_cpu>(opd::DispatchKey::CPU));
    // self[i] + alpha * other[i], or self[i] where other[i] is None.
    auto axpy = [](const std::vector<Tensor>& self, const std::vector<std::optional<Tensor>>& other, const IValue& alpha) {
      std::vector<Tensor> out;
      for (std::size_t i = 0; i < self.size(); ++i)
        out.push_back(other[i] ? T("aten::add.Tensor", {self[i], *other[i], alpha}) : clone(self[i]));
      return out;
    };
    set.add(opd::declare("t_fzl::_foreach_axpy_(Tensor(a!)[] self, Tensor?[] other, Scalar alpha) -> ()"));
    set.add(opd::declare("t_fzl::_foreach_axpy(Tensor[] self, Tensor?[] other, Scalar alpha) -> Tensor[]"));
    set.add(opd::register_boxed_kernel("t_fzl::_foreach_axpy_", opd::DispatchKey::CPU,
                                       [axpy](const opd::OperatorEntry&, opd::DispatchKeySet, Stack* s) {
                                         const std::vector<Tensor> self = (*s)[s->size() - 3].to_tensor_list();
                                         const auto r = axpy(self, (*s)[s->size() - 2].to_optional_tensor_list(), s->back());
                                         for (std::size_t i = 0; i < self.size(); ++i) run("aten::copy_", {self[i], r[i], false});
                                         s->resize(s->size() - 3);
                                       }));
    set.add(opd::register_boxed_kernel("t_fzl::_foreach_axpy", opd::DispatchKey::CPU,
                                       [axpy](const opd::OperatorEntry&, opd::DispatchKeySet, Stack* s) {
                                         IValue r(axpy((*s)[s->size() - 3].to_tensor_list(),
                                                       (*s)[s->size() - 2].to_optional_tensor_list(), s->back()));
                                         s->resize(s->size() - 3);
                                         s->push_back(std::move(r));
                                       }));
    // out=: the pieces of split_copy, each out[i] resized to its piece.
    set.add(opd::declare("t_fzl::split_copy.Tensor(Tensor self, int split_size, int dim=0) -> Tensor[]"));
    set.add(opd::declare(
        "t_fzl::split_copy.Tensor_out(Tensor self, int split_size, int dim=0, *, Tensor(a!)[] out) -> ()"));
    set.add(opd::register_boxed_kernel("t_fzl::split_copy.Tensor", opd::DispatchKey::CPU,
                                       [](const opd::OperatorEntry&, opd::DispatchKeySet, Stack* s) {
                                         opd::call_boxed("aten::split_copy.Tensor", *s);
                                       }));
    set.add(opd::register_boxed_kernel(
        "t_fzl::split_copy.Tensor_out", opd::DispatchKey::CPU, [](const opd::OperatorEntry&, opd::DispatchKeySet, Stack* s) {
          const std::vector<Tensor> out = s->back().to_tensor_list();
          s->pop_back();
          opd::call_boxed("aten::split_copy.Tensor", *s);
          const std::vector<Tensor> pieces = s->back().to_tensor_list();
          s->pop_back();
          if (pieces.size() != out.size()) throw opd::Error("t_fzl::split_copy.Tensor_out: wrong number of outs");
          for (std::size_t i = 0; i < out.size(); ++i) {
            out[i].resize_(pieces[i].sizes());
            run("aten::copy_", {out[i], pieces[i], false});
          }
        }));
    // Mutable (neither in-place nor out=): scales every xs[i] by w and returns their sum;
    // its _functional variant's schema is derived at run time, as torchgen derives it.
    const char* scale_all = "t_fzl::scale_all(Tensor(a!)[] xs, Tensor w) -> Tensor";
    set.add(opd::declare(scale_all));
    set.add(opd::declare(opd::schema::functional_variant_text(opd::schema::parse_or_throw(scale_all))));
    set.add(opd::register_boxed_kernel("t_fzl::scale_all", opd::DispatchKey::CPU,
                                       [](const opd::OperatorEntry&, opd::DispatchKeySet, Stack* s) {
                                         const std::vector<Tensor> xs = (*s)[s->size() - 2].to_tensor_list();
                                         const Tensor w = s->back().to_tensor();
                                         Tensor sum = zeros({});
                                         for (const Tensor& x : xs) {
                                           run("aten::mul_.Tensor", {x, w});
                                           sum = T("aten::add.Tensor", {sum, T("aten::sum", {x, IValue()}), 1});
                                         }
                                         s->resize(s->size() - 2);
                                         s->emplace_back(sum);
                                       }));
    set.add(opd::register_boxed_kernel("t_fzl::scale_all_functional", opd::DispatchKey::CPU,
                                       [](const opd::OperatorEntry&, opd::DispatchKeySet, Stack* s) {
                                         const std::vector<Tensor> xs = (*s)[s->size() - 2].to_tensor_list();
                                         const Tensor w = s->back().to_tensor();
                                         Tensor sum = zeros({});
                                         std::vector<Tensor> scaled;
                                         for (const Tensor& x : xs) {
                                           scaled.push_back(T("aten::mul.Tensor", {x, w}));
                                           sum = T("aten::add.Tensor", {sum, T("aten::sum", {scaled.back(), IValue()}), 1});
                                         }
                                         s->resize(s->size() - 2);
                                         s->emplace_back(sum);
                                         s->emplace_back(std::move(scaled));
                                       }));
  }
};
ListOps& list_ops() {
  static ListOps k;
  return k;
}

Tensor empty_tensor() {
  return T("aten::empty.memory_format", {std::vector<int64_t>{0}, IValue(), IValue(), IValue(), IValue(), IValue()});
}

// The program on the tracing backend (remove_views): the values eager
// computes on the CPU, and the operators the backend received.
std::vector<std::string> traced(const Program& p, const std::vector<Tensor>& inputs) {
  std::vector<Tensor> eager_in;
  for (const Tensor& t : inputs) eager_in.push_back(clone(t));
  const std::vector<Tensor> eager_out = p(eager_in);
  lazy::Backend backend;
  std::vector<Tensor> in;
  for (const Tensor& t : inputs) in.push_back(lazy::from_cpu(t));
  std::vector<Tensor> out;
  {
    opd::FunctionalizeGuard on(Mode::remove_views);
    out = p(in);
  }
  EXPECT_EQ(out.size(), eager_out.size());
  for (std::size_t i = 0; i < out.size() && i < eager_out.size(); ++i)
    EXPECT_EQ(values(lazy::to_cpu(out[i])), values(eager_out[i])) << "output " << i;
  for (std::size_t i = 0; i < in.size(); ++i) EXPECT_EQ(values(lazy::to_cpu(in[i])), values(eager_in[i])) << "input " << i;
  std::vector<std::string> ops = backend.ops();
  ops.erase(std::remove(ops.begin(), ops.end(), "input"), ops.end());
  return ops;
}

bool has(const std::vector<std::string>& ops, std::string_view name) {
  return std::find(ops.begin(), ops.end(), name) != ops.end();
}
// No view, in-place or out= operator reached the backend (it refuses them too).
void expect_functional_trace(const std::vector<std::string>& ops) {
  EXPECT_FALSE(ops.empty());
  for (const std::string& name : ops) {
    const opd::AliasFacts& f = opd::Dispatcher::singleton().find_schema_or_throw(name).alias_facts();
    EXPECT_FALSE(f.is_view()) << name;
    EXPECT_TRUE(f.written.empty()) << name;
  }
}

// Elements of one list: views of one base (rows 0 and 2 of in[0]), a view of
// another input (a slice of in[1]) and a base (in[2]); a column of in[0]
// taken before the call sees the update.
const Program foreach_add_program = [](std::vector<Tensor>& in) {
  Tensor col = T("aten::select.int", {in[0], 1, 1});
  std::vector<Tensor> list{T("aten::select.int", {in[0], 0, 0}), T("aten::select.int", {in[0], 0, 2}),
                           T("aten::slice.Tensor", {in[1], 0, 1, 4, 1}), in[2]};
  opd::call<foreach_add_>(std::span<const Tensor>(list), opd::Scalar(2.5));
  return std::vector<Tensor>{col, list[0], list[2], in[0], in[1], in[2]};
};
const std::vector<Tensor> foreach_inputs() { return {arange({3, 4}), arange({6}, 1), arange({2, 2}, 2)}; }

class FunctionalizeLists : public ::testing::TestWithParam<Mode> {
 protected:
  void SetUp() override { (void)list_ops(); }
};

TEST_P(FunctionalizeLists, InPlaceListOperatorCommitsEachElementToItsBase) {
  expect_same_as_eager(foreach_add_program, foreach_inputs(), GetParam());
}

TEST_P(FunctionalizeLists, RunTimeDeclaredListOperatorWithNullOptionalTensors) {
  expect_same_as_eager(
      [](std::vector<Tensor>& in) {
        std::vector<Tensor> self{T("aten::select.int", {in[0], 0, 1}), in[1]};
        std::vector<std::optional<Tensor>> other{std::nullopt, T("aten::t", {in[2]})};
        run("t_fzl::_foreach_axpy_", {self, other, -1.5});
        std::vector<std::optional<Tensor>> other2{T("aten::select.int", {in[0], 0, 0}), std::nullopt};
        run("t_fzl::_foreach_axpy_", {self, other2, 2.0});
        return std::vector<Tensor>{in[0], in[1], in[2]};
      },
      {arange({2, 3}), arange({3, 2}, 1), arange({2, 3}, -1)}, GetParam());
}

TEST_P(FunctionalizeLists, OutListOperatorWritesAndResizesEachOut) {
  expect_same_as_eager(
      [](std::vector<Tensor>& in) {
        Tensor row = T("aten::select.int", {in[1], 0, 1});  // an out of the right size that is a view
        std::vector<Tensor> out{empty_tensor(), T("aten::slice.Tensor", {row, 0, 0, 2, 1}), empty_tensor()};
        run("t_fzl::split_copy.Tensor_out", {in[0], 2, 0, out});
        run("aten::add_.Scalar", {out[0], 1.0, 1});
        return std::vector<Tensor>{out[0], out[1], out[2], in[0], in[1]};
      },
      {arange({5}), arange({2, 4}, 3)}, GetParam());
}

TEST_P(FunctionalizeLists, MutableListOperatorUsesItsDerivedFunctionalVariant) {
  expect_same_as_eager(
      [](std::vector<Tensor>& in) {
        std::vector<Tensor> xs{T("aten::slice.Tensor", {in[0], 0, 0, 2, 1}), in[1]};
        Tensor sum = T("t_fzl::scale_all", {xs, T("aten::select.int", {in[0], 0, 3})});
        return std::vector<Tensor>{sum, in[0], in[1]};
      },
      {arange({4, 2}), arange({2}, 4)}, GetParam());
}

TEST_P(FunctionalizeLists, ChunkWithAnInPlaceOperatorOnOneChunk) {
  expect_same_as_eager(
      [](std::vector<Tensor>& in) {
        std::vector<Tensor> parts = run("aten::chunk", {in[0], 3, 0}).to_tensor_list();  // 3, 3, 1 rows
        run("aten::mul_.Scalar", {parts[1], -2.0});
        run("aten::add_.Scalar", {parts[2], 1.0, 1});
        std::vector<Tensor> empty = run("aten::chunk", {in[1], 3, 0}).to_tensor_list();  // 3 empty pieces
        run("aten::add_.Scalar", {empty[1], 1.0, 1});
        return std::vector<Tensor>{parts[0], parts[1], parts[2], in[0], empty[0], empty[2]};
      },
      {arange({7, 2}), arange({0, 2})}, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Modes, FunctionalizeLists, ::testing::Values(Mode::keep_views, Mode::remove_views));

TEST(FunctionalizeListTraces, InPlaceListOperatorReachesTheBackendAsItsFunctionalVariant) {
  (void)list_ops();
  const std::vector<std::string> ops = traced(foreach_add_program, foreach_inputs());
  expect_functional_trace(ops);
  EXPECT_TRUE(has(ops, "t_fzl::_foreach_add.Scalar"));
  EXPECT_FALSE(has(ops, "t_fzl::_foreach_add_.Scalar"));
}

TEST(FunctionalizeListTraces, OutAndMutableListOperatorsReachTheBackendFunctional) {
  (void)list_ops();
  const std::vector<std::string> ops = traced(
      [](std::vector<Tensor>& in) {
        std::vector<Tensor> out{empty_tensor(), empty_tensor(), empty_tensor()};
        run("t_fzl::split_copy.Tensor_out", {in[0], 2, 0, out});
        std::vector<Tensor> xs{T("aten::select.int", {in[1], 0, 0}), out[1]};
        Tensor sum = T("t_fzl::scale_all", {xs, T("aten::select.int", {in[1], 0, 1})});
        return std::vector<Tensor>{out[0], out[1], out[2], sum};
      },
      {arange({5}), arange({2, 2}, 1)});
  expect_functional_trace(ops);
  EXPECT_TRUE(has(ops, "t_fzl::split_copy.Tensor"));
  EXPECT_TRUE(has(ops, "t_fzl::scale_all_functional"));
}

TEST(FunctionalizeListTraces, ChunkIsSplitCopyBelowTheLayer) {
  (void)list_ops();
  const std::vector<std::string> ops = traced(
      [](std::vector<Tensor>& in) {
        std::vector<Tensor> parts = run("aten::chunk", {in[0], 2, 1}).to_tensor_list();
        run("aten::mul_.Scalar", {parts[0], 3.0});
        std::vector<Tensor> empty = run("aten::chunk", {in[1], 2, -1}).to_tensor_list();  // 2 pieces of 0
        return std::vector<Tensor>{parts[0], parts[1], in[0], empty[1]};
      },
      {arange({2, 5}), arange({3, 0})});
  expect_functional_trace(ops);
  EXPECT_TRUE(has(ops, "aten::split_copy.Tensor"));
  EXPECT_TRUE(has(ops, "aten::split_with_sizes_copy"));
  EXPECT_FALSE(has(ops, "aten::chunk"));
}

// A list whose new values do not keep each element's shape: an error naming
// the operator and the element, and no element changed.
TEST(FunctionalizeListTraces, ListInPlaceShapeChangeIsAnErrorAndChangesNothing) {
  (void)list_ops();
  auto d1 = opd::declare("t_fzl::grow_(Tensor(a!)[] self) -> ()");
  auto d2 = opd::declare("t_fzl::grow(Tensor[] self) -> Tensor[]");
  auto k = opd::register_boxed_kernel("t_fzl::grow", opd::DispatchKey::CPU,
                                      [](const opd::OperatorEntry&, opd::DispatchKeySet, Stack* s) {
                                        std::vector<Tensor> xs = s->back().to_tensor_list();
                                        xs.back() = T("aten::cat", {xs, 0});
                                        s->back() = IValue(std::move(xs));
                                      });
  const Tensor a = opd::to_functional(arange({2}));
  const Tensor b = opd::to_functional(arange({3}, 1));
  opd::FunctionalizeGuard on;
  const std::vector<float> before_a = values(opd::from_functional(a));
  try {
    run("t_fzl::grow_", {std::vector<Tensor>{a, b}});
    FAIL() << "expected an error";
  } catch (const opd::Error& e) {
    EXPECT_NE(std::string(e.what()).find("t_fzl::grow_"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'self[1]'"), std::string::npos) << e.what();
  }
  // A functional variant returning fewer new values than the list has elements.
  auto d3 = opd::declare("t_fzl::drop_(Tensor(a!)[] self) -> ()");
  auto d4 = opd::declare("t_fzl::drop(Tensor[] self) -> Tensor[]");
  auto k2 = opd::register_boxed_kernel("t_fzl::drop", opd::DispatchKey::CPU,
                                       [](const opd::OperatorEntry&, opd::DispatchKeySet, Stack* s) {
                                         std::vector<Tensor> xs = s->back().to_tensor_list();
                                         xs.pop_back();
                                         s->back() = IValue(std::move(xs));
                                       });
  try {
    run("t_fzl::drop_", {std::vector<Tensor>{a, b}});
    FAIL() << "expected an error";
  } catch (const opd::Error& e) {
    EXPECT_NE(std::string(e.what()).find("t_fzl::drop_"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'self'"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(opd::functional_impl(a)->functional_storage()->mutated());
  EXPECT_FALSE(opd::functional_impl(b)->functional_storage()->mutated());
  EXPECT_EQ(values(opd::from_functional(a)), before_a);
}

// An out= list whose element is a view of another size: an error naming the
// operator and the element, and no out changed (the fresh one included).
TEST(FunctionalizeListTraces, OutListResizingAViewElementIsAnErrorAndChangesNothing) {
  (void)list_ops();
  const Tensor x = opd::to_functional(arange({5}));
  const Tensor base = opd::to_functional(arange({2, 4}, 3));
  opd::FunctionalizeGuard on;
  const Tensor fresh = empty_tensor();
  const Tensor row = T("aten::select.int", {base, 0, 1});  // 4 elements; piece 1 has 2
  const std::vector<float> before = values(opd::from_functional(base));
  try {
    run("t_fzl::split_copy.Tensor_out", {x, 2, 0, std::vector<Tensor>{fresh, row, empty_tensor()}});
    FAIL() << "expected an error";
  } catch (const opd::Error& e) {
    EXPECT_NE(std::string(e.what()).find("t_fzl::split_copy.Tensor_out"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'out[1]'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(opd::from_functional(fresh).numel(), 0);
  EXPECT_FALSE(opd::functional_impl(base)->functional_storage()->mutated());
  opd::sync(base);
  EXPECT_EQ(values(opd::from_functional(base)), before);
}

}  // namespace
