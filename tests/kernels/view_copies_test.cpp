// The *_copy operators (kernels/ops_view_copies.hpp) and the scatter
// operators (kernels/ops_scatter.hpp):
//  - each derived *_copy schema is ATen 1.13's (the jsonl's text);
//  - a *_copy call gives the view's sizes and values, dense (as clone), in fresh
//    storage, on CPU (contiguous and transposed inputs) and Meta tensors;
//  - the scatters write src where the view would see it and nothing else,
//    leave self unchanged, and refuse a src of other sizes;
//  - unfold_backward (complex too) and sum.dim_IntList sum what they should;
//  - with libtorch, the *_copy operators equal libtorch's, boxed by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <utility>
#include <fstream>
#include <functional>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <kernels/ops_arithmetic.hpp>
#include "all_kernels.hpp"
#include <kernels/ops_reductions.hpp>
#include <kernels/ops_scatter.hpp>
#include <kernels/ops_view_copies.hpp>
#include <kernels/ops_views.hpp>
#ifdef OPD_HAVE_LIBTORCH
#include "torch_bridge.hpp"
#endif

namespace {
using opd::Tensor;
namespace ops = opd::kernels::ops;
using V = std::vector<int64_t>;

std::map<std::string, std::string> aten_schemas() {
  std::ifstream in(OPD_TEST_DATA_DIR "/native_functions_1.13.jsonl");
  EXPECT_TRUE(in.good());
  std::map<std::string, std::string> by_name;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const std::string schema = "aten::" + nlohmann::json::parse(line).at("schema").get<std::string>();
    by_name.emplace(schema.substr(0, schema.find('(')), schema);
  }
  return by_name;
}

template <class... Copies>
std::size_t check_schemas(const std::map<std::string, std::string>& aten) {
  std::size_t n = 0;
  auto one = [&](std::string_view text, std::string_view view_text) {
    const std::string s(text);
    const std::string name = s.substr(0, s.find('('));
    const auto it = aten.find(name);
    ASSERT_NE(it, aten.end()) << name << " (derived from " << view_text << ") is not in ATen 1.13";
    EXPECT_EQ(s, it->second) << "derived from " << view_text;
    ++n;
  };
  (one(Copies::schema_str, Copies::view_op::schema_str), ...);
  return n;
}

TEST(ViewCopies, DerivedSchemasAreAtens) {
  const auto aten = aten_schemas();
  const std::size_t n =
      check_schemas<ops::view_copy, ops::transpose_copy, ops::t_copy, ops::permute_copy, ops::slice_copy,
                    ops::select_copy, ops::diagonal_copy, ops::unsqueeze_copy, ops::squeeze_copy,
                    ops::squeeze_dim_copy, ops::expand_copy, ops::as_strided_copy, ops::alias_copy, ops::split_copy,
                    ops::split_with_sizes_copy, ops::unbind_copy, ops::unfold_copy, ops::detach_copy,
                    ops::view_as_real_copy, ops::view_as_complex_copy>(aten);
  EXPECT_EQ(n, 20u);
  // The scatters, unfold_backward, sum.dim_IntList, zero_, copy, fill are declared with ATen's text.
  for (std::string_view s : {ops::slice_scatter::schema_str, ops::select_scatter::schema_str,
                             ops::diagonal_scatter::schema_str, ops::as_strided_scatter::schema_str,
                             ops::unfold_backward::schema_str, ops::sum_dim::schema_str, ops::zero_::schema_str,
                             ops::copy::schema_str, ops::fill::schema_str}) {
    const std::string text(s);
    EXPECT_EQ(aten.at(text.substr(0, text.find('('))), text);
  }
}

struct Case {
  std::string view;  // the view's full name; its copy is <name>_copy.<overload>
  V sizes;
  bool transposed;
  opd::Stack args;
};

std::string copy_name(const std::string& view) {
  const std::size_t dot = view.find('.');
  return dot == std::string::npos ? view + "_copy" : view.substr(0, dot) + "_copy" + view.substr(dot);
}

