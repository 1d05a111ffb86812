// The shape, indexing and range operators (include/kernels/ops_shape.hpp)
// against libtorch 1.13 through the differential harness (diff/README.md):
// every operator and variant, over dtypes and the four layouts, with index
// tensors of chosen values (in range, negative, out of range) and cases
// where both sides must throw.
#include <cstring>

#include "diff.hpp"

using namespace diff;

namespace {

constexpr int all_dtypes[] = {u8, i8, i16, i32, i64, f16, f32, f64, b8, bf16};

// A contiguous tensor holding exactly `values` (cast to dtype).
RawTensor exact(int dtype, std::vector<int64_t> sizes, const std::vector<int64_t>& values) {
  RawTensor t;
  t.dtype = dtype;
  t.sizes = sizes;
  t.strides = contiguous_strides(sizes);
  t.storage.resize(values.size() * element_size(dtype));
  for (std::size_t i = 0; i < values.size(); ++i) {
    unsigned char* p = t.storage.data() + i * element_size(dtype);
    const int64_t v = values[i];
    switch (dtype) {
      case i64: std::memcpy(p, &v, 8); break;
      case i32: { const int32_t x = static_cast<int32_t>(v); std::memcpy(p, &x, 4); break; }
      case u8: { const uint8_t x = static_cast<uint8_t>(v); std::memcpy(p, &x, 1); break; }
      case b8: { const uint8_t x = v != 0 ? 1 : 0; std::memcpy(p, &x, 1); break; }
      default: ADD_FAILURE() << "exact(): unsupported dtype " << dtype;
    }
  }
  return t;
}
RawTensor idx(std::vector<int64_t> sizes, const std::vector<int64_t>& values) { return exact(i64, sizes, values); }
RawTensor mask(std::vector<int64_t> sizes, const std::vector<int64_t>& values) { return exact(b8, sizes, values); }
// dtype=None, layout=None, device=None, pin_memory=None
std::vector<Value> factory_tail(Value dtype = None()) { return {dtype, None(), None(), None()}; }
std::vector<Value> with(std::vector<Value> head, const std::vector<Value>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

TEST(ShapeTorchDiff, CatAndStack) {
  std::vector<Case> cases;
  for (int dt : all_dtypes) {
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::cat", "", {TL({make_tensor(dt, {2, 3}, layout), make_tensor(dt, {2, 2}, Layout::contiguous, Fill::standard, 2)}), I(1)}});
      cases.push_back({"aten::cat", "", {TL({make_tensor(dt, {3, 2}, layout), make_tensor(f32, {1, 2}, layout, Fill::standard, 3)}), I(0)}});
      cases.push_back({"aten::stack", "", {TL({make_tensor(dt, {2, 3}, layout), make_tensor(dt, {2, 3}, Layout::contiguous, Fill::standard, 2)}), I(1)}});
    }
    cases.push_back({"aten::stack", "", {TL({make_tensor(dt, {2, 3}), make_tensor(dt, {2, 3})}), I(-1)}});
    cases.push_back({"aten::cat", "out", {TL({make_tensor(dt, {2, 3}), make_tensor(dt, {1, 3})}), I(0), T(dt, {0})}});
    cases.push_back({"aten::stack", "out", {TL({make_tensor(dt, {3}), make_tensor(dt, {3})}), I(0), T(dt, {0})}});
  }
  cases.push_back({"aten::cat", "", {TL({make_tensor(f32, {2, 3}), make_tensor(f64, {0}), make_tensor(i64, {1, 3})}), I(0)}});  // legacy skip, promotion
  cases.push_back({"aten::cat", "", {TL({make_tensor(i32, {0, 3}), make_tensor(i32, {2, 3})}), I(0)}});
  cases.push_back({"aten::cat", "out", {TL({make_tensor(f32, {2, 3})}), I(0), T(f64, {5})}});   // a wider out: accepted
  cases.push_back({"aten::cat", "out", {TL({make_tensor(f32, {2, 3})}), I(0), T(i32, {0})}});   // both throw
  cases.push_back({"aten::cat", "", {TL({make_tensor(f32, {2, 3}), make_tensor(f32, {2, 2})}), I(0)}});  // both throw
  cases.push_back({"aten::cat", "", {TL({make_tensor(f32, {2, 3}), make_tensor(f32, {3})}), I(0)}});     // both throw
  cases.push_back({"aten::cat", "", {TL({make_tensor(f32, {})}), I(0)}});                                 // both throw
  cases.push_back({"aten::cat", "", {TL({make_tensor(f32, {2, 3})}), I(2)}});                             // both throw
  cases.push_back({"aten::stack", "", {TL({make_tensor(f32, {2}), make_tensor(f32, {3})}), I(0)}});      // both throw
  cases.push_back({"aten::stack", "", {TL({make_tensor(f32, {}), make_tensor(f32, {})}), I(0)}});
  check_all(cases);
}

TEST(ShapeTorchDiff, IndexSelectGatherScatter) {
  std::vector<Case> cases;
  for (int dt : all_dtypes) {
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::index_select", "", {T(dt, {4, 5}, layout), I(1), T(idx({3}, {4, 0, 4}))}});
      cases.push_back({"aten::index_select", "", {T(dt, {4, 5}, layout), I(0), T(exact(i32, {2}, {3, 1}))}});
      cases.push_back({"aten::gather", "", {T(dt, {3, 4}, layout), I(1), T(idx({3, 2}, {0, 3, 1, 1, 2, 0})), B(false)}});
      cases.push_back({"aten::gather", "", {T(dt, {3, 4}, layout), I(0), T(idx({2, 4}, {0, 1, 2, 0, 2, 2, 1, 1})), B(false)}});
      // plain scatter: distinct targets per column
      const RawTensor sidx = idx({2, 4}, {0, 1, 2, 0, 1, 2, 0, 2});
      cases.push_back({"aten::scatter", "src", {T(dt, {3, 4}, layout), I(0), T(sidx), T(dt, {2, 4}, Layout::contiguous, Fill::standard, 5)}});
      cases.push_back({"aten::scatter_", "src", {T(dt, {3, 4}, layout), I(0), T(sidx), T(dt, {2, 4}, Layout::contiguous, Fill::standard, 5)}});
      cases.push_back({"aten::scatter", "value", {T(dt, {3, 4}, layout), I(0), T(sidx), I(1)}});
      cases.push_back({"aten::scatter_", "value", {T(dt, {3, 4}, layout), I(-1), T(idx({3, 1}, {2, 0, 3})), I(1)}});
    }
    cases.push_back({"aten::index_select", "out", {T(dt, {4, 5}), I(0), T(idx({2}, {1, 1})), T(dt, {0})}});
    cases.push_back({"aten::gather", "out", {T(dt, {3, 4}), I(1), T(idx({3, 1}, {3, 2, 1})), B(false), T(dt, {0})}});
    cases.push_back({"aten::scatter", "src_out", {T(dt, {3, 4}), I(1), T(idx({1, 2}, {3, 0})), T(dt, {1, 2}), T(dt, {0})}});
    cases.push_back({"aten::scatter", "value_out", {T(dt, {3, 4}), I(1), T(idx({1, 2}, {3, 0})), I(0), T(dt, {0})}});
    cases.push_back({"aten::index_select", "", {T(dt, {}), I(0), T(idx({1}, {0}))}});
  }
  // reduce (duplicates accumulate in index order): the ten kernel dtypes but Bool, whose add/multiply ATen computes as ints
  for (int dt : {u8, i8, i16, i32, i64, f16, f32, f64, bf16}) {
    for (Layout layout : all_layouts) {
      const RawTensor dup = idx({2, 3}, {0, 0, 2, 0, 1, 2});
      cases.push_back({"aten::scatter", "reduce", {T(dt, {3, 4}, layout, Fill::small), I(0), T(dup), T(dt, {2, 4}, Layout::contiguous, Fill::small, 4), S("add")}});
      cases.push_back({"aten::scatter", "reduce", {T(dt, {3, 4}, layout, Fill::small), I(0), T(dup), T(dt, {2, 4}, Layout::contiguous, Fill::small, 4), S("multiply")}});
      cases.push_back({"aten::scatter_", "value_reduce", {T(dt, {3, 4}, layout, Fill::small), I(1), T(dup), I(2), S("multiply")}});
    }
    cases.push_back({"aten::scatter", "reduce_out", {T(dt, {3, 4}), I(0), T(idx({1, 2}, {1, 1})), T(dt, {1, 2}), S("add"), T(dt, {0})}});
    cases.push_back({"aten::scatter", "value_reduce_out", {T(dt, {3, 4}), I(0), T(idx({1, 2}, {1, 1})), I(1), S("add"), T(dt, {0})}});
  }
  // both throw
  cases.push_back({"aten::index_select", "", {T(f32, {4, 5}), I(1), T(idx({1}, {5}))}});
  cases.push_back({"aten::index_select", "", {T(f32, {4, 5}), I(1), T(idx({1}, {-1}))}});
  cases.push_back({"aten::index_select", "", {T(f32, {4, 5}), I(1), T(idx({1, 1}, {0}))}});
  cases.push_back({"aten::index_select", "", {T(f32, {4, 5}), I(1), T(f32, {1})}});
  cases.push_back({"aten::index_select", "out", {T(f32, {4, 5}), I(0), T(idx({1}, {1})), T(f64, {0})}});
  cases.push_back({"aten::gather", "", {T(f32, {3, 4}), I(1), T(idx({1, 1}, {4})), B(false)}});
  cases.push_back({"aten::gather", "", {T(f32, {3, 4}), I(1), T(exact(i32, {1, 1}, {0})), B(false)}});
  cases.push_back({"aten::gather", "", {T(f32, {3, 4}), I(1), T(idx({4, 1}, {0, 0, 0, 0})), B(false)}});
  cases.push_back({"aten::gather", "out", {T(f32, {3, 4}), I(1), T(idx({1, 1}, {0})), B(false), T(f64, {0})}});
  cases.push_back({"aten::scatter", "src", {T(f32, {3, 4}), I(0), T(idx({1, 1}, {3})), T(f32, {1, 1})}});
  cases.push_back({"aten::scatter", "src", {T(f32, {3, 4}), I(0), T(idx({1, 1}, {0})), T(f64, {1, 1})}});
  cases.push_back({"aten::scatter", "src", {T(f32, {3, 4}), I(0), T(idx({1, 5}, {0, 0, 0, 0, 0})), T(f32, {1, 5})}});
  cases.push_back({"aten::scatter", "reduce", {T(f32, {3, 4}), I(0), T(idx({1, 1}, {0})), T(f32, {1, 1}), S("max")}});
  cases.push_back({"aten::scatter", "value", {T(u8, {3}), I(0), T(idx({1}, {0})), I(300)}});
  cases.push_back({"aten::scatter_", "src", {T(f32, {3, 4}), I(0), T(idx({1, 2}, {0, 3})), T(f32, {1, 2})}});  // self unchanged
  check_all(cases);
}

