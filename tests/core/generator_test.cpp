// Generator: seeded, shared state.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "dispatch/core/generator.hpp"
#include "dispatch/core/generator_engine.hpp"

using opd::Generator;

TEST(Generator, SameSeedSameStream) {
  Generator a(42), b(42), c(43);
  for (int i = 0; i < 5; ++i) {
    const uint64_t x = a.random64();
    EXPECT_EQ(x, b.random64());
    (void)c;
  }
  EXPECT_NE(Generator(42).random64(), Generator(43).random64());
}

TEST(Generator, CopiesShareOneStream) {
  Generator a(7);
  Generator shared = a;
  EXPECT_EQ(a.use_count(), 2u);
  EXPECT_EQ(shared, a);
  Generator reference(7);
  const uint64_t first = reference.random64();
  const uint64_t second = reference.random64();
  EXPECT_EQ(a.random64(), first);
  EXPECT_EQ(shared.random64(), second);  // advanced by the draw through `a`
  EXPECT_NE(Generator(7), Generator(7));  // equality is identity
}

TEST(Generator, SetSeedRestartsTheStream) {
  Generator g(1);
  const uint64_t first = g.random64();
  g.random64();
  g.set_seed(1);
  EXPECT_EQ(g.seed(), 1u);
  EXPECT_EQ(g.random64(), first);
}

TEST(Generator, DefaultsAndPrinting) {
  EXPECT_EQ(opd::default_cpu_generator().seed(), opd::kDefaultRngSeed);
  EXPECT_EQ(opd::default_cpu_generator().device(), opd::Device::cpu());
  Generator undefined;
  EXPECT_FALSE(undefined.defined());
  EXPECT_THROW((void)undefined.random64(), opd::Error);
  std::ostringstream os;
  os << Generator(5) << " " << undefined;
  EXPECT_EQ(os.str(), "Generator(seed=5, device=cpu) Generator(undefined)");
}

// The library's engine is MT19937-64: the numbers of std::mt19937_64 for the
// same seed, across many regenerations of its state, and after a re-seed.
TEST(Generator, EngineIsTheStandardMersenneTwister) {
  for (uint64_t seed : {uint64_t{0}, uint64_t{42}, opd::kDefaultRngSeed, ~uint64_t{0}}) {
    opd::Mt19937_64 e(seed);
    std::mt19937_64 reference(seed);
    for (int i = 0; i < 2000; ++i) ASSERT_EQ(e(), reference()) << "seed " << seed << ", number " << i;
    e.seed(seed);
    EXPECT_EQ(e, opd::Mt19937_64(seed));
  }
  EXPECT_EQ(opd::Mt19937_64()(), std::mt19937_64()());  // the default seed, 5489
  Generator g(9);
  std::mt19937_64 reference(9);
  EXPECT_EQ(g.random64(), reference());
}