std::vector<Tensor> boxed(const std::string& op, const Tensor& self, const opd::Stack& args) {
  opd::Stack stack{self};
  for (const opd::IValue& a : args) stack.push_back(a);
  opd::call_boxed(op, stack);
  if (stack[0].is_tensor_list()) return stack[0].to_tensor_list();
  return {stack[0].to_tensor()};
}

Tensor arange(const V& sizes, bool transposed, opd::Device device = opd::Device::cpu()) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<float> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), -3.f);
  Tensor t = opd::from_vector<float>(v, sizes);
  if (device.is_meta()) t = opd::empty(t.sizes(), t.dtype(), device);
  return transposed ? opd::call<ops::transpose>(t, 0, -1) : t;
}

// Some order of the dims (size-1 dims left out) is contiguous.
bool dense(const Tensor& t) {
  std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size)
  for (std::size_t d = 0; d < t.sizes().size(); ++d)
    if (t.sizes()[d] != 1) dims.emplace_back(t.strides()[d], t.sizes()[d]);
  std::sort(dims.begin(), dims.end());
  int64_t expected = 1;
  for (const auto& [stride, size] : dims) {
    if (stride != expected) return false;
    expected *= size;
  }
  return true;
}

std::vector<Case> cases() {
  using I = opd::IValue;
  const int64_t z = 0, one = 1, two = 2, m1 = -1;
  return {
      {"aten::view", {2, 6}, false, {I(V{3, 4})}},
      {"aten::transpose.int", {2, 3, 4}, true, {I(z), I(m1)}},
      {"aten::t", {3, 4}, true, {}},
      {"aten::permute", {2, 3, 4}, true, {I(V{2, 0, 1})}},
      {"aten::slice.Tensor", {5, 4}, true, {I(one), I(), I(m1), I(two)}},
      {"aten::select.int", {3, 4}, true, {I(one), I(m1)}},
      {"aten::diagonal", {3, 4}, false, {I(one), I(z), I(one)}},
      {"aten::unsqueeze", {3, 4}, true, {I(m1)}},
      {"aten::squeeze", {1, 3, 1}, false, {}},
      {"aten::squeeze.dim", {3, 1}, true, {I(m1)}},
      {"aten::expand", {3, 1}, false, {I(V{2, 3, 4}), I(false)}},
      {"aten::as_strided", {4, 4}, false, {I(V{2, 3}), I(V{1, 4}), I(one)}},
      {"aten::alias", {2, 3}, true, {}},
      {"aten::split.Tensor", {5, 2}, true, {I(two), I(one)}},
      {"aten::split_with_sizes", {2, 6}, false, {I(V{1, 3, 2}), I(one)}},
      {"aten::unbind.int", {3, 2}, true, {I(z)}},
      {"aten::unfold", {7, 2}, false, {I(z), I(int64_t{3}), I(two)}},
      {"aten::detach", {2, 3}, true, {}},
  };
}

TEST(ViewCopies, ResultsAreTheViewsValuesDenseInFreshStorage) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  std::size_t checked = 0;
  for (const Case& c : cases()) {
    for (opd::Device device : {opd::Device::cpu(), opd::Device(opd::DeviceType::Meta)}) {
      const Tensor self = arange(c.sizes, c.transposed, device);
      const std::vector<Tensor> views = boxed(c.view, self, c.args);
      const std::vector<Tensor> copies = boxed(copy_name(c.view), self, c.args);
      ASSERT_EQ(views.size(), copies.size()) << c.view;
      for (std::size_t i = 0; i < views.size(); ++i) {
        EXPECT_EQ(copies[i].sizes(), views[i].sizes()) << c.view << " " << i;
        EXPECT_TRUE(dense(copies[i])) << c.view << " " << i;  // the strides themselves: EqualLibtorchs
        EXPECT_FALSE(copies[i].is_alias_of(self)) << c.view << " " << i;
        EXPECT_FALSE(copies[i].is_view()) << c.view << " " << i;
        EXPECT_EQ(copies[i].device(), device) << c.view;
        if (device.is_cpu()) {
          EXPECT_EQ(opd::to_vector<float>(copies[i]), opd::to_vector<float>(views[i])) << c.view;
        }
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 2 * cases().size());
}

TEST(ViewCopies, BadArgumentsFailAsTheViewDoes) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  const Tensor x = arange({2, 3}, false);
  EXPECT_THROW((void)opd::call<ops::transpose_copy>(x, 0, 5), opd::IndexError);
  try {
    (void)opd::call<ops::view_copy>(x, V{4, -1});
    ADD_FAILURE() << "no error";
  } catch (const opd::Error& e) {
    EXPECT_NE(std::string(e.what()).find("aten::view"), std::string::npos) << e.what();
  }
}

