// The elementwise engine: broadcasting, result_type/can_cast, element and
// Scalar conversions, memory overlap, and ElementwiseIter/cpu_kernel on
// strided, broadcast and mixed-dtype operands.
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "kernel_test_util.hpp"

namespace opd::kernels::test {
namespace {

using ST = ScalarType;

// ---------------------------------------------------------------- broadcast ---

TEST(KernelsBroadcast, InferSize) {
  EXPECT_EQ(infer_size(shape({2, 3}), shape({3})), shape({2, 3}));
  EXPECT_EQ(infer_size(shape({2, 1}), shape({1, 3})), shape({2, 3}));
  EXPECT_EQ(infer_size(shape({}), shape({4})), shape({4}));
  EXPECT_EQ(infer_size(shape({}), shape({})), shape({}));
  EXPECT_EQ(infer_size(shape({5, 1, 4}), shape({3, 1})), shape({5, 3, 4}));
  // 1 broadcasts to 0; 0 only matches 0 or 1.
  EXPECT_EQ(infer_size(shape({0}), shape({1})), shape({0}));
  EXPECT_EQ(infer_size(shape({3, 1}), shape({0})), shape({3, 0}));
}

TEST(KernelsBroadcast, IncompatibleShapesGivePyTorchsMessage) {
  EXPECT_EQ(error_of([] { infer_size(shape({2, 3}), shape({4})); }),
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  EXPECT_EQ(error_of([] { infer_size(shape({2, 3, 4}), shape({5, 4})); }),
            "The size of tensor a (3) must match the size of tensor b (5) at non-singleton dimension 1");
  EXPECT_EQ(error_of([] { infer_size(shape({2}), shape({0})); }),
            "The size of tensor a (2) must match the size of tensor b (0) at non-singleton dimension 0");
}

TEST(KernelsBroadcast, ManyShapesFoldLeftToRight) {
  EXPECT_EQ(broadcast_shapes({shape({3}), shape({2, 1}), shape({4, 1, 1})}), shape({4, 2, 3}));
  EXPECT_EQ(broadcast_shapes({shape({2, 3})}), shape({2, 3}));
  // The error names the shape accumulated so far as tensor a.
  EXPECT_EQ(error_of([] { broadcast_shapes({shape({3}), shape({2, 1}), shape({2, 4})}); }),
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  EXPECT_TRUE(is_expandable_to(shape({3, 1}), shape({2, 3, 4})));
  EXPECT_FALSE(is_expandable_to(shape({3, 2}), shape({2, 3, 4})));
  EXPECT_FALSE(is_expandable_to(shape({1, 3, 4}), shape({3, 4})));
}

// ---------------------------------------------------------------- promotion ---

Tensor dim_tensor(ST t) { return kernels::zeros(shape({2}), t); }
Tensor zero_dim_tensor(ST t) { return kernels::zeros(shape({}), t); }

TEST(KernelsPromotion, TensorsWithDimensionsPromoteByTheTable) {
  for (ST a : kAllDtypes) {
    for (ST b : kAllDtypes) {
      EXPECT_EQ(result_type(dim_tensor(a), dim_tensor(b)), promote_types(a, b)) << a << " " << b;
      EXPECT_EQ(result_type(zero_dim_tensor(a), zero_dim_tensor(b)), promote_types(a, b)) << a << " " << b;
    }
  }
  // A few entries by hand.
  EXPECT_EQ(result_type(dim_tensor(ST::Byte), dim_tensor(ST::Char)), ST::Short);
  EXPECT_EQ(result_type(dim_tensor(ST::Bool), dim_tensor(ST::Byte)), ST::Byte);
  EXPECT_EQ(result_type(dim_tensor(ST::Half), dim_tensor(ST::BFloat16)), ST::Float);
  EXPECT_EQ(result_type(dim_tensor(ST::Long), dim_tensor(ST::Half)), ST::Half);
  EXPECT_EQ(result_type(dim_tensor(ST::Int), dim_tensor(ST::Float)), ST::Float);
}

TEST(KernelsPromotion, ZeroDimTensorsAndScalarsCountByCategory) {
  // Scalars (wrapped numbers).
  EXPECT_EQ(result_type(dim_tensor(ST::Int), Scalar(2.5)), ST::Float);
  EXPECT_EQ(result_type(dim_tensor(ST::Long), Scalar(2.5)), ST::Float);
  EXPECT_EQ(result_type(dim_tensor(ST::Double), Scalar(2)), ST::Double);
  EXPECT_EQ(result_type(dim_tensor(ST::Float), Scalar(int64_t{2})), ST::Float);
  EXPECT_EQ(result_type(dim_tensor(ST::Half), Scalar(2.5)), ST::Half);
  EXPECT_EQ(result_type(dim_tensor(ST::Byte), Scalar(1000)), ST::Byte);
  EXPECT_EQ(result_type(dim_tensor(ST::Char), Scalar(-1000)), ST::Char);
  EXPECT_EQ(result_type(dim_tensor(ST::Bool), Scalar(5)), ST::Long);
  EXPECT_EQ(result_type(dim_tensor(ST::Bool), Scalar(true)), ST::Bool);
  EXPECT_EQ(result_type(dim_tensor(ST::Bool), Scalar(2.5)), ST::Float);
  EXPECT_EQ(result_type(dim_tensor(ST::Int), Scalar(true)), ST::Int);
  EXPECT_EQ(result_type(Scalar(true), dim_tensor(ST::Short)), ST::Short);
  // 0-dim tensors keep their dtype within the category they win.
  EXPECT_EQ(result_type(dim_tensor(ST::Int), zero_dim_tensor(ST::Double)), ST::Double);
  EXPECT_EQ(result_type(dim_tensor(ST::Float), zero_dim_tensor(ST::Double)), ST::Float);
  EXPECT_EQ(result_type(dim_tensor(ST::Char), zero_dim_tensor(ST::Long)), ST::Char);
  EXPECT_EQ(result_type(dim_tensor(ST::Bool), zero_dim_tensor(ST::Int)), ST::Int);
  EXPECT_EQ(result_type(dim_tensor(ST::Half), zero_dim_tensor(ST::Double)), ST::Half);
  EXPECT_EQ(result_type(dim_tensor(ST::Long), zero_dim_tensor(ST::BFloat16)), ST::BFloat16);
  EXPECT_EQ(result_type(zero_dim_tensor(ST::Bool), dim_tensor(ST::Byte)), ST::Byte);
  // 0-dim tensor against a Scalar: the tensor is the higher category.
  EXPECT_EQ(result_type(zero_dim_tensor(ST::Int), Scalar(2.5)), ST::Float);
  EXPECT_EQ(result_type(zero_dim_tensor(ST::Double), Scalar(2.5)), ST::Double);
  EXPECT_EQ(result_type(zero_dim_tensor(ST::Char), Scalar(300)), ST::Char);
  // Two Scalars.
  EXPECT_EQ(result_type(Scalar(1), Scalar(2.5)), ST::Float);
  EXPECT_EQ(result_type(Scalar(true), Scalar(1)), ST::Long);
  EXPECT_EQ(result_type(Scalar(true), Scalar(false)), ST::Bool);
}

TEST(KernelsPromotion, StateFollowsCategories) {
  ResultTypeState s;
  s = update_result_type_state(dim_tensor(ST::Byte), s);
  s = update_result_type_state(zero_dim_tensor(ST::Long), s);
  s = update_result_type_state(Scalar(1.5), s);
  EXPECT_EQ(s.dim_result, ST::Byte);
  EXPECT_EQ(s.zero_result, ST::Long);
  EXPECT_EQ(s.wrapped_result, ST::Float);
  EXPECT_EQ(result_type(s), ST::Float);
  EXPECT_EQ(update_result_type_state(Tensor(), s), s);  // undefined tensors are ignored
}

TEST(KernelsPromotion, CanCast) {
  for (ST a : kAllDtypes) {
    for (ST b : kAllDtypes) {
      bool expected = true;
      if (is_floating_type(a) && is_integral_type(b, false)) expected = false;
      if (a != ST::Bool && b == ST::Bool) expected = false;
      EXPECT_EQ(can_cast(a, b), expected) << a << " -> " << b;
    }
  }
  EXPECT_FALSE(can_cast(ST::ComplexFloat, ST::Double));
  EXPECT_TRUE(can_cast(ST::Double, ST::ComplexFloat));
  EXPECT_EQ(error_of([] { check_can_cast_to_output(ST::Float, ST::Long); }),
            "result type Float can't be cast to the desired output type Long");
  EXPECT_EQ(error_of([] { check_can_cast_to_output(ST::Int, ST::Bool); }),
            "result type Int can't be cast to the desired output type Bool");
}

// ---------------------------------------------------------------- conversion ---

TEST(KernelsConvert, ElementConversionsFollowC10) {
  EXPECT_EQ((convert<uint8_t>(-1.0f)), 255);  // through int64, as c10 does for uint8
  EXPECT_EQ((convert<uint8_t>(-2.7)), 254);
  EXPECT_EQ((convert<int32_t>(2.9)), 2);
  EXPECT_EQ((convert<int32_t>(-2.9f)), -2);
  EXPECT_EQ((convert<int8_t>(int64_t{300})), 44);
  EXPECT_EQ((convert<uint8_t>(int32_t{-1})), 255);
  EXPECT_TRUE((convert<bool>(std::nan(""))));
  EXPECT_TRUE((convert<bool>(0.25f)));
  EXPECT_FALSE((convert<bool>(-0.0)));
  EXPECT_TRUE((convert<bool>(int64_t{256})));
  EXPECT_EQ((convert<int64_t>(true)), 1);
  EXPECT_TRUE(std::isinf(static_cast<float>(convert<Half>(1e6))));
  EXPECT_EQ(static_cast<float>(convert<Half>(int64_t{2049})), 2048.0f);  // round to nearest even
  EXPECT_EQ(static_cast<float>(convert<BFloat16>(1.0 + 1.0 / 256)), 1.0f);
  EXPECT_EQ((convert<int32_t>(Half(3.75f))), 3);
  // Out of range: defined (x86's answer), not undefined behaviour.
  EXPECT_EQ((convert<int64_t>(1e300)), std::numeric_limits<int64_t>::min());
  EXPECT_EQ((convert<int32_t>(std::nan(""))), std::numeric_limits<int32_t>::min());
}

// convert_row_for's loop for every dtype pair (some pairs go through float,
// loops-inl.hpp's converts_via_float_v) gives convert<D>(s) for every element,
// bit for bit: contiguous rows longer than a chunk, strided rows and a
// broadcast scalar (source stride 0).
TEST(KernelsConvert, EveryPairsRowLoopMatchesConvert) {
  const ST kinds[] = {ST::Bool, ST::Byte, ST::Char, ST::Short, ST::Int, ST::Long,
                      ST::Half, ST::Float, ST::Double, ST::BFloat16};
  constexpr int64_t n = 300;
  const double values[] = {0.0, 1.0, -1.0, 2.75, -3.5, 127.0, 200.5, -129.0, 1000.25, 65504.0, 70000.0,
                           3e9, -1e19, 1e300, std::numeric_limits<double>::infinity(), std::nan(""), 0.1};
  int pairs = 0;
  for (ST from : kinds) {
    for (ST to : kinds) {
      dispatch_dtype(from, "test", [&](auto from_tag) {
        using S = typename decltype(from_tag)::type;
        dispatch_dtype(to, "test", [&](auto to_tag) {
          using D = typename decltype(to_tag)::type;
          // (Byte buffers: std::vector<bool> has no elements to point at.)
          std::vector<unsigned char> src(n * sizeof(S));
          for (int64_t j = 0; j < n; ++j) {
            const S v = convert<S>(values[j % std::size(values)]);
            std::memcpy(&src[j * sizeof(S)], &v, sizeof(S));
          }
          auto src_at = [&](int64_t j) {
            S v;
            std::memcpy(&v, &src[j * sizeof(S)], sizeof(S));
            return v;
          };
          const detail::ConvertRow row = detail::convert_row_for(to, from, "test");
          const char* s = reinterpret_cast<const char*>(src.data());
          std::vector<unsigned char> contiguous(n * sizeof(D)), strided(2 * n * sizeof(D)), broadcast(n * sizeof(D));
          row(reinterpret_cast<char*>(contiguous.data()), sizeof(D), s, sizeof(S), n);
          row(reinterpret_cast<char*>(strided.data()), 2 * sizeof(D), s, sizeof(S), n);
          row(reinterpret_cast<char*>(broadcast.data()), sizeof(D), s + 5 * sizeof(S), 0, n);
          const D expected_5 = convert<D>(src_at(5));
          int mismatches = 0;
          for (int64_t j = 0; j < n; ++j) {
            const D expected = convert<D>(src_at(j));
            mismatches += std::memcmp(&expected, &contiguous[j * sizeof(D)], sizeof(D)) != 0;
            mismatches += std::memcmp(&expected, &strided[2 * j * sizeof(D)], sizeof(D)) != 0;
            mismatches += std::memcmp(&expected_5, &broadcast[j * sizeof(D)], sizeof(D)) != 0;
          }
          EXPECT_EQ(mismatches, 0) << from << " -> " << to;
          ++pairs;
        });
      });
    }
  }
  EXPECT_EQ(pairs, 100);
}

TEST(KernelsConvert, CheckedScalarConversionFollowsScalarTo) {
  EXPECT_EQ(checked_scalar_to<uint8_t>(Scalar(-1)), 255);  // negatives wrap into unsigned types
  EXPECT_EQ(checked_scalar_to<uint8_t>(Scalar(-255)), 1);
  EXPECT_EQ(error_of([] { checked_scalar_to<uint8_t>(Scalar(256)); }),
            "value cannot be converted to type uint8_t without overflow");
  EXPECT_EQ(error_of([] { checked_scalar_to<uint8_t>(Scalar(-256)); }),
            "value cannot be converted to type uint8_t without overflow");
  EXPECT_EQ(error_of([] { checked_scalar_to<int8_t>(Scalar(128)); }),
            "value cannot be converted to type int8_t without overflow");
  EXPECT_EQ(error_of([] { checked_scalar_to<int32_t>(Scalar(int64_t{1} << 40)); }),
            "value cannot be converted to type int without overflow");
  EXPECT_EQ(error_of([] { checked_scalar_to<float>(Scalar(1e300)); }),
            "value cannot be converted to type float without overflow");
  EXPECT_EQ(error_of([] { checked_scalar_to<Half>(Scalar(70000)); }),
            "value cannot be converted to type at::Half without overflow");
  EXPECT_EQ(error_of([] { checked_scalar_to<int64_t>(Scalar(std::nan(""))); }),
            "value cannot be converted to type int64_t without overflow");
  EXPECT_EQ(error_of([] { checked_scalar_to<double>(Scalar(std::complex<double>(1, 1))); }),
            "value cannot be converted to type double without overflow");
  EXPECT_TRUE(std::isinf(checked_scalar_to<float>(Scalar(std::numeric_limits<double>::infinity()))));
  EXPECT_TRUE(std::isnan(checked_scalar_to<float>(Scalar(std::nan("")))));
  EXPECT_EQ(checked_scalar_to<int32_t>(Scalar(2.7)), 2);
  EXPECT_EQ(checked_scalar_to<int32_t>(Scalar(-2.7)), -2);
  EXPECT_TRUE(checked_scalar_to<bool>(Scalar(5)));
  EXPECT_TRUE(checked_scalar_to<bool>(Scalar(1e300)));  // never overflows
  EXPECT_EQ(checked_scalar_to<double>(Scalar(std::complex<double>(2.5, 0))), 2.5);
  EXPECT_EQ(checked_scalar_to<int64_t>(Scalar(true)), 1);
}

TEST(KernelsConvert, ScalarCastIsUnchecked) {
  EXPECT_EQ(scalar_cast<uint8_t>(Scalar(300)), 44);
  EXPECT_EQ(scalar_cast<int8_t>(Scalar(-129)), 127);
  EXPECT_TRUE(std::isinf(scalar_cast<float>(Scalar(1e300))));
  EXPECT_EQ(scalar_cast<int64_t>(Scalar(true)), 1);
}

TEST(KernelsConvert, DispatchRejectsOtherDtypes) {
  EXPECT_EQ(dispatch_dtype(ST::Short, "x", [](auto tag) { return sizeof(typename decltype(tag)::type); }), 2u);
  try {
    dispatch_dtype(ST::ComplexFloat, "add", [](auto) {});
    FAIL() << "expected a TypeError";
  } catch (const TypeError& e) {
    EXPECT_STREQ(e.what(), "\"add\" not implemented for 'ComplexFloat'");
  }
  EXPECT_THROW(dispatch_floating_dtype(ST::Int, "div", [](auto) {}), TypeError);
}

// ------------------------------------------------------------------ overlap ---

TEST(KernelsOverlap, InternalOverlap) {
  Tensor base = kernels::zeros(shape({4, 3}));
  EXPECT_EQ(has_internal_overlap(base), MemOverlap::No);
  EXPECT_EQ(has_internal_overlap(base.as_strided(shape({3, 4}), shape({1, 3}))), MemOverlap::No);  // transpose
  EXPECT_EQ(has_internal_overlap(base.as_strided(shape({4, 3}), shape({0, 1}))), MemOverlap::Yes);   // expand
  EXPECT_EQ(has_internal_overlap(base.as_strided(shape({2, 3}), shape({6, 1}))), MemOverlap::TooHard);
  EXPECT_EQ(error_of([&] { assert_no_internal_overlap(base.as_strided(shape({4, 3}), shape({0, 1}))); }),
            "unsupported operation: more than one element of the written-to tensor refers to a single memory "
            "location. Please clone() the tensor before performing the operation.");
  EXPECT_TRUE(is_non_overlapping_and_dense(shape({2, 1, 3}), shape({1, 100, 2})));
  EXPECT_FALSE(is_non_overlapping_and_dense(shape({2, 3}), shape({4, 1})));
}

TEST(KernelsOverlap, OverlapStatus) {
  Tensor base = kernels::zeros(shape({12}));
  Tensor a = base.as_strided(shape({6}), shape({1}), 0);
  Tensor b = base.as_strided(shape({6}), shape({1}), 3);
  Tensor c = base.as_strided(shape({6}), shape({1}), 6);
  Tensor a_again = base.as_strided(shape({6}), shape({1}), 0);
  Tensor strided = base.as_strided(shape({6}), shape({2}), 0);
  Tensor other = kernels::zeros(shape({6}));
  EXPECT_EQ(get_overlap_status(a, a), MemOverlapStatus::Full);
  EXPECT_EQ(get_overlap_status(a, a_again), MemOverlapStatus::Full);
  EXPECT_EQ(get_overlap_status(a, b), MemOverlapStatus::Partial);
  EXPECT_EQ(get_overlap_status(a, c), MemOverlapStatus::No);
  EXPECT_EQ(get_overlap_status(a, strided), MemOverlapStatus::TooHard);
  EXPECT_EQ(get_overlap_status(a, other), MemOverlapStatus::No);
  Tensor sq = kernels::zeros(shape({3, 3}));
  EXPECT_EQ(get_overlap_status(sq, sq.as_strided(shape({3, 3}), shape({1, 3}))), MemOverlapStatus::Partial);
  EXPECT_TRUE(may_share_memory(a, strided));
  EXPECT_FALSE(may_share_memory(a, c));
  EXPECT_TRUE(is_safe_elementwise_alias(a, a_again));
  EXPECT_FALSE(is_safe_elementwise_alias(a, b));
  EXPECT_TRUE(is_safe_elementwise_alias(a, other));
}

// ----------------------------------------------------------------- iterator ---

TEST(KernelsIter, ContiguousOperandsCoalesceToOneRow) {
  Tensor out = kernels::empty(shape({2, 3, 4}));
  Tensor a = kernels::empty(shape({2, 3, 4}), ST::Int);
  ElementwiseIter<1> it(OperandRef::of(out), {OperandRef::of(a)});
  EXPECT_EQ(it.ndim(), 1u);
  EXPECT_EQ(it.shape()[0], 24);
  EXPECT_EQ(it.strides(0)[0], 4);
  EXPECT_EQ(it.strides(1)[0], 4);
  int rows = 0;
  it.for_each_row([&](const auto&, const auto&, int64_t n) {
    ++rows;
    EXPECT_EQ(n, 24);
  });
  EXPECT_EQ(rows, 1);
}

TEST(KernelsIter, BroadcastAndTransposedLayouts) {
  // Output transposed: iteration follows its memory (dim 0 fastest).
  Tensor base = kernels::empty(shape({4, 3}));
  Tensor out = base.as_strided(shape({3, 4}), shape({1, 3}));
  Tensor row = kernels::empty(shape({4}), ST::Double);  // broadcast along dim 0
  ElementwiseIter<1> it(OperandRef::of(out), {OperandRef::of(row)});
  ASSERT_EQ(it.ndim(), 2u);
  EXPECT_EQ(it.shape()[0], 3);
  EXPECT_EQ(it.shape()[1], 4);
  EXPECT_EQ(it.strides(0)[0], 4);   // bytes
  EXPECT_EQ(it.strides(1)[0], 0);   // broadcast
  EXPECT_EQ(it.strides(1)[1], 8);
  // Size-1 dimensions disappear; a 0-dim output is one element.
  Tensor scalar_out = kernels::empty(shape({}));
  ElementwiseIter<0> it0(OperandRef::of(scalar_out), {});
  EXPECT_EQ(it0.ndim(), 1u);
  EXPECT_EQ(it0.numel(), 1);
  Tensor ones_out = kernels::empty(shape({1, 5, 1}));
  ElementwiseIter<0> it1(OperandRef::of(ones_out), {});
  EXPECT_EQ(it1.ndim(), 1u);
  EXPECT_EQ(it1.shape()[0], 5);
  // Not broadcastable: an error, not a wild read.
  Tensor bad = kernels::empty(shape({5}));
  EXPECT_THROW((ElementwiseIter<1>(OperandRef::of(out), {OperandRef::of(bad)})), Error);
}

TEST(KernelsIter, ZeroElementsRunNothing) {
  Tensor out = kernels::empty(shape({3, 0}));
  ElementwiseIter<0> it(OperandRef::of(out), {});
  int rows = 0;
  it.for_each_row([&](const auto&, const auto&, int64_t) { ++rows; });
  EXPECT_EQ(rows, 0);
}

// A ternary op through cpu_kernel: a * b + c with three broadcast inputs of
// three dtypes, a strided output, and a same-dtype run of the fast paths.
struct FmaLike {
  template <class T>
  T operator()(T a, T b, T c) const {
    return a * b + c;
  }
};

TEST(KernelsIter, TernaryKernelMixedDtypes) {
  Tensor a = from_vector<int32_t>({1, 2, 3}, shape({3}));
  Tensor b = from_vector<double>({10, 20}, shape({2, 1}));
  Tensor c = from_vector<float>({0.5f}, shape({}));
  Tensor base = kernels::zeros(shape({3, 2}), ST::Double);
  Tensor out = base.as_strided(shape({2, 3}), shape({1, 2}));  // transposed
  ElementwiseIter<3> it(OperandRef::of(out), {OperandRef::of(a), OperandRef::of(b), OperandRef::of(c)});
  cpu_kernel<double>(it, FmaLike{});
  EXPECT_EQ(values(out), (std::vector<double>{10.5, 20.5, 30.5, 20.5, 40.5, 60.5}));
}

struct MulLike {
  template <class T>
  T operator()(T a, T b) const {
    return a * b;
  }
};

// The converting path reads a dense operand of the common dtype in place and
// converts the others through buffers (a Bool mask as its bytes): the same
// bits as element-by-element conversion, for a dense or strided Float
// operand, into a Float output (written in place) or a Double one.
TEST(KernelsIter, ConvertingPathReadsDenseOperandsInPlace) {
  constexpr int64_t n = 1000;  // several 256-element chunks and a tail
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> xs(2 * n);
  std::vector<uint8_t> ms(n);
  for (int64_t i = 0; i < 2 * n; ++i) xs[static_cast<std::size_t>(i)] = static_cast<float>((i * 37) % 101) / 7.0f - 5.0f;
  xs[3] = nan, xs[10] = inf, xs[11] = -inf, xs[12] = -0.0f;
  for (int64_t i = 0; i < n; ++i) ms[static_cast<std::size_t>(i)] = static_cast<uint8_t>((i * 13) % 3 == 0);
  ms[3] = 0, ms[10] = 0, ms[11] = 1, ms[12] = 1;
  Tensor wide = from_vector<float>(xs, shape({2 * n}));
  Tensor dense = contiguous_clone(wide.as_strided(shape({n}), shape({2})));
  Tensor strided = wide.as_strided(shape({n}), shape({2}));
  Tensor mask = kernels::empty(shape({n}), ST::Bool);
  std::memcpy(mask.data_ptr(), ms.data(), ms.size());
  std::vector<float> want(n);
  for (int64_t i = 0; i < n; ++i)
    want[static_cast<std::size_t>(i)] = xs[static_cast<std::size_t>(2 * i)] * static_cast<float>(ms[static_cast<std::size_t>(i)]);
  for (const Tensor& x : {dense, strided}) {
    Tensor out = kernels::empty(shape({n}), ST::Float);
    ElementwiseIter<2> it(OperandRef::of(out), {OperandRef::of(x), OperandRef::of(mask)});
    cpu_kernel<float>(it, MulLike{});
    EXPECT_EQ(std::memcmp(out.data_ptr(), want.data(), n * sizeof(float)), 0) << (x.is_contiguous() ? "dense" : "strided");
    Tensor out64 = kernels::empty(shape({n}), ST::Double);
    ElementwiseIter<2> it64(OperandRef::of(out64), {OperandRef::of(mask), OperandRef::of(x)});
    cpu_kernel<float>(it64, MulLike{});
    const double* got = out64.data_ptr<double>();
    for (int64_t i = 0; i < n; ++i) {
      const auto w = static_cast<double>(want[static_cast<std::size_t>(i)]);
      EXPECT_TRUE(std::isnan(w) ? std::isnan(got[i]) : std::memcmp(&got[i], &w, sizeof w) == 0) << i;
    }
  }
}

TEST(KernelsIter, TernaryKernelSameDtypeFastPaths) {
  const int64_t n = 1000;  // several blocks and a tail
  std::vector<float> av(n), bv(n);
  for (int64_t i = 0; i < n; ++i) {
    av[i] = static_cast<float>(i);
    bv[i] = static_cast<float>(i % 7);
  }
  Tensor a = from_vector<float>(av, shape({n}));
  Tensor b = from_vector<float>(bv, shape({n}));
  Tensor c = from_vector<float>({3.0f}, shape({1}));
  Tensor out = kernels::empty(shape({n}));
  ElementwiseIter<3> it(OperandRef::of(out), {OperandRef::of(a), OperandRef::of(b), OperandRef::of(c)});
  cpu_kernel<float>(it, FmaLike{});
  const std::vector<float> got = to_vector<float>(out);
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], av[i] * bv[i] + 3.0f) << i;
  // In place: out is a.
  ElementwiseIter<3> in_place(OperandRef::of(a), {OperandRef::of(a), OperandRef::of(b), OperandRef::of(c)});
  cpu_kernel<float>(in_place, FmaLike{});
  EXPECT_EQ(to_vector<float>(a), got);
}

TEST(KernelsIter, ScalarOperandHoldsTheConvertedValue) {
  ScalarOperand s(Scalar(300), ST::Byte);
  EXPECT_EQ(s.value<uint8_t>(), 44);
  EXPECT_EQ(s.ref().sizes.size(), 0u);
  ScalarOperand h(Scalar(0.1), ST::Half);
  EXPECT_EQ(static_cast<float>(s.value<uint8_t>()), 44.0f);
  EXPECT_EQ(static_cast<float>(h.value<Half>()), static_cast<float>(Half(0.1f)));
}

TEST(KernelsIter, CopyAndFillElements) {
  Tensor src = from_vector<double>({1.5, -2.5, 3.9}, shape({3}));
  Tensor dst = kernels::zeros(shape({2, 3}), ST::Int);
  copy_elements(OperandRef::of(dst), OperandRef::of(src));
  EXPECT_EQ(to_vector<int32_t>(dst), (std::vector<int32_t>{1, -2, 3, 1, -2, 3}));
  Tensor col = dst.as_strided(shape({2}), shape({3}), 1);
  fill_elements<int32_t>(OperandRef::of(col), 7);
  EXPECT_EQ(to_vector<int32_t>(dst), (std::vector<int32_t>{1, 7, 3, 1, 7, 3}));
  Tensor clone = contiguous_clone(col);
  EXPECT_TRUE(clone.is_contiguous());
  EXPECT_FALSE(clone.is_alias_of(dst));
  EXPECT_EQ(to_vector<int32_t>(clone), (std::vector<int32_t>{7, 7}));
}

}  // namespace
}  // namespace opd::kernels::test
