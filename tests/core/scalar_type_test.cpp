// ScalarType numbering, sizes, names, C++ type traits, promotion, and the
// Half / BFloat16 storage types.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>

#include "dispatch/core/bfloat16.hpp"
#include "dispatch/core/half.hpp"
#include "dispatch/core/scalar_type.hpp"

using opd::ScalarType;

namespace {

constexpr ScalarType kAllDtypes[] = {
    ScalarType::Byte,        ScalarType::Char,         ScalarType::Short,         ScalarType::Int,
    ScalarType::Long,        ScalarType::Half,         ScalarType::Float,         ScalarType::Double,
    ScalarType::ComplexHalf, ScalarType::ComplexFloat, ScalarType::ComplexDouble, ScalarType::Bool,
    ScalarType::QInt8,       ScalarType::QUInt8,       ScalarType::QInt32,        ScalarType::BFloat16};

// Non-quantized dtypes: the ones promote_types handles.
constexpr ScalarType kPromotable[] = {
    ScalarType::Byte,        ScalarType::Char,         ScalarType::Short,         ScalarType::Int,
    ScalarType::Long,        ScalarType::Half,         ScalarType::Float,         ScalarType::Double,
    ScalarType::ComplexHalf, ScalarType::ComplexFloat, ScalarType::ComplexDouble, ScalarType::Bool,
    ScalarType::BFloat16};

}  // namespace

TEST(ScalarType, NumberingMatchesPyTorch) {
  EXPECT_EQ(static_cast<int>(ScalarType::Byte), 0);
  EXPECT_EQ(static_cast<int>(ScalarType::Char), 1);
  EXPECT_EQ(static_cast<int>(ScalarType::Short), 2);
  EXPECT_EQ(static_cast<int>(ScalarType::Int), 3);
  EXPECT_EQ(static_cast<int>(ScalarType::Long), 4);
  EXPECT_EQ(static_cast<int>(ScalarType::Half), 5);
  EXPECT_EQ(static_cast<int>(ScalarType::Float), 6);
  EXPECT_EQ(static_cast<int>(ScalarType::Double), 7);
  EXPECT_EQ(static_cast<int>(ScalarType::ComplexHalf), 8);
  EXPECT_EQ(static_cast<int>(ScalarType::ComplexFloat), 9);
  EXPECT_EQ(static_cast<int>(ScalarType::ComplexDouble), 10);
  EXPECT_EQ(static_cast<int>(ScalarType::Bool), 11);
  EXPECT_EQ(static_cast<int>(ScalarType::QInt8), 12);
  EXPECT_EQ(static_cast<int>(ScalarType::QUInt8), 13);
  EXPECT_EQ(static_cast<int>(ScalarType::QInt32), 14);
  EXPECT_EQ(static_cast<int>(ScalarType::BFloat16), 15);
}

TEST(ScalarType, ElementSizes) {
  EXPECT_EQ(opd::element_size(ScalarType::Byte), 1u);
  EXPECT_EQ(opd::element_size(ScalarType::Char), 1u);
  EXPECT_EQ(opd::element_size(ScalarType::Short), 2u);
  EXPECT_EQ(opd::element_size(ScalarType::Int), 4u);
  EXPECT_EQ(opd::element_size(ScalarType::Long), 8u);
  EXPECT_EQ(opd::element_size(ScalarType::Half), 2u);
  EXPECT_EQ(opd::element_size(ScalarType::Float), 4u);
  EXPECT_EQ(opd::element_size(ScalarType::Double), 8u);
  EXPECT_EQ(opd::element_size(ScalarType::ComplexHalf), 4u);
  EXPECT_EQ(opd::element_size(ScalarType::ComplexFloat), 8u);
  EXPECT_EQ(opd::element_size(ScalarType::ComplexDouble), 16u);
  EXPECT_EQ(opd::element_size(ScalarType::Bool), 1u);
  EXPECT_EQ(opd::element_size(ScalarType::QInt32), 4u);
  EXPECT_EQ(opd::element_size(ScalarType::BFloat16), 2u);
  EXPECT_EQ(opd::element_size(ScalarType::Undefined), 0u);
}