// Every element of `expected_view_of(self)` replaced by src, the rest kept.
void expect_scatter(const Tensor& result, const Tensor& self, const Tensor& src,
                    const std::function<Tensor(const Tensor&)>& view_of) {
  const std::vector<float> before = opd::to_vector<float>(self);
  // Where the view sits: a copy of self with the view's elements set to a marker.
  Tensor marked = opd::call<ops::clone>(self, opd::arg<"memory_format"> = opd::MemoryFormat::Contiguous);
  Tensor v = view_of(marked);
  opd::call<ops::fill_>(v, opd::Scalar(1e6));
  const std::vector<float> marks = opd::to_vector<float>(marked);
  const std::vector<float> got = opd::to_vector<float>(result);
  ASSERT_EQ(result.sizes(), self.sizes());
  for (std::size_t i = 0; i < got.size(); ++i)
    if (marks[i] != 1e6f) {
      EXPECT_EQ(got[i], before[i]) << i;
    }
  EXPECT_EQ(opd::to_vector<float>(view_of(result)), opd::to_vector<float>(src));
  EXPECT_EQ(opd::to_vector<float>(self), before) << "self changed";
  EXPECT_FALSE(result.is_alias_of(self));
}

TEST(Scatter, WritesSrcWhereTheViewIsAndKeepsTheRest) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  const Tensor self = arange({4, 5}, true);  // [5, 4], transposed
  {
    const Tensor src = arange({5, 1}, false);
    const Tensor r = opd::call<ops::slice_scatter>(self, opd::call<ops::clone>(src), 1, int64_t{1}, int64_t{-1}, int64_t{2});
    expect_scatter(r, self, src, [](const Tensor& t) { return opd::call<ops::slice>(t, 1, int64_t{1}, int64_t{-1}, int64_t{2}); });
  }
  {
    const Tensor src = arange({5}, false);
    const Tensor r = opd::call<ops::select_scatter>(self, src, -1, 2);
    expect_scatter(r, self, src, [](const Tensor& t) { return opd::call<ops::select>(t, -1, 2); });
  }
  {
    const Tensor src = arange({4}, false);  // self is [5, 4]: offset -1 holds 4
    const Tensor r = opd::call<ops::diagonal_scatter>(self, src, -1, 0, 1);
    expect_scatter(r, self, src, [](const Tensor& t) { return opd::call<ops::diagonal>(t, -1, 0, 1); });
  }
  {
    const Tensor base = arange({4, 4}, false);
    const Tensor src = arange({2, 2}, false);
    const Tensor r = opd::call<ops::as_strided_scatter>(base, src, V{2, 2}, V{1, 4}, int64_t{5});
    expect_scatter(r, base, src, [](const Tensor& t) { return opd::call<ops::as_strided>(t, V{2, 2}, V{1, 4}, int64_t{5}); });
  }
}

TEST(Scatter, SrcOfOtherSizesIsAnErrorAndSelfStaysUnchanged) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  const Tensor self = arange({3, 4}, false);
  const std::vector<float> before = opd::to_vector<float>(self);
  try {
    (void)opd::call<ops::select_scatter>(self, arange({3}, false), 0, 1);
    ADD_FAILURE() << "no error";
  } catch (const opd::Error& e) {
    EXPECT_NE(std::string(e.what()).find("aten::select_scatter: expected src to have a size equal to the slice of self"),
              std::string::npos) << e.what();
  }
  EXPECT_THROW((void)opd::call<ops::slice_scatter>(self, arange({3, 4}, false), 0, int64_t{1}), opd::Error);
  EXPECT_THROW((void)opd::call<ops::diagonal_scatter>(self, arange({4}, false)), opd::Error);
  EXPECT_EQ(opd::to_vector<float>(self), before);
}

