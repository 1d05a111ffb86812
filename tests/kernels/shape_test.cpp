// Shape and indexing operators (include/kernels/ops_shape.hpp) through the
// dispatcher, with hand-computed expectations.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kernels/cpu/parallel.hpp>
#include <kernels/cpu/shape.hpp>
#include <kernels/ops_arithmetic.hpp>
#include <kernels/ops_nn.hpp>
#include <kernels/ops_reductions.hpp>
#include "all_kernels.hpp"
#include "error_of.hpp"
#include <kernels/ops_shape.hpp>
#include <kernels/ops_views.hpp>

namespace {
using opd::ScalarType;
using opd::Tensor;
namespace ops = opd::kernels::ops;
using ints = std::vector<int64_t>;
using opt_tensors = std::vector<std::optional<Tensor>>;

template <class T>
Tensor make(std::vector<T> values, ints sizes) {
  return opd::from_vector<T>(values, opd::IntArrayRef(sizes));
}
ints sizes_of(const Tensor& t) { return t.sizes().vec(); }

using opd_test::error_of;
bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

class ShapeOps : public ::testing::Test {
 protected:
  opd::RegistrationSet kernels = opd_test::register_all_kernels();
};

TEST_F(ShapeOps, CatJoinsAlongADimPromotesAndSkipsLegacyEmpty) {
  const Tensor a = make<float>({1, 2, 3, 4}, {2, 2});
  const Tensor b = make<float>({5, 6}, {2, 1});
  const Tensor c = opd::call<ops::cat>(std::vector<Tensor>{a, b}, 1);
  EXPECT_EQ(sizes_of(c), (ints{2, 3}));
  EXPECT_EQ(opd::to_vector<float>(c), (std::vector<float>{1, 2, 5, 3, 4, 6}));
  // dim 0, an int64 tensor promoted with a float one, a legacy [0] tensor skipped
  const Tensor i = make<int64_t>({7, 8}, {1, 2});
  const Tensor e = opd::empty(ints{0}, ScalarType::Double);
  const Tensor d = opd::call<ops::cat>(std::vector<Tensor>{a, e, i}, 0);
  EXPECT_EQ(d.dtype(), ScalarType::Double);  // Float, Double (skipped but promoted), Long
  EXPECT_EQ(opd::to_vector<double>(d), (std::vector<double>{1, 2, 3, 4, 7, 8}));
  // a transposed input takes the strided path
  const Tensor t = opd::call<ops::transpose>(a, 0, 1);
  EXPECT_EQ(opd::to_vector<float>(opd::call<ops::cat>(std::vector<Tensor>{t, b}, 1)),
            (std::vector<float>{1, 3, 5, 2, 4, 6}));
  // out=: resized
  Tensor out = opd::empty(ints{0}, ScalarType::Float);
  opd::call<ops::cat_out>(std::vector<Tensor>{a, b}, -1, out);
  EXPECT_EQ(opd::to_vector<float>(out), (std::vector<float>{1, 2, 5, 3, 4, 6}));
}

TEST_F(ShapeOps, CatErrors) {
  // no tensor, no dispatch key: the dispatcher refuses before the kernel would
  EXPECT_THROW((void)opd::call<ops::cat>(std::vector<Tensor>{}, 0), opd::Error);
  EXPECT_TRUE(contains(error_of([] { (void)opd::kernels::cat(std::span<const Tensor>{}, 0); }),
                       "aten::cat: torch.cat(): expected a non-empty list of Tensors"));
  const Tensor s = make<float>({1}, {});
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::cat>(std::vector<Tensor>{s}, 0); }),
                       "zero-dimensional tensor (at position 0) cannot be concatenated"));
  const Tensor a = make<float>({1, 2, 3, 4}, {2, 2});
  const Tensor b = make<float>({1, 2, 3}, {3});
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::cat>(std::vector<Tensor>{a, b}, 0); }),
                       "Tensors must have same number of dimensions: got 2 and 1"));
  const Tensor c = make<float>({1, 2, 3}, {1, 3});
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::cat>(std::vector<Tensor>{a, c}, 0); }),
                       "Sizes of tensors must match except in dimension 0. Expected size 2 but got size 3 for tensor number 1 in the list."));
  EXPECT_THROW((void)opd::call<ops::cat>(std::vector<Tensor>{a, a}, 2), opd::IndexError);
}

TEST_F(ShapeOps, StackInsertsADimension) {
  const Tensor a = make<int32_t>({1, 2}, {2});
  const Tensor b = make<int32_t>({3, 4}, {2});
  const Tensor s0 = opd::call<ops::stack>(std::vector<Tensor>{a, b}, 0);
  EXPECT_EQ(sizes_of(s0), (ints{2, 2}));
  EXPECT_EQ(opd::to_vector<int32_t>(s0), (std::vector<int32_t>{1, 2, 3, 4}));
  const Tensor s1 = opd::call<ops::stack>(std::vector<Tensor>{a, b}, -1);
  EXPECT_EQ(opd::to_vector<int32_t>(s1), (std::vector<int32_t>{1, 3, 2, 4}));
  const Tensor c = make<int32_t>({1, 2, 3}, {3});
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::stack>(std::vector<Tensor>{a, c}, 0); }),
                       "stack expects each tensor to be equal size, but got [2] at entry 0 and [3] at entry 1"));
}

