// kernels/cpu/parallel.hpp: parallel_for covers its range exactly once, in
// pieces no smaller than the grain (but the last), and rethrows a task's
// exception on the caller; set_num_threads rejects a non-positive count.
// The elementwise engine's split across threads (loops-inl.hpp): every
// operand layout and path (contiguous, broadcast, transposed, converting,
// Half, in place) gives on 4 threads what it gives on 1.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <stdexcept>
#include <utility>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/pointwise.hpp"
#include "kernel_test_util.hpp"

namespace k = opd::kernels;

namespace {

std::vector<std::pair<int64_t, int64_t>> pieces_of(int64_t begin, int64_t end, int64_t grain) {
  std::mutex m;
  std::vector<std::pair<int64_t, int64_t>> pieces;
  k::parallel_for(begin, end, grain, [&](int64_t b, int64_t e) {
    std::lock_guard<std::mutex> lock(m);
    pieces.emplace_back(b, e);
  });
  std::sort(pieces.begin(), pieces.end());
  return pieces;
}

}  // namespace

TEST(ParallelFor, CoversTheRangeOnceInGrainSizedPieces) {
  const int previous = k::get_num_threads();
  k::set_num_threads(4);
  for (int64_t n : {0, 1, 7, 100, 1000, 100001}) {
    for (int64_t grain : {1, 16, 1000}) {
      auto pieces = pieces_of(5, 5 + n, grain);
      int64_t next = 5;
      for (size_t i = 0; i < pieces.size(); ++i) {
        EXPECT_EQ(pieces[i].first, next) << "n=" << n << " grain=" << grain;
        EXPECT_LT(pieces[i].first, pieces[i].second);
        if (i + 1 < pieces.size()) {
          EXPECT_GE(pieces[i].second - pieces[i].first, std::min(grain, n));
        }
        next = pieces[i].second;
      }
      EXPECT_EQ(next, 5 + n) << "n=" << n << " grain=" << grain;
    }
  }
  k::set_num_threads(previous);
}

TEST(ParallelTasks, RunsEachTaskOnceWithoutAGrain) {
  const int previous = k::get_num_threads();
  k::set_num_threads(4);
  for (int64_t tasks : {0, 1, 2, 3, 4, 9}) {
    std::vector<std::atomic<int>> runs(static_cast<std::size_t>(tasks));
    std::mutex m;
    std::set<std::thread::id> threads;
    k::parallel_tasks(tasks, [&](int64_t t) {
      runs[static_cast<std::size_t>(t)].fetch_add(1);
      std::lock_guard<std::mutex> lock(m);
      threads.insert(std::this_thread::get_id());
    });
    for (int64_t t = 0; t < tasks; ++t) EXPECT_EQ(runs[static_cast<std::size_t>(t)].load(), 1) << tasks;
#if defined(_OPENMP)
    // Two tasks of any size go to two threads (parallel_for keeps two items
    // below its grain together).
    if (tasks >= 2) {
      EXPECT_GE(threads.size(), 2u) << tasks;
    }
#endif
  }
  k::set_num_threads(previous);
}

TEST(ParallelFor, SmallRangesStayOnTheCallingThread) {
  EXPECT_EQ(pieces_of(0, 100, k::grain_size).size(), 1u);
}

TEST(ParallelFor, RethrowsATasksException) {
  std::atomic<int64_t> done{0};
  EXPECT_THROW(k::parallel_for(0, 1 << 20, 1024,
                               [&](int64_t b, int64_t e) {
                                 if (b == 0) throw std::runtime_error("first piece");
                                 done += e - b;
                               }),
               std::runtime_error);
}

TEST(ParallelFor, SetNumThreadsRejectsNonPositive) {
  EXPECT_THROW(k::set_num_threads(0), opd::ValueError);
  k::set_num_threads(1);
  EXPECT_EQ(k::get_num_threads(), 1);
  EXPECT_EQ(pieces_of(0, 1 << 20, 1).size(), 1u);
}

// ------------------------------------------------- the elementwise engine ---

namespace {

using ST = opd::ScalarType;
using opd::Tensor;
namespace kt = opd::kernels::test;

// Large enough for several grain-sized pieces on 4 threads.
constexpr int64_t kBig = 3 * k::grain_size + 17;

// vals[i] = a small pattern with negatives, exact in every dtype used.
std::vector<double> pattern(int64_t n, int64_t mod, double shift) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<double>(i % mod) - shift;
  return v;
}
Tensor big(const std::vector<int64_t>& sizes, ST dtype, int64_t mod = 13, double shift = 6) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return kt::tensor_of(pattern(n, mod, shift), sizes, dtype);
}

