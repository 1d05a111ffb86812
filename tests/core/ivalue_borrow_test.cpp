// IValue(opd::borrow, t): a Tensor on a stack without a reference of its own.
// Every way out of the IValue (copy, move, taking the tensor, assignment,
// destruction) must leave t's reference count as an owning IValue would,
// less the one reference the borrow never took.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "dispatch/core/ivalue.hpp"

using opd::IValue;
using opd::Tensor;

namespace {

Tensor make_tensor() { return opd::empty(std::vector<int64_t>{2, 3}, opd::ScalarType::Float, opd::Device::cpu()); }

TEST(IValueBorrow, TakesNoReferenceAndReleasesNone) {
  const Tensor t = make_tensor();
  ASSERT_EQ(t.use_count(), 1u);
  {
    const IValue v(opd::borrow, t);
    EXPECT_TRUE(v.is_tensor());
    EXPECT_TRUE(v.is_borrowed());
    EXPECT_TRUE(v.to_tensor().is_same(t));
    EXPECT_EQ(t.use_count(), 1u);
  }
  EXPECT_EQ(t.use_count(), 1u);
}

TEST(IValueBorrow, OnAStackCostsNoReferenceUntilCleared) {
  const Tensor t = make_tensor();
  opd::Stack stack;
  stack.reserve(3);
  stack.emplace_back(opd::borrow, t);
  stack.emplace_back(std::int64_t{3});
  stack.emplace_back();
  EXPECT_EQ(t.use_count(), 1u);
  stack.clear();
  EXPECT_EQ(t.use_count(), 1u);
}

TEST(IValueBorrow, CopyOwns) {
  const Tensor t = make_tensor();
  const IValue v(opd::borrow, t);
  {
    const IValue copy(v);  // NOLINT(performance-unnecessary-copy-initialization): the copy is the test
    EXPECT_FALSE(copy.is_borrowed());
    EXPECT_EQ(t.use_count(), 2u);
  }
  EXPECT_EQ(t.use_count(), 1u);
  IValue assigned(1.5);
  assigned = v;
  EXPECT_FALSE(assigned.is_borrowed());
  EXPECT_EQ(t.use_count(), 2u);
}

TEST(IValueBorrow, MoveOwnsSoABorrowCannotEscapeAStack) {
  IValue kept;
  {
    Tensor t = make_tensor();
    const opd::TensorImpl* impl = t.unsafe_get_impl();
    IValue v(opd::borrow, t);
    kept = std::move(v);
    EXPECT_TRUE(v.is_none());  // NOLINT(bugprone-use-after-move): moved-from state is specified
    EXPECT_FALSE(v.is_borrowed());
    EXPECT_FALSE(kept.is_borrowed());
    EXPECT_EQ(t.use_count(), 2u);
    IValue moved_constructed(std::move(kept));
    EXPECT_FALSE(moved_constructed.is_borrowed());
    kept = std::move(moved_constructed);
    EXPECT_EQ(kept.to_tensor().unsafe_get_impl(), impl);
  }
  // t is gone; kept owns the last reference.
  EXPECT_EQ(kept.to_tensor().use_count(), 1u);
  EXPECT_EQ(kept.to_tensor().sizes()[1], 3);
}

TEST(IValueBorrow, TakingTheTensorOwns) {
  const Tensor t = make_tensor();
  IValue v(opd::borrow, t);
  Tensor taken = std::move(v).to_tensor();
  EXPECT_TRUE(taken.is_same(t));
  EXPECT_EQ(t.use_count(), 2u);
  EXPECT_TRUE(v.is_none());  // NOLINT(bugprone-use-after-move)
  taken = Tensor();
  EXPECT_EQ(t.use_count(), 1u);
}

TEST(IValueBorrow, AssigningOverABorrowReleasesNothing) {
  const Tensor t = make_tensor();
  const Tensor other = make_tensor();
  IValue v(opd::borrow, t);
  v = IValue(other);
  EXPECT_FALSE(v.is_borrowed());
  EXPECT_EQ(t.use_count(), 1u);
  EXPECT_EQ(other.use_count(), 2u);
  v = IValue(std::int64_t{4});
  EXPECT_EQ(other.use_count(), 1u);
}

TEST(IValueBorrow, MakeOwnedTakesOneReference) {
  IValue v;
  {
    const Tensor t = make_tensor();
    v = IValue(opd::borrow, t);  // assigned from a temporary: a move, so already owned
    EXPECT_FALSE(v.is_borrowed());
  }
  const Tensor t = make_tensor();
  std::vector<IValue> stack;
  stack.emplace_back(opd::borrow, t);
  stack[0].make_owned();
  EXPECT_FALSE(stack[0].is_borrowed());
  EXPECT_EQ(t.use_count(), 2u);
  stack[0].make_owned();  // no second reference
  EXPECT_EQ(t.use_count(), 2u);
  stack.clear();
  EXPECT_EQ(t.use_count(), 1u);
}

TEST(IValueBorrow, StackGrowthMovesBorrowsIntoOwnership) {
  const Tensor t = make_tensor();
  std::vector<IValue> stack;
  stack.reserve(1);
  stack.emplace_back(opd::borrow, t);
  for (int i = 0; i < 8; ++i) stack.emplace_back(i);  // reallocates: moves the borrow
  EXPECT_FALSE(stack[0].is_borrowed());
  EXPECT_EQ(t.use_count(), 2u);
  stack.clear();
  EXPECT_EQ(t.use_count(), 1u);
}

TEST(IValueBorrow, UndefinedTensor) {
  const Tensor undefined;
  IValue v(opd::borrow, undefined);
  EXPECT_TRUE(v.is_tensor());
  EXPECT_FALSE(v.to_tensor().defined());
  v.make_owned();
  EXPECT_FALSE(v.to_tensor().defined());
  IValue w(opd::borrow, undefined);
  Tensor taken = std::move(w).to_tensor();
  EXPECT_FALSE(taken.defined());
}

TEST(IValueBorrow, StaysTwoWords) { static_assert(sizeof(IValue) == 16); }

}  // namespace