TEST_F(ShapeOps, IndexSelectEveryElementSize) {
  const Tensor x = make<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor idx = make<int64_t>({2, 0, 2}, {3});
  const Tensor r = opd::call<ops::index_select>(x, 1, idx);
  EXPECT_EQ(sizes_of(r), (ints{2, 3}));
  EXPECT_EQ(opd::to_vector<float>(r), (std::vector<float>{3, 1, 3, 6, 4, 6}));
  EXPECT_EQ(opd::to_vector<float>(opd::call<ops::index_select>(x, 0, make<int32_t>({1}, {1}))),
            (std::vector<float>{4, 5, 6}));
  // a transposed self (the table path): rows of x.t() = [[1, 4], [2, 5], [3, 6]]
  const Tensor xt = opd::call<ops::transpose>(x, 0, 1);
  EXPECT_EQ(opd::to_vector<float>(opd::call<ops::index_select>(xt, 0, make<int64_t>({2, 0}, {2}))),
            (std::vector<float>{3, 6, 1, 4}));
  EXPECT_THROW((void)opd::call<ops::index_select>(xt, 0, make<int64_t>({3}, {1})), opd::IndexError);
  const Tensor h = make<opd::Half>({opd::Half(1.5f), opd::Half(-2.f)}, {2});
  EXPECT_EQ(static_cast<float>(opd::to_vector<opd::Half>(opd::call<ops::index_select>(h, 0, make<int64_t>({1, 1, 0}, {3})))[2]),
            1.5f);
  const Tensor bo = make<bool>({true, false}, {2});
  EXPECT_EQ(opd::to_vector<bool>(opd::call<ops::index_select>(bo, 0, make<int64_t>({1, 0}, {2}))),
            (std::vector<bool>{false, true}));
  const Tensor d = make<double>({1.25, 2.5}, {2});
  EXPECT_EQ(opd::to_vector<double>(opd::call<ops::index_select>(d, 0, make<int64_t>({1}, {1}))),
            (std::vector<double>{2.5}));
  EXPECT_THROW((void)opd::call<ops::index_select>(x, 1, make<int64_t>({3}, {1})), opd::IndexError);
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::index_select>(x, 1, make<int64_t>({-1}, {1})); }),
                       "index out of range in self"));
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::index_select>(x, 1, make<int64_t>({0, 0}, {1, 2})); }),
                       "Index is supposed to be a vector"));
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::index_select>(x, 1, make<float>({0}, {1})); }),
                       "Expected dtype int32 or int64 for index"));
  Tensor out = opd::empty(ints{5}, ScalarType::Float);
  opd::call<ops::index_select_out>(x, 0, make<int64_t>({1}, {1}), out);
  EXPECT_EQ(sizes_of(out), (ints{1, 3}));
}

TEST_F(ShapeOps, GatherPicksAlongDim) {
  const Tensor x = make<int64_t>({1, 2, 3, 4}, {2, 2});
  const Tensor idx = make<int64_t>({0, 0, 1, 0}, {2, 2});
  EXPECT_EQ(opd::to_vector<int64_t>(opd::call<ops::gather>(x, 1, idx)), (std::vector<int64_t>{1, 1, 4, 3}));
  EXPECT_EQ(opd::to_vector<int64_t>(opd::call<ops::gather>(x, 0, idx)), (std::vector<int64_t>{1, 2, 3, 2}));
  // a smaller index than self
  EXPECT_EQ(opd::to_vector<int64_t>(opd::call<ops::gather>(x, 1, make<int64_t>({1}, {1, 1}))),
            (std::vector<int64_t>{2}));
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::gather>(x, 1, make<int64_t>({2}, {1, 1})); }),
                       "index 2 is out of bounds for dimension 1 with size 2"));
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::gather>(x, 1, make<int32_t>({0}, {1, 1})); }),
                       "gather(): Expected dtype int64 for index"));
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::gather>(x, 1, make<int64_t>({0}, {1})); }),
                       "Index tensor must have the same number of dimensions as input tensor"));
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::gather>(x, 1, make<int64_t>({0, 0, 0}, {3, 1})); }),
                       "Size does not match at dimension 0 expected index [3, 1] to be smaller than self [2, 2] apart from dimension 1"));
}

TEST_F(ShapeOps, ScatterSrcValueAndReduce) {
  const Tensor self = opd::kernels::zeros(ints{2, 3}, ScalarType::Float);
  const Tensor src = make<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor idx = make<int64_t>({1, 0, 1}, {1, 3});
  // self[idx[0][j]][j] = src[0][j]
  EXPECT_EQ(opd::to_vector<float>(opd::call<ops::scatter_src>(self, 0, idx, src)),
            (std::vector<float>{0, 2, 0, 1, 0, 3}));
  EXPECT_EQ(opd::to_vector<float>(opd::call<ops::scatter_value>(self, 0, idx, 7)),
            (std::vector<float>{0, 7, 0, 7, 0, 7}));
  const Tensor ones = opd::kernels::ones(ints{2, 3}, ScalarType::Float);
  const Tensor dup = make<int64_t>({0, 0, 0}, {1, 3});
  EXPECT_EQ(opd::to_vector<float>(opd::call<ops::scatter_reduce>(ones, 1, dup, src, "add")),
            (std::vector<float>{7, 1, 1, 1, 1, 1}));  // 1 + 1 + 2 + 3
  EXPECT_EQ(opd::to_vector<float>(opd::call<ops::scatter_value_reduce>(ones, 1, dup, 2, "multiply")),
            (std::vector<float>{8, 1, 1, 1, 1, 1}));
  // in-place, and a failure leaves self untouched
  Tensor target = opd::kernels::zeros(ints{2, 3}, ScalarType::Float);
  opd::call<ops::scatter__src>(target, 0, idx, src);
  EXPECT_EQ(opd::to_vector<float>(target), (std::vector<float>{0, 2, 0, 1, 0, 3}));
  const std::vector<float> before = opd::to_vector<float>(target);
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::scatter__src>(target, 0, make<int64_t>({0, 2}, {1, 2}), src); }),
                       "index 2 is out of bounds for dimension 0 with size 2"));
  EXPECT_EQ(opd::to_vector<float>(target), before);
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::scatter_reduce>(ones, 1, dup, src, "max"); }),
                       "reduce argument must be either add or multiply."));
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::scatter_src>(self, 0, idx, make<double>({1, 2, 3}, {1, 3})); }),
                       "Expected self.dtype to be equal to src.dtype"));
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::scatter_src>(self, 0, make<int64_t>({0, 0, 0, 0}, {1, 4}), src); }),
                       "Expected index [1, 4] to be smaller than self [2, 3] apart from dimension 0"));
  // the value is converted checked, as c10's Scalar::to
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::scatter_value>(opd::kernels::zeros(ints{2}, ScalarType::Byte), 0, make<int64_t>({0}, {1}), 300); }),
                       "value cannot be converted to type uint8_t without overflow"));
  Tensor out = opd::empty(ints{0}, ScalarType::Float);
  opd::call<ops::scatter_value_out>(self, 0, idx, 7, out);
  EXPECT_EQ(opd::to_vector<float>(out), (std::vector<float>{0, 7, 0, 7, 0, 7}));
}

