// functionalization::view_inverse and view_forward against eager execution: for
// every view operator, on a table of arguments (negative dims, steps,
// clamped slices, every output of the multi-output views), in both modes:
//   eager:  b = base.clone(); v = view(b)[i]; v.add_(1) (through a sub-view
//           that touches each base element once, for expand and overlapping
//           unfold, where eager adds through every copy)
//   functional: m = view_forward(base)[i] + 1 (the same sub-view of it);
//               view_inverse(base, m) must equal b, and base stays unchanged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <functionalize/view_inverse.hpp>
#include <kernels/ops_arithmetic.hpp>
#include "all_kernels.hpp"
#include <kernels/ops_view_copies.hpp>
#include <kernels/ops_views.hpp>

namespace {
using opd::Tensor;
namespace ops = opd::kernels::ops;
namespace fz = opd::functionalization;
using V = std::vector<int64_t>;

struct Case {
  std::string op;
  V sizes;
  opd::Stack args;
  int64_t outputs = 1;  // outputs of a multi-output view (each is tested)
  V select_last = {};   // mutate v.select(d, last) for each d in turn (views that repeat base elements)
};

Tensor distinct_values(const V& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = 0.25f * static_cast<float>(i * i % 97) - 3.f;
  return opd::from_vector<float>(v, sizes);
}

Tensor output_of(const std::string& op, const Tensor& self, const opd::Stack& args, int64_t index) {
  opd::Stack stack{self};
  for (const opd::IValue& a : args) stack.push_back(a);
  opd::call_boxed(op, stack);
  if (stack[0].is_tensor_list()) return stack[0].to_tensor_list().at(static_cast<std::size_t>(index));
  return stack[0].to_tensor();
}

// add_(1) on t, or on t.select(d, -1) for each d of select_last in turn.
void add_one(Tensor t, const V& select_last) {
  for (int64_t d : select_last) t = opd::call<ops::select>(t, d, -1);
  opd::call<ops::add_scalar::inplace>(t, opd::Scalar(1.0));
}

std::string describe(const Case& c, int64_t index, fz::InverseMode mode) {
  std::string s = c.op + " [";
  for (int64_t x : c.sizes) s += std::to_string(x) + ",";
  s += "] args";
  for (const opd::IValue& a : c.args) {
    std::ostringstream os;
    os << a;
    s += " " + os.str();
  }
  return s + " output " + std::to_string(index) + (mode == fz::InverseMode::keep_views ? " keep_views" : " remove_views");
}

std::vector<Case> cases() {
  using I = opd::IValue;
  return {
      {"aten::view", {2, 6}, {I(V{3, 4})}},
      {"aten::view", {2, 3, 2}, {I(V{-1})}},
      {"aten::reshape", {2, 6}, {I(V{4, -1})}},
      {"aten::flatten.using_ints", {2, 3, 2}, {I(int64_t{1}), I(int64_t{-1})}},
      {"aten::transpose.int", {2, 3, 4}, {I(int64_t{0}), I(int64_t{-1})}},
      {"aten::t", {3, 4}, {}},
      {"aten::t", {5}, {}},
      {"aten::permute", {2, 3, 4}, {I(V{2, 0, 1})}},
      {"aten::permute", {2, 3, 4}, {I(V{-1, -3, -2})}},
      {"aten::slice.Tensor", {5, 4}, {I(int64_t{0}), I(int64_t{1}), I(int64_t{4}), I(int64_t{2})}},
      {"aten::slice.Tensor", {5, 4}, {I(int64_t{-1}), I(), I(int64_t{-1}), I(int64_t{1})}},
      {"aten::slice.Tensor", {5, 4}, {I(int64_t{0}), I(int64_t{-3}), I(int64_t{100}), I(int64_t{3})}},
      {"aten::narrow", {5, 4}, {I(int64_t{1}), I(int64_t{-3}), I(int64_t{2})}},
      {"aten::select.int", {3, 4}, {I(int64_t{1}), I(int64_t{-1})}},
      {"aten::select.int", {3, 4, 2}, {I(int64_t{0}), I(int64_t{1})}},
      {"aten::diagonal", {3, 4}, {I(int64_t{1}), I(int64_t{0}), I(int64_t{1})}},
      {"aten::diagonal", {3, 4, 2}, {I(int64_t{-1}), I(int64_t{-1}), I(int64_t{0})}},
      {"aten::unsqueeze", {3, 4}, {I(int64_t{-1})}},
      {"aten::unsqueeze", {3, 4}, {I(int64_t{0})}},
      {"aten::squeeze", {1, 3, 1, 2}, {}},
      {"aten::squeeze.dim", {3, 1, 2}, {I(int64_t{1})}},
      {"aten::squeeze.dim", {3, 1, 2}, {I(int64_t{-1})}},
      {"aten::expand", {3, 1}, {I(V{2, 3, 4}), I(false)}, 1, {-1, 0}},
      {"aten::expand", {3, 4}, {I(V{-1, 4}), I(false)}},
      {"aten::expand_as", {3, 1}, {I(distinct_values({2, 3, 4}))}, 1, {-1, 0}},
      {"aten::as_strided", {4, 4}, {I(V{2, 2}), I(V{4, 1}), I(int64_t{5})}},
      {"aten::as_strided", {4, 4}, {I(V{3, 2}), I(V{1, 8}), I()}},
      {"aten::alias", {2, 3}, {}},
      {"aten::detach", {2, 3}, {}},
      {"aten::split.Tensor", {5, 2}, {I(int64_t{2}), I(int64_t{0})}, 3},
      {"aten::split.Tensor", {2, 7}, {I(int64_t{3}), I(int64_t{-1})}, 3},
      {"aten::split_with_sizes", {2, 6}, {I(V{1, 3, 2}), I(int64_t{1})}, 3},
      {"aten::chunk", {7, 2}, {I(int64_t{3}), I(int64_t{0})}, 3},
      {"aten::unbind.int", {3, 2}, {I(int64_t{0})}, 3},
      {"aten::unbind.int", {3, 2}, {I(int64_t{-1})}, 2},
      {"aten::unfold", {7}, {I(int64_t{0}), I(int64_t{2}), I(int64_t{3})}},   // gaps between windows
      {"aten::unfold", {6, 2}, {I(int64_t{0}), I(int64_t{2}), I(int64_t{2})}},
      {"aten::unfold", {3, 7}, {I(int64_t{-1}), I(int64_t{3}), I(int64_t{3})}},  // a tail no window covers
      {"aten::unfold", {7}, {I(int64_t{0}), I(int64_t{3}), I(int64_t{1})}, 1, {0}},  // overlapping windows
  };
}

TEST(ViewInverse, EveryViewUndoesAnAddThroughItAsEagerDoes) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  std::size_t checked = 0;
  for (const Case& c : cases()) {
    ASSERT_TRUE(fz::has_view_inverse(c.op)) << c.op;
    for (int64_t index = 0; index < c.outputs; ++index) {
      const Tensor base = distinct_values(c.sizes);
      const std::vector<float> base_values = opd::to_vector<float>(base);
      Tensor eager = opd::call<ops::clone>(base);
      add_one(output_of(c.op, eager, c.args, index), c.select_last);
      for (fz::InverseMode mode : {fz::InverseMode::keep_views, fz::InverseMode::remove_views}) {
        const std::string what = describe(c, index, mode);
        const Tensor forward = fz::view_forward(c.op, base, c.args, index, mode);
        const Tensor view = output_of(c.op, base, c.args, index);
        EXPECT_EQ(forward.sizes(), view.sizes()) << what;
        EXPECT_EQ(opd::to_vector<float>(forward), opd::to_vector<float>(view)) << what;
        if (mode == fz::InverseMode::remove_views) {
          EXPECT_FALSE(forward.is_alias_of(base)) << what;
        }
        Tensor mutated = opd::call<ops::clone>(forward, opd::arg<"memory_format"> = opd::MemoryFormat::Contiguous);
        add_one(mutated, c.select_last);
        const Tensor result = fz::view_inverse(c.op, base, mutated, c.args, index, mode);
        EXPECT_EQ(result.sizes(), eager.sizes()) << what;
        EXPECT_EQ(opd::to_vector<float>(result), opd::to_vector<float>(eager)) << what;
        EXPECT_EQ(opd::to_vector<float>(base), base_values) << what << ": base changed";
        // by the operator's entry: the same
        const opd::OperatorEntry& entry = opd::Dispatcher::singleton().find_schema_or_throw(c.op);
        EXPECT_EQ(opd::to_vector<float>(fz::view_inverse(entry, base, mutated, c.args, index, mode)),
                  opd::to_vector<float>(result)) << what;
        EXPECT_EQ(opd::to_vector<float>(fz::view_forward(entry, base, c.args, index, mode)),
                  opd::to_vector<float>(forward)) << what;
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 2u * cases().size());
}

// The same comparison with eager on random shapes and arguments (a fixed seed,
// so a failure replays): 400 draws over the views with dims, indices and steps.
TEST(ViewInverse, RandomArgumentsMatchEager) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  std::mt19937 rng(12);
  auto pick = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  using I = opd::IValue;
  std::size_t checked = 0;
  for (int draw = 0; draw < 400; ++draw) {
    V sizes(static_cast<std::size_t>(pick(1, 3)));
    for (int64_t& x : sizes) x = pick(1, 5);
    const int64_t nd = static_cast<int64_t>(sizes.size());
    const int64_t d = pick(-nd, nd - 1);
    const int64_t n = sizes[static_cast<std::size_t>(d < 0 ? d + nd : d)];
    Case c;
    c.sizes = sizes;
    switch (pick(0, 10)) {
      case 0: c = {"aten::transpose.int", sizes, {I(d), I(pick(-nd, nd - 1))}}; break;
      case 1: {
        V perm(sizes.size());
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), rng);
        c = {"aten::permute", sizes, {I(perm)}};
        break;
      }
      case 2: c = {"aten::slice.Tensor", sizes, {I(d), I(pick(-n - 1, n)), I(pick(-n, n + 1)), I(pick(1, 3))}}; break;
      case 3: c = {"aten::select.int", sizes, {I(d), I(pick(-n, n - 1))}}; break;
      case 4:
        if (nd < 2) continue;
        c = {"aten::diagonal", sizes, {I(pick(-2, 2)), I(int64_t{0}), I(int64_t{-1})}};
        break;
      case 5: c = {"aten::unsqueeze", sizes, {I(pick(-nd - 1, nd))}}; break;
      case 6: c = {"aten::squeeze.dim", sizes, {I(d)}}; break;
      case 7: {
        const int64_t split = pick(1, n);
        c = {"aten::split.Tensor", sizes, {I(split), I(d)}, (n + split - 1) / split};
        break;
      }
      case 8: c = {"aten::unbind.int", sizes, {I(d)}, n}; break;
      case 9: {
        const int64_t size = pick(1, n), step = pick(1, 3);
        c = {"aten::unfold", sizes, {I(d), I(size), I(step)}};
        if (step < size) c.select_last = {d < 0 ? d - 1 : d};  // overlapping: through one window
        break;
      }
      default: c = {"aten::narrow", sizes, {I(d), I(pick(-n, n - 1)), I(int64_t{0})}}; break;
    }
    if (c.op == "aten::narrow") {  // a length that fits the start
      const int64_t start = c.args[1].to_int() < 0 ? c.args[1].to_int() + n : c.args[1].to_int();
      c.args[2] = I(pick(0, n - start));
    }
    for (int64_t index = 0; index < c.outputs; ++index) {
      const Tensor base = distinct_values(c.sizes);
      Tensor eager = opd::call<ops::clone>(base);
      add_one(output_of(c.op, eager, c.args, index), c.select_last);
      for (fz::InverseMode mode : {fz::InverseMode::keep_views, fz::InverseMode::remove_views}) {
        Tensor mutated = opd::call<ops::clone>(fz::view_forward(c.op, base, c.args, index, mode));
        add_one(mutated, c.select_last);
        const Tensor result = fz::view_inverse(c.op, base, mutated, c.args, index, mode);
        EXPECT_EQ(opd::to_vector<float>(result), opd::to_vector<float>(eager)) << describe(c, index, mode);
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 600u);
}

// Where windows overlap, an add through the whole unfold adds once per window
// that holds an element (what eager's in-place add does, element by element).
TEST(ViewInverse, OverlappingUnfoldSumsTheChangesOfEveryWindow) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  const Tensor base = distinct_values({6});
  const opd::Stack args{int64_t{0}, int64_t{3}, int64_t{1}};
  for (fz::InverseMode mode : {fz::InverseMode::keep_views, fz::InverseMode::remove_views}) {
    Tensor mutated = opd::call<ops::clone>(fz::view_forward("aten::unfold", base, args, 0, mode));
    opd::call<ops::add_scalar::inplace>(mutated, opd::Scalar(1.0));
    const std::vector<float> got = opd::to_vector<float>(fz::view_inverse("aten::unfold", base, mutated, args, 0, mode));
    const std::vector<float> before = opd::to_vector<float>(base);
    const std::vector<float> windows_holding = {1, 2, 3, 3, 2, 1};  // element i is in min(i+1, 3, 6-i) windows
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_FLOAT_EQ(got[i], before[i] + windows_holding[i]) << i;
  }
}