TEST(ScalarType, NamesAreUniqueAndParseBack) {
  std::set<std::string> seen;
  for (ScalarType t : kAllDtypes) {
    const std::string name(opd::to_string(t));
    EXPECT_TRUE(seen.insert(name).second) << name;
    EXPECT_EQ(opd::parse_scalar_type(name), t);
  }
  EXPECT_EQ(opd::to_string(ScalarType::Float), "Float");
  EXPECT_EQ(opd::to_string(ScalarType::BFloat16), "BFloat16");
  EXPECT_FALSE(opd::try_parse_scalar_type("float32").has_value());
  EXPECT_THROW(opd::parse_scalar_type("nope"), opd::Error);
}

TEST(ScalarType, Predicates) {
  EXPECT_TRUE(opd::is_floating_type(ScalarType::Half));
  EXPECT_TRUE(opd::is_floating_type(ScalarType::BFloat16));
  EXPECT_TRUE(opd::is_floating_type(ScalarType::Double));
  EXPECT_FALSE(opd::is_floating_type(ScalarType::ComplexFloat));
  EXPECT_FALSE(opd::is_floating_type(ScalarType::Long));
  EXPECT_TRUE(opd::is_integral_type(ScalarType::Byte, false));
  EXPECT_TRUE(opd::is_integral_type(ScalarType::Long, false));
  EXPECT_FALSE(opd::is_integral_type(ScalarType::Bool, false));
  EXPECT_TRUE(opd::is_integral_type(ScalarType::Bool, true));
  EXPECT_FALSE(opd::is_integral_type(ScalarType::Float, true));
  EXPECT_TRUE(opd::is_complex_type(ScalarType::ComplexHalf));
  EXPECT_TRUE(opd::is_qint_type(ScalarType::QUInt8));
  EXPECT_FALSE(opd::is_signed_type(ScalarType::Byte));
  EXPECT_TRUE(opd::is_signed_type(ScalarType::Char));
}

TEST(ScalarType, CppTypeTraits) {
  static_assert(opd::scalar_type_of_v<float> == ScalarType::Float);
  static_assert(opd::scalar_type_of_v<const int64_t> == ScalarType::Long);
  static_assert(opd::scalar_type_of_v<uint8_t> == ScalarType::Byte);
  static_assert(opd::scalar_type_of_v<bool> == ScalarType::Bool);
  static_assert(opd::scalar_type_of_v<opd::Half> == ScalarType::Half);
  static_assert(opd::scalar_type_of_v<std::complex<double>> == ScalarType::ComplexDouble);
  static_assert(std::is_same_v<opd::cpp_type_t<ScalarType::Int>, int32_t>);
  static_assert(std::is_same_v<opd::cpp_type_t<ScalarType::BFloat16>, opd::BFloat16>);
  static_assert(opd::has_scalar_type_v<double>);
  static_assert(!opd::has_scalar_type_v<std::string>);
  static_assert(opd::scalar_type_of_v<opd::ComplexHalf> == ScalarType::ComplexHalf);
  static_assert(std::is_same_v<opd::cpp_type_t<ScalarType::ComplexHalf>, opd::ComplexHalf>);
  static_assert(!opd::has_cpp_type_v<ScalarType::QInt8>);
  SUCCEED();
}