// f() run on 1 thread and on 4: the same values, and the given check holds.
template <class F>
std::vector<double> same_on_1_and_4_threads(F&& f) {
  const int previous = k::get_num_threads();
  k::set_num_threads(1);
  const std::vector<double> one = kt::values(f());
  k::set_num_threads(4);
  const std::vector<double> four = kt::values(f());
  k::set_num_threads(previous);
  EXPECT_EQ(one.size(), four.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < std::min(one.size(), four.size()); ++i) differ += one[i] != four[i];
  EXPECT_EQ(differ, 0u) << "elements differing between 1 and 4 threads";
  return four;
}

}  // namespace

TEST(ParallelElementwise, BinaryContiguousAndScalar) {
  const Tensor a = big({kBig}, ST::Float), b = big({kBig}, ST::Float, 7, 3);
  const auto prod = same_on_1_and_4_threads([&] { return kt::mul(a, b); });
  for (int64_t i : {int64_t{0}, int64_t{5}, k::grain_size + 3, kBig - 1}) {
    EXPECT_EQ(prod[static_cast<std::size_t>(i)], static_cast<double>((i % 13 - 6) * (i % 7 - 3))) << i;
  }
  const auto sum = same_on_1_and_4_threads([&] { return kt::add(a, opd::Scalar(2.0), opd::Scalar(3)); });
  EXPECT_EQ(sum.back(), static_cast<double>((kBig - 1) % 13 - 6 + 6));
  same_on_1_and_4_threads([&] { return kt::div(a, opd::Scalar(4.0)); });
}

TEST(ParallelElementwise, BroadcastTransposedAndConverting) {
  const int64_t rows = 500, cols = 401;
  const Tensor a = big({rows, cols}, ST::Int), row = big({cols}, ST::Int, 5, 2);
  const auto s = same_on_1_and_4_threads([&] { return kt::add(a, row, opd::Scalar(3)); });
  const std::size_t last = static_cast<std::size_t>(rows * cols - 1);
  EXPECT_EQ(s[last], static_cast<double>(((rows * cols - 1) % 13 - 6) + 3 * ((cols - 1) % 5 - 2)));
  // A transposed input (strided rows) minus a contiguous one.
  const Tensor t = big({cols, rows}, ST::Double).as_strided({rows, cols}, {1, rows});
  const Tensor c = big({rows, cols}, ST::Double, 11, 5);
  same_on_1_and_4_threads([&] { return kt::sub(t, c); });
  // int32 / float: the converting path; Half: computed in float.
  const Tensor f = big({rows, cols}, ST::Float, 9, -1);
  same_on_1_and_4_threads([&] { return kt::div(a, f); });
  const Tensor h = big({rows, cols}, ST::Half), h2 = big({rows, cols}, ST::Half, 3, 1);
  same_on_1_and_4_threads([&] { return kt::mul(h, h2); });
}

TEST(ParallelElementwise, InPlaceCopyFillAndPointwise) {
  const Tensor b = big({kBig}, ST::Float, 5, 2);
  same_on_1_and_4_threads([&] {
    Tensor a = big({kBig}, ST::Float);
    k::mul_impl(a, b, a);  // out is self
    return a;
  });
  const Tensor src = big({401, 500}, ST::Float).as_strided({500, 401}, {1, 500});
  same_on_1_and_4_threads([&] {
    Tensor dst = k::empty(std::vector<int64_t>{500, 401}, ST::Double);
    k::copy_(dst, src);
    return dst;
  });
  const auto filled = same_on_1_and_4_threads([&] {
    Tensor base = k::zeros(std::vector<int64_t>{2 * kBig}, ST::Long);
    Tensor every_other = base.as_strided({kBig}, {2});
    k::fill_(every_other, opd::Scalar(7));
    return base;
  });
  EXPECT_EQ(filled[0], 7.0);
  EXPECT_EQ(filled[1], 0.0);
  EXPECT_EQ(filled.back(), 0.0);
  // Comparison with a Scalar, where with a broadcast condition, clamp and
  // masked_fill_ with a broadcast mask.
  const Tensor x = big({500, 401}, ST::Float);
  same_on_1_and_4_threads([&] {
    Tensor out = k::empty_from_meta(k::pointwise_meta(k::PointwiseOp::Lt, x, opd::Scalar(0)));
    k::pointwise_impl(k::PointwiseOp::Lt, x, opd::Scalar(0), out);
    return out;
  });
  const Tensor cond = big({401}, ST::Bool, 2, 0), y = big({500, 401}, ST::Float, 3, 0);
  same_on_1_and_4_threads([&] {
    Tensor out = k::empty_from_meta(k::where_meta(cond, x, y));
    k::where_impl(cond, x, y, out);
    return out;
  });
  same_on_1_and_4_threads([&] {
    Tensor out = k::empty_from_meta(k::clamp_meta(x, opd::Scalar(-2), opd::Scalar(3)));
    k::clamp_impl(x, opd::Scalar(-2), opd::Scalar(3), out);
    return out;
  });
  same_on_1_and_4_threads([&] {
    Tensor out = big({500, 401}, ST::Float);
    k::masked_fill_(out, cond, opd::Scalar(9.5));
    return out;
  });
}