TEST_F(ShapeOps, FlipRollRepeat) {
  const Tensor x = make<int16_t>({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(opd::to_vector<int16_t>(opd::call<ops::flip>(x, ints{1})), (std::vector<int16_t>{3, 2, 1, 6, 5, 4}));
  EXPECT_EQ(opd::to_vector<int16_t>(opd::call<ops::flip>(x, ints{0, -1})), (std::vector<int16_t>{6, 5, 4, 3, 2, 1}));
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::flip>(x, ints{1, -1}); }),
                       "dim 1 appears multiple times in the list of dims"));
  EXPECT_EQ(opd::to_vector<int16_t>(opd::call<ops::roll>(x, ints{1}, ints{})), (std::vector<int16_t>{6, 1, 2, 3, 4, 5}));
  EXPECT_EQ(opd::to_vector<int16_t>(opd::call<ops::roll>(x, ints{-1}, ints{1})), (std::vector<int16_t>{2, 3, 1, 5, 6, 4}));
  EXPECT_EQ(opd::to_vector<int16_t>(opd::call<ops::roll>(x, ints{1, 4}, ints{0, 1})),
            (std::vector<int16_t>{6, 4, 5, 3, 1, 2}));
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::roll>(x, ints{1, 1}, ints{0}); }),
                       "shifts and dimensions must align. shifts: 2, dims:1"));
  const Tensor r = opd::call<ops::repeat>(make<int16_t>({1, 2}, {2}), ints{2, 2});
  EXPECT_EQ(sizes_of(r), (ints{2, 4}));
  EXPECT_EQ(opd::to_vector<int16_t>(r), (std::vector<int16_t>{1, 2, 1, 2, 1, 2, 1, 2}));
  // Contiguous input, repeats in an outer and the inner dimension, none in the middle one.
  const Tensor r3 = opd::call<ops::repeat>(make<int16_t>({1, 2, 3, 4}, {2, 2}), ints{2, 1, 2});
  EXPECT_EQ(sizes_of(r3), (ints{2, 2, 4}));
  EXPECT_EQ(opd::to_vector<int16_t>(r3), (std::vector<int16_t>{1, 2, 1, 2, 3, 4, 3, 4, 1, 2, 1, 2, 3, 4, 3, 4}));
  const Tensor r0 = opd::call<ops::repeat>(make<int16_t>({7}, {}), ints{});  // 0-dim, no repeats
  EXPECT_EQ(opd::to_vector<int16_t>(r0), (std::vector<int16_t>{7}));
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::repeat>(x, ints{2}); }),
                       "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"));
  EXPECT_EQ(sizes_of(opd::call<ops::repeat>(x, ints{0, 1})), (ints{0, 3}));
}

TEST_F(ShapeOps, TrilTriuEveryVariant) {
  const Tensor x = make<int32_t>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
  EXPECT_EQ(opd::to_vector<int32_t>(opd::call<ops::tril>(x, 0)), (std::vector<int32_t>{1, 0, 0, 4, 5, 0, 7, 8, 9}));
  EXPECT_EQ(opd::to_vector<int32_t>(opd::call<ops::tril>(x, -1)), (std::vector<int32_t>{0, 0, 0, 4, 0, 0, 7, 8, 0}));
  EXPECT_EQ(opd::to_vector<int32_t>(opd::call<ops::triu>(x, 1)), (std::vector<int32_t>{0, 2, 3, 0, 0, 6, 0, 0, 0}));
  EXPECT_EQ(opd::to_vector<int32_t>(opd::call<ops::triu>(x, -1)), (std::vector<int32_t>{1, 2, 3, 4, 5, 6, 0, 8, 9}));
  // batched, non-square, in place on a transposed tensor
  const Tensor b = make<float>({1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {2, 2, 3});
  EXPECT_EQ(opd::to_vector<float>(opd::call<ops::triu>(b, 0)),
            (std::vector<float>{1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1}));
  Tensor t = opd::call<ops::transpose>(opd::call<ops::clone>(x), 0, 1);  // [[1,4,7],[2,5,8],[3,6,9]]
  opd::call<ops::tril_>(t, 0);
  EXPECT_EQ(opd::to_vector<int32_t>(t), (std::vector<int32_t>{1, 0, 0, 2, 5, 0, 3, 6, 9}));
  Tensor out = opd::empty(ints{0}, ScalarType::Int);
  opd::call<ops::triu_out>(x, 0, out);
  EXPECT_EQ(opd::to_vector<int32_t>(out), (std::vector<int32_t>{1, 2, 3, 0, 5, 6, 0, 0, 9}));
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::tril>(make<float>({1, 2}, {2}), 0); }),
                       "Dimension out of range (expected to be in range of [-1, 0], but got -2)"));
  EXPECT_EQ(sizes_of(opd::call<ops::tril>(opd::empty(ints{0}, ScalarType::Float), 0)), (ints{0}));  // no element, no check
  Tensor wrong = opd::empty(ints{0}, ScalarType::Double);  // structured in ATen: out's dtype must be the result's
  EXPECT_TRUE(contains(error_of([&] { opd::call<ops::tril_out>(x, 0, wrong); }),
                       "Expected out tensor to have dtype Int, but got Double instead"));
}

