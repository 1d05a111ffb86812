// kernels/cpu/parallel.hpp: parallel_for covers its range exactly once, in
// pieces no smaller than the grain (but the last), and rethrows a task's
// exception on the caller; set_num_threads rejects a non-positive count.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/parallel.hpp"

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
