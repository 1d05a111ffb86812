#pragma once
// opd_test::sanitized_build: whether this test program is compiled with ASan or TSan (gcc defines
// __SANITIZE_*, clang answers __has_feature). Tests that run many rounds do fewer there: the
// sanitized builds are several times slower, and the unsanitized ones run every round.
namespace opd_test {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool sanitized_build = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool sanitized_build = true;
#else
inline constexpr bool sanitized_build = false;
#endif
#else
inline constexpr bool sanitized_build = false;
#endif
}  // namespace opd_test