// What the two functions call (directly: a mode fallback at Tracer logs each
// call and runs it with Tracer excluded, so calls made inside kernels are not
// logged): in remove_views mode no view and no in-place operator.
TEST(ViewInverse, RemoveViewsModeCallsNoViewAndNoInPlaceOperator) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  std::vector<std::string> log;
  auto tracer = opd::register_fallback(opd::DispatchKey::Tracer,
                                       [&](const opd::OperatorEntry& op, opd::DispatchKeySet, opd::Stack* stack) {
                                         log.push_back(op.name());
                                         opd::ExcludeDispatchKeyGuard off(opd::DispatchKey::Tracer);
                                         opd::call_boxed(op, *stack);
                                       });
  auto in_place = [](const std::string& name) {
    const std::string base = name.substr(0, name.find('.'));
    return base.back() == '_';
  };
  std::set<std::string> seen;
  for (const Case& c : cases()) {
    for (int64_t index = 0; index < c.outputs; ++index) {
      const Tensor base = distinct_values(c.sizes);
      log.clear();
      {
        opd::IncludeDispatchKeyGuard on(opd::DispatchKey::Tracer);
        const Tensor v = fz::view_forward(c.op, base, c.args, index, fz::InverseMode::remove_views);
        Tensor m = opd::call<ops::clone>(v);
        (void)fz::view_inverse(c.op, base, m, c.args, index, fz::InverseMode::remove_views);
      }
      EXPECT_FALSE(log.empty()) << c.op;
      for (const std::string& name : log) {
        EXPECT_FALSE(fz::has_view_inverse(name)) << c.op << " calls the view " << name;
        EXPECT_FALSE(in_place(name)) << c.op << " calls the in-place " << name;
        seen.insert(name);
      }
    }
  }
  EXPECT_TRUE(seen.count("aten::slice_scatter") && seen.count("aten::select_scatter") &&
              seen.count("aten::view_copy") && seen.count("aten::as_strided_scatter"));
}

