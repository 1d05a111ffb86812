// add/sub/mul/div: hand-computed results for broadcasting, non-contiguous
// inputs and outputs, every dtype pair, alpha, IEEE division, integer
// wrap-around, Scalar overloads, and PyTorch's error messages.
#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "kernel_test_util.hpp"

namespace opd::kernels::test {
namespace {

using ST = ScalarType;
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(KernelsBinary, AddBroadcasts) {
  Tensor a = from_vector<float>({1, 2, 3, 4, 5, 6}, shape({2, 3}));
  Tensor b = from_vector<float>({10, 20, 30}, shape({3}));
  Tensor c = from_vector<float>({100, 200}, shape({2, 1}));
  EXPECT_EQ(values(add(a, b)), (std::vector<double>{11, 22, 33, 14, 25, 36}));
  EXPECT_EQ(values(add(a, c)), (std::vector<double>{101, 102, 103, 204, 205, 206}));
  Tensor r = add(c, b);
  EXPECT_EQ(r.sizes(), shape({2, 3}));
  EXPECT_EQ(values(r), (std::vector<double>{110, 120, 130, 210, 220, 230}));
  // 0-dim with anything.
  Tensor z = from_vector<float>({0.5f}, shape({}));
  EXPECT_EQ(values(add(a, z)), (std::vector<double>{1.5, 2.5, 3.5, 4.5, 5.5, 6.5}));
  EXPECT_EQ(add(z, z).dim(), 0);
  // Zero-size broadcasts.
  Tensor e = kernels::empty(shape({0, 3}));
  EXPECT_EQ(add(e, b).sizes(), shape({0, 3}));
}

TEST(KernelsBinary, MetaGivesShapeAndDtype) {
  Tensor a = kernels::zeros(shape({2, 1, 4}), ST::Int);
  Tensor b = kernels::zeros(shape({3, 1}), ST::Char);
  EXPECT_TRUE(meta_is(add_meta(a, b, 1), shape({2, 3, 4}), ST::Int));
  EXPECT_TRUE(meta_is(sub_meta(a, b, 2), shape({2, 3, 4}), ST::Int));
  EXPECT_TRUE(meta_is(mul_meta(a, b), shape({2, 3, 4}), ST::Int));
  EXPECT_TRUE(meta_is(div_meta(a, b), shape({2, 3, 4}), ST::Float));
  EXPECT_TRUE(meta_is(add_scalar_meta(a, 2.5, 1), shape({2, 1, 4}), ST::Float));
  EXPECT_TRUE(meta_is(sub_scalar_meta(a, 2, 1), shape({2, 1, 4}), ST::Int));
  EXPECT_TRUE(meta_is(mul_scalar_meta(b, true), shape({3, 1}), ST::Char));
  EXPECT_TRUE(meta_is(div_scalar_meta(b, 2), shape({3, 1}), ST::Float));
  EXPECT_TRUE(meta_is(div_scalar_meta(kernels::zeros(shape({2}), ST::Double), 2), shape({2}), ST::Double));
  // The first input with the full output shape picks the memory format.
  Tensor nchw = kernels::zeros(shape({2, 3, 4, 5}));
  Tensor nhwc = opd::empty(shape({2, 3, 4, 5}), ST::Float, Device::cpu(), MemoryFormat::ChannelsLast);
  EXPECT_TRUE(meta_is(add_meta(nhwc, nchw, 1), shape({2, 3, 4, 5}), ST::Float, MemoryFormat::ChannelsLast));
  EXPECT_TRUE(meta_is(add_meta(nchw, nhwc, 1), shape({2, 3, 4, 5}), ST::Float));
  EXPECT_TRUE(meta_is(mul_meta(kernels::zeros(shape({5})), nhwc), shape({2, 3, 4, 5}), ST::Float,
                      MemoryFormat::ChannelsLast));
  Tensor out = empty_from_meta(mul_scalar_meta(nhwc, 2));
  EXPECT_TRUE(out.is_contiguous(MemoryFormat::ChannelsLast));
}

TEST(KernelsBinary, Alpha) {
  Tensor a = from_vector<int64_t>({1, 2, 3}, shape({3}));
  Tensor b = from_vector<int64_t>({10, 20, 30}, shape({3}));
  EXPECT_EQ(values(add(a, b, 2)), (std::vector<double>{21, 42, 63}));
  EXPECT_EQ(values(add(a, b, -1)), (std::vector<double>{-9, -18, -27}));
  EXPECT_EQ(values(add(a, b, 0)), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(values(sub(a, b, 3)), (std::vector<double>{-29, -58, -87}));
  EXPECT_EQ(values(sub(a, b, -1)), (std::vector<double>{11, 22, 33}));
  Tensor f = from_vector<double>({1, 2, 3}, shape({3}));
  EXPECT_EQ(values(add(f, f, 0.5)), (std::vector<double>{1.5, 3, 4.5}));
  EXPECT_EQ(values(sub(f, f, 0.25)), (std::vector<double>{0.75, 1.5, 2.25}));
  // An integral alpha on a floating result is fine; a float alpha on an
  // integral one is not.
  EXPECT_EQ(values(add(f, a, 2)), (std::vector<double>{3, 6, 9}));
  EXPECT_EQ(values(add(a, 1.5, 2)), (std::vector<double>{4, 5, 6}));
  // Scalar overloads with alpha.
  EXPECT_EQ(values(add(a, 10, 3)), (std::vector<double>{31, 32, 33}));
  EXPECT_EQ(values(sub(a, 10, 3)), (std::vector<double>{-29, -28, -27}));
  // uint8: sub goes through alpha = -1, which wraps to 255.
  Tensor u = from_vector<uint8_t>({5, 3}, shape({2}));
  Tensor v = from_vector<uint8_t>({3, 5}, shape({2}));
  EXPECT_EQ(values(sub(u, v)), (std::vector<double>{2, 254}));
  EXPECT_EQ(values(sub(u, v, 2)), (std::vector<double>{255, 249}));
}

TEST(KernelsBinary, TrueDivision) {
  Tensor a = from_vector<int32_t>({7, -7, 0, 1, -1, 6}, shape({6}));
  Tensor b = from_vector<int32_t>({2, 2, 0, 0, 0, 3}, shape({6}));
  Tensor q = div(a, b);
  EXPECT_EQ(q.dtype(), ST::Float);
  std::vector<double> got = values(q);
  EXPECT_EQ(got[0], 3.5);
  EXPECT_EQ(got[1], -3.5);
  EXPECT_TRUE(std::isnan(got[2]));
  EXPECT_EQ(got[3], kInf);
  EXPECT_EQ(got[4], -kInf);
  EXPECT_EQ(got[5], 2.0);
  // Floats: IEEE, including signed zero.
  Tensor x = from_vector<double>({1, -1, 0, 1, 1e308}, shape({5}));
  Tensor y = from_vector<double>({0, 0, 0, -0.0, 1e-10}, shape({5}));
  got = values(div(x, y));
  EXPECT_EQ(got[0], kInf);
  EXPECT_EQ(got[1], -kInf);
  EXPECT_TRUE(std::isnan(got[2]));
  EXPECT_EQ(got[3], -kInf);
  EXPECT_EQ(got[4], kInf);
  // Bool / Bool and Long / Scalar are Float too.
  Tensor t = from_vector<bool>({true, false}, shape({2}));
  Tensor d = div(t, t);
  EXPECT_EQ(d.dtype(), ST::Float);
  got = values(d);
  EXPECT_EQ(got[0], 1.0);
  EXPECT_TRUE(std::isnan(got[1]));
  Tensor l = from_vector<int64_t>({3, 4}, shape({2}));
  EXPECT_EQ(div(l, 2).dtype(), ST::Float);
  EXPECT_EQ(values(div(l, 2)), (std::vector<double>{1.5, 2}));
  EXPECT_EQ(values(div(l, 0.0)), (std::vector<double>{kInf, kInf}));
  // A Double tensor stays Double.
  EXPECT_EQ(div(x, 2).dtype(), ST::Double);
}

TEST(KernelsBinary, IntegersWrap) {
  Tensor a = from_vector<int8_t>({100, -100}, shape({2}));
  EXPECT_EQ(values(add(a, a)), (std::vector<double>{-56, 56}));
  EXPECT_EQ(values(mul(a, a)), (std::vector<double>{16, 16}));
  Tensor m = from_vector<int32_t>({std::numeric_limits<int32_t>::max()}, shape({1}));
  EXPECT_EQ(values(add(m, 1)), (std::vector<double>{static_cast<double>(std::numeric_limits<int32_t>::min())}));
  Tensor big = from_vector<int64_t>({std::numeric_limits<int64_t>::max()}, shape({1}));
  EXPECT_EQ(to_vector<int64_t>(mul(big, 2)), (std::vector<int64_t>{-2}));
  // A Scalar that does not fit the tensor's dtype wraps (it is not alpha).
  Tensor u = from_vector<uint8_t>({1, 2}, shape({2}));
  EXPECT_EQ(add(u, 300).dtype(), ST::Byte);
  EXPECT_EQ(values(add(u, 300)), (std::vector<double>{45, 46}));
  EXPECT_EQ(values(mul(u, -1)), (std::vector<double>{255, 254}));
}

TEST(KernelsBinary, Bool) {
  Tensor a = from_vector<bool>({true, false, true, false}, shape({4}));
  Tensor b = from_vector<bool>({true, true, false, false}, shape({4}));
  Tensor s = add(a, b);
  EXPECT_EQ(s.dtype(), ST::Bool);
  EXPECT_EQ(values(s), (std::vector<double>{1, 1, 1, 0}));
  EXPECT_EQ(values(add(a, b, false)), (std::vector<double>{1, 0, 1, 0}));
  EXPECT_EQ(values(add(a, b, 2)), (std::vector<double>{1, 1, 1, 0}));  // integral alpha -> true
  EXPECT_EQ(values(mul(a, b)), (std::vector<double>{1, 0, 0, 0}));
  EXPECT_EQ(values(add(a, true)), (std::vector<double>{1, 1, 1, 1}));
  EXPECT_EQ(values(mul(a, false)), (std::vector<double>{0, 0, 0, 0}));
  // Bool with numbers promotes.
  EXPECT_EQ(add(a, 5).dtype(), ST::Long);
  EXPECT_EQ(values(add(a, 5)), (std::vector<double>{6, 5, 6, 5}));
  EXPECT_EQ(add(a, 2.5).dtype(), ST::Float);
  EXPECT_EQ(values(add(from_vector<int32_t>({3, 3, 3, 3}, shape({4})), a)), (std::vector<double>{4, 3, 4, 3}));
}

// Every dtype pair through all four ops: a = 3 (true for Bool), b = 2 (true).
TEST(KernelsBinary, EveryDtypePair) {
  for (ST ta : kAllDtypes) {
    for (ST tb : kAllDtypes) {
      SCOPED_TRACE(testing::Message() << ta << " op " << tb);
      const double va = ta == ST::Bool ? 1 : 3;
      const double vb = tb == ST::Bool ? 1 : 2;
      Tensor a = tensor_of({va, va, va, va, va, va}, shape({2, 3}), ta);
      Tensor b = tensor_of({vb, vb, vb}, shape({3}), tb);
      const ST common = promote_types(ta, tb);

      Tensor s = add(a, b);
      EXPECT_EQ(s.dtype(), common);
      const double sum = common == ST::Bool ? 1 : va + vb;
      EXPECT_EQ(values(s), std::vector<double>(6, sum));

      if (ta == ST::Bool || tb == ST::Bool) {
        EXPECT_THROW(sub(a, b), Error);
      } else {
        Tensor d = sub(a, b);
        EXPECT_EQ(d.dtype(), common);
        EXPECT_EQ(values(d), std::vector<double>(6, va - vb));
      }

      Tensor p = mul(a, b);
      EXPECT_EQ(p.dtype(), common);
      EXPECT_EQ(values(p), std::vector<double>(6, va * vb));

      Tensor q = div(a, b);
      EXPECT_EQ(q.dtype(), is_integral_type(common, true) ? ST::Float : common);
      EXPECT_EQ(values(q), std::vector<double>(6, va / vb));
    }
  }
}

TEST(KernelsBinary, NonContiguousInputsAndOutputs) {
  // a is the transpose of a 3x2 buffer; b a stride-2 slice; out a
  // transposed view inside a larger Double buffer.
  Tensor abuf = from_vector<int32_t>({1, 2, 3, 4, 5, 6}, shape({3, 2}));
  Tensor a = abuf.as_strided(shape({2, 3}), shape({1, 2}));  // [[1,3,5],[2,4,6]]
  Tensor bbuf = from_vector<float>({10, -1, 20, -1, 30, -1}, shape({6}));
  Tensor b = bbuf.as_strided(shape({3}), shape({2}));  // [10,20,30]
  Tensor obuf = kernels::zeros(shape({4, 3}), ST::Double);
  Tensor out = obuf.as_strided(shape({2, 3}), shape({1, 3}), 1);  // column-major, offset 1
  add_impl(a, b, 1, out);
  EXPECT_EQ(values(out), (std::vector<double>{11, 23, 35, 12, 24, 36}));
  EXPECT_EQ(values(obuf), (std::vector<double>{0, 11, 12, 0, 23, 24, 0, 35, 36, 0, 0, 0}));
  mul_impl(a, b, out);
  EXPECT_EQ(values(out), (std::vector<double>{10, 60, 150, 20, 80, 180}));
  div_scalar_impl(a, 2, out);
  EXPECT_EQ(values(out), (std::vector<double>{0.5, 1.5, 2.5, 1, 2, 3}));
  // A broadcast (stride-0) input.
  Tensor e = b.as_strided(shape({2, 3}), shape({0, 2}));
  sub_impl(e, a, 1, out);
  EXPECT_EQ(values(out), (std::vector<double>{9, 17, 25, 8, 16, 24}));
}

TEST(KernelsBinary, OutOfAnotherDtype) {
  Tensor a = from_vector<int32_t>({1, 2, 3}, shape({3}));
  Tensor out = kernels::zeros(shape({3}), ST::Double);
  add_impl(a, a, 1, out);
  EXPECT_EQ(values(out), (std::vector<double>{2, 4, 6}));
  // Computed in the common dtype (Char wraps), then converted.
  Tensor c = from_vector<int8_t>({100}, shape({1}));
  Tensor wide = kernels::zeros(shape({1}), ST::Long);
  add_impl(c, c, 1, wide);
  EXPECT_EQ(values(wide), (std::vector<double>{-56}));
  // Half common dtype: rounded to Half before landing in Float.
  Tensor h = tensor_of({2049}, shape({1}), ST::Long);
  Tensor hh = tensor_of({0}, shape({1}), ST::Half);
  Tensor f = kernels::zeros(shape({1}), ST::Float);
  add_impl(h, hh, 1, f);
  EXPECT_EQ(values(f), (std::vector<double>{2048}));
  // Bool out only for Bool results.
  Tensor bo = kernels::zeros(shape({3}), ST::Bool);
  EXPECT_EQ(error_of([&] { add_impl(a, a, 1, bo); }), "result type Int can't be cast to the desired output type Bool");
  Tensor lo = kernels::zeros(shape({3}), ST::Long);
  EXPECT_EQ(error_of([&] { div_impl(a, a, lo); }), "result type Float can't be cast to the desired output type Long");
}

TEST(KernelsBinary, InPlace) {
  Tensor a = from_vector<float>({1, 2, 3, 4, 5, 6}, shape({2, 3}));
  Tensor b = from_vector<float>({10, 20, 30}, shape({3}));
  add_impl(a, b, 1, a);
  EXPECT_EQ(values(a), (std::vector<double>{11, 22, 33, 14, 25, 36}));
  mul_scalar_impl(a, 2, a);
  EXPECT_EQ(values(a), (std::vector<double>{22, 44, 66, 28, 50, 72}));
  // other is out as well
  sub_impl(a, a, 1, a);
  EXPECT_EQ(values(a), std::vector<double>(6, 0));
  // In place on a transposed view, through a second handle to the same view.
  Tensor base = from_vector<int64_t>({1, 2, 3, 4}, shape({2, 2}));
  Tensor t = base.as_strided(shape({2, 2}), shape({1, 2}));
  Tensor t2 = base.as_strided(shape({2, 2}), shape({1, 2}));
  add_impl(t, from_vector<int64_t>({100, 200}, shape({2})), 1, t2);
  EXPECT_EQ(values(base), (std::vector<double>{101, 102, 203, 204}));
  // In-place with a broadcast shape mismatch is an error.
  Tensor small = from_vector<float>({1, 2, 3}, shape({3}));
  Tensor wide = kernels::zeros(shape({2, 3}));
  EXPECT_EQ(error_of([&] { add_impl(small, wide, 1, small); }),
            "output with shape [3] doesn't match the broadcast shape [2, 3]");
  // An int tensor cannot take a float result in place.
  Tensor i = from_vector<int32_t>({1}, shape({1}));
  EXPECT_EQ(error_of([&] { mul_scalar_impl(i, 1.5, i); }),
            "result type Float can't be cast to the desired output type Int");
}

TEST(KernelsBinary, OverlapRules) {
  // Output overlapping itself: PyTorch's error.
  Tensor a = kernels::ones(shape({3}));
  Tensor exp = kernels::zeros(shape({1})).as_strided(shape({3}), shape({0}));
  EXPECT_EQ(error_of([&] { add_impl(a, a, 1, exp); }),
            "unsupported operation: more than one element of the written-to tensor refers to a single memory "
            "location. Please clone() the tensor before performing the operation.");
  // Output partially overlapping an input: PyTorch's error.
  Tensor buf = from_vector<float>({1, 2, 3, 4, 5}, shape({5}));
  Tensor lo = buf.as_strided(shape({4}), shape({1}), 0);
  Tensor hi = buf.as_strided(shape({4}), shape({1}), 1);
  EXPECT_EQ(error_of([&] { add_impl(lo, lo, 1, hi); }),
            "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
            "memory location. Please clone() the tensor before performing the operation.");
  // Overlap PyTorch cannot classify (a strided input interleaved with the
  // output): computed as if the input were read first.
  Tensor buf2 = from_vector<float>({1, 2, 3, 4, 5, 6}, shape({6}));
  Tensor every_other = buf2.as_strided(shape({3}), shape({2}), 0);  // 1,3,5
  Tensor tail = buf2.as_strided(shape({3}), shape({1}), 2);        // 3,4,5 (written)
  add_impl(every_other, every_other, 1, tail);
  EXPECT_EQ(values(buf2), (std::vector<double>{1, 2, 2, 6, 10, 6}));
  // A dense row of the output broadcast over it: partial overlap, an error
  // in PyTorch (m.add_(m[0])).
  Tensor m = from_vector<int32_t>({1, 2, 3, 4, 5, 6}, shape({2, 3}));
  Tensor row = m.as_strided(shape({3}), shape({1}), 0);
  Tensor m_view = m.as_strided(shape({2, 3}), shape({3, 1}), 0);
  EXPECT_THROW(add_impl(m_view, row, 1, m), Error);
  // A column (not dense) broadcast over its rows: read before written.
  Tensor col = m.as_strided(shape({2, 1}), shape({3, 1}), 0);
  add_impl(m_view, col, 1, m);
  EXPECT_EQ(values(m), (std::vector<double>{2, 3, 4, 8, 9, 10}));
}

TEST(KernelsBinary, ErrorMessages) {
  Tensor i = kernels::zeros(shape({2, 3}), ST::Int);
  Tensor f = kernels::zeros(shape({2, 3}), ST::Float);
  Tensor b = kernels::zeros(shape({2, 3}), ST::Bool);
  Tensor bad = kernels::zeros(shape({4}), ST::Int);
  EXPECT_EQ(error_of([&] { add_meta(i, bad, 1); }),
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  EXPECT_EQ(error_of([&] { mul_meta(bad, i); }),
            "The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 1");
  EXPECT_EQ(error_of([&] { add_meta(i, i, 2.5); }),
            "For integral input tensors, argument alpha must not be a floating point number.");
  EXPECT_EQ(error_of([&] { sub_scalar_meta(i, 1, 0.5); }),
            "For integral input tensors, argument alpha must not be a floating point number.");
  EXPECT_EQ(error_of([&] { add_meta(i, i, true); }), "Boolean alpha only supported for Boolean results.");
  EXPECT_EQ(error_of([&] { add_meta(f, f, true); }), "Boolean alpha only supported for Boolean results.");
  EXPECT_EQ(error_of([&] { add_meta(f, f, std::complex<double>(1, 1)); }),
            "For non-complex input tensors, argument alpha must not be a complex number.");
  EXPECT_EQ(error_of([&] { sub_meta(b, b, 1); }),
            "Subtraction, the `-` operator, with two bool tensors is not supported. "
            "Use the `^` or `logical_xor()` operator instead.");
  EXPECT_EQ(error_of([&] { sub_meta(b, i, 1); }),
            "Subtraction, the `-` operator, with a bool tensor is not supported. "
            "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
  EXPECT_EQ(error_of([&] { sub_scalar_meta(i, true, 1); }),
            "Subtraction, the `-` operator, with a bool tensor is not supported. "
            "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
  EXPECT_EQ(error_of([&] { sub_scalar_meta(b, false, 1); }),
            "Subtraction, the `-` operator, with two bool tensors is not supported. "
            "Use the `^` or `logical_xor()` operator instead.");
  // alpha that does not fit the common dtype.
  Tensor c = kernels::zeros(shape({2}), ST::Char);
  Tensor out = kernels::zeros(shape({2}), ST::Char);
  EXPECT_EQ(error_of([&] { add_impl(c, c, 200, out); }), "value cannot be converted to type int8_t without overflow");
  EXPECT_EQ(error_of([&] { sub_impl(c, c, -128, out); }), "value cannot be converted to type int8_t without overflow");
  // ComplexHalf (Half with a complex Scalar): add computes it (as ATen 1.13), div does not.
  EXPECT_EQ(add_scalar_meta(kernels::zeros(shape({2}), ST::Half), std::complex<double>(1, 2), 1).dtype,
            ST::ComplexHalf);
  try {
    div_scalar_meta(kernels::zeros(shape({2}), ST::Half), std::complex<double>(1, 2));
    FAIL() << "expected TypeError";
  } catch (const TypeError& e) {
    EXPECT_STREQ(e.what(), "\"div\" not implemented for 'ComplexHalf'");
  }
  EXPECT_EQ(add_scalar_meta(kernels::zeros(shape({2}), ST::Float), std::complex<double>(1, 2), 1).dtype,
            ST::ComplexFloat);
  EXPECT_THROW(add_meta(Tensor(), f, 1), Error);
}

TEST(KernelsBinary, ScalarOverloads) {
  Tensor i = from_vector<int32_t>({1, 2, 3}, shape({3}));
  Tensor m = mul(i, 2.5);
  EXPECT_EQ(m.dtype(), ST::Float);
  EXPECT_EQ(values(m), (std::vector<double>{2.5, 5, 7.5}));
  EXPECT_EQ(mul(i, 2).dtype(), ST::Int);
  EXPECT_EQ(values(sub(i, 1.5)), (std::vector<double>{-0.5, 0.5, 1.5}));
  Tensor h = tensor_of({1, 2}, shape({2}), ST::Half);
  Tensor hs = add(h, 1.5);
  EXPECT_EQ(hs.dtype(), ST::Half);
  EXPECT_EQ(values(hs), (std::vector<double>{2.5, 3.5}));
  Tensor bf = tensor_of({1, 2}, shape({2}), ST::BFloat16);
  EXPECT_EQ(values(div(bf, 4)), (std::vector<double>{0.25, 0.5}));
  EXPECT_EQ(div(bf, 4).dtype(), ST::BFloat16);
  // A 0-dim tensor is not a Scalar: it keeps its dtype in its category.
  Tensor zd = from_vector<double>({2.5}, shape({}));
  EXPECT_EQ(mul(i, zd).dtype(), ST::Double);
  EXPECT_EQ(mul(tensor_of({1}, shape({1}), ST::Float), zd).dtype(), ST::Float);
}

TEST(KernelsBinary, LongRowsHitBlocksTailsAndChunks) {
  // Same dtype (vector blocks + tail) and mixed dtype (converting chunks of
  // 256) over 1000 elements, contiguous and strided, against a plain loop.
  const int64_t n = 1000;
  std::vector<double> av(n), bv(n);
  for (int64_t k = 0; k < n; ++k) {
    av[k] = static_cast<double>(k % 97) - 40;
    bv[k] = static_cast<double>(k % 13) + 1;
  }
  for (ST ta : {ST::Float, ST::Int, ST::Half}) {
    for (ST tb : {ST::Float, ST::Double, ST::Short}) {
      SCOPED_TRACE(testing::Message() << ta << " " << tb);
      Tensor a = tensor_of(av, shape({n}), ta);
      Tensor b = tensor_of(bv, shape({n}), tb);
      std::vector<double> sum = values(add(a, b, 3));
      std::vector<double> prod = values(mul(a, b));
      std::vector<double> quot = values(div(a, b));
      for (int64_t k = 0; k < n; ++k) {
        ASSERT_EQ(sum[k], av[k] + 3 * bv[k]) << k;
        ASSERT_EQ(prod[k], av[k] * bv[k]) << k;
        const double q = av[k] / bv[k];
        ASSERT_NEAR(quot[k], q, std::abs(q) * (ta == ST::Half && tb != ST::Double ? 1e-3 : 1e-6)) << k;
      }
    }
  }
  // Strided long rows.
  Tensor big = tensor_of(av, shape({n}), ST::Float);
  Tensor half = big.as_strided(shape({n / 2}), shape({2}));
  Tensor r = add(half, half);
  std::vector<double> got = values(r);
  for (int64_t k = 0; k < n / 2; ++k) ASSERT_EQ(got[k], 2 * av[2 * k]) << k;
}

}  // namespace
}  // namespace opd::kernels::test