TEST_F(ShapeOps, NonzeroWhereMaskedSelect) {
  const Tensor x = make<float>({0, 1.5f, 0, -2, std::numeric_limits<float>::quiet_NaN(), -0.f}, {2, 3});
  const Tensor nz = opd::call<ops::nonzero>(x);
  EXPECT_EQ(nz.dtype(), ScalarType::Long);
  EXPECT_EQ(sizes_of(nz), (ints{3, 2}));
  EXPECT_EQ(opd::to_vector<int64_t>(nz), (std::vector<int64_t>{0, 1, 1, 0, 1, 1}));  // NaN counts, -0 does not
  const std::vector<Tensor> w = opd::call<ops::where_condition>(x);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(opd::to_vector<int64_t>(w[0]), (std::vector<int64_t>{0, 1, 1}));
  EXPECT_EQ(opd::to_vector<int64_t>(w[1]), (std::vector<int64_t>{1, 0, 1}));
  EXPECT_EQ(sizes_of(opd::call<ops::nonzero>(make<int8_t>({3}, {}))), (ints{1, 0}));
  // masked_select broadcasts self and mask
  const Tensor v = make<int64_t>({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor m = make<bool>({true, false, true}, {3});
  EXPECT_EQ(opd::to_vector<int64_t>(opd::call<ops::masked_select>(v, m)), (std::vector<int64_t>{1, 3, 4, 6}));
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::masked_select>(v, make<float>({1, 0, 1}, {3})); }),
                       "expected BoolTensor or ByteTensor for mask"));
  EXPECT_THROW((void)opd::call<ops::masked_select>(v, make<bool>({true, false}, {2})), opd::Error);
  Tensor out = opd::empty(ints{0}, ScalarType::Long);
  opd::call<ops::nonzero_out>(x, out);
  EXPECT_EQ(sizes_of(out), (ints{3, 2}));
  Tensor fout = opd::empty(ints{0}, ScalarType::Float);
  EXPECT_THROW(opd::call<ops::nonzero_out>(x, fout), opd::Error);
}

TEST_F(ShapeOps, AdvancedIndexing) {
  const Tensor x = make<int32_t>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {3, 4});
  const Tensor rows = make<int64_t>({2, 0}, {2});
  // x[[2, 0]]
  Tensor r = opd::call<ops::index>(x, opt_tensors{rows});
  EXPECT_EQ(sizes_of(r), (ints{2, 4}));
  EXPECT_EQ(opd::to_vector<int32_t>(r), (std::vector<int32_t>{8, 9, 10, 11, 0, 1, 2, 3}));
  // x[:, [-1, 1]]
  r = opd::call<ops::index>(x, opt_tensors{std::nullopt, make<int64_t>({-1, 1}, {2})});
  EXPECT_EQ(sizes_of(r), (ints{3, 2}));
  EXPECT_EQ(opd::to_vector<int32_t>(r), (std::vector<int32_t>{3, 1, 7, 5, 11, 9}));
  // x[[[0], [2]], [1, 3]]: indices broadcast to [2, 2]
  r = opd::call<ops::index>(x, opt_tensors{make<int64_t>({0, 2}, {2, 1}), make<int64_t>({1, 3}, {2})});
  EXPECT_EQ(sizes_of(r), (ints{2, 2}));
  EXPECT_EQ(opd::to_vector<int32_t>(r), (std::vector<int32_t>{1, 3, 9, 11}));
  // a bool mask
  r = opd::call<ops::index>(x, opt_tensors{make<bool>({true, false, true}, {3})});
  EXPECT_EQ(opd::to_vector<int32_t>(r), (std::vector<int32_t>{0, 1, 2, 3, 8, 9, 10, 11}));
  // non-adjacent indexed dims: the broadcast block goes first
  const Tensor y = make<int32_t>({0, 1, 2, 3, 4, 5, 6, 7}, {2, 2, 2});
  r = opd::call<ops::index>(y, opt_tensors{make<int64_t>({0, 1}, {2}), std::nullopt, make<int64_t>({1, 0}, {2})});
  EXPECT_EQ(sizes_of(r), (ints{2, 2}));
  EXPECT_EQ(opd::to_vector<int32_t>(r), (std::vector<int32_t>{1, 3, 4, 6}));
  // y[:, [1], :] keeps its place
  r = opd::call<ops::index>(y, opt_tensors{std::nullopt, make<int64_t>({1}, {1})});
  EXPECT_EQ(sizes_of(r), (ints{2, 1, 2}));
  EXPECT_EQ(opd::to_vector<int32_t>(r), (std::vector<int32_t>{2, 3, 6, 7}));
  // errors, PyTorch's words (the dimension counted among the indexed ones)
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::index>(x, opt_tensors{std::nullopt, make<int64_t>({4}, {1})}); }),
                       "index 4 is out of bounds for dimension 0 with size 4"));
  // with no element to read (a None dimension of size 0) the indices are not checked, as ATen's kernel
  EXPECT_EQ(sizes_of(opd::call<ops::index>(opd::empty(ints{0, 4}, ScalarType::Int), opt_tensors{std::nullopt, make<int64_t>({9}, {1})})),
            (ints{0, 1}));
  EXPECT_THROW((void)opd::call<ops::index>(x, opt_tensors{rows, rows, rows}), opd::IndexError);
  EXPECT_THROW((void)opd::call<ops::index>(x, opt_tensors{std::nullopt}), opd::IndexError);
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::index>(x, opt_tensors{make<float>({0}, {1})}); }),
                       "tensors used as indices must be long, byte or bool tensors"));
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::index>(x, opt_tensors{rows, make<int64_t>({0, 1, 2}, {3})}); }),
                       "shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]"));
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::index>(x, opt_tensors{make<bool>({true, false}, {2})}); }),
                       "The shape of the mask [2] at index 0 does not match the shape of the indexed tensor [3, 4] at index 0"));
}