TEST(ViewInverse, UnknownOperatorsAndBadArgumentsAreErrorsNamingTheOperator) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  const Tensor base = distinct_values({2, 3});
  EXPECT_FALSE(fz::has_view_inverse("aten::add.Tensor"));
  try {
    (void)fz::view_inverse("aten::add.Tensor", base, base, {}, 0, fz::InverseMode::remove_views);
    ADD_FAILURE() << "no error";
  } catch (const opd::Error& e) {
    EXPECT_NE(std::string(e.what()).find("aten::add.Tensor"), std::string::npos) << e.what();
  }
  try {
    (void)fz::view_forward("aten::transpose.int", base, {int64_t{0}}, 0, fz::InverseMode::keep_views);
    ADD_FAILURE() << "no error";
  } catch (const opd::Error& e) {
    EXPECT_NE(std::string(e.what()).find("aten::transpose.int"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)fz::view_forward("aten::split.Tensor", base, {int64_t{1}, int64_t{0}}, 2,
                                      fz::InverseMode::remove_views),
               opd::IndexError);
  EXPECT_THROW((void)fz::view_inverse("aten::t", base, base, {}, 1, fz::InverseMode::keep_views), opd::IndexError);
  // The operator's entry gives the same as its name.
  const opd::OperatorEntry& t = opd::Dispatcher::singleton().find_schema_or_throw("aten::t");
  const Tensor mutated = opd::call<ops::t_copy>(base);
  EXPECT_EQ(opd::to_vector<float>(fz::view_inverse(t, base, mutated, {}, 0, fz::InverseMode::remove_views)),
            opd::to_vector<float>(base));
}

}  // namespace