TEST(ShapeTorchDiff, FlipRollRepeatTrilTriu) {
  std::vector<Case> cases;
  for (int dt : all_dtypes) {
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::flip", "", {T(dt, {3, 4}, layout), L({0})}});
      cases.push_back({"aten::flip", "", {T(dt, {2, 3, 4}, layout), L({0, -1})}});
      cases.push_back({"aten::roll", "", {T(dt, {3, 4}, layout), L({5}), L({})}});
      cases.push_back({"aten::roll", "", {T(dt, {3, 4}, layout), L({-1, 2}), L({1, 0})}});
      cases.push_back({"aten::repeat", "", {T(dt, {2, 3}, layout), L({2, 1, 3})}});
      for (int64_t k : {-1, 0, 2}) {
        cases.push_back({"aten::tril", "", {T(dt, {2, 3, 4}, layout), I(k)}});
        cases.push_back({"aten::triu", "", {T(dt, {4, 3}, layout), I(k)}});
      }
      cases.push_back({"aten::tril_", "", {T(dt, {4, 4}, layout), I(1)}});
      cases.push_back({"aten::triu_", "", {T(dt, {3, 5}, layout), I(-1)}});
    }
    cases.push_back({"aten::tril", "out", {T(dt, {3, 3}), I(0), T(dt, {0})}});
    cases.push_back({"aten::triu", "out", {T(dt, {3, 3}), I(1), T(dt, {2, 2})}});
    cases.push_back({"aten::flip", "", {T(dt, {}), L({0})}});
    cases.push_back({"aten::roll", "", {T(dt, {0, 3}), L({1}), L({1})}});
    cases.push_back({"aten::repeat", "", {T(dt, {2}), L({0, 2})}});
  }
  cases.push_back({"aten::flip", "", {T(f32, {3, 4}), L({1, -1})}});              // both throw
  cases.push_back({"aten::roll", "", {T(f32, {3, 4}), L({1, 1}), L({0})}});       // both throw
  cases.push_back({"aten::repeat", "", {T(f32, {3, 4}), L({2})}});                // both throw
  cases.push_back({"aten::repeat", "", {T(f32, {3, 4}), L({-1, 2})}});            // both throw
  cases.push_back({"aten::tril", "", {T(f32, {3}), I(0)}});                       // both throw
  cases.push_back({"aten::tril", "", {T(f32, {0}), I(0)}});
  cases.push_back({"aten::tril", "out", {T(f32, {3, 3}), I(0), T(f64, {0})}});    // both throw (exact dtype)
  check_all(cases);
}