TEST_F(ShapeOps, IndexPut) {
  Tensor x = opd::kernels::zeros(ints{3, 2}, ScalarType::Float);
  // x[[0, 2]] = [1, 2] (broadcast over rows)
  opd::call<ops::index_put_>(x, opt_tensors{make<int64_t>({0, 2}, {2})}, make<float>({1, 2}, {2}), false);
  EXPECT_EQ(opd::to_vector<float>(x), (std::vector<float>{1, 2, 0, 0, 1, 2}));
  // accumulate with a repeated index
  opd::call<ops::index_put_>(x, opt_tensors{make<int64_t>({1, 1, 1}, {3}), make<int64_t>({0, 0, 1}, {3})},
                             make<float>({1, 2, 3}, {3}), true);
  EXPECT_EQ(opd::to_vector<float>(x), (std::vector<float>{1, 2, 3, 3, 1, 2}));
  // functional index_put leaves self alone
  const Tensor y = opd::call<ops::index_put>(x, opt_tensors{make<bool>({false, true, false}, {3})},
                                             make<double>({9}, {}), false);  // one mask + one value: converted
  EXPECT_EQ(opd::to_vector<float>(y), (std::vector<float>{1, 2, 9, 9, 1, 2}));
  EXPECT_EQ(opd::to_vector<float>(x), (std::vector<float>{1, 2, 3, 3, 1, 2}));
  // errors leave x unchanged
  const std::vector<float> before = opd::to_vector<float>(x);
  EXPECT_TRUE(contains(error_of([&] { opd::call<ops::index_put_>(x, opt_tensors{make<int64_t>({0, 5}, {2})}, make<float>({1}, {1}), false); }),
                       "index 5 is out of bounds for dimension 0 with size 3"));
  EXPECT_TRUE(contains(error_of([&] { opd::call<ops::index_put_>(x, opt_tensors{make<int64_t>({0}, {1})}, make<double>({1, 2}, {2}), false); }),
                       "Index put requires the source and destination dtypes match, got Float for the destination and Double for the source."));
  EXPECT_TRUE(contains(error_of([&] { opd::call<ops::index_put_>(x, opt_tensors{make<int64_t>({0}, {1})}, make<float>({1, 2, 3}, {3}), false); }),
                       "shape mismatch: value tensor of shape [3] cannot be broadcast to indexing result of shape [1, 2]"));
  EXPECT_EQ(opd::to_vector<float>(x), before);
  // one Long index read in place (negatives wrapped, checked before the first write)
  Tensor w = opd::kernels::zeros(ints{4}, ScalarType::Float);
  opd::call<ops::index_put_>(w, opt_tensors{make<int64_t>({-1, 1, -4}, {3})}, make<float>({1, 2, 3}, {3}), false);
  EXPECT_EQ(opd::to_vector<float>(w), (std::vector<float>{3, 2, 0, 1}));
  EXPECT_TRUE(contains(error_of([&] { opd::call<ops::index_put_>(w, opt_tensors{make<int64_t>({0, -5}, {2})}, make<float>({9}, {1}), false); }),
                       "index -5 is out of bounds for dimension 0 with size 4"));
  EXPECT_EQ(opd::to_vector<float>(w), (std::vector<float>{3, 2, 0, 1}));
  // ... and with a dimension after it (rows: the index is not the innermost table)
  Tensor z = opd::kernels::zeros(ints{3, 2}, ScalarType::Float);
  opd::call<ops::index_put_>(z, opt_tensors{make<int64_t>({-1, 0}, {2})}, make<float>({5, 6, 7, 8}, {2, 2}), false);
  EXPECT_EQ(opd::to_vector<float>(z), (std::vector<float>{7, 8, 0, 0, 5, 6}));
  // an index that is a view of self: read before self is written (l[l[:2]] = [7, 8])
  Tensor l = make<int64_t>({1, 0, 2, 3}, {4});
  const int64_t two = 2, one = 1;
  const Tensor head = l.as_strided(opd::IntArrayRef(&two, 1), opd::IntArrayRef(&one, 1), l.storage_offset());
  opd::call<ops::index_put_>(l, opt_tensors{head}, make<int64_t>({7, 8}, {2}), false);
  EXPECT_EQ(opd::to_vector<int64_t>(l), (std::vector<int64_t>{8, 7, 2, 3}));
}