TEST(ScalarType, VisitMapsEveryDtypeToItsCppType) {
  int visited = 0;
  for (ScalarType t : kAllDtypes) {
    if (opd::is_qint_type(t)) {
      EXPECT_THROW(opd::visit_scalar_type(t, [](auto) {}), opd::Error) << t;
      continue;
    }
    const ScalarType back = opd::visit_scalar_type(t, [](auto tag) {
      using T = typename decltype(tag)::type;
      EXPECT_EQ(sizeof(T), opd::element_size(opd::scalar_type_of_v<T>));
      return opd::scalar_type_of_v<T>;
    });
    EXPECT_EQ(back, t);
    ++visited;
  }
  EXPECT_EQ(visited, 13);
  EXPECT_THROW(opd::visit_scalar_type(ScalarType::Undefined, [](auto) {}), opd::Error);
}

TEST(ScalarType, PromotionPairsFromPyTorchTable) {
  using S = ScalarType;
  struct Case {
    S a, b, expected;
  };
  const Case cases[] = {
      {S::Byte, S::Char, S::Short},          {S::Byte, S::Bool, S::Byte},
      {S::Char, S::Bool, S::Char},           {S::Short, S::Int, S::Int},
      {S::Int, S::Long, S::Long},            {S::Long, S::Half, S::Half},
      {S::Int, S::Float, S::Float},          {S::Long, S::Double, S::Double},
      {S::Half, S::Float, S::Float},         {S::Half, S::BFloat16, S::Float},
      {S::BFloat16, S::Long, S::BFloat16},   {S::BFloat16, S::Double, S::Double},
      {S::Float, S::Double, S::Double},      {S::Float, S::ComplexHalf, S::ComplexFloat},
      {S::Half, S::ComplexHalf, S::ComplexHalf}, {S::BFloat16, S::ComplexHalf, S::ComplexFloat},
      {S::Double, S::ComplexFloat, S::ComplexDouble}, {S::Bool, S::ComplexDouble, S::ComplexDouble},
      {S::Bool, S::Bool, S::Bool},           {S::Bool, S::BFloat16, S::BFloat16},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(opd::promote_types(c.a, c.b), c.expected) << c.a << " x " << c.b;
    EXPECT_EQ(opd::promote_types(c.b, c.a), c.expected) << c.b << " x " << c.a;
  }
}

TEST(ScalarType, PromotionIsSymmetricIdempotentAndAnUpperBound) {
  for (ScalarType a : kPromotable) {
    EXPECT_EQ(opd::promote_types(a, a), a);
    EXPECT_EQ(opd::promote_types(a, ScalarType::Bool), a);  // Bool is the bottom
    for (ScalarType b : kPromotable) {
      const ScalarType r = opd::promote_types(a, b);
      EXPECT_EQ(r, opd::promote_types(b, a));
      // The result absorbs both inputs.
      EXPECT_EQ(opd::promote_types(r, a), r);
      EXPECT_EQ(opd::promote_types(r, b), r);
    }
  }
}

TEST(ScalarType, PromotionUndefinedAndQuantized) {
  EXPECT_EQ(opd::promote_types(ScalarType::Undefined, ScalarType::Float), ScalarType::Undefined);
  EXPECT_EQ(opd::promote_types(ScalarType::Int, ScalarType::Undefined), ScalarType::Undefined);
  EXPECT_EQ(opd::promote_types(ScalarType::QInt8, ScalarType::QInt8), ScalarType::QInt8);
  EXPECT_THROW(opd::promote_types(ScalarType::QInt8, ScalarType::Float), opd::Error);
  EXPECT_THROW(opd::promote_types(ScalarType::Float, ScalarType::QUInt8), opd::Error);
}

// ---- Half -------------------------------------------------------------------------