TEST(ShapeTorchDiff, NonzeroWhereMaskedSelect) {
  std::vector<Case> cases;
  for (int dt : all_dtypes) {
    for (Layout layout : all_layouts) {
      const Fill fill = is_floating(dt) ? Fill::special : Fill::small;
      cases.push_back({"aten::nonzero", "", {T(dt, {3, 4}, layout, fill)}});
      cases.push_back({"aten::where", "", {T(dt, {2, 3, 4}, layout, fill)}});
      cases.push_back({"aten::masked_select", "", {T(dt, {3, 4}, layout), T(mask({4}, {1, 0, 0, 1}))}});
      cases.push_back({"aten::masked_select", "", {T(dt, {3, 4}, layout), T(b8, {3, 4}, Layout::contiguous, Fill::standard, 9)}});
    }
    cases.push_back({"aten::nonzero", "", {T(dt, {}, Layout::contiguous, Fill::positive)}});
    cases.push_back({"aten::nonzero", "out", {T(dt, {5}), T(i64, {0})}});
    cases.push_back({"aten::masked_select", "out", {T(dt, {2, 3}), T(mask({3}, {0, 1, 1})), T(dt, {0})}});
    cases.push_back({"aten::masked_select", "", {T(dt, {3}), T(exact(u8, {2, 3}, {1, 0, 1, 0, 1, 0}))}});
  }
  cases.push_back({"aten::nonzero", "", {T(f32, {0, 3})}});
  cases.push_back({"aten::nonzero", "out", {T(f32, {5}), T(f32, {0})}});                       // both throw
  cases.push_back({"aten::masked_select", "", {T(f32, {3, 4}), T(f32, {4})}});                 // both throw
  cases.push_back({"aten::masked_select", "", {T(f32, {3, 4}), T(mask({3}, {1, 0, 1}))}});     // both throw
  check_all(cases);
}

