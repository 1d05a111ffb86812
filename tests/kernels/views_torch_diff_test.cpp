// The view operators against libtorch 1.13, both called boxed by ATen's name
// with the same arguments over a table of cases: the same error-or-not, and
// for each result the same sizes, strides, storage offset, aliasing of the
// input's storage and values. Where both throw, the messages must be equal
// without opd's "aten::op: " prefix and libtorch's backtrace, except in the
// cases marked `worded_differently` (docs/views.md says why).
#include <gtest/gtest.h>

#ifndef OPD_HAVE_LIBTORCH

TEST(ViewsTorchDiff, RequiresLibtorch) {
  GTEST_SKIP() << "libtorch is not installed (CMake found no ATen headers / libtorch_cpu): the differential test "
                  "of the views is skipped";
}

#else

#include <cstdint>
#include <iostream>
#include <numeric>
#include <string>
#include <vector>

#include <kernels/ops_arithmetic.hpp>
#include "all_kernels.hpp"
#include "kernels/ops_views.hpp"
#include "torch_bridge.hpp"

namespace {
namespace tb = torch_bridge;
namespace ops = opd::kernels::ops;
using V = std::vector<int64_t>;

tb::BoxedArg I(int64_t i) { return tb::BoxedArg{tb::BoxedArg::Kind::Int, i, {}, false}; }
tb::BoxedArg L(V l) { return tb::BoxedArg{tb::BoxedArg::Kind::IntList, 0, std::move(l), false}; }
tb::BoxedArg None() { return tb::BoxedArg{tb::BoxedArg::Kind::None, 0, {}, false}; }
tb::BoxedArg B(bool b) { return tb::BoxedArg{tb::BoxedArg::Kind::Bool, 0, {}, b}; }

struct Case {
  std::string op, overload;
  V self_sizes;
  bool transpose_self;
  std::vector<tb::BoxedArg> args;
  bool worded_differently = false;
};

std::string describe(const Case& c) {
  std::string s = "aten::" + c.op + (c.overload.empty() ? "" : "." + c.overload) + " on [";
  for (std::size_t i = 0; i < c.self_sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(c.self_sizes[i]);
  s += c.transpose_self ? "] transposed (" : "] (";
  for (const tb::BoxedArg& a : c.args) {
    switch (a.kind) {
      case tb::BoxedArg::Kind::Int: s += std::to_string(a.i); break;
      case tb::BoxedArg::Kind::Bool: s += a.b ? "True" : "False"; break;
      case tb::BoxedArg::Kind::None: s += "None"; break;
      case tb::BoxedArg::Kind::IntList:
        s += "[";
        for (int64_t v : a.list) s += std::to_string(v) + ",";
        s += "]";
        break;
    }
    s += " ";
  }
  return s + ")";
}

tb::ViewOutcome ours(const Case& c) {
  tb::ViewOutcome o;
  try {
    int64_t n = 1;
    for (int64_t s : c.self_sizes) n *= s;
    std::vector<float> values(static_cast<std::size_t>(n));
    std::iota(values.begin(), values.end(), 0.f);
    opd::Tensor self = opd::from_vector<float>(values, c.self_sizes);
    if (c.transpose_self) self = opd::call<ops::transpose>(self, 0, -1);
    opd::Stack stack;
    stack.emplace_back(self);
    for (const tb::BoxedArg& a : c.args) {
      switch (a.kind) {
        case tb::BoxedArg::Kind::Int: stack.emplace_back(a.i); break;
        case tb::BoxedArg::Kind::IntList: stack.emplace_back(a.list); break;
        case tb::BoxedArg::Kind::None: stack.emplace_back(); break;
        case tb::BoxedArg::Kind::Bool: stack.emplace_back(a.b); break;
      }
    }
    opd::call_boxed("aten::" + c.op + (c.overload.empty() ? "" : "." + c.overload), stack);
    std::vector<opd::Tensor> outs;
    if (stack.at(0).is_tensor()) {
      outs.push_back(stack.at(0).to_tensor());
    } else {
      outs = stack.at(0).to_tensor_list();
    }
    for (const opd::Tensor& t : outs) {
      tb::ViewResult r;
      r.sizes = t.sizes().vec();
      r.strides = t.strides().vec();
      r.offset = t.storage_offset();
      r.aliases_self = t.is_alias_of(self);
      r.values = opd::to_vector<float>(t);
      o.results.push_back(std::move(r));
    }
  } catch (const opd::Error& e) {
    std::string msg = e.what();
    if (msg.rfind("aten::", 0) == 0) msg.erase(0, msg.find(": ") + 2);
    o.error = msg;
  }
  return o;
}

TEST(ViewsTorchDiff, SizesStridesOffsetsAliasingValuesAndErrors) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  const std::vector<Case> cases = {
      {"view", "", {2, 6}, false, {L({3, -1})}},
      {"view", "", {2, 6}, false, {L({4, 4})}},
      {"view", "", {2, 6}, false, {L({-1, -1})}},
      {"view", "", {2, 3}, true, {L({6})}},
      {"view", "", {2, 3, 4}, true, {L({4, 3, 2, 1})}},
      {"view", "", {1, 4, 1}, true, {L({2, 2})}},
      {"view", "", {0, 3}, false, {L({3, 0})}},
      {"view", "", {0, 3}, false, {L({-1, 0})}},
      {"view", "", {}, false, {L({1, 1})}},
      {"_unsafe_view", "", {2, 6}, false, {L({12})}},
      {"reshape", "", {2, 6}, false, {L({4, 3})}},
      {"reshape", "", {2, 3}, true, {L({6})}},
      {"reshape", "", {3, 4}, true, {L({2, 2, 3})}},
      {"reshape", "", {2, 3}, true, {L({7})}},
      {"transpose", "int", {2, 3, 4}, false, {I(0), I(-1)}},
      {"transpose", "int", {2, 3}, false, {I(0), I(5)}},
      {"transpose", "int", {}, false, {I(0), I(-1)}},
      {"t", "", {2, 3}, false, {}},
      {"t", "", {3}, false, {}},
      {"t", "", {2, 3, 4}, false, {}},
      {"permute", "", {2, 3, 4}, false, {L({1, 2, 0})}},
      {"permute", "", {2, 3, 4}, true, {L({-1, 0, 1})}},
      {"permute", "", {2, 3}, false, {L({0, 0})}},
      // 1.13 names the wrong function: "permute(sparse_coo): ..." for a dense tensor.
      {"permute", "", {2, 3}, false, {L({0})}, true},
      {"slice", "Tensor", {4, 5}, false, {I(1), I(1), I(-1), I(2)}},
      {"slice", "Tensor", {4, 5}, false, {I(0), I(-100), I(100), I(3)}},
      {"slice", "Tensor", {4, 5}, true, {I(1), None(), None(), I(2)}},
      {"slice", "Tensor", {4, 5}, false, {I(0), I(3), I(1), I(1)}},
      {"slice", "Tensor", {4, 5}, false, {I(0), I(0), I(1), I(0)}},
      {"select", "int", {3, 4}, false, {I(1), I(-1)}},
      {"select", "int", {3, 4}, true, {I(0), I(2)}},
      {"select", "int", {3, 4}, false, {I(0), I(3)}},
      {"select", "int", {}, false, {I(0), I(0)}},
      {"narrow", "", {3, 4}, false, {I(0), I(1), I(2)}},
      {"narrow", "", {3, 4}, false, {I(1), I(-2), I(2)}},
      {"narrow", "", {3, 4}, false, {I(1), I(3), I(2)}},
      // 1.13 checks start as a dimension ("Dimension out of range ... [-4, 3]"); opd as PyTorch 2.x.
      {"narrow", "", {3, 4}, false, {I(1), I(5), I(0)}, true},
      {"diagonal", "", {3, 4}, false, {I(1), I(0), I(1)}},
      {"diagonal", "", {3, 4}, false, {I(-1), I(0), I(1)}},
      {"diagonal", "", {3, 4}, false, {I(9), I(0), I(1)}},
      {"diagonal", "", {2, 3, 4}, true, {I(0), I(2), I(0)}},
      {"diagonal", "", {3, 4}, false, {I(0), I(1), I(-1)}},
      {"unsqueeze", "", {2, 3}, false, {I(1)}},
      {"unsqueeze", "", {2, 3}, true, {I(-1)}},
      {"unsqueeze", "", {}, false, {I(0)}},
      {"unsqueeze", "", {2, 3}, false, {I(4)}},
      {"squeeze", "", {1, 3, 1}, false, {}},
      {"squeeze", "dim", {1, 3, 1}, false, {I(2)}},
      {"squeeze", "dim", {1, 3, 1}, false, {I(1)}},
      {"squeeze", "dim", {}, false, {I(0)}},
      {"expand", "", {3, 1}, false, {L({2, 3, 4}), B(false)}},
      {"expand", "", {3, 1}, false, {L({-1, 5}), B(false)}},
      {"expand", "", {3, 1}, true, {L({4, -1}), B(true)}},
      // libtorch starts with "expand(CPUFloatType{[2, 3]}, size=[3]): "; opd with the operator's name only.
      {"expand", "", {2, 3}, false, {L({3}), B(false)}, true},
      {"expand", "", {2, 3}, false, {L({2, 4}), B(false)}},
      {"expand", "", {2, 3}, false, {L({-1, 2, 3}), B(false)}},
      {"expand", "", {}, false, {L({2, 2}), B(false)}},
      {"as_strided", "", {10}, false, {L({2, 2}), L({1, 2}), I(3)}},
      {"as_strided", "", {10}, false, {L({2, 2}), L({1, 2}), None()}},
      {"as_strided", "", {10}, false, {L({4}), L({3}), None()}},
      {"as_strided", "", {10}, false, {L({2, 2}), L({1}), None()}},
      {"alias", "", {2, 3}, true, {}},
      {"split", "Tensor", {7, 2}, false, {I(3), I(0)}},
      {"split", "Tensor", {7, 2}, true, {I(1), I(-1)}},
      {"split", "Tensor", {2, 3}, false, {I(0), I(1)}},
      {"split", "Tensor", {0, 3}, false, {I(0), I(0)}},
      {"split", "Tensor", {2, 3}, false, {I(-1), I(1)}},
      {"split_with_sizes", "", {7, 2}, false, {L({1, 6}), I(0)}},
      {"split_with_sizes", "", {7, 2}, false, {L({1, 1}), I(0)}},
      {"split_with_sizes", "", {7, 2}, false, {L({8, -1}), I(0)}},
      {"unbind", "int", {3, 2}, true, {I(1)}},
      {"unbind", "int", {}, false, {I(0)}},
      {"chunk", "", {7, 2}, false, {I(3), I(0)}},
      {"chunk", "", {6, 2}, false, {I(4), I(0)}},
      {"chunk", "", {0, 2}, false, {I(3), I(0)}},
      {"chunk", "", {2, 3}, false, {I(0), I(0)}},
      {"unfold", "", {2, 7}, false, {I(1), I(3), I(2)}},
      {"unfold", "", {2, 7}, true, {I(0), I(2), I(1)}},
      {"unfold", "", {}, false, {I(0), I(1), I(1)}},
      {"unfold", "", {2, 3}, false, {I(1), I(4), I(1)}},
      {"unfold", "", {2, 3}, false, {I(1), I(2), I(0)}},
      {"flatten", "using_ints", {2, 3, 4}, false, {I(1), I(2)}},
      {"flatten", "using_ints", {2, 3, 4}, true, {I(0), I(1)}},
      {"flatten", "using_ints", {}, false, {I(0), I(-1)}},
      {"flatten", "using_ints", {2, 3}, false, {I(1), I(0)}},
      {"detach", "", {2, 3}, true, {}},
  };
  std::size_t both_threw = 0, same_message = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(describe(c));
    const tb::ViewOutcome theirs = tb::call_view(c.op, c.overload, c.self_sizes, c.transpose_self, c.args);
    const tb::ViewOutcome mine = ours(c);
    ASSERT_EQ(mine.error.has_value(), theirs.error.has_value())
        << "opd: " << mine.error.value_or("no error") << "\nlibtorch: " << theirs.error.value_or("no error");
    if (mine.error) {
      ++both_threw;
      const std::string& t = *theirs.error;
      const std::string first_line = t.substr(0, t.find('\n'));
      if (*mine.error == first_line) ++same_message;
      if (!c.worded_differently) {
        EXPECT_EQ(*mine.error, first_line);
      }
      continue;
    }
    ASSERT_EQ(mine.results.size(), theirs.results.size());
    for (std::size_t i = 0; i < mine.results.size(); ++i) {
      EXPECT_EQ(mine.results[i].sizes, theirs.results[i].sizes) << "result " << i;
      EXPECT_EQ(mine.results[i].strides, theirs.results[i].strides) << "result " << i;
      EXPECT_EQ(mine.results[i].offset, theirs.results[i].offset) << "result " << i;
      EXPECT_EQ(mine.results[i].aliases_self, theirs.results[i].aliases_self) << "result " << i;
      EXPECT_EQ(mine.results[i].values, theirs.results[i].values) << "result " << i;
    }
  }
  std::cout << cases.size() << " cases; " << both_threw << " errors on both sides, " << same_message
            << " with the same message\n";
  EXPECT_GT(both_threw, 0u);
  EXPECT_GT(same_message, 0u);
}

}  // namespace

#endif  // OPD_HAVE_LIBTORCH
