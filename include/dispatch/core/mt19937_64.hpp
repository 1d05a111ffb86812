#pragma once
// opd::Mt19937_64: the 64-bit Mersenne Twister (Matsumoto and Nishimura's
// MT19937-64), the same numbers as std::mt19937_64 for the same seed.
//
// Why not std::mt19937_64 itself: its state is private, so every number
// costs a call, a branch and a tempering of one word (about 60 instructions
// per float for rand). Here the state is open, so that a kernel draws a
// block at a time: kernels/cpu/random_bits.hpp regenerates and tempers the
// state a vector at a time, with the numbers of as many calls of
// operator().
#include <array>
#include <cstddef>
#include <cstdint>

namespace opd {

class Mt19937_64 {
 public:
  using result_type = std::uint64_t;
  static constexpr std::size_t kStateSize = 312;  // n
  static constexpr std::size_t kShift = 156;      // m
  static constexpr result_type kMatrixA = 0xB5026F5AA96619E9ULL;
  static constexpr result_type kUpperMask = 0xFFFFFFFF80000000ULL;
  static constexpr result_type kLowerMask = 0x7FFFFFFFULL;
  static constexpr result_type default_seed = 5489u;

  static constexpr result_type min() noexcept { return 0; }
  static constexpr result_type max() noexcept { return ~result_type{0}; }

  explicit Mt19937_64(result_type s = default_seed) noexcept { seed(s); }

  void seed(result_type s) noexcept {
    state[0] = s;
    for (std::size_t i = 1; i < kStateSize; ++i)
      state[i] = 6364136223846793005ULL * (state[i - 1] ^ (state[i - 1] >> 62)) + i;
    pos = kStateSize;
  }

  result_type operator()() noexcept {
    if (pos >= kStateSize) twist();
    return temper(state[pos++]);
  }

  // The output function applied to a state word.
  static constexpr result_type temper(result_type y) noexcept {
    y ^= (y >> 29) & 0x5555555555555555ULL;
    y ^= (y << 17) & 0x71D67FFFEDA60000ULL;
    y ^= (y << 37) & 0xFFF7EEE000000000ULL;
    return y ^ (y >> 43);
  }
  // Word i of the next state from words i, i + 1 and `far` (word i + m).
  static constexpr result_type next_word(result_type cur, result_type next, result_type far) noexcept {
    const result_type y = (cur & kUpperMask) | (next & kLowerMask);
    return far ^ (y >> 1) ^ ((y & 1) ? kMatrixA : 0);
  }
  // Regenerates every state word (the scalar form of random_bits' vector
  // one) and starts reading at word 0.
  void twist() noexcept {
    constexpr std::size_t n = kStateSize, m = kShift;
    for (std::size_t i = 0; i < n - m; ++i) state[i] = next_word(state[i], state[i + 1], state[i + m]);
    for (std::size_t i = n - m; i < n - 1; ++i) state[i] = next_word(state[i], state[i + 1], state[i + m - n]);
    state[n - 1] = next_word(state[n - 1], state[0], state[m - 1]);
    pos = 0;
  }

  friend bool operator==(const Mt19937_64&, const Mt19937_64&) = default;

  // Open for random_bits: the words, and the next one to temper (kStateSize:
  // twist first).
  std::array<result_type, kStateSize> state{};
  std::size_t pos = kStateSize;
};

}  // namespace opd