TEST(ShapeTorchDiff, AdvancedIndexing) {
  std::vector<Case> cases;
  const RawTensor i2 = idx({2}, {2, -1});
  for (int dt : all_dtypes) {
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::index", "Tensor", {T(dt, {3, 4, 5}, layout), OTL({i2})}});
      cases.push_back({"aten::index", "Tensor", {T(dt, {3, 4, 5}, layout), OTL({std::nullopt, i2})}});
      cases.push_back({"aten::index", "Tensor", {T(dt, {3, 4, 5}, layout), OTL({idx({2, 1}, {0, 2}), idx({3}, {1, 3, 0})})}});
      cases.push_back({"aten::index", "Tensor", {T(dt, {3, 4, 5}, layout), OTL({i2, std::nullopt, idx({1}, {4})})}});  // not adjacent
      cases.push_back({"aten::index", "Tensor", {T(dt, {3, 4, 5}, layout), OTL({mask({3}, {1, 0, 1})})}});
      cases.push_back({"aten::index", "Tensor", {T(dt, {3, 4, 5}, layout), OTL({std::nullopt, mask({4, 5}, {1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 1})})}});
      if (layout != Layout::expanded) {  // writes into self
        cases.push_back({"aten::index_put_", "", {T(dt, {4, 3}, layout), OTL({idx({2}, {3, 1})}), T(dt, {2, 3}, Layout::contiguous, Fill::standard, 6), B(false)}});
        cases.push_back({"aten::index_put_", "", {T(dt, {4, 3}, layout), OTL({std::nullopt, idx({2}, {0, -1})}), T(dt, {2}, Layout::contiguous, Fill::standard, 6), B(false)}});
        cases.push_back({"aten::index_put_", "", {T(dt, {4, 3}, layout), OTL({mask({4}, {0, 1, 1, 0})}), T(dt, {}, Layout::contiguous, Fill::standard, 6), B(false)}});
      }
      cases.push_back({"aten::index_put", "", {T(dt, {4, 3}, layout), OTL({idx({2}, {3, 1}), idx({2}, {0, 2})}), T(dt, {2}, Layout::contiguous, Fill::standard, 6), B(false)}});
    }
    cases.push_back({"aten::index", "Tensor_out", {T(dt, {3, 4}), OTL({i2}), T(dt, {0})}});
  }
  for (int dt : {u8, i8, i16, i32, i64, f16, f32, f64, bf16}) {  // accumulate: duplicates add up, in order
    cases.push_back({"aten::index_put", "", {T(dt, {4, 3}, Layout::contiguous, Fill::small), OTL({idx({3}, {1, 1, 2})}), T(dt, {3, 3}, Layout::contiguous, Fill::small, 6), B(true)}});
    cases.push_back({"aten::index_put_", "", {T(dt, {4, 3}, Layout::transposed, Fill::small), OTL({idx({2}, {0, 0}), idx({2}, {2, 2})}), T(dt, {2}, Layout::contiguous, Fill::small, 6), B(true)}});
  }
  cases.push_back({"aten::index_put_", "", {T(f32, {4, 3}), OTL({mask({4}, {1, 1, 0, 0})}), T(f64, {}), B(false)}});  // masked_fill_: converted
  // both throw
  cases.push_back({"aten::index", "Tensor", {T(f32, {3, 4}), OTL({idx({1}, {3})})}});
  cases.push_back({"aten::index", "Tensor", {T(f32, {3, 4}), OTL({std::nullopt, idx({1}, {-5})})}});
  cases.push_back({"aten::index", "Tensor", {T(f32, {3, 4}), OTL({i2, i2, i2})}});
  cases.push_back({"aten::index", "Tensor", {T(f32, {3, 4}), OTL({T(f32, {1}).tensors[0]})}});
  cases.push_back({"aten::index", "Tensor", {T(f32, {3, 4}), OTL({exact(i32, {1}, {0})})}});
  cases.push_back({"aten::index", "Tensor", {T(f32, {3, 4}), OTL({idx({2}, {0, 1}), idx({3}, {0, 1, 2})})}});
  cases.push_back({"aten::index", "Tensor", {T(f32, {3, 4}), OTL({mask({2}, {1, 0})})}});
  cases.push_back({"aten::index_put_", "", {T(f32, {4, 3}), OTL({idx({2}, {3, 4})}), T(f32, {3}), B(false)}});
  cases.push_back({"aten::index_put_", "", {T(f32, {4, 3}), OTL({idx({2}, {3, 1})}), T(f64, {3}), B(false)}});
  cases.push_back({"aten::index_put_", "", {T(f32, {4, 3}), OTL({idx({2}, {3, 1})}), T(f32, {2}), B(false)}});
  check_all(cases);
}