TEST(Half, KnownBitPatterns) {
  EXPECT_EQ(opd::Half(1.0f).x, 0x3c00);
  EXPECT_EQ(opd::Half(-2.0f).x, 0xc000);
  EXPECT_EQ(opd::Half(0.0f).x, 0x0000);
  EXPECT_EQ(opd::Half(-0.0f).x, 0x8000);
  EXPECT_EQ(opd::Half(65504.0f).x, 0x7bff);         // largest finite
  EXPECT_EQ(opd::Half(65519.0f).x, 0x7bff);         // rounds down to max
  EXPECT_EQ(opd::Half(65520.0f).x, 0x7c00);         // rounds up to +inf
  EXPECT_EQ(opd::Half(std::ldexp(1.0f, -24)).x, 0x0001);  // smallest subnormal
  EXPECT_EQ(opd::Half(std::ldexp(1.0f, -14)).x, 0x0400);  // smallest normal
  EXPECT_EQ(opd::Half(INFINITY).x, 0x7c00);
  EXPECT_EQ(opd::Half(-INFINITY).x, 0xfc00);
  EXPECT_TRUE(std::isnan(static_cast<float>(opd::Half(NAN))));
}

TEST(Half, RoundsToNearestEven) {
  // Between 2048 and 4096 halves are spaced by 2: odd integers are ties.
  EXPECT_EQ(static_cast<float>(opd::Half(2049.0f)), 2048.0f);
  EXPECT_EQ(static_cast<float>(opd::Half(2051.0f)), 2052.0f);
  EXPECT_EQ(static_cast<float>(opd::Half(2049.5f)), 2050.0f);
  EXPECT_FLOAT_EQ(static_cast<float>(opd::Half(0.1f)), 0.0999755859375f);
  // Subnormal tie: 1.5 * 2^-24 rounds to 2 * 2^-24 (even).
  EXPECT_EQ(opd::Half(std::ldexp(1.5f, -24)).x, 0x0002);
  EXPECT_EQ(opd::Half(std::ldexp(0.5f, -24)).x, 0x0000);
}

TEST(Half, EveryBitPatternRoundTripsThroughFloat) {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const opd::Half h(static_cast<uint16_t>(bits), opd::Half::from_bits());
    const float f = h;
    if (std::isnan(f)) {
      EXPECT_EQ(bits & 0x7c00u, 0x7c00u);
      EXPECT_NE(bits & 0x03ffu, 0u);
      continue;
    }
    EXPECT_EQ(opd::Half(f).x, bits) << std::hex << bits;
  }
}

TEST(Half, ArithmeticGoesThroughFloat) {
  const opd::Half a(1.5f), b(2.25f);
  const float sum = a + b;
  EXPECT_EQ(sum, 3.75f);
  EXPECT_TRUE(a < b);
}

// ---- BFloat16 ---------------------------------------------------------------------

TEST(BFloat16, KnownBitPatternsAndRounding) {
  EXPECT_EQ(opd::BFloat16(1.0f).x, 0x3f80);
  EXPECT_EQ(opd::BFloat16(-2.0f).x, 0xc000);
  EXPECT_EQ(opd::BFloat16(INFINITY).x, 0x7f80);
  EXPECT_TRUE(std::isnan(static_cast<float>(opd::BFloat16(NAN))));
  // 1 + 2^-8 is exactly halfway between 1 and 1 + 2^-7: ties to even (1.0).
  EXPECT_EQ(static_cast<float>(opd::BFloat16(1.0f + std::ldexp(1.0f, -8))), 1.0f);
  // 1 + 3 * 2^-8 is halfway between 1 + 2^-7 and 1 + 2^-6: ties to even.
  EXPECT_EQ(static_cast<float>(opd::BFloat16(1.0f + 3 * std::ldexp(1.0f, -8))), 1.0f + std::ldexp(1.0f, -6));
  // Largest finite float rounds to inf in bfloat16.
  EXPECT_EQ(opd::BFloat16(3.4028235e38f).x, 0x7f80);
}

TEST(BFloat16, EveryBitPatternRoundTripsThroughFloat) {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const opd::BFloat16 b(static_cast<uint16_t>(bits), opd::BFloat16::from_bits());
    const float f = b;
    if (std::isnan(f)) continue;
    EXPECT_EQ(opd::BFloat16(f).x, bits) << std::hex << bits;
  }
}