TEST_F(ShapeOps, SortArgsortTopk) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Tensor x = make<float>({3, nan, 1, 2, 1}, {5});
  auto [v, i] = opd::call<ops::sort>(x, -1, false);
  const std::vector<float> vs = opd::to_vector<float>(v);
  EXPECT_EQ((std::vector<float>(vs.begin(), vs.end() - 1)), (std::vector<float>{1, 1, 2, 3}));
  EXPECT_TRUE(std::isnan(vs.back()));
  EXPECT_EQ(opd::to_vector<int64_t>(i), (std::vector<int64_t>{2, 4, 3, 0, 1}));  // (libtorch's order too)
  auto [dv, di] = opd::call<ops::sort_stable>(x, true, 0, true);
  EXPECT_TRUE(std::isnan(opd::to_vector<float>(dv)[0]));
  EXPECT_EQ(opd::to_vector<int64_t>(di), (std::vector<int64_t>{1, 0, 3, 2, 4}));
  EXPECT_EQ(opd::to_vector<int64_t>(opd::call<ops::argsort>(x, 0, true)), (std::vector<int64_t>{1, 0, 3, 2, 4}));
  // along dim 0 of a matrix
  const Tensor m = make<int32_t>({3, 1, 1, 2, 2, 0}, {3, 2});
  auto [mv, mi] = opd::call<ops::sort>(m, 0, false);
  EXPECT_EQ(opd::to_vector<int32_t>(mv), (std::vector<int32_t>{1, 0, 2, 1, 3, 2}));
  EXPECT_EQ(opd::to_vector<int64_t>(mi), (std::vector<int64_t>{1, 2, 2, 0, 0, 1}));
  auto [tv, ti] = opd::call<ops::topk>(make<double>({5, 9, 1, 7}, {4}), 2, -1, true, true);
  EXPECT_EQ(opd::to_vector<double>(tv), (std::vector<double>{9, 7}));
  EXPECT_EQ(opd::to_vector<int64_t>(ti), (std::vector<int64_t>{1, 3}));
  auto [sv, si] = opd::call<ops::topk>(make<double>({5, 9, 1, 7}, {4}), 3, 0, false, true);
  EXPECT_EQ(opd::to_vector<double>(sv), (std::vector<double>{1, 5, 7}));
  EXPECT_EQ(opd::to_vector<int64_t>(si), (std::vector<int64_t>{2, 0, 3}));
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::topk>(x, 6, -1, true, true); }), "selected index k out of range"));
  // ties in ATen 1.13's order (nth_element; libtorch gives [2, 4] here, sorted or not, where position order
  // would give [1, 2]); Bool and Half refused as ATen 1.13's topk_cpu
  for (bool sorted : {false, true}) {
    auto [qv, qi] = opd::call<ops::topk>(make<int8_t>({1, 2, 2, 0, 2}, {5}), 2, 0, true, sorted);
    EXPECT_EQ(opd::to_vector<int64_t>(qi), (std::vector<int64_t>{2, 4}));
  }
  EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::topk>(make<bool>({true}, {1}), 1, 0, true, true); }),
                       "\"topk_cpu\" not implemented for 'Bool'"));
  EXPECT_THROW((void)opd::call<ops::topk>(make<opd::Half>({opd::Half(1.f)}, {1}), 1, 0, true, true), opd::TypeError);
  // 0-dim: a slice of one element
  auto [zv, zi] = opd::call<ops::sort>(make<float>({4}, {}), 0, false);
  EXPECT_EQ(zv.dim(), 0);
  EXPECT_EQ(opd::to_vector<int64_t>(zi), (std::vector<int64_t>{0}));
  Tensor ov = opd::empty(ints{0}, ScalarType::Float);
  Tensor oi = opd::empty(ints{0}, ScalarType::Long);
  opd::call<ops::sort_values>(x, 0, false, ov, oi);
  EXPECT_EQ(opd::to_vector<int64_t>(oi), (std::vector<int64_t>{2, 4, 3, 0, 1}));
  Tensor wrong = opd::empty(ints{0}, ScalarType::Int);
  EXPECT_TRUE(contains(error_of([&] { opd::call<ops::topk_values>(x, 1, 0, true, true, ov, wrong); }),
                       "Expected out tensor to have dtype Long, but got Int instead"));
}

