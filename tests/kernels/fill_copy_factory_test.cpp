// fill_, copy_ and the factories (empty, zeros, ones, full).
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "kernel_test_util.hpp"

namespace opd::kernels::test {
namespace {

using ST = ScalarType;

// ------------------------------------------------------------------- fill_ ---

TEST(KernelsFill, EveryDtype) {
  for (ST t : kAllDtypes) {
    SCOPED_TRACE(testing::Message() << t);
    Tensor x = kernels::empty(shape({2, 3}), t);
    Tensor& r = fill_(x, 1);
    EXPECT_TRUE(r.is_same(x));
    EXPECT_EQ(values(x), std::vector<double>(6, 1));
  }
}

TEST(KernelsFill, ValueConversion) {
  Tensor i = kernels::empty(shape({2}), ST::Int);
  EXPECT_EQ(values(fill_(i, 2.7)), (std::vector<double>{2, 2}));
  EXPECT_EQ(values(fill_(i, -2.7)), (std::vector<double>{-2, -2}));
  Tensor u = kernels::empty(shape({2}), ST::Byte);
  EXPECT_EQ(values(fill_(u, -1)), (std::vector<double>{255, 255}));
  EXPECT_EQ(error_of([&] { fill_(u, 256); }), "value cannot be converted to type uint8_t without overflow");
  Tensor b = kernels::empty(shape({2}), ST::Bool);
  EXPECT_EQ(values(fill_(b, 5)), (std::vector<double>{1, 1}));
  EXPECT_EQ(values(fill_(b, 0.0)), (std::vector<double>{0, 0}));
  Tensor f = kernels::empty(shape({2}), ST::Float);
  EXPECT_EQ(error_of([&] { fill_(f, 1e300); }), "value cannot be converted to type float without overflow");
  EXPECT_TRUE(std::isinf(values(fill_(f, std::numeric_limits<double>::infinity()))[0]));
  EXPECT_TRUE(std::isnan(values(fill_(f, std::nan("")))[0]));
  EXPECT_EQ(error_of([&] { fill_(i, std::nan("")); }), "value cannot be converted to type int without overflow");
  Tensor h = kernels::empty(shape({2}), ST::Half);
  EXPECT_EQ(error_of([&] { fill_(h, 70000); }), "value cannot be converted to type at::Half without overflow");
  EXPECT_EQ(values(fill_(h, 0.1)), std::vector<double>(2, static_cast<float>(Half(0.1f))));
  Tensor l = kernels::empty(shape({1}), ST::Long);
  EXPECT_EQ(to_vector<int64_t>(fill_(l, std::numeric_limits<int64_t>::max())),
            (std::vector<int64_t>{std::numeric_limits<int64_t>::max()}));
}

TEST(KernelsFill, OnlyTheViewIsWritten) {
  Tensor base = kernels::zeros(shape({3, 4}), ST::Long);
  Tensor col = base.as_strided(shape({3}), shape({4}), 1);
  fill_(col, 7);
  EXPECT_EQ(values(base), (std::vector<double>{0, 7, 0, 0, 0, 7, 0, 0, 0, 7, 0, 0}));
  Tensor t = base.as_strided(shape({4, 3}), shape({1, 4}));  // transpose
  fill_(t, 1);
  EXPECT_EQ(values(base), std::vector<double>(12, 1));
  // An expanded (self-overlapping) tensor may be filled.
  Tensor one = kernels::zeros(shape({1}), ST::Double);
  Tensor expanded = one.as_strided(shape({5, 5}), shape({0, 0}));
  fill_(expanded, 3.5);
  EXPECT_EQ(values(one), (std::vector<double>{3.5}));
  // 0-dim and empty.
  Tensor z = kernels::empty(shape({}), ST::Short);
  EXPECT_EQ(values(fill_(z, -4)), (std::vector<double>{-4}));
  Tensor e = kernels::empty(shape({0, 2}));
  EXPECT_EQ(fill_(e, 1).numel(), 0);
}

// Dense tensors of 16 elements and more are filled by the vector row
// (fill_simd.hpp): every dtype, a tail shorter than a vector, a permuted
// dense layout, a dense block inside a larger tensor (nothing outside it
// written) and a size that splits across threads.
TEST(KernelsFill, VectorPathEveryDtypeAndLayout) {
  for (ST t : kAllDtypes) {
    SCOPED_TRACE(testing::Message() << t);
    for (int64_t n : {16, 17, 31, 67}) {
      Tensor x = kernels::zeros(shape({n}), t);
      fill_(x, 1);
      EXPECT_EQ(values(x), std::vector<double>(static_cast<std::size_t>(n), 1));
    }
    Tensor base = kernels::zeros(shape({4, 24}), t);
    Tensor rows = base.as_strided(shape({2, 24}), shape({24, 1}), 24);  // rows 1 and 2
    fill_(rows, 1);
    std::vector<double> expect(96, 0);
    std::fill(expect.begin() + 24, expect.begin() + 72, 1.0);
    EXPECT_EQ(values(base), expect);
    Tensor transposed = base.as_strided(shape({24, 4}), shape({1, 24}));
    fill_(transposed, 1);
    EXPECT_EQ(values(base), std::vector<double>(96, 1));
  }
  Tensor big = kernels::empty(shape({3 * 32768 + 5}), ST::Float);
  fill_(big, -2.5);
  const std::vector<float> got = to_vector<float>(big);
  EXPECT_EQ(std::count(got.begin(), got.end(), -2.5f), static_cast<std::ptrdiff_t>(got.size()));
}

TEST(KernelsFill, MetaAndUnsupported) {
  Tensor m = kernels::empty(shape({2, 2}), ST::Float, Device::meta());
  EXPECT_TRUE(fill_(m, 1).is_same(m));
  // complex32 as ATen 1.13: two elements are checked against float's range and
  // rounded (1e6 -> inf), one against Half's (throws), with c10's message
  Tensor c = opd::empty(shape({2}), ST::ComplexHalf);
  fill_(c, std::complex<double>(1e6, 0.1));
  EXPECT_TRUE(std::isinf(static_cast<float>(c.data_ptr<opd::ComplexHalf>()[1].real())));
  EXPECT_EQ(static_cast<float>(c.data_ptr<opd::ComplexHalf>()[1].imag()), static_cast<float>(opd::Half(0.1f)));
  Tensor c1 = opd::empty(shape({1}), ST::ComplexHalf);
  EXPECT_EQ(error_of([&] { fill_(c1, 1e6); }), "value cannot be converted to type c10::complex<c10::Half> without overflow");
  EXPECT_THROW(fill_(c, 1e40), Error);  // beyond float: both throw
  Tensor z = opd::empty(shape({2}), ST::ComplexDouble);
  fill_(z, std::complex<double>(1.5, -2));
  EXPECT_EQ(z.data_ptr<std::complex<double>>()[1], std::complex<double>(1.5, -2));
  Tensor r = kernels::zeros(shape({2}));
  EXPECT_THROW(fill_(r, std::complex<double>(1, 1)), Error);  // a non-zero imaginary part into a real tensor
  EXPECT_EQ(values(r), (std::vector<double>{0, 0}));
  Tensor undefined;
  EXPECT_THROW(fill_(undefined, 1), Error);
}

// ------------------------------------------------------------------- copy_ ---

TEST(KernelsCopy, SameDtypeAndBroadcast) {
  Tensor src = from_vector<float>({1, 2, 3}, shape({3}));
  Tensor dst = kernels::zeros(shape({2, 3}));
  Tensor& r = copy_(dst, src);
  EXPECT_TRUE(r.is_same(dst));
  EXPECT_EQ(values(dst), (std::vector<double>{1, 2, 3, 1, 2, 3}));
  Tensor col = from_vector<float>({7, 8}, shape({2, 1}));
  copy_(dst, col);
  EXPECT_EQ(values(dst), (std::vector<double>{7, 7, 7, 8, 8, 8}));
  Tensor z = from_vector<float>({9}, shape({}));
  copy_(dst, z, /*non_blocking=*/true);
  EXPECT_EQ(values(dst), std::vector<double>(6, 9));
}

TEST(KernelsCopy, DtypeConversions) {
  Tensor f = from_vector<double>({-2.7, -1.0, 0.0, 0.5, 2.7, std::nan("")}, shape({6}));
  Tensor i = kernels::empty(shape({6}), ST::Int);
  Tensor u = kernels::empty(shape({6}), ST::Byte);
  Tensor b = kernels::empty(shape({6}), ST::Bool);
  copy_(i, f);
  std::vector<int32_t> iv = to_vector<int32_t>(i);
  EXPECT_EQ(std::vector<int32_t>(iv.begin(), iv.begin() + 5), (std::vector<int32_t>{-2, -1, 0, 0, 2}));
  Tensor first5 = f.as_strided(shape({5}), shape({1}));
  Tensor u5 = u.as_strided(shape({5}), shape({1}));
  copy_(u5, first5);
  EXPECT_EQ(values(u5), (std::vector<double>{254, 255, 0, 0, 2}));
  copy_(b, f);
  EXPECT_EQ(values(b), (std::vector<double>{1, 1, 0, 1, 1, 1}));  // NaN -> true
  Tensor h = kernels::empty(shape({2}), ST::Half);
  copy_(h, from_vector<double>({0.1, 65520.0}, shape({2})));
  std::vector<double> hv = values(h);
  EXPECT_EQ(hv[0], static_cast<float>(Half(0.1f)));
  EXPECT_TRUE(std::isinf(hv[1]));
  Tensor l = kernels::empty(shape({2}), ST::Long);
  copy_(l, from_vector<bool>({true, false}, shape({2})));
  EXPECT_EQ(values(l), (std::vector<double>{1, 0}));
  Tensor c = kernels::empty(shape({2}), ST::Char);
  copy_(c, from_vector<int32_t>({300, -129}, shape({2})));
  EXPECT_EQ(values(c), (std::vector<double>{44, 127}));
  Tensor bf = kernels::empty(shape({1}), ST::BFloat16);
  copy_(bf, from_vector<int64_t>({257}, shape({1})));
  EXPECT_EQ(values(bf), (std::vector<double>{256}));
}

TEST(KernelsCopy, NonContiguousBothSides) {
  Tensor src_buf = from_vector<int64_t>({1, 2, 3, 4, 5, 6}, shape({2, 3}));
  Tensor src_t = src_buf.as_strided(shape({3, 2}), shape({1, 3}));  // [[1,4],[2,5],[3,6]]
  Tensor dst_buf = kernels::zeros(shape({3, 4}), ST::Double);
  Tensor dst = dst_buf.as_strided(shape({3, 2}), shape({4, 2}), 1);
  copy_(dst, src_t);
  EXPECT_EQ(values(dst), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(values(dst_buf), (std::vector<double>{0, 1, 0, 4, 0, 2, 0, 5, 0, 3, 0, 6}));
}

TEST(KernelsCopy, Aliasing) {
  // Same tensor, same view: nothing to do.
  Tensor x = from_vector<float>({1, 2, 3, 4}, shape({4}));
  copy_(x, x);
  Tensor same_view = x.as_strided(shape({4}), shape({1}), 0);
  copy_(x, same_view);
  EXPECT_EQ(values(x), (std::vector<double>{1, 2, 3, 4}));
  // Shifted ranges of one buffer, both directions: like memmove.
  Tensor y = from_vector<int32_t>({1, 2, 3, 4, 5}, shape({5}));
  Tensor head = y.as_strided(shape({4}), shape({1}), 0);
  Tensor tail = y.as_strided(shape({4}), shape({1}), 1);
  copy_(tail, head);
  EXPECT_EQ(values(y), (std::vector<double>{1, 1, 2, 3, 4}));
  copy_(head, tail);
  EXPECT_EQ(values(y), (std::vector<double>{1, 2, 3, 4, 4}));
  // In-place transpose of a square matrix.
  Tensor m = from_vector<double>({1, 2, 3, 4, 5, 6, 7, 8, 9}, shape({3, 3}));
  copy_(m, m.as_strided(shape({3, 3}), shape({1, 3})));
  EXPECT_EQ(values(m), (std::vector<double>{1, 4, 7, 2, 5, 8, 3, 6, 9}));
  // Broadcasting a row of self over self.
  Tensor r = from_vector<int64_t>({1, 2, 3, 4, 5, 6}, shape({2, 3}));
  copy_(r, r.as_strided(shape({3}), shape({1}), 3));
  EXPECT_EQ(values(r), (std::vector<double>{4, 5, 6, 4, 5, 6}));
  // Same bytes reinterpreted are not "the same data": different dtypes
  // cannot share a storage here, so an alias with another dtype cannot occur.
}

TEST(KernelsCopy, Errors) {
  Tensor dst = kernels::zeros(shape({2, 3}));
  EXPECT_EQ(error_of([&] { copy_(dst, kernels::zeros(shape({4}))); }),
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  Tensor small = kernels::zeros(shape({3}));
  EXPECT_EQ(error_of([&] { copy_(small, dst); }), "output with shape [3] doesn't match the broadcast shape [2, 3]");
  Tensor expanded = kernels::zeros(shape({3})).as_strided(shape({2, 3}), shape({0, 1}));
  EXPECT_EQ(error_of([&] { copy_(expanded, dst); }),
            "unsupported operation: more than one element of the written-to tensor refers to a single memory "
            "location. Please clone() the tensor before performing the operation.");
  Tensor undefined;
  EXPECT_THROW(copy_(dst, undefined), Error);
  EXPECT_THROW(copy_(undefined, dst), Error);
  // complex32 -> float keeps the real part; double -> complex32 rounds to float first
  // (1 + 2^-11 + 2^-40: 1.0 through float, 1 + 2^-10 rounded directly), as c10
  Tensor c = opd::empty(shape({3}), ST::ComplexHalf);
  Tensor d = kernels::zeros(shape({3}), ST::Double);
  fill_(d, 1.0 + 0x1p-11 + 0x1p-40);
  copy_(c, d);
  EXPECT_EQ(static_cast<float>(c.data_ptr<opd::ComplexHalf>()[0].real()), 1.0f);
  Tensor as_float = kernels::zeros(shape({3}));
  fill_(c, std::complex<double>(-2.5, 4));
  copy_(as_float, c);
  EXPECT_EQ(values(as_float), (std::vector<double>{-2.5, -2.5, -2.5}));
  // complex -> real keeps the real part (the differential test covers every pair)
  Tensor z = opd::empty(shape({3}), ST::ComplexFloat);
  fill_(z, std::complex<double>(-2.5, 4));
  Tensor as_int = kernels::zeros(shape({3}), ST::Int);
  copy_(as_int, z);
  EXPECT_EQ(values(as_int), (std::vector<double>{-2, -2, -2}));
  // Meta: shapes checked, nothing copied.
  Tensor m = kernels::empty(shape({2, 3}), ST::Float, Device::meta());
  EXPECT_TRUE(copy_(m, dst).is_same(m));
  EXPECT_THROW(copy_(m, kernels::zeros(shape({5}))), Error);
}

// --------------------------------------------------------------- factories ---

TEST(KernelsFactory, Defaults) {
  Tensor e = kernels::empty(shape({2, 3}));
  EXPECT_EQ(e.sizes(), shape({2, 3}));
  EXPECT_EQ(e.dtype(), ST::Float);
  EXPECT_TRUE(e.device().is_cpu());
  EXPECT_TRUE(e.is_contiguous());
  EXPECT_EQ(kernels::empty({4, 5}).sizes(), shape({4, 5}));  // a braced list is fine here
  EXPECT_EQ(kernels::zeros(shape({3})).dtype(), ST::Float);
  EXPECT_EQ(values(kernels::ones(shape({2}))), (std::vector<double>{1, 1}));
  EXPECT_EQ(kernels::empty(shape({}), ST::Long).dim(), 0);
  Tensor meta = kernels::zeros(shape({2}), ST::Int, Device::meta());
  EXPECT_TRUE(meta.device().is_meta());
  EXPECT_EQ(meta.dtype(), ST::Int);
}

TEST(KernelsFactory, EveryDtype) {
  for (ST t : kAllDtypes) {
    SCOPED_TRACE(testing::Message() << t);
    Tensor z = kernels::zeros(shape({3, 2}), t);
    EXPECT_EQ(z.dtype(), t);
    EXPECT_EQ(values(z), std::vector<double>(6, 0));
    EXPECT_EQ(values(kernels::ones(shape({2}), t)), std::vector<double>(2, 1));
  }
  // zeros needs no arithmetic: complex works too.
  Tensor c = kernels::zeros(shape({2}), ST::ComplexFloat);
  EXPECT_EQ(to_vector<std::complex<float>>(c), (std::vector<std::complex<float>>(2)));
}

TEST(KernelsFactory, FullInfersDtypeFromTheValue) {
  EXPECT_EQ(kernels::full(shape({2}), true).dtype(), ST::Bool);
  EXPECT_EQ(kernels::full(shape({2}), 3).dtype(), ST::Long);
  EXPECT_EQ(kernels::full(shape({2}), 2.5).dtype(), ST::Float);
  EXPECT_EQ(values(kernels::full(shape({2}), 2.5)), (std::vector<double>{2.5, 2.5}));
  EXPECT_EQ(values(kernels::full(shape({2}), 2.5, ST::Int)), (std::vector<double>{2, 2}));
  EXPECT_EQ(error_of([] { kernels::full(shape({2}), 300, ST::Char); }),
            "value cannot be converted to type int8_t without overflow");
}

}  // namespace
}  // namespace opd::kernels::test