TEST(ShapeTorchDiff, SortArgsortTopk) {
  std::vector<Case> cases;
  for (int dt : all_dtypes) {
    for (Layout layout : all_layouts) {
      // stable: ties (ints, bools) keep their order on both sides
      for (bool desc : {false, true}) {
        cases.push_back({"aten::sort", "stable", {T(dt, {3, 5}, layout), B(true), I(1), B(desc)}});
        cases.push_back({"aten::sort", "stable", {T(dt, {4, 3}, layout), B(true), I(0), B(desc)}});
        cases.push_back({"aten::argsort", "stable", {T(dt, {3, 5}, layout), B(true), I(-1), B(desc)}});
      }
    }
    cases.push_back({"aten::sort", "values_stable", {T(dt, {6}), B(true), I(0), B(true), T(dt, {0}), T(i64, {0})}});
    cases.push_back({"aten::sort", "stable", {T(dt, {}), B(true), I(0), B(false)}});
  }
  // default sort / topk: ATen's are not stable, so values without ties (floats)
  for (int dt : {f32, f64}) {
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::sort", "", {T(dt, {3, 5}, layout, Fill::special), I(-1), B(false)}});
      cases.push_back({"aten::sort", "", {T(dt, {3, 5}, layout, Fill::special), I(0), B(true)}});
      cases.push_back({"aten::argsort", "", {T(dt, {3, 5}, layout), I(1), B(true)}});
      for (bool largest : {true, false}) {
        cases.push_back({"aten::topk", "", {T(dt, {3, 6}, layout), I(2), I(-1), B(largest), B(true)}});
        // (an expanded input repeats its values along dim 0: ties, whose order ATen leaves to nth_element)
        if (layout != Layout::expanded) cases.push_back({"aten::topk", "", {T(dt, {5, 3}, layout), I(3), I(0), B(largest), B(true)}});
      }
    }
    cases.push_back({"aten::sort", "values", {T(dt, {6}), I(0), B(false), T(dt, {0}), T(i64, {0})}});
    cases.push_back({"aten::topk", "values", {T(dt, {6}), I(4), I(0), B(true), B(true), T(dt, {0}), T(i64, {0})}});
    cases.push_back({"aten::topk", "", {T(dt, {6}), I(0), I(0), B(true), B(true)}});
  }
  // ...and with ties (ints in [-9, 9], bools, small bfloat16, NaN and repeated values of an expanded input):
  // ATen's std::sort / partial_sort / nth_element orders, as tests/opinfo found them.
  for (int dt : {u8, i8, i64, b8, bf16, f32}) {
    for (Layout layout : all_layouts) {
      const Fill fill = dt == bf16 ? Fill::small : Fill::special;
      for (bool flag : {false, true}) {
        cases.push_back({"aten::sort", "", {T(dt, {3, 40}, layout, fill), I(-1), B(flag)}});
        cases.push_back({"aten::sort", "stable", {T(dt, {40, 3}, layout, fill), B(false), I(0), B(flag)}});
        cases.push_back({"aten::argsort", "", {T(dt, {3, 40}, layout, fill), I(1), B(flag)}});
        if (dt == b8) continue;  // (topk: no Bool kernel on either side)
        for (int64_t k : {1, 5, 30}) {
          cases.push_back({"aten::topk", "", {T(dt, {3, 400}, layout, fill), I(k), I(-1), B(flag), B(true)}});
          cases.push_back({"aten::topk", "", {T(dt, {3, 40}, layout, fill), I(k), I(-1), B(!flag), B(flag)}});
        }
        // the heap selection (k * 64 <= n) over slices read with a stride (dim 0)
        cases.push_back({"aten::topk", "", {T(dt, {400, 3}, layout, fill), I(5), I(0), B(flag), B(!flag)}});
      }
    }
  }
  cases.push_back({"aten::topk", "", {T(f32, {6}), I(7), I(0), B(true), B(true)}});                          // both throw
  cases.push_back({"aten::sort", "stable", {T(f32, {6}), None(), I(0), B(false)}});                          // both throw
  cases.push_back({"aten::topk", "", {T(b8, {6}), I(1), I(0), B(true), B(true)}});                           // both throw
  cases.push_back({"aten::topk", "", {T(f16, {6}), I(1), I(0), B(true), B(true)}});                          // both throw
  cases.push_back({"aten::sort", "values", {T(f32, {6}), I(0), B(false), T(f32, {0}), T(i32, {0})}});        // both throw
  cases.push_back({"aten::sort", "", {T(f32, {6}), I(1), B(false)}});                                        // both throw
  check_all(cases);
}