TEST(Scatter, UnfoldBackwardAndSumAdd) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  // windows of 3 with step 2 over 7 elements: [0,1,2] [2,3,4] [4,5,6]
  const Tensor g = arange({3, 3}, false);
  const std::vector<float> gv = opd::to_vector<float>(g);
  const std::vector<float> r = opd::to_vector<float>(opd::call<ops::unfold_backward>(g, V{7}, 0, 3, 2));
  std::vector<float> expected(7, 0.f);
  for (int w = 0; w < 3; ++w)
    for (int k = 0; k < 3; ++k) expected[static_cast<std::size_t>(2 * w + k)] += gv[static_cast<std::size_t>(3 * w + k)];
  EXPECT_EQ(r, expected);
  EXPECT_THROW((void)opd::call<ops::unfold_backward>(g, V{9}, 0, 3, 2), opd::Error);
  // complex (PyTorch 1.13's kernel takes it: unfold's complex gradient): each part summed the same way
  std::vector<std::complex<double>> cg;
  for (float v : gv) cg.emplace_back(v, -2.0 * v);
  const std::vector<std::complex<double>> cr = opd::to_vector<std::complex<double>>(
      opd::call<ops::unfold_backward>(opd::from_vector<std::complex<double>>(cg, V{3, 3}), V{7}, 0, 3, 2));
  ASSERT_EQ(cr.size(), 7u);
  for (std::size_t i = 0; i < 7; ++i) EXPECT_EQ(cr[i], std::complex<double>(expected[i], -2.0 * expected[i]));

  const Tensor x = arange({2, 3, 4}, false);
  const std::vector<float> xv = opd::to_vector<float>(x);
  const Tensor s = opd::call<ops::sum_dim>(x, V{0, -1}, true);
  EXPECT_EQ(s.sizes(), opd::IntArrayRef(V{1, 3, 1}));
  for (int j = 0; j < 3; ++j) {
    float e = 0;
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 4; ++k) e += xv[static_cast<std::size_t>(12 * i + 4 * j + k)];
    EXPECT_FLOAT_EQ(opd::to_vector<float>(s)[static_cast<std::size_t>(j)], e);
  }
  EXPECT_EQ(opd::call<ops::sum_dim>(x, V{1}).sizes(), opd::IntArrayRef(V{2, 4}));
  const Tensor all = opd::call<ops::sum_dim>(x, std::nullopt);
  EXPECT_EQ(all.dim(), 0);
  EXPECT_FLOAT_EQ(opd::to_vector<float>(all)[0], std::accumulate(xv.begin(), xv.end(), 0.f));
  const Tensor ints = opd::from_vector<int32_t>({1, 2, 3}, V{3});
  EXPECT_EQ(opd::call<ops::sum_dim>(ints, V{0}).dtype(), opd::ScalarType::Long);
  EXPECT_THROW((void)opd::call<ops::sum_dim>(x, V{1, -2}), opd::Error);
}

TEST(ZeroFillCopy, InPlaceAndFunctionalVariants) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  Tensor x = arange({2, 3}, true);
  const std::vector<float> before = opd::to_vector<float>(x);
  const Tensor z = opd::call<ops::zero>(x);
  EXPECT_EQ(opd::to_vector<float>(z), std::vector<float>(6, 0.f));
  const Tensor f = opd::call<ops::fill>(x, opd::Scalar(2.5));
  EXPECT_EQ(opd::to_vector<float>(f), std::vector<float>(6, 2.5f));
  const Tensor c = opd::call<ops::copy>(x, opd::from_vector<float>({7.f, 8.f}, V{2}));
  EXPECT_EQ(opd::to_vector<float>(c), (std::vector<float>{7, 8, 7, 8, 7, 8}));
  EXPECT_EQ(c.sizes(), x.sizes());
  EXPECT_EQ(opd::to_vector<float>(x), before);  // the functional variants leave x as it was
  Tensor row = opd::call<ops::select>(x, 0, 1);
  opd::call<ops::zero_>(row);
  const std::vector<float> after = opd::to_vector<float>(x);
  for (std::size_t i = 0; i < after.size(); ++i) EXPECT_EQ(after[i], i == 2 || i == 3 ? 0.f : before[i]) << i;  // x is [3, 2]: row 1 is 2, 3
  // by name, boxed
  opd::Stack stack{x};
  opd::call_boxed("aten::zero_", stack);
  EXPECT_EQ(opd::to_vector<float>(x), std::vector<float>(6, 0.f));
}

