// Concurrency: calls never take a lock (they read an operator's atomic
// dispatch table) while registrations take the Dispatcher's mutex and
// republish tables. These tests run typed and boxed calls on several threads
// while another thread keeps registering and deregistering kernels, schemas
// and fallbacks, and check that every call reached the kernel it should have
// (per-kernel atomic counters add up to the calls made).
//
// Test names contain "Concurrency": the TSan sanitizer build selects them.
#include <atomic>
#include <thread>
#include <vector>

#include "test_support.hpp"

#if defined(__SANITIZE_THREAD__)
#define OPD_TEST_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define OPD_TEST_UNDER_TSAN 1
#endif
#endif

namespace {

using namespace opd_test;
using opd::IValue;
using opd::Stack;
using opd::Tensor;

#ifdef OPD_TEST_UNDER_TSAN
constexpr int64_t kMinCallsPerThread = 100'000;
constexpr int kWriterIterations = 1'000;
#else
constexpr int64_t kMinCallsPerThread = 2'000'000;
constexpr int kWriterIterations = 5'000;
#endif
constexpr int kCallerThreads = 2;

struct conc_a : opd::op<"t_conc::a(Tensor self, int x) -> int"> {};
struct conc_b : opd::op<"t_conc::b(Tensor self) -> int"> {};

std::atomic<int64_t> a_cpu_calls{0}, a_pu1_calls{0}, a_cuda_calls{0}, a_composite_calls{0}, a_autograd_calls{0},
    pu1_fallback_calls{0}, b_calls{0}, unrelated_fallback_calls{0};

int64_t a_cpu(const Tensor&, int64_t x) {
  a_cpu_calls.fetch_add(1, std::memory_order_relaxed);
  return x + 1;
}
int64_t a_pu1(const Tensor&, int64_t x) {
  a_pu1_calls.fetch_add(1, std::memory_order_relaxed);
  return -x;
}
int64_t a_cuda(const Tensor&, int64_t) {
  a_cuda_calls.fetch_add(1, std::memory_order_relaxed);
  return -1'000'000;
}
// The composite kernels serve PrivateUse1 while it has no kernel of its own
// (they beat its fallback); they answer like it.
int64_t a_composite(const Tensor&, int64_t x) {
  a_composite_calls.fetch_add(1, std::memory_order_relaxed);
  return -x;
}
int64_t a_autograd(const Tensor&, int64_t) {  // no call carries an autograd key: never runs
  a_autograd_calls.fetch_add(1, std::memory_order_relaxed);
  return -2'000'000;
}
int64_t b_cpu(const Tensor&) {
  b_calls.fetch_add(1, std::memory_order_relaxed);
  return 7;
}
void pu1_fallback(const opd::OperatorEntry& op, DispatchKeySet, Stack* s) {
  pu1_fallback_calls.fetch_add(1, std::memory_order_relaxed);
  EXPECT_EQ(op.name(), "t_conc::a");
  const int64_t x = s->back().to_int();
  s->resize(s->size() - 2);
  s->push_back(IValue(-x));  // the same answer as the PrivateUse1 kernel
}
void unrelated_fallback(const opd::OperatorEntry&, DispatchKeySet, Stack*) {
  unrelated_fallback_calls.fetch_add(1, std::memory_order_relaxed);
}

TEST(DispatcherConcurrency, CallsAreNeverLostOrMisroutedWhileRegistrationsChange) {
  a_cpu_calls = a_pu1_calls = a_cuda_calls = a_composite_calls = a_autograd_calls = pu1_fallback_calls = b_calls =
      unrelated_fallback_calls = 0;
  auto cpu_kernel = opd::register_kernel<conc_a, &a_cpu>(DispatchKey::CPU);
  // PrivateUse1 calls land on the PrivateUse1 kernel while one is registered,
  // else on a composite kernel while one is, else on this fallback: never on
  // an error, never on the CPU kernel.
  auto pu1_fb = opd::register_fallback(DispatchKey::PrivateUse1, &pu1_fallback);
  (void)opd::entry_for<conc_b>();  // declared before the threads start

  const Tensor cpu = cpu_floats({1.f});
  const Tensor pu1 = tensor_with_keys(DispatchKey::PrivateUse1);
  std::atomic<bool> writer_done{false};
  std::atomic<int> writer_iterations{0};
  std::atomic<int64_t> wrong_results{0};

  struct counts {
    int64_t typed_cpu = 0, boxed_cpu = 0, typed_pu1 = 0, boxed_pu1 = 0;
  };
  std::vector<counts> per_thread(kCallerThreads);

  std::vector<std::thread> callers;
  for (int t = 0; t < kCallerThreads; ++t) {
    callers.emplace_back([&, t] {
      counts& c = per_thread[static_cast<std::size_t>(t)];
      int64_t i = 0;
      while (i < kMinCallsPerThread || !writer_done.load(std::memory_order_acquire)) {
        const int64_t x = i & 0xffff;
        if ((i & 63) == 0) {
          Stack s{cpu, x};
          opd::call_boxed<conc_a>(s);
          if (s.size() != 1 || s[0].to_int() != x + 1) wrong_results.fetch_add(1);
          ++c.boxed_cpu;
        } else if ((i & 63) == 1) {
          Stack s{pu1, x};
          opd::call_boxed<conc_a>(s);
          if (s.size() != 1 || s[0].to_int() != -x) wrong_results.fetch_add(1);
          ++c.boxed_pu1;
        } else if ((i & 15) == 2) {
          if (opd::call<conc_a>(pu1, x) != -x) wrong_results.fetch_add(1);
          ++c.typed_pu1;
        } else {
          if (opd::call<conc_a>(cpu, x) != x + 1) wrong_results.fetch_add(1);
          ++c.typed_cpu;
        }
        ++i;
      }
    });
  }

  std::thread writer([&] {
    const auto noop = [](const opd::OperatorEntry&, DispatchKeySet, Stack*) {};
    for (int it = 0; it < kWriterIterations; ++it) {
      {
        // Other keys of A, alias keys included (CPU's direct kernel wins).
        auto h1 = opd::register_kernel<conc_a, &a_pu1>(DispatchKey::PrivateUse1);
        auto h2 = opd::register_kernel<conc_a, &a_cuda>(DispatchKey::CUDA);
        auto h3 = opd::register_kernel<conc_a, &a_composite>(DispatchKey::CompositeExplicitAutograd);
        auto h4 = opd::register_kernel<conc_a, &a_composite>(DispatchKey::CompositeImplicitAutograd);
        auto h5 = opd::register_kernel<conc_a, &a_autograd>(DispatchKey::Autograd);
        auto h6 = opd::register_fallthrough<conc_a>(DispatchKey::Meta);
        // Other operators, and fallbacks for unrelated keys.
        auto h7 = opd::register_kernel<conc_b, &b_cpu>(DispatchKey::CPU);
        auto h8 = opd::register_fallback(DispatchKey::PrivateUse3, &unrelated_fallback);
        auto h9 = (it & 1) ? opd::register_fallthrough_fallback(DispatchKey::PrivateUse2)
                           : opd::register_fallback(DispatchKey::PrivateUse2, noop);
        auto h10 = opd::declare("t_conc::runtime(Tensor self) -> ()");
        auto h11 = opd::register_boxed_kernel("t_conc::runtime", DispatchKey::CPU, noop);
        if (opd::call<conc_b>(cpu) != 7) wrong_results.fetch_add(1);
        // Handles release in reverse order here; alternate with a partial early release.
        if (it & 2) {
          h1.release();
          h8.release();
        }
        if (it & 4) h3.release();
      }
      writer_iterations.fetch_add(1, std::memory_order_relaxed);
      if ((it & 255) == 0) std::this_thread::yield();
    }
    writer_done.store(true, std::memory_order_release);
  });

  writer.join();
  for (auto& c : callers) c.join();

  counts total;
  for (const auto& c : per_thread) {
    total.typed_cpu += c.typed_cpu;
    total.boxed_cpu += c.boxed_cpu;
    total.typed_pu1 += c.typed_pu1;
    total.boxed_pu1 += c.boxed_pu1;
  }
  EXPECT_EQ(wrong_results.load(), 0);
  EXPECT_EQ(writer_iterations.load(), kWriterIterations);
  EXPECT_GE(total.typed_cpu + total.boxed_cpu + total.typed_pu1 + total.boxed_pu1, kMinCallsPerThread * kCallerThreads);
  // Every CPU call reached the CPU kernel, every PrivateUse1 call the
  // PrivateUse1 kernel, a composite one or the fallback; nothing else ran.
  EXPECT_EQ(a_cpu_calls.load(), total.typed_cpu + total.boxed_cpu);
  EXPECT_EQ(a_pu1_calls.load() + a_composite_calls.load() + pu1_fallback_calls.load(), total.typed_pu1 + total.boxed_pu1);
  EXPECT_EQ(a_cuda_calls.load(), 0);
  EXPECT_EQ(a_autograd_calls.load(), 0);
  EXPECT_EQ(unrelated_fallback_calls.load(), 0);
  EXPECT_EQ(b_calls.load(), kWriterIterations);
  // Both PrivateUse1 routes were taken at some point (not a correctness
  // requirement, but shows the interleaving happened).
  RecordProperty("pu1_kernel_calls", static_cast<int>(a_pu1_calls.load()));
  RecordProperty("pu1_fallback_calls", static_cast<int>(pu1_fallback_calls.load()));
  RecordProperty("composite_calls", static_cast<int>(a_composite_calls.load()));

  // Everything the writer registered is gone again.
  const auto& e = opd::entry_for<conc_a>();
  EXPECT_EQ(e.registered_keys(), "CPU");
  EXPECT_FALSE(opd::Dispatcher::singleton().has_fallback(DispatchKey::PrivateUse2));
  EXPECT_FALSE(opd::Dispatcher::singleton().has_fallback(DispatchKey::PrivateUse3));
  EXPECT_EQ(opd::Dispatcher::singleton().find_schema("t_conc::runtime"), nullptr);
}

// Calls on several threads while other threads register kernels for distinct
// operators at the same time (registrations contend only on the mutex).
struct conc_many : opd::op<"t_conc_many::op(Tensor self) -> int"> {};

template <int N>
struct conc_numbered : opd::op<"t_conc_many::numbered(Tensor self, int n) -> int"> {};

TEST(DispatcherConcurrency, ConcurrentRegistrationsFromSeveralThreads) {
  std::atomic<int64_t> calls{0};
  auto h = opd::register_kernel<conc_many>(DispatchKey::CPU, [&](const Tensor&) -> int64_t {
    calls.fetch_add(1, std::memory_order_relaxed);
    return 1;
  });
  const Tensor cpu = cpu_floats({1.f});
  constexpr int kRegistrars = 2;
  constexpr int kRounds =
#ifdef OPD_TEST_UNDER_TSAN
      200;
#else
      5'000;
#endif
  std::atomic<int> registrars_done{0};
  std::atomic<int64_t> failures{0};
  std::vector<std::thread> threads;
  const DispatchKey keys[kRegistrars] = {DispatchKey::PrivateUse2, DispatchKey::PrivateUse3};
  for (int r = 0; r < kRegistrars; ++r) {
    threads.emplace_back([&, r] {
      const DispatchKey k = keys[r];
      for (int i = 0; i < kRounds; ++i) {
        // Each registrar owns one key: registering never collides.
        auto reg = opd::register_kernel<conc_many>(k, [](const Tensor&) -> int64_t { return 2; });
        if (opd::call<conc_many>(tensor_with_keys(k)) != 2) failures.fetch_add(1);
      }
      registrars_done.fetch_add(1);
    });
  }
  int64_t made = 0;
  while (registrars_done.load() < kRegistrars) {
    if (opd::call<conc_many>(cpu) != 1) failures.fetch_add(1);
    ++made;
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(calls.load(), made);
  EXPECT_EQ(opd::entry_for<conc_many>().registered_keys(), "CPU");
}

// A fallthrough flipping on and off at a key the calls carry. Each call must
// reach either the Tracer kernel or (when it is not registered, Tracer falls
// through) the CPU kernel.
struct conc_ft : opd::op<"t_conc_ft::op(Tensor self) -> int"> {};

// Regression: deregistering a real kernel at a key whose default is a
// fallthrough republishes the table slot (now the fallthrough KernelFunction,
// which has neither an unboxed nor a boxed entry) before the non-fallthrough
// mask. A call that read the old mask then loaded the new slot used to call a
// null boxed function pointer (SIGSEGV in typed_caller::dispatch ->
// call_through_boxed); lookup now skips a fallthrough slot it meets.
TEST(DispatcherConcurrency, FallthroughTogglingWhileCalling) {
  std::atomic<int64_t> tracer_calls{0}, cpu_calls{0};
  auto cpu = opd::register_kernel<conc_ft>(DispatchKey::CPU, [&](const Tensor&) -> int64_t {
    cpu_calls.fetch_add(1, std::memory_order_relaxed);
    return 1;
  });
  const Tensor x = tensor_with_keys(DispatchKeySet{DispatchKey::Tracer, DispatchKey::CPU});
  std::atomic<bool> stop{false};
  std::atomic<int64_t> made{0}, wrong{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < kCallerThreads; ++t)
    callers.emplace_back([&] {
      int64_t n = 0;
      while (!stop.load(std::memory_order_acquire)) {
        const int64_t r = opd::call<conc_ft>(x);
        if (r != 1 && r != 2) wrong.fetch_add(1);
        ++n;
      }
      made.fetch_add(n);
    });
  for (int i = 0; i < kWriterIterations * 10; ++i) {
    auto tracer = opd::register_kernel<conc_ft>(DispatchKey::Tracer, [&](const Tensor&) -> int64_t {
      tracer_calls.fetch_add(1, std::memory_order_relaxed);
      return 2;
    });
  }
  stop.store(true, std::memory_order_release);
  for (auto& t : callers) t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(tracer_calls.load() + cpu_calls.load(), made.load());
}

// Calls that find no kernel (and report which keys have one) while another
// thread registers and deregisters the kernel they are looking for: each call
// either reaches the kernel or throws NotImplementedError.
struct conc_missing : opd::op<"t_conc_missing::op(Tensor self) -> int"> {};

// Regression (found by ThreadSanitizer): the "no kernel" error path lists
// the operator's registrations (OperatorEntry::registered_keys(), from
// report_missing_kernel) without the Dispatcher's mutex while a writer
// changes them under it; they used to be plain pointers (a data race).
TEST(DispatcherConcurrency, MissingKernelErrorWhileRegistering) {
  std::atomic<int64_t> kernel_calls{0}, errors{0}, made{0}, other{0};
  const Tensor x = tensor_with_keys(DispatchKey::PrivateUse1);
  std::atomic<bool> stop{false};
  std::vector<std::thread> callers;
  for (int t = 0; t < kCallerThreads; ++t)
    callers.emplace_back([&] {
      int64_t n = 0;
      while (!stop.load(std::memory_order_acquire)) {
        try {
          if (opd::call<conc_missing>(x) != 3) other.fetch_add(1);
        } catch (const opd::NotImplementedError&) {
          errors.fetch_add(1, std::memory_order_relaxed);
        }
        ++n;
      }
      made.fetch_add(n);
    });
  for (int i = 0; i < kWriterIterations; ++i) {
    auto k = opd::register_kernel<conc_missing>(DispatchKey::PrivateUse1, [&](const Tensor&) -> int64_t {
      kernel_calls.fetch_add(1, std::memory_order_relaxed);
      return 3;
    });
    auto cpu = opd::register_kernel<conc_missing>(DispatchKey::CPU, [](const Tensor&) -> int64_t { return 4; });
  }
  stop.store(true, std::memory_order_release);
  for (auto& t : callers) t.join();
  EXPECT_EQ(other.load(), 0);
  EXPECT_EQ(kernel_calls.load() + errors.load(), made.load());
}

}  // namespace