TEST(ShapeTorchDiff, RangeFactories) {
  std::vector<Case> cases;
  cases.push_back({"aten::arange", "", with({I(5)}, factory_tail())});
  cases.push_back({"aten::arange", "", with({D(2.5)}, factory_tail())});
  cases.push_back({"aten::arange", "start", with({I(-3), I(4)}, factory_tail())});
  cases.push_back({"aten::arange", "start", with({B(true), I(4)}, factory_tail())});
  cases.push_back({"aten::arange", "start_step", with({I(10), I(-2), I(-3)}, factory_tail())});
  cases.push_back({"aten::arange", "start_step", with({D(0), D(1), D(0.1)}, factory_tail())});
  cases.push_back({"aten::arange", "start_step", with({D(-1), D(1), D(0.25)}, factory_tail(ScalarT(f64)))});
  for (int dt : {u8, i8, i16, i32, i64, f16, f32, f64, bf16}) {
    cases.push_back({"aten::arange", "start_step", with({I(1), I(20), I(3)}, factory_tail(ScalarT(dt)))});
    cases.push_back({"aten::arange", "start_out", {I(0), I(7), I(2), T(dt, {0})}});
    cases.push_back({"aten::arange", "out", {I(4), T(dt, {9})}});
    cases.push_back({"aten::full", "", with({L({2, 3}), I(7)}, factory_tail(ScalarT(dt)))});
    cases.push_back({"aten::full", "out", {L({3}), I(2), T(dt, {0})}});
    cases.push_back({"aten::eye", "", with({I(3)}, factory_tail(ScalarT(dt)))});
    cases.push_back({"aten::eye", "m_out", {I(2), I(4), T(dt, {0})}});
    cases.push_back({"aten::linspace", "", with({I(0), I(10), I(6)}, factory_tail(ScalarT(dt)))});  // integral steps
  }
  cases.push_back({"aten::full", "", with({L({2}), D(1.5)}, factory_tail())});
  cases.push_back({"aten::full", "", with({L({2}), B(true)}, factory_tail())});
  cases.push_back({"aten::full", "", with({L({0, 2}), I(3)}, factory_tail())});
  cases.push_back({"aten::eye", "m", with({I(2), I(5)}, factory_tail())});
  cases.push_back({"aten::eye", "m", with({I(4), I(0)}, factory_tail(ScalarT(b8)))});
  cases.push_back({"aten::eye", "out", {I(3), T(f32, {1})}});
  for (int64_t steps : {0, 1, 2, 5, 8}) {
    cases.push_back({"aten::linspace", "", with({D(-1), D(1), I(steps)}, factory_tail())});
    cases.push_back({"aten::linspace", "", with({D(0.5), D(-2), I(steps)}, factory_tail(ScalarT(f64))), {.ulp = 4}});
  }
  cases.push_back({"aten::linspace", "out", {D(0), D(1), I(5), T(f32, {0})}});
  // both throw
  cases.push_back({"aten::arange", "start_step", with({I(0), I(1), I(0)}, factory_tail())});
  cases.push_back({"aten::arange", "start_step", with({I(0), I(1), I(-1)}, factory_tail())});
  cases.push_back({"aten::arange", "", with({I(3)}, factory_tail(ScalarT(b8)))});
  cases.push_back({"aten::linspace", "", with({I(0), I(1), I(-1)}, factory_tail())});
  cases.push_back({"aten::linspace", "", with({I(0), I(1), I(3)}, factory_tail(ScalarT(b8)))});
  cases.push_back({"aten::eye", "", with({I(-1)}, factory_tail())});
  cases.push_back({"aten::eye", "", with({I(2)}, factory_tail(ScalarT(bf16)))});
  check_all(cases);
}

