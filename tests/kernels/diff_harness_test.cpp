// The differential harness itself (diff/), on operators that exist today:
// add/mul/div and a few views over every layout and several dtypes agree
// with libtorch; the harness reports a case where only one side throws.
#include "diff.hpp"

using namespace diff;

TEST(DiffHarness, BinaryOpsAgreeOverLayoutsAndDtypes) {
  std::vector<Case> cases;
  for (int dtype : {f32, f64, i32, i64, u8, f16, bf16}) {
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::add", "Tensor", {T(dtype, {3, 4}, layout), T(dtype, {4}, Layout::contiguous, Fill::standard, 2), I(2)}});
      cases.push_back({"aten::mul", "Tensor", {T(dtype, {2, 3, 4}, layout), T(f32, {3, 1})}});
      cases.push_back({"aten::div", "Tensor", {T(dtype, {4, 3}, layout), T(dtype, {4, 3}, Layout::contiguous, Fill::positive, 3)}});
    }
  }
  cases.push_back({"aten::add", "Tensor", {T(f32, {0, 3}), T(f32, {3}), I(1)}});
  cases.push_back({"aten::add", "Tensor", {T(f32, {}), T(i64, {2, 2}), D(0.5)}});
  cases.push_back({"aten::add", "Tensor", {T(f32, {2, 3}), T(f32, {4, 3}), I(1)}});  // both throw
  check_all(cases);
}

TEST(DiffHarness, InPlaceAndOutVariantsCompareMutatedArguments) {
  for (Layout layout : all_layouts) {
    check({"aten::add_", "Tensor", {T(f32, {3, 4}, layout), T(f32, {4}), I(1)}});  // expanded self: both throw
    check({"aten::mul", "out", {T(f32, {3, 4}, layout), T(f32, {3, 4}), T(f32, {0})}});
  }
}

TEST(DiffHarness, ViewsAndSpecialValues) {
  check({"aten::transpose", "int", {T(f32, {2, 3, 4}, Layout::sliced), I(0), I(2)}});
  check({"aten::split", "Tensor", {T(f64, {7, 2}), I(3), I(0)}});
  check({"aten::div", "Tensor", {T(f32, {64}, Layout::contiguous, Fill::special), T(f32, {64}, Layout::contiguous, Fill::special, 7)}});
}

TEST(DiffHarness, ReportsWhenOnlyOneSideThrows) {
  // libtorch has this operator, opd does not: the harness must say so.
  const ::testing::AssertionResult r = same_as_torch({"aten::histc", "", {T(f32, {8}), I(4), D(0.0), D(0.0)}});
  EXPECT_FALSE(r);
  EXPECT_NE(std::string(r.message()).find("opd throws"), std::string::npos) << r.message();
}