TEST_F(ShapeOps, RangeFactories) {
  const Tensor a = opd::call<ops::arange>(5);
  EXPECT_EQ(a.dtype(), ScalarType::Long);
  EXPECT_EQ(opd::to_vector<int64_t>(a), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  const Tensor f = opd::call<ops::arange_start_step>(1, 2.0, 0.25);
  EXPECT_EQ(f.dtype(), ScalarType::Float);
  EXPECT_EQ(opd::to_vector<float>(f), (std::vector<float>{1, 1.25f, 1.5f, 1.75f}));
  const Tensor d = opd::call<ops::arange_start_step>(10, 0, -3, opd::arg<"dtype"> = ScalarType::Double);
  EXPECT_EQ(opd::to_vector<double>(d), (std::vector<double>{10, 7, 4, 1}));
  EXPECT_EQ(opd::call<ops::arange_start>(true, 3).dtype(), ScalarType::Long);  // bool counts as integral
  EXPECT_TRUE(contains(error_of([] { (void)opd::call<ops::arange_start_step>(0, 1, 0); }), "step must be nonzero"));
  EXPECT_TRUE(contains(error_of([] { (void)opd::call<ops::arange_start_step>(0, 1, -1); }),
                       "upper bound and larger bound inconsistent with step sign"));
  Tensor out = opd::empty(ints{1}, ScalarType::Int);
  opd::call<ops::arange_start_out>(2, 5, 1, out);
  EXPECT_EQ(opd::to_vector<int32_t>(out), (std::vector<int32_t>{2, 3, 4}));
  opd::call<ops::arange_out>(2, out);
  EXPECT_EQ(opd::to_vector<int32_t>(out), (std::vector<int32_t>{0, 1}));

  const Tensor l = opd::call<ops::linspace>(0, 1, 5);
  EXPECT_EQ(l.dtype(), ScalarType::Float);
  EXPECT_EQ(opd::to_vector<float>(l), (std::vector<float>{0, 0.25f, 0.5f, 0.75f, 1}));
  EXPECT_EQ(opd::to_vector<int64_t>(opd::call<ops::linspace>(0, 10, 3, opd::arg<"dtype"> = ScalarType::Long)),
            (std::vector<int64_t>{0, 5, 10}));
  EXPECT_EQ(opd::to_vector<float>(opd::call<ops::linspace>(3, 10, 1)), (std::vector<float>{3}));
  EXPECT_EQ(opd::call<ops::linspace>(3, 10, 0).numel(), 0);
  EXPECT_TRUE(contains(error_of([] { (void)opd::call<ops::linspace>(0, 1, -1); }), "number of steps must be non-negative"));

  const Tensor e = opd::call<ops::eye_m>(2, 3);
  EXPECT_EQ(opd::to_vector<float>(e), (std::vector<float>{1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(opd::to_vector<bool>(opd::call<ops::eye>(2, opd::arg<"dtype"> = ScalarType::Bool)),
            (std::vector<bool>{true, false, false, true}));
  EXPECT_TRUE(contains(error_of([] { (void)opd::call<ops::eye>(-1); }), "n must be greater or equal to 0, got -1"));
  EXPECT_TRUE(contains(error_of([] { (void)opd::call<ops::eye>(2, opd::arg<"dtype"> = ScalarType::BFloat16); }),
                       "\"eye\" not implemented for 'BFloat16'"));
  Tensor eo = opd::empty(ints{0}, ScalarType::Long);
  opd::call<ops::eye_out>(2, eo);
  EXPECT_EQ(opd::to_vector<int64_t>(eo), (std::vector<int64_t>{1, 0, 0, 1}));

  const Tensor full = opd::call<ops::full>(ints{2}, 2.5);
  EXPECT_EQ(full.dtype(), ScalarType::Float);
  EXPECT_EQ(opd::to_vector<float>(full), (std::vector<float>{2.5f, 2.5f}));
  Tensor fo = opd::empty(ints{0}, ScalarType::Int);
  opd::call<ops::full_out>(ints{3}, 4, fo);
  EXPECT_EQ(opd::to_vector<int32_t>(fo), (std::vector<int32_t>{4, 4, 4}));
}

TEST_F(ShapeOps, LargeInputsTakeTheParallelPaths) {
  // > grain_size elements: cat, index_select and flip split across threads.
  const int64_t n = 200000;
  const Tensor a = opd::call<ops::arange>(n);
  const Tensor c = opd::call<ops::cat>(std::vector<Tensor>{a, a}, 0);
  const std::vector<int64_t> cv = opd::to_vector<int64_t>(c);
  EXPECT_EQ(cv[static_cast<std::size_t>(n + 12345)], 12345);
  const Tensor f = opd::call<ops::flip>(a, ints{0});
  const Tensor s = opd::call<ops::index_select>(a, 0, f);
  EXPECT_EQ(opd::to_vector<int64_t>(s), opd::to_vector<int64_t>(f));
  const Tensor m = opd::call<ops::view>(c, ints{2, n});
  const Tensor mc = opd::call<ops::cat>(std::vector<Tensor>{m, m}, 1);
  EXPECT_EQ(opd::to_vector<int64_t>(mc)[static_cast<std::size_t>(3 * n + 7)], 7);
}

// flip of the last dim reads each row downwards as one run (gather_tables'
// reversed runs): every element size, rows split across threads and one long
// row split mid-run; a transposed input (a stride other than 1) and flips
// of several dims keep their own paths.
template <class T>
void expect_last_dim_flipped(int64_t rows, int64_t cols) {
  std::vector<T> v(static_cast<std::size_t>(rows * cols));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<T>(i % 113);
  const Tensor x = make<T>(v, {rows, cols});
  std::vector<T> want(v.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      want[static_cast<std::size_t>(r * cols + c)] = v[static_cast<std::size_t>(r * cols + cols - 1 - c)];
  EXPECT_EQ(opd::to_vector<T>(opd::call<ops::flip>(x, ints{-1})), want) << rows << " x " << cols;
  // both dims: the rows in reverse order, each read downwards
  std::vector<T> both(v.rbegin(), v.rend());
  EXPECT_EQ(opd::to_vector<T>(opd::call<ops::flip>(x, ints{0, 1})), both) << rows << " x " << cols;
}

TEST_F(ShapeOps, FlipOfTheLastDimEverySizeAndSplit) {
  namespace k = opd::kernels;
  const int previous = k::get_num_threads();
  for (const int threads : {1, 4}) {
    k::set_num_threads(threads);
    for (const auto& [rows, cols] : {std::pair<int64_t, int64_t>{3, 37}, {1, 100003}, {5000, 17}, {2, 15}}) {
      expect_last_dim_flipped<int8_t>(rows, cols);
      expect_last_dim_flipped<int16_t>(rows, cols);
      expect_last_dim_flipped<float>(rows, cols);
      expect_last_dim_flipped<double>(rows, cols);
    }
  }
  k::set_num_threads(previous);
  // transposed: the last dim's stride is 3, the table steps down by 3
  const Tensor t = opd::call<ops::transpose>(make<int32_t>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {4, 3}), 0, 1);
  EXPECT_EQ(opd::to_vector<int32_t>(opd::call<ops::flip>(t, ints{1})),
            (std::vector<int32_t>{9, 6, 3, 0, 10, 7, 4, 1, 11, 8, 5, 2}));
}

// Rows of several KiB whose source and destination differ in alignment: the
// copies go in pieces (kernels/cpu/copy_memory.hpp); every element lands.
TEST_F(ShapeOps, LongRowsAtSkewedOffsetsCopyExactly) {
  const int64_t rows = 3, cols = 3001;  // 12 KB rows of floats: several pieces each
  std::vector<float> v(static_cast<std::size_t>(rows * cols));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
  const Tensor x = make<float>(v, {rows, cols});
  auto at = [&](int64_t r, int64_t c) { return v[static_cast<std::size_t>(r * cols + c)]; };
  for (int64_t shift : {1, 3, 1000, -7}) {
    const std::vector<float> got = opd::to_vector<float>(opd::call<ops::roll>(x, ints{shift}, ints{1}));
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        ASSERT_EQ(got[static_cast<std::size_t>(r * cols + c)], at(r, ((c - shift) % cols + cols) % cols))
            << "roll " << shift << " at " << r << ", " << c;
  }
  // cat along the columns: each row of the output takes one row of each piece at an odd offset.
  const Tensor a = opd::call<ops::narrow>(x, 1, 0, 1);
  const std::vector<float> cat = opd::to_vector<float>(opd::call<ops::cat>(std::vector<Tensor>{a, x}, 1));
  for (int64_t r = 0; r < rows; ++r) {
    ASSERT_EQ(cat[static_cast<std::size_t>(r * (cols + 1))], at(r, 0));
    for (int64_t c = 0; c < cols; ++c) ASSERT_EQ(cat[static_cast<std::size_t>(r * (cols + 1) + 1 + c)], at(r, c));
  }
  // repeat doubles its copied block: 3001-float blocks at offsets that are not multiples of 64 bytes.
  const std::vector<float> rep = opd::to_vector<float>(opd::call<ops::repeat>(x, ints{1, 5}));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < 5 * cols; ++c) ASSERT_EQ(rep[static_cast<std::size_t>(r * 5 * cols + c)], at(r, c % cols));
}

// Rows long enough for the vector and threaded paths: the index check's
// vectorized maximum (a bad index inside the vector part, in the tail,
// negative), nonzero / count_nonzero / masked_select split across three
// threads (a range with no true element, one that ends on a false one),
// repeat's and zeros' threaded copies, embedding's threaded rows; each
// against the element loop written here.
TEST_F(ShapeOps, LongRowsMatchTheElementLoopsOnThreeThreads) {
  namespace k = opd::kernels;
  const int previous = k::get_num_threads();
  k::set_num_threads(3);
  const int64_t rows = 4, cols = 1003;
  std::vector<float> xv(static_cast<std::size_t>(rows * cols));
  std::vector<int64_t> iv(xv.size());
  for (std::size_t i = 0; i < xv.size(); ++i) {
    xv[i] = static_cast<float>(i % 97) - 40.f;
    iv[i] = static_cast<int64_t>((i * 7919) % static_cast<std::size_t>(cols));
  }
  const Tensor x = make<float>(xv, {rows, cols});
  const Tensor idx = make<int64_t>(iv, {rows, cols});
  const std::vector<float> g = opd::to_vector<float>(opd::call<ops::gather>(x, 1, idx));
  const std::vector<float> sc = opd::to_vector<float>(opd::call<ops::scatter_src>(x, 1, idx, x));
  std::vector<float> sc_want = xv;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      const auto at = static_cast<std::size_t>(r * cols + c);
      ASSERT_EQ(g[at], xv[static_cast<std::size_t>(r * cols + iv[at])]) << r << " " << c;
      sc_want[static_cast<std::size_t>(r * cols + iv[at])] = xv[at];  // in order: the last write wins
    }
  }
  EXPECT_EQ(sc, sc_want);
  for (auto [pos, bad] : {std::pair<std::size_t, int64_t>{517, -1}, {1002, 1003}, {2 * 1003 + 64, int64_t{1} << 40}}) {
    std::vector<int64_t> wrong = iv;
    wrong[pos] = bad;
    const std::string want = "index " + std::to_string(bad) + " is out of bounds for dimension 1 with size 1003";
    EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::gather>(x, 1, make<int64_t>(wrong, {rows, cols})); }), want))
        << bad;
    Tensor target = opd::call<ops::clone>(x, std::nullopt);
    EXPECT_TRUE(contains(error_of([&] { (void)opd::call<ops::scatter__src>(target, 1, make<int64_t>(wrong, {rows, cols}), x); }),
                         want));
    EXPECT_EQ(opd::to_vector<float>(target), xv);  // a failed scatter_ leaves self as it was
  }
  // nonzero: zeros everywhere but a few runs, so that one thread's range has
  // none and another ends on a zero; NaN counts, -0.0 does not.
  const int64_t n = 3 * 100003;
  std::vector<float> z(static_cast<std::size_t>(n), 0.f);
  for (int64_t i = 5; i < 90000; i += 3) z[static_cast<std::size_t>(i)] = (i % 2) ? 1.f : -0.f;
  for (int64_t i = 250000; i < n - 1; i += 11) z[static_cast<std::size_t>(i)] = std::numeric_limits<float>::quiet_NaN();
  std::vector<int64_t> want;
  for (int64_t i = 0; i < n; ++i) {
    const float v = z[static_cast<std::size_t>(i)];
    if (v != 0 || std::isnan(v)) want.push_back(i);
  }
  const Tensor zt = make<float>(z, {n});
  EXPECT_EQ(opd::to_vector<int64_t>(opd::call<ops::nonzero>(zt)), want);
  EXPECT_EQ(opd::to_vector<int64_t>(opd::call<ops::count_nonzero>(zt, std::nullopt)),
            (std::vector<int64_t>{static_cast<int64_t>(want.size())}));
  std::vector<bool> mask(z.size());
  for (std::size_t i = 0; i < z.size(); ++i) mask[i] = (i % 5) == 1;
  std::vector<bool> mask_values(mask.begin(), mask.end());
  const std::vector<float> selected = opd::to_vector<float>(opd::call<ops::masked_select>(zt, make<bool>(mask_values, {n})));
  std::vector<float> selected_want;
  for (std::size_t i = 0; i < z.size(); ++i) {
    if (mask[i]) selected_want.push_back(z[i]);
  }
  ASSERT_EQ(selected.size(), selected_want.size());
  for (std::size_t i = 0; i < selected.size(); ++i) {
    ASSERT_TRUE(selected[i] == selected_want[i] || (std::isnan(selected[i]) && std::isnan(selected_want[i]))) << i;
  }
  // repeat [n] three times; zeros after the same-sized block held ones
  const std::vector<float> rep = opd::to_vector<float>(opd::call<ops::repeat>(opd::call<ops::view>(x, ints{rows * cols}), ints{3}));
  for (std::size_t i = 0; i < rep.size(); ++i) ASSERT_EQ(rep[i], xv[i % xv.size()]) << i;
  { (void)opd::call<ops::ones>(ints{n}, ScalarType::Float, std::nullopt, std::nullopt, std::nullopt); }
  const std::vector<float> zs = opd::to_vector<float>(opd::call<ops::zeros>(ints{n}, ScalarType::Float, std::nullopt, std::nullopt, std::nullopt));
  EXPECT_EQ(std::count(zs.begin(), zs.end(), 0.f), n);
  // embedding: 300 rows of 1003
  std::vector<int64_t> picks(300);
  for (std::size_t i = 0; i < picks.size(); ++i) picks[i] = static_cast<int64_t>((i * 3) % rows);
  const std::vector<float> emb = opd::to_vector<float>(opd::call<ops::embedding>(x, make<int64_t>(picks, {300}), -1, false, false));
  for (std::size_t i = 0; i < emb.size(); ++i) {
    ASSERT_EQ(emb[i], xv[static_cast<std::size_t>(picks[i / cols] * cols) + i % cols]) << i;
  }
  k::set_num_threads(previous);
}

}  // namespace