// linspace to the bit: ATen's step formula, its fused multiply-adds and its
// vectorized blocks (two vectors of 32 bytes, then single values) decide
// the last bit of floats and the truncation of integers -- e.g.
// linspace(0, -3, steps=50, dtype=int64)[17] is 0, not -1.
TEST(ShapeTorchDiff, LinspaceSweep) {
  std::vector<Case> cases;
  const std::vector<std::pair<double, double>> ranges{{0, -3}, {0, 3},    {-5, 7},  {1, 100}, {3, -2},
                                                      {0, 1},  {10, -10}, {2, 5},  {-100, 100}};
  std::vector<int64_t> all_steps;
  for (int64_t s = 2; s <= 72; ++s) all_steps.push_back(s);
  for (int64_t s : {97, 100, 129, 257, 1000, 1001}) all_steps.push_back(s);
  for (int dt : {i8, i16, i32, i64, f16, f32, f64, bf16}) {
    for (const auto& [a, b] : ranges) {
      for (int64_t steps : all_steps) {
        cases.push_back({"aten::linspace", "", with({I(static_cast<int64_t>(a)), I(static_cast<int64_t>(b)), I(steps)},
                                                   factory_tail(ScalarT(dt))),
                         {.ulp = 0}});
      }
    }
  }
  for (int64_t steps : all_steps) {  // uint8: ranges inside [0, 255]
    for (const auto& [a, b] : std::vector<std::pair<int, int>>{{0, 255}, {200, 0}, {5, 7}, {1, 100}})
      cases.push_back({"aten::linspace", "", with({I(a), I(b), I(steps)}, factory_tail(ScalarT(u8))), {.ulp = 0}});
  }
  for (int dt : {f32, f64, f16, bf16}) {  // fractional ends
    for (int64_t steps : all_steps) {
      cases.push_back({"aten::linspace", "", with({D(-1.5), D(2.7), I(steps)}, factory_tail(ScalarT(dt))), {.ulp = 0}});
      cases.push_back({"aten::linspace", "", with({D(0.1), D(0.9), I(steps)}, factory_tail(ScalarT(dt))), {.ulp = 0}});
    }
  }
  cases.push_back({"aten::linspace", "", with({I(0), I(-3), I(70001)}, factory_tail(ScalarT(i64))), {.ulp = 0}});
  cases.push_back({"aten::linspace", "", with({D(-1), D(3), I(70001)}, factory_tail(ScalarT(f32))), {.ulp = 0}});
  check_all(cases);
}

// arange of float and double to the bit: ATen's blocks of vectors (lane j =
// base + j * step, fused) and its scalar tail, over lengths that end inside
// and after a pair of vectors, and one over several threads' ranges.
TEST(ShapeTorchDiff, ArangeSweep) {
  std::vector<Case> cases;
  for (int dt : {f32, f64}) {
    for (const auto& [a, step] : std::vector<std::pair<double, double>>{{0.1, 0.37}, {-5.5, 0.013}, {10, -0.33}, {1e-3, 1e-4}}) {
      for (int64_t n : {1, 7, 8, 9, 15, 16, 17, 31, 33, 100, 1001}) {
        cases.push_back({"aten::arange", "start_step", with({D(a), D(a + step * (static_cast<double>(n) - 0.5)), D(step)},
                                                             factory_tail(ScalarT(dt))),
                         {.ulp = 0}});
      }
    }
    cases.push_back({"aten::arange", "start_step", with({D(0.1), D(70000.1), D(0.7)}, factory_tail(ScalarT(dt))), {.ulp = 0}});
  }
  check_all(cases);
}

}  // namespace

// Overloads no table above reaches (diff/coverage.py): scatter's
// value-with-reduce functional form and its in-place src-with-reduce form.
TEST(ShapeTorchDiff, ScatterReduceForms) {
  std::vector<Case> cases;
  for (int dt : {f32, f64, i64}) {
    const Value dup = T(idx({2, 4}, {0, 2, 2, 1, 0, 2, 1, 1}));
    cases.push_back({"aten::scatter", "value_reduce", {T(dt, {3, 4}, Layout::transposed, Fill::small), I(0), dup, I(3), S("add")}});
    cases.push_back({"aten::scatter", "value_reduce", {T(dt, {3, 4}), I(0), dup, D(1.5), S("multiply")}});
    cases.push_back({"aten::scatter_", "reduce", {T(dt, {3, 4}, Layout::sliced, Fill::small), I(0), dup, T(dt, {2, 4}, Layout::contiguous, Fill::small, 4), S("add")}});
    cases.push_back({"aten::scatter_", "reduce", {T(dt, {3, 4}), I(0), dup, T(dt, {2, 4}), S("multiply")}});
  }
  cases.push_back({"aten::scatter", "value_reduce", {T(f32, {3, 4}), I(0), T(idx({1, 1}, {0})), I(1), S("max")}});  // both throw
  check_all(cases);
}

