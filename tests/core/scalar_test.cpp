// opd::Scalar: kinds, checked conversions, equality, printing.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>

#include "core_test_support.hpp"
#include "dispatch/core/scalar.hpp"

using opd::Scalar;
using opd::ScalarType;

namespace {

using opd_core_test::error_of;
using opd_core_test::str;
}  // namespace

TEST(Scalar, KindFollowsTheCppType) {
  EXPECT_EQ(Scalar(true).type(), ScalarType::Bool);
  EXPECT_EQ(Scalar(3).type(), ScalarType::Long);
  EXPECT_EQ(Scalar(uint8_t{200}).type(), ScalarType::Long);
  EXPECT_EQ(Scalar(int64_t{-5}).type(), ScalarType::Long);
  EXPECT_EQ(Scalar(2.5f).type(), ScalarType::Double);
  EXPECT_EQ(Scalar(opd::Half(1.5f)).type(), ScalarType::Double);
  EXPECT_EQ(Scalar(std::complex<float>(1, 2)).type(), ScalarType::ComplexDouble);
  EXPECT_EQ(Scalar().type(), ScalarType::Long);
  EXPECT_EQ(Scalar().to_long(), 0);

  EXPECT_TRUE(Scalar(true).is_boolean());
  EXPECT_TRUE(Scalar(true).is_integral(true));
  EXPECT_FALSE(Scalar(true).is_integral(false));
  EXPECT_TRUE(Scalar(1).is_integral(false));
  EXPECT_TRUE(Scalar(1.0).is_floating_point());
  EXPECT_TRUE(Scalar(std::complex<double>(0, 1)).is_complex());
}

TEST(Scalar, RejectsUnsignedValuesBeyondInt64) {
  EXPECT_THROW((void)Scalar(std::numeric_limits<uint64_t>::max()), opd::Error);
  EXPECT_EQ(Scalar(uint64_t{1} << 62).to_long(), int64_t{1} << 62);
}

TEST(Scalar, CheckedIntegerConversions) {
  EXPECT_EQ(Scalar(127).to<int8_t>(), 127);
  EXPECT_EQ(Scalar(255).to<uint8_t>(), 255);
  EXPECT_EQ(error_of([] { (void)Scalar(300).to<int8_t>(); }),
            "value cannot be converted to type Char without overflow");
  EXPECT_EQ(error_of([] { (void)Scalar(-1).to<uint8_t>(); }),
            "value cannot be converted to type Byte without overflow");
  EXPECT_EQ(Scalar(2.7).to<int64_t>(), 2);
  EXPECT_EQ(Scalar(-2.7).to<int32_t>(), -2);
  EXPECT_THROW((void)Scalar(1e19).to<int64_t>(), opd::Error);
  EXPECT_THROW((void)Scalar(9223372036854775808.0).to<int64_t>(), opd::Error);  // 2^63
  EXPECT_EQ(Scalar(-9223372036854775808.0).to<int64_t>(), std::numeric_limits<int64_t>::min());
  EXPECT_THROW((void)Scalar(NAN).to<int32_t>(), opd::Error);
  EXPECT_EQ(Scalar(true).to<int16_t>(), 1);
}

TEST(Scalar, CheckedFloatingConversions) {
  EXPECT_EQ(Scalar(1.5).to<float>(), 1.5f);
  EXPECT_EQ(Scalar(3).to<double>(), 3.0);
  EXPECT_THROW((void)Scalar(1e40).to<float>(), opd::Error);
  EXPECT_TRUE(std::isinf(Scalar(INFINITY).to<float>()));
  EXPECT_TRUE(std::isnan(Scalar(NAN).to<double>()));
  EXPECT_EQ(static_cast<float>(Scalar(65504.0).to<opd::Half>()), 65504.0f);
  EXPECT_EQ(error_of([] { (void)Scalar(1e5).to<opd::Half>(); }),
            "value cannot be converted to type Half without overflow");
  EXPECT_EQ(static_cast<float>(Scalar(1e5).to<opd::BFloat16>()), static_cast<float>(opd::BFloat16(1e5f)));
}

TEST(Scalar, ComplexConversions) {
  const Scalar c(std::complex<double>(1, 2));
  EXPECT_EQ(c.to_complex_double(), std::complex<double>(1, 2));
  EXPECT_EQ(c.to<std::complex<float>>(), std::complex<float>(1, 2));
  EXPECT_THROW((void)c.to<double>(), opd::Error);
  EXPECT_THROW((void)c.to<int64_t>(), opd::Error);
  EXPECT_EQ(Scalar(std::complex<double>(4, 0)).to<double>(), 4.0);
  EXPECT_EQ(Scalar(3).to<std::complex<double>>(), std::complex<double>(3, 0));
  EXPECT_TRUE(c.to_bool());
  EXPECT_FALSE(Scalar(0.0).to_bool());
}

TEST(Scalar, EqualityIsStructuralEqualIsNumeric) {
  EXPECT_EQ(Scalar(1), Scalar(int64_t{1}));
  EXPECT_NE(Scalar(1), Scalar(1.0));
  EXPECT_NE(Scalar(true), Scalar(1));
  EXPECT_TRUE(Scalar(1).equal(Scalar(1.0)));
  EXPECT_TRUE(Scalar(true).equal(Scalar(1)));
  EXPECT_TRUE(Scalar(2.0).equal(Scalar(std::complex<double>(2, 0))));
  EXPECT_FALSE(Scalar(2.0).equal(Scalar(std::complex<double>(2, 1))));
}

TEST(Scalar, Printing) {
  EXPECT_EQ(str(Scalar(true)), "true");
  EXPECT_EQ(str(Scalar(-3)), "-3");
  EXPECT_EQ(str(Scalar(2.5)), "2.5");
  EXPECT_EQ(str(Scalar(2.0)), "2.0");
  EXPECT_EQ(str(Scalar(0.1)), "0.1");
  EXPECT_EQ(str(Scalar(1e20)), "1e+20");
  EXPECT_EQ(str(Scalar(-INFINITY)), "-inf");
  EXPECT_EQ(str(Scalar(std::complex<double>(1, 2))), "(1+2j)");
  EXPECT_EQ(str(Scalar(std::complex<double>(1.5, -0.5))), "(1.5-0.5j)");
}