#ifdef OPD_HAVE_LIBTORCH
namespace tb = torch_bridge;
tb::BoxedArg to_bridge(const opd::IValue& v) {
  if (v.is_none()) return tb::BoxedArg{tb::BoxedArg::Kind::None, 0, {}, false};
  if (v.is_bool()) return tb::BoxedArg{tb::BoxedArg::Kind::Bool, 0, {}, v.to_bool()};
  if (v.is_int_list()) return tb::BoxedArg{tb::BoxedArg::Kind::IntList, 0, v.to_int_list(), false};
  return tb::BoxedArg{tb::BoxedArg::Kind::Int, v.to_int(), {}, false};
}
#endif

TEST(ViewCopies, EqualLibtorchs) {
#ifndef OPD_HAVE_LIBTORCH
  GTEST_SKIP() << "libtorch is not installed: the *_copy operators are not compared with it";
#else
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  for (const Case& c : cases()) {
    // the bridge's self: a Float arange from 0, transposed (first and last dims) when asked
    int64_t n = 1;
    for (int64_t s : c.sizes) n *= s;
    std::vector<float> values(static_cast<std::size_t>(n));
    std::iota(values.begin(), values.end(), 0.f);
    Tensor self = opd::from_vector<float>(values, c.sizes);
    if (c.transposed) self = opd::call<ops::transpose>(self, 0, -1);
    const std::string copy = copy_name(c.view);
    const std::size_t dot = copy.find('.');
    const std::string name = copy.substr(6, dot == std::string::npos ? std::string::npos : dot - 6);
    const std::string overload = dot == std::string::npos ? "" : copy.substr(dot + 1);
    std::vector<tb::BoxedArg> args;
    for (const opd::IValue& a : c.args) args.push_back(to_bridge(a));
    const tb::ViewOutcome theirs = tb::call_view(name, overload, c.sizes, c.transposed, args);
    ASSERT_FALSE(theirs.error) << copy << ": " << *theirs.error;
    const std::vector<Tensor> ours = boxed(copy, self, c.args);
    ASSERT_EQ(ours.size(), theirs.results.size()) << copy;
    for (std::size_t i = 0; i < ours.size(); ++i) {
      EXPECT_EQ(ours[i].sizes().vec(), theirs.results[i].sizes) << copy;
      EXPECT_EQ(ours[i].strides().vec(), theirs.results[i].strides) << copy;
      EXPECT_FALSE(theirs.results[i].aliases_self) << copy;
      EXPECT_EQ(opd::to_vector<float>(ours[i]), theirs.results[i].values) << copy;
    }
  }
#endif
}