// Copies, conversions and factories through the harness (the older bridge
// tests reach copy_ and fill_ typed; these are the boxed ATen overloads).
TEST(ShapeTorchDiff, CopiesConversionsAndFactories) {
  std::vector<Case> cases;
  for (Layout layout : all_layouts) {
    const Value x = T(f32, {3, 4}, layout, Fill::special);
    cases.push_back({"aten::clone", "", {x, None()}});
    cases.push_back({"aten::contiguous", "", {x, I(0)}});
    cases.push_back({"aten::_to_copy", "", {x, ScalarT(f64), None(), None(), None(), B(false), None()}});
    cases.push_back({"aten::to", "dtype", {x, ScalarT(i32), B(false), B(false), None()}});
    cases.push_back({"aten::to", "dtype", {x, ScalarT(f32), B(false), B(true), None()}});
    cases.push_back({"aten::to", "other", {x, T(f16, {1}), B(false), B(false), None()}});
    cases.push_back({"aten::to", "dtype_layout", {x, ScalarT(bf16), None(), None(), None(), B(false), B(false), None()}});
    cases.push_back({"aten::copy", "", {x, T(i64, {4}), B(false)}});
    cases.push_back({"aten::copy_", "", {T(f64, {3, 4}, layout), T(f32, {3, 1}), B(false)}});
    cases.push_back({"aten::fill", "Scalar", {x, D(-2.5)}});
    cases.push_back({"aten::fill_", "Scalar", {T(i16, {3, 4}, layout), I(7)}});
    cases.push_back({"aten::zero_", "", {T(f64, {3, 4}, layout)}});
  }
  cases.push_back({"aten::copy_", "", {T(f32, {3, 4}), T(f32, {2, 4}), B(false)}});  // both throw: not broadcastable
  cases.push_back({"aten::fill_", "Scalar", {T(u8, {3}), I(300)}});                    // both throw: overflow
  for (int dt : {f32, i64, b8}) {
    cases.push_back({"aten::zeros", "", {L({2, 3}), ScalarT(dt), None(), None(), None()}});
    cases.push_back({"aten::ones", "", {L({0, 3}), ScalarT(dt), None(), None(), None()}});
  }
  cases.push_back({"aten::ones", "", {L({2}), None(), None(), None(), None()}});  // the default dtype
  cases.push_back({"aten::zeros", "", {L({-1}), None(), None(), None(), None()}});  // both throw
  cases.push_back({"aten::_unsafe_view", "", {T(f32, {2, 6}), L({3, 4})}});
  cases.push_back({"aten::unfold_backward", "", {T(f32, {3, 2}), L({6}), I(0), I(2), I(2)}});
  cases.push_back({"aten::unfold_backward", "", {T(f64, {2, 4, 2}), L({2, 5}), I(1), I(2), I(1)}});  // overlapping windows
  cases.push_back({"aten::unfold_backward", "", {T(f32, {2, 2}), L({7}), I(0), I(2), I(3)}});         // gaps
  cases.push_back({"aten::unfold_backward", "", {T(i32, {3, 4, 1}), L({3, 4}), I(-1), I(1), I(1)}});    // dims merge to one row
  check_all(cases);
}

// The view inverses (functionalization writes through them) and expand_as.
TEST(ShapeTorchDiff, ViewScattersAndExpandAs) {
  std::vector<Case> cases;
  for (Layout layout : all_layouts) {
    const Value x = T(f32, {4, 5}, layout);
    cases.push_back({"aten::slice_scatter", "", {x, T(f32, {2, 5}, Layout::contiguous, Fill::standard, 3), I(0), I(1), I(4), I(2)}});
    cases.push_back({"aten::slice_scatter", "", {x, T(f32, {4, 5}, Layout::contiguous, Fill::standard, 3), I(1), None(), None(), I(1)}});
    cases.push_back({"aten::select_scatter", "", {x, T(f32, {4}, Layout::contiguous, Fill::standard, 3), I(1), I(-2)}});
    cases.push_back({"aten::diagonal_scatter", "", {x, T(f32, {3}, Layout::contiguous, Fill::standard, 3), I(1), I(0), I(1)}});
    cases.push_back({"aten::as_strided_scatter", "", {x, T(f32, {2, 2}, Layout::contiguous, Fill::standard, 3), L({2, 2}), L({5, 2}), I(1)}});
    cases.push_back({"aten::expand_as", "", {T(f32, {1, 5}, layout), x}});
  }
  cases.push_back({"aten::select_scatter", "", {T(i64, {3, 2}), T(i64, {2}), I(0), I(3)}});          // both throw: index
  cases.push_back({"aten::slice_scatter", "", {T(f32, {4}), T(f32, {3}), I(0), I(0), I(2), I(1)}});  // both throw: src size
  cases.push_back({"aten::diagonal_scatter", "", {T(f64, {2, 3, 3}), T(f64, {2, 3}), I(0), I(1), I(2)}});
  check_all(cases);
}