// The scatters, unfold_backward and sum.dim_IntList against libtorch, boxed by
// name: self an arange (maybe transposed), src an arange + 100; the same
// error-or-not, sizes, strides and values.
TEST(Scatter, EqualLibtorchs) {
#ifndef OPD_HAVE_LIBTORCH
  GTEST_SKIP() << "libtorch is not installed: the scatter operators are not compared with it";
#else
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  using I = opd::IValue;
  struct Scase {
    std::string op;
    V self_sizes;
    bool transposed;
    V src_sizes;  // empty: no src
    opd::Stack args;
  };
  const int64_t z = 0, one = 1, two = 2, m1 = -1;
  const std::vector<Scase> all = {
      {"aten::slice_scatter", {5, 4}, false, {2, 4}, {I(z), I(one), I(int64_t{4}), I(two)}},
      {"aten::slice_scatter", {5, 4}, true, {4, 2}, {I(one), I(), I(m1), I(two)}},
      {"aten::slice_scatter", {5, 4}, false, {5, 4}, {I(z), I(), I(), I(one)}},
      {"aten::slice_scatter", {5, 4}, false, {3, 4}, {I(z), I(), I(), I(one)}},  // wrong src sizes
      {"aten::select_scatter", {3, 4}, true, {3}, {I(one), I(m1)}},
      {"aten::select_scatter", {3, 4}, false, {4}, {I(z), I(two)}},
      {"aten::select_scatter", {3, 4}, false, {5}, {I(z), I(two)}},  // wrong src sizes
      {"aten::diagonal_scatter", {3, 4}, false, {3}, {I(one), I(z), I(one)}},
      {"aten::diagonal_scatter", {3, 4, 2}, true, {2, 3}, {I(m1), I(m1), I(z)}},
      {"aten::as_strided_scatter", {4, 4}, false, {2, 2}, {I(V{2, 2}), I(V{1, 4}), I(int64_t{5})}},
      {"aten::as_strided_scatter", {4, 4}, true, {3, 2}, {I(V{3, 2}), I(V{4, 1}), I()}},
      {"aten::unfold_backward", {3, 3}, false, {}, {I(V{7}), I(z), I(int64_t{3}), I(two)}},
      {"aten::unfold_backward", {2, 2, 3}, false, {}, {I(V{2, 7}), I(m1), I(int64_t{3}), I(int64_t{3})}},
      {"aten::sum", {2, 3, 4}, true, {}, {I(V{0, -1}), I(true), I()}},
      {"aten::sum", {2, 3, 4}, false, {}, {I(V{1}), I(false), I()}},
      {"aten::sum", {2, 3, 4}, false, {}, {I(), I(false), I()}},
  };
  for (const Scase& c : all) {
    const std::string overload = c.op == "aten::sum" ? "dim_IntList" : "";
    std::vector<tb::BoxedArg> args;
    for (const opd::IValue& a : c.args) args.push_back(to_bridge(a));
    const tb::ViewOutcome theirs =
        c.src_sizes.empty() ? tb::call_view(c.op.substr(6), overload, c.self_sizes, c.transposed, args)
                            : tb::call_with_src(c.op.substr(6), overload, c.self_sizes, c.transposed, c.src_sizes, args);
    // ours, alike
    int64_t n = 1;
    for (int64_t x : c.self_sizes) n *= x;
    std::vector<float> values(static_cast<std::size_t>(n));
    std::iota(values.begin(), values.end(), 0.f);
    Tensor self = opd::from_vector<float>(values, c.self_sizes);
    if (c.transposed) self = opd::call<ops::transpose>(self, 0, -1);
    opd::Stack stack{self};
    if (!c.src_sizes.empty()) {
      int64_t m = 1;
      for (int64_t x : c.src_sizes) m *= x;
      std::vector<float> src(static_cast<std::size_t>(m));
      std::iota(src.begin(), src.end(), 100.f);
      stack.emplace_back(opd::from_vector<float>(src, c.src_sizes));
    }
    for (const opd::IValue& a : c.args) stack.push_back(a);
    const std::string name = c.op + (overload.empty() ? "" : "." + overload);
    bool threw = false;
    try {
      opd::call_boxed(name, stack);
    } catch (const opd::Error& e) {
      threw = true;
      EXPECT_TRUE(theirs.error.has_value()) << name << ": only opd throws: " << e.what();
    }
    if (threw) continue;
    ASSERT_FALSE(theirs.error.has_value()) << name << ": only libtorch throws: " << *theirs.error;
    const Tensor r = stack.at(0).to_tensor();
    ASSERT_EQ(theirs.results.size(), 1u);
    EXPECT_EQ(r.sizes().vec(), theirs.results[0].sizes) << name;
    EXPECT_EQ(r.strides().vec(), theirs.results[0].strides) << name;
    EXPECT_EQ(opd::to_vector<float>(r), theirs.results[0].values) << name;
    EXPECT_FALSE(theirs.results[0].aliases_self) << name;
    EXPECT_FALSE(r.is_alias_of(self)) << name;
  }
#endif
}

}  // namespace
