// The view operators and copies of include/kernels/ops_views.hpp, called
// through the dispatcher: geometry (sizes, strides, storage offset), aliasing
// (a write through the view reaches the base), the shared version counter,
// is_view()/_base(), PyTorch's error messages, Meta and PrivateUse1 tensors,
// and boxed calls by ATen's names.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <functional>
#include <optional>
#include <numeric>
#include <string>
#include <vector>

#include <dispatch/core/allocator.hpp>
#include <kernels/ops_arithmetic.hpp>
#include "all_kernels.hpp"
#include "error_of.hpp"
#include <kernels/ops_complex.hpp>
#include <kernels/ops_views.hpp>

namespace {
using opd::Device;
using opd::MemoryFormat;
using opd::ScalarType;
using opd::Tensor;
namespace ops = opd::kernels::ops;
using V = std::vector<int64_t>;

// 0, 1, ..., n-1 as floats, shaped.
Tensor iota(const V& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<float> values(static_cast<std::size_t>(n));
  std::iota(values.begin(), values.end(), 0.f);
  return opd::from_vector<float>(values, sizes);
}

V vec(opd::IntArrayRef r) { return V(r.begin(), r.end()); }

using opd_test::error_of;

// A PrivateUse1 device over host memory (for these tests only).
class HostAllocator final : public opd::Allocator {
 public:
  opd::DataPtr allocate(std::size_t nbytes, Device device) override {
    if (nbytes == 0) return opd::DataPtr(nullptr, nullptr, nullptr, device);
    void* p = ::operator new(nbytes);
    return opd::DataPtr(p, p, &release, device);
  }
  static void release(void* p) noexcept { ::operator delete(p); }
};

struct ScopedPrivateUse1Allocator {
  HostAllocator allocator;
  opd::Allocator* previous = opd::set_allocator(opd::DeviceType::PrivateUse1, &allocator);
  ~ScopedPrivateUse1Allocator() { opd::set_allocator(opd::DeviceType::PrivateUse1, previous); }
};

class Views : public ::testing::Test {
 protected:
  opd::RegistrationSet kernels = opd_test::register_all_kernels();
};

// What every view must be: same storage and version counter, is_view, the
// base, and a write through it reaching the base at `offset` + the view's strides.
void expect_view_of(const Tensor& view, const Tensor& base) {
  EXPECT_TRUE(view.is_view());
  EXPECT_TRUE(view.is_alias_of(base));
  EXPECT_TRUE(view._base().is_same(base._base().defined() ? base._base() : base));
  const uint32_t before = base.version();
  view.bump_version();
  EXPECT_EQ(base.version(), before + 1);
}

struct Case {
  const char* name;
  V in_sizes;
  std::function<Tensor(const Tensor&)> make;
  V sizes, strides;
  int64_t offset;
};

TEST_F(Views, GeometryAliasingVersionAndBase) {
  const std::vector<Case> cases = {
      {"view", {2, 6}, [](const Tensor& x) { return opd::call<ops::view>(x, V{3, -1}); }, {3, 4}, {4, 1}, 0},
      {"reshape (view)", {2, 6}, [](const Tensor& x) { return opd::call<ops::reshape>(x, V{4, 3}); }, {4, 3}, {3, 1}, 0},
      {"transpose.int", {2, 3, 4}, [](const Tensor& x) { return opd::call<ops::transpose>(x, 0, -1); }, {4, 3, 2}, {1, 4, 12}, 0},
      {"t", {2, 3}, [](const Tensor& x) { return opd::call<ops::t>(x); }, {3, 2}, {1, 3}, 0},
      {"permute", {2, 3, 4}, [](const Tensor& x) { return opd::call<ops::permute>(x, V{1, 2, 0}); }, {3, 4, 2}, {4, 1, 12}, 0},
      {"slice.Tensor", {4, 5}, [](const Tensor& x) { return opd::call<ops::slice>(x, 1, 1, -1, 2); }, {4, 2}, {5, 2}, 1},
      {"slice.Tensor clamps", {4, 5}, [](const Tensor& x) { return opd::call<ops::slice>(x, 0, -100, 100, 3); }, {2, 5}, {15, 1}, 0},
      {"select.int", {3, 4}, [](const Tensor& x) { return opd::call<ops::select>(x, 1, -1); }, {3}, {4}, 3},
      {"narrow", {3, 4}, [](const Tensor& x) { return opd::call<ops::narrow>(x, 0, 1, 2); }, {2, 4}, {4, 1}, 4},
      {"diagonal", {3, 4}, [](const Tensor& x) { return opd::call<ops::diagonal>(x, 1, 0, 1); }, {3}, {5}, 1},
      {"diagonal below", {3, 4}, [](const Tensor& x) { return opd::call<ops::diagonal>(x, -1, 0, 1); }, {2}, {5}, 4},
      {"unsqueeze", {2, 3}, [](const Tensor& x) { return opd::call<ops::unsqueeze>(x, 1); }, {2, 1, 3}, {3, 3, 1}, 0},
      {"unsqueeze last", {2, 3}, [](const Tensor& x) { return opd::call<ops::unsqueeze>(x, -1); }, {2, 3, 1}, {3, 1, 1}, 0},
      {"squeeze", {1, 3, 1}, [](const Tensor& x) { return opd::call<ops::squeeze>(x); }, {3}, {1}, 0},
      {"squeeze.dim", {1, 3, 1}, [](const Tensor& x) { return opd::call<ops::squeeze_dim>(x, 2); }, {1, 3}, {3, 1}, 0},
      {"squeeze.dim not 1", {1, 3, 1}, [](const Tensor& x) { return opd::call<ops::squeeze_dim>(x, 1); }, {1, 3, 1}, {3, 1, 1}, 0},
      {"expand", {3, 1}, [](const Tensor& x) { return opd::call<ops::expand>(x, V{2, 3, 4}); }, {2, 3, 4}, {0, 1, 0}, 0},
      {"expand -1", {3, 1}, [](const Tensor& x) { return opd::call<ops::expand>(x, V{-1, 5}); }, {3, 5}, {1, 0}, 0},
      {"expand_as", {1, 3}, [](const Tensor& x) { return opd::call<ops::expand_as>(x, iota({2, 3})); }, {2, 3}, {0, 1}, 0},
      {"as_strided", {10}, [](const Tensor& x) { return opd::call<ops::as_strided>(x, V{2, 2}, V{1, 2}, 3); }, {2, 2}, {1, 2}, 3},
      {"alias", {2, 3}, [](const Tensor& x) { return opd::call<ops::alias>(x); }, {2, 3}, {3, 1}, 0},
      {"unfold", {2, 7}, [](const Tensor& x) { return opd::call<ops::unfold>(x, 1, 3, 2); }, {2, 3, 3}, {7, 2, 1}, 0},
      {"flatten.using_ints", {2, 3, 4}, [](const Tensor& x) { return opd::call<ops::flatten>(x, 1, 2); }, {2, 12}, {12, 1}, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Tensor base = iota(c.in_sizes);
    const Tensor v = c.make(base);
    EXPECT_EQ(vec(v.sizes()), c.sizes);
    EXPECT_EQ(vec(v.strides()), c.strides);
    EXPECT_EQ(v.storage_offset(), c.offset);
    expect_view_of(v, base);
    // A write through the view lands where sizes/strides/offset say.
    if (v.numel() > 0) {
      Tensor w = v;
      opd::call<ops::fill_>(w, -1);
      std::vector<float> expected = opd::to_vector<float>(iota(c.in_sizes));
      opd::detail::for_each_element_offset(v.sizes(), v.strides(),
                                           [&](int64_t off) { expected[static_cast<std::size_t>(c.offset + off)] = -1.f; });
      EXPECT_EQ(opd::to_vector<float>(base), expected);
    }
  }
}

TEST_F(Views, AViewOfAViewHasTheFirstBase) {
  const Tensor base = iota({2, 3});
  const Tensor v1 = opd::call<ops::t>(base);
  const Tensor v2 = opd::call<ops::select>(v1, 0, 1);
  EXPECT_TRUE(v1._base().is_same(base));
  EXPECT_TRUE(v2._base().is_same(base));
  EXPECT_FALSE(base.is_view());
  EXPECT_FALSE(base._base().defined());
}

TEST_F(Views, SplitChunkUnbindReturnViews) {
  const Tensor base = iota({7, 2});
  const std::vector<Tensor> parts = opd::call<ops::split>(base, 3, 0);
  ASSERT_EQ(parts.size(), 3u);
  const V expected_rows{3, 3, 1};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    EXPECT_EQ(vec(parts[i].sizes()), (V{expected_rows[i], 2}));
    EXPECT_EQ(parts[i].storage_offset(), static_cast<int64_t>(6 * i));
    expect_view_of(parts[i], base);
  }
  const std::vector<Tensor> sized = opd::call<ops::split_with_sizes>(base, V{1, 6}, 0);
  ASSERT_EQ(sized.size(), 2u);
  EXPECT_EQ(vec(sized[1].sizes()), (V{6, 2}));
  EXPECT_EQ(sized[1].storage_offset(), 2);
  const std::vector<Tensor> chunks = opd::call<ops::chunk>(base, 3, 0);  // ceil(7/3) = 3 rows each
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(chunks[2].size(0), 1);
  const std::vector<Tensor> cols = opd::call<ops::unbind>(base, 1);
  ASSERT_EQ(cols.size(), 2u);
  EXPECT_EQ(vec(cols[1].sizes()), (V{7}));
  EXPECT_EQ(vec(cols[1].strides()), (V{2}));
  EXPECT_EQ(opd::to_vector<float>(cols[1]), (std::vector<float>{1, 3, 5, 7, 9, 11, 13}));
  // 0 elements in 3 chunks: three empty pieces (split would give one).
  const std::vector<Tensor> empty_chunks = opd::call<ops::chunk>(iota({0, 2}), 3, 0);
  EXPECT_EQ(empty_chunks.size(), 3u);
  EXPECT_EQ(opd::call<ops::split>(iota({0, 2}), 0, 0).size(), 1u);
}

TEST_F(Views, DetachAndUnsafeViewShareStorageButAreNoViews) {
  const Tensor base = iota({2, 3});
  for (const Tensor& a : {opd::call<ops::detach>(base), opd::call<ops::unsafe_view>(base, V{6})}) {
    EXPECT_FALSE(a.is_view());
    EXPECT_FALSE(a._base().defined());
    EXPECT_TRUE(a.is_alias_of(base));
    const uint32_t before = base.version();
    a.bump_version();
    EXPECT_EQ(base.version(), before + 1);
  }
}

TEST_F(Views, ReshapeCopiesWhenStridesDoNotAllowAView) {
  const Tensor base = iota({2, 3});
  const Tensor tr = opd::call<ops::t>(base);  // 3x2, strides (1, 3)
  const Tensor r = opd::call<ops::reshape>(tr, V{6});
  EXPECT_FALSE(r.is_alias_of(base));
  EXPECT_FALSE(r.is_view());
  EXPECT_TRUE(r.is_contiguous());
  EXPECT_EQ(opd::to_vector<float>(r), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(error_of([&] { (void)opd::call<ops::view>(tr, V{6}); }),
            "aten::view: view size is not compatible with input tensor's size and stride (at least one dimension spans "
            "across two contiguous subspaces). Use .reshape(...) instead.");
  // flatten of the transposed tensor copies too; of the contiguous one it is a view.
  EXPECT_FALSE(opd::call<ops::flatten>(tr, 0, -1).is_alias_of(base));
  EXPECT_TRUE(opd::call<ops::flatten>(base, 0, -1).is_view());
  // start_dim == end_dim: the input itself, as ATen.
  EXPECT_TRUE(opd::call<ops::flatten>(base, 1, 1).is_same(base));
}

TEST_F(Views, ErrorsReadLikePyTorchsAndNameTheOperator) {
  const Tensor x = iota({2, 3});
  const Tensor s0 = iota({});
  struct E {
    std::function<void()> call;
    std::string message;
  };
  const std::vector<E> errors = {
      {[&] { (void)opd::call<ops::transpose>(x, 0, 5); },
       "aten::transpose.int: Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {[&] { (void)opd::call<ops::view>(x, V{4, -1}); }, "aten::view: shape '[4, -1]' is invalid for input of size 6"},
      {[&] { (void)opd::call<ops::view>(x, V{-1, -1}); }, "aten::view: only one dimension can be inferred"},
      {[&] { (void)opd::call<ops::view>(x, V{-2, 3}); }, "aten::view: invalid shape dimension -2"},
      {[&] { (void)opd::call<ops::split>(x, 0, 1); },
       "aten::split.Tensor: split_size can only be 0 if dimension size is 0, but got dimension size of 3"},
      {[&] { (void)opd::call<ops::split>(x, -1, 1); },
       "aten::split.Tensor: split expects split_size be non-negative, but got split_size=-1"},
      {[&] { (void)opd::call<ops::split_with_sizes>(x, V{1, 1}, 1); },
       "aten::split_with_sizes: split_with_sizes expects split_sizes to sum exactly to 3 (input tensor's size at "
       "dimension 1), but got split_sizes=[1, 1]"},
      {[&] { (void)opd::call<ops::chunk>(x, 0, 0); },
       "aten::chunk: chunk expects `chunks` to be greater than 0, got: 0"},
      {[&] { (void)opd::call<ops::select>(x, 0, 2); },
       "aten::select.int: select(): index 2 out of range for tensor of size [2, 3] at dimension 0"},
      {[&] { (void)opd::call<ops::select>(s0, 0, 0); }, "aten::select.int: select() cannot be applied to a 0-dim tensor."},
      {[&] { (void)opd::call<ops::narrow>(x, 1, 2, 2); },
       "aten::narrow: start (2) + length (2) exceeds dimension size (3)."},
      {[&] { (void)opd::call<ops::narrow>(x, 1, 4, 0); },
       "aten::narrow: start out of range (expected to be in range of [-3, 3], but got 4)"},
      {[&] { (void)opd::call<ops::t>(iota({2, 2, 2})); },
       "aten::t: t() expects a tensor with <= 2 dimensions, but self is 3D"},
      {[&] { (void)opd::call<ops::permute>(x, V{0, 0}); }, "aten::permute: permute(): duplicate dims are not allowed."},
      {[&] { (void)opd::call<ops::diagonal>(x, 0, 1, -1); }, "aten::diagonal: diagonal dimensions cannot be identical 1, -1"},
      {[&] { (void)opd::call<ops::expand>(x, V{3}); },
       "aten::expand: the number of sizes provided (1) must be greater or equal to the number of dimensions in the "
       "tensor (2)"},
      {[&] { (void)opd::call<ops::expand>(x, V{2, 4}); },
       "aten::expand: The expanded size of the tensor (4) must match the existing size (3) at non-singleton "
       "dimension 1.  Target sizes: [2, 4].  Tensor sizes: [2, 3]"},
      {[&] { (void)opd::call<ops::expand>(x, V{-1, 2, 3}); },
       "aten::expand: The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0"},
      {[&] { (void)opd::call<ops::unfold>(x, 1, 4, 1); },
       "aten::unfold: maximum size for tensor at dimension 1 is 3 but size is 4"},
      {[&] { (void)opd::call<ops::unfold>(x, 1, 2, 0); }, "aten::unfold: step is 0 but must be > 0"},
      {[&] { (void)opd::call<ops::slice>(x, 0, 0, 1, 0); }, "aten::slice.Tensor: slice step must be positive"},
      {[&] { (void)opd::call<ops::flatten>(x, 1, 0); },
       "aten::flatten.using_ints: flatten() has invalid args: start_dim cannot come after end_dim"},
      {[&] { (void)opd::call<ops::unbind>(s0, 0); },
       "aten::unbind.int: Dimension specified as 0 but tensor has no dimensions"},
      {[&] { (void)opd::call<ops::as_strided>(x, V{2, 2}, V{1}, std::nullopt); },
       "aten::as_strided: mismatch in length of strides and shape"},
      {[&] { (void)opd::call<ops::as_strided>(x, V{4}, V{2}, std::nullopt); },
       "aten::as_strided: setStorage: sizes [4], strides [2], storage offset 0, and itemsize 4 requiring a storage "
       "size of 28 are out of bounds for storage of size 24"},
      {[&] { (void)opd::call<ops::contiguous>(x, MemoryFormat::Preserve); },
       "aten::contiguous: preserve memory format is unsupported by the contiguous operator"},
  };
  for (const E& e : errors) {
    const std::vector<float> before = opd::to_vector<float>(x);
    const uint32_t version = x.version();
    EXPECT_EQ(error_of(e.call), e.message);
    // A failed operation leaves its input as it was.
    EXPECT_EQ(opd::to_vector<float>(x), before);
    EXPECT_EQ(x.version(), version);
    EXPECT_EQ(vec(x.sizes()), (V{2, 3}));
  }
  // Dimension and index errors are IndexErrors, as PyTorch's IndexError.
  EXPECT_THROW((void)opd::call<ops::transpose>(x, 0, 5), opd::IndexError);
  EXPECT_THROW((void)opd::call<ops::select>(x, 0, 2), opd::IndexError);
}

TEST_F(Views, BoxedCallsByAtenName) {
  const Tensor x = iota({2, 3});
  opd::Stack stack;
  stack.emplace_back(x);
  stack.emplace_back(int64_t{0});
  stack.emplace_back(int64_t{1});
  opd::call_boxed("aten::transpose.int", stack);
  ASSERT_EQ(stack.size(), 1u);
  const Tensor r = stack[0].to_tensor();
  EXPECT_EQ(vec(r.sizes()), (V{3, 2}));
  EXPECT_EQ(vec(r.strides()), (V{1, 3}));
  EXPECT_TRUE(r._base().is_same(x));

  stack.clear();
  stack.emplace_back(x);
  stack.emplace_back(int64_t{2});
  stack.emplace_back(int64_t{1});
  opd::call_boxed("aten::split.Tensor", stack);
  ASSERT_EQ(stack.size(), 1u);
  const std::vector<Tensor>& parts = stack[0].to_tensor_list();
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(vec(parts[1].sizes()), (V{2, 1}));
  EXPECT_EQ(parts[1].storage_offset(), 2);

  stack.clear();
  stack.emplace_back(x);
  stack.emplace_back(int64_t{0});
  stack.emplace_back(int64_t{9});
  EXPECT_THROW(opd::call_boxed("aten::transpose.int", stack), opd::IndexError);
}

TEST_F(Views, MetaAndPrivateUse1TensorsReachTheViews) {
  const Tensor meta = opd::empty(V{2, 3}, ScalarType::Float, Device::meta());
  const Tensor mt = opd::call<ops::transpose>(meta, 0, 1);
  EXPECT_TRUE(mt.is_meta());
  EXPECT_EQ(vec(mt.strides()), (V{1, 3}));
  EXPECT_TRUE(mt._base().is_same(meta));
  const Tensor mc = opd::call<ops::contiguous>(mt, MemoryFormat::Contiguous);
  EXPECT_TRUE(mc.is_meta());
  EXPECT_EQ(vec(mc.strides()), (V{2, 1}));

  // A PrivateUse1 device over host memory, with no kernel of its own.
  {
    const ScopedPrivateUse1Allocator device;
    const Tensor p = opd::empty(V{2, 3}, ScalarType::Float, Device(opd::DeviceType::PrivateUse1));
    float* data = p.data_ptr<float>();
    for (int i = 0; i < 6; ++i) data[i] = static_cast<float>(i);
    const Tensor col = opd::call<ops::select>(p, 1, 2);
    EXPECT_EQ(col.device(), p.device());
    EXPECT_TRUE(col.key_set().has(opd::DispatchKey::PrivateUse1));
    EXPECT_EQ(col.data_ptr<float>()[col.stride(0)], 5.f);
    const std::vector<Tensor> rows = opd::call<ops::unbind>(p, 0);
    EXPECT_EQ(rows[1].data_ptr<float>()[0], 3.f);
    EXPECT_TRUE(rows[1]._base().is_same(p));
    // The CompositeImplicitAutograd ones too (reshape, narrow, flatten, chunk).
    const Tensor r = opd::call<ops::reshape>(p, V{3, 2});
    EXPECT_TRUE(r.is_view());
    EXPECT_EQ(r.device(), p.device());
    EXPECT_EQ(opd::call<ops::narrow>(p, 1, 1, 2).storage_offset(), 1);
    EXPECT_EQ(vec(opd::call<ops::flatten>(p, 0, -1).sizes()), (V{6}));
    EXPECT_EQ(opd::call<ops::chunk>(p, 2, 1).size(), 2u);
  }
}

TEST_F(Views, CloneContiguousAndMemoryFormats) {
  const Tensor base = iota({2, 3});
  const Tensor tr = opd::call<ops::t>(base);
  EXPECT_TRUE(opd::call<ops::contiguous>(base, MemoryFormat::Contiguous).is_same(base));
  const Tensor c = opd::call<ops::contiguous>(tr, MemoryFormat::Contiguous);
  EXPECT_FALSE(c.is_alias_of(base));
  EXPECT_EQ(vec(c.strides()), (V{2, 1}));
  EXPECT_EQ(opd::to_vector<float>(c), opd::to_vector<float>(tr));
  // clone keeps a dense input's strides under preserve_format (the default).
  const Tensor kept = opd::call<ops::clone>(tr, std::nullopt);
  EXPECT_EQ(vec(kept.strides()), (V{1, 3}));
  EXPECT_FALSE(kept.is_alias_of(base));
  EXPECT_EQ(opd::to_vector<float>(kept), opd::to_vector<float>(tr));
  // ... and gives a non-dense one contiguous strides.
  const Tensor every_other = opd::call<ops::slice>(iota({6}), 0, 0, std::nullopt, 2);
  EXPECT_EQ(vec(opd::call<ops::clone>(every_other, std::nullopt).strides()), (V{1}));
  const Tensor cl = opd::call<ops::clone>(iota({1, 2, 2, 3}), MemoryFormat::ChannelsLast);
  EXPECT_TRUE(cl.is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_EQ(opd::to_vector<float>(cl), opd::to_vector<float>(iota({1, 2, 2, 3})));
  EXPECT_EQ(error_of([&] { (void)opd::call<ops::clone>(base, MemoryFormat::ChannelsLast); }),
            "aten::clone: required rank 4 tensor to use ChannelsLast format, got a 2-d tensor");
}

TEST_F(Views, EmptyStridedToCopyAndTo) {
  const Tensor e = opd::call<ops::empty_strided>(V{2, 3}, V{1, 2}, opd::arg<"dtype"> = ScalarType::Double);
  EXPECT_EQ(vec(e.strides()), (V{1, 2}));
  EXPECT_EQ(e.dtype(), ScalarType::Double);
  const Tensor em = opd::call<ops::empty_strided>(V{2, 3}, V{1, 2}, opd::arg<"device"> = Device::meta());
  EXPECT_TRUE(em.is_meta());
  EXPECT_EQ(error_of([&] { (void)opd::call<ops::empty_strided>(V{2}, V{1, 1}); }),
            "aten::empty_strided: mismatch in length of strides and shape");

  const Tensor x = iota({2, 3});
  const Tensor d = opd::call<ops::to_copy>(x, opd::arg<"dtype"> = ScalarType::Long);
  EXPECT_EQ(d.dtype(), ScalarType::Long);
  EXPECT_EQ(opd::to_vector<int64_t>(d), (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
  // to: the input itself when nothing changes, a copy otherwise.
  EXPECT_TRUE(opd::call<ops::to_dtype>(x, ScalarType::Float).is_same(x));
  const Tensor forced = opd::call<ops::to_dtype>(x, ScalarType::Float, false, true);
  EXPECT_FALSE(forced.is_alias_of(x));
  EXPECT_EQ(opd::to_vector<float>(forced), opd::to_vector<float>(x));
  const Tensor h = opd::call<ops::to_dtype>(x, ScalarType::Double);
  EXPECT_EQ(h.dtype(), ScalarType::Double);
  EXPECT_EQ(opd::to_vector<double>(h), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  const Tensor like = opd::call<ops::to_other>(x, opd::from_vector<int32_t>({1}));
  EXPECT_EQ(like.dtype(), ScalarType::Int);
  EXPECT_TRUE(opd::call<ops::to_dtype_layout>(x, opd::arg<"device"> = Device::cpu()).is_same(x));
  EXPECT_EQ(opd::call<ops::to_dtype_layout>(x, opd::arg<"dtype"> = ScalarType::Bool).dtype(), ScalarType::Bool);
  EXPECT_TRUE(opd::call<ops::to_device>(x, Device::cpu(), ScalarType::Float).is_same(x));
  // A memory format that is already the suggested one changes nothing (ATen's
  // to_will_alias): a transposed matrix stays as it is, a channels-last
  // tensor asked for contiguous_format is copied.
  const Tensor xt = opd::call<ops::t>(x);
  EXPECT_TRUE(opd::call<ops::to_dtype>(xt, ScalarType::Float, false, false, MemoryFormat::Contiguous).is_same(xt));
  const Tensor nhwc = opd::call<ops::clone>(iota({1, 2, 2, 3}), MemoryFormat::ChannelsLast);
  const Tensor back = opd::call<ops::to_dtype>(nhwc, ScalarType::Float, false, false, MemoryFormat::Contiguous);
  EXPECT_FALSE(back.is_same(nhwc));
  EXPECT_TRUE(back.is_contiguous());
  EXPECT_EQ(opd::call<ops::to_device>(x, Device::cpu(), ScalarType::Half).dtype(), ScalarType::Half);
  EXPECT_EQ(error_of([&] { (void)opd::call<ops::to_copy>(x, opd::arg<"layout"> = opd::Layout::Sparse); }),
            "aten::_to_copy: only the strided layout is supported, got layout=Sparse");
  EXPECT_EQ(error_of([&] { (void)opd::call<ops::to_dtype_layout>(x, opd::arg<"pin_memory"> = true); }),
            "aten::to.dtype_layout: pin_memory=True is not supported (no pinned-memory allocator)");
  EXPECT_EQ(error_of([&] { (void)opd::call<ops::empty>(V{2}, opd::arg<"memory_format"> = MemoryFormat::Preserve); }),
            "aten::empty.memory_format: memory_format=preserve_format is not supported by empty (there is no input to "
            "preserve)");
}

TEST_F(Views, CopyAcrossDtypesAndTheCrossDeviceBranch) {
  Tensor dst = opd::call<ops::zeros>(V{3}, opd::arg<"dtype"> = ScalarType::Long);
  opd::call<ops::copy_>(dst, opd::from_vector<double>({1.5, -2.5, 3.0}));
  EXPECT_EQ(opd::to_vector<int64_t>(dst), (std::vector<int64_t>{1, -2, 3}));
  // Across devices, copy_ needs the device's _copy_from kernel (tests/fallback
  // covers the copies themselves); without one the error says so and the
  // destination keeps its values.
  {
    const ScopedPrivateUse1Allocator device;
    const Tensor cpu = iota({3});
    Tensor other = opd::empty(V{3}, ScalarType::Float, Device(opd::DeviceType::PrivateUse1));
    EXPECT_THROW((void)opd::kernels::copy_between_devices(other, cpu, false), opd::Error);
    EXPECT_NE(error_of([&] { (void)opd::kernels::copy_between_devices(other, cpu, false); }).find("has no copy kernel"),
              std::string::npos);
  }
}

}  // namespace

namespace {

// The views that change the dtype (kernels/ops_complex.hpp): a view of the
// same storage whose element counts are the new dtype's, and a write through
// it reaches the complex tensor.
TEST_F(Views, ViewAsRealAndViewAsComplexReinterpretTheStorage) {
  const Tensor f = iota({3, 2});  // 0..5: z = [0+1i, 2+3i, 4+5i]
  const Tensor z = opd::call<ops::view_as_complex>(f);
  EXPECT_EQ(z.dtype(), ScalarType::ComplexFloat);
  EXPECT_EQ(vec(z.sizes()), V({3}));
  EXPECT_EQ(vec(z.strides()), V({1}));
  expect_view_of(z, f);
  const std::vector<std::complex<float>> zs = opd::to_vector<std::complex<float>>(z);
  EXPECT_EQ(zs[1], std::complex<float>(2, 3));

  // A column of a transposed complex view: sizes S + [2], strides 2T + [1], offset 2o.
  const Tensor zz = opd::call<ops::view_as_complex>(iota({2, 3, 2}));
  const Tensor col = opd::call<ops::select>(opd::call<ops::transpose>(zz, 0, 1), 0, 1);  // zz[1, :]... offset 1
  const Tensor r = opd::call<ops::view_as_real>(col);
  EXPECT_EQ(r.dtype(), ScalarType::Float);
  EXPECT_EQ(vec(r.sizes()), V({2, 2}));
  EXPECT_EQ(vec(r.strides()), V({6, 1}));
  EXPECT_EQ(r.storage_offset(), 2);
  expect_view_of(r, zz);
  EXPECT_EQ(opd::to_vector<float>(r), (std::vector<float>{2, 3, 8, 9}));

  // real / imag are views: writing imag writes z's imaginary parts.
  Tensor im = opd::call<ops::imag>(z);
  expect_view_of(im, f);
  opd::call<ops::fill_>(im, opd::Scalar(-1.0));
  EXPECT_EQ(opd::to_vector<float>(f), (std::vector<float>{0, -1, 2, -1, 4, -1}));
  EXPECT_TRUE(opd::call<ops::real>(f).is_same(f));  // a real tensor's real part is itself

  // ATen's checks, named by the operator.
  EXPECT_EQ(error_of([&] { (void)opd::call<ops::view_as_complex>(iota({3})); }),
            "aten::view_as_complex: Tensor must have a last dimension of size 2");
  EXPECT_EQ(error_of([&] { (void)opd::call<ops::view_as_complex>(opd::call<ops::transpose>(iota({2, 2}), 0, 1)); }),
            "aten::view_as_complex: Tensor must have a last dimension with stride 1");
  EXPECT_EQ(error_of([&] { (void)opd::call<ops::view_as_complex>(opd::call<ops::slice>(iota({6}), 0, 1, 3, 1)); }),
            "aten::view_as_complex: Tensor must have a storage_offset divisible by 2");
  EXPECT_EQ(error_of([&] { (void)opd::call<ops::view_as_complex>(iota({3, 3}).as_strided(V{2, 2}, V{3, 1})); }),
            "aten::view_as_complex: Tensor must have a stride divisible by 2 for all but last dimension");
  EXPECT_EQ(error_of([&] { (void)opd::call<ops::view_as_real>(f); }),
            "aten::view_as_real: view_as_real is only supported for complex tensors");
  EXPECT_EQ(error_of([&] { (void)opd::call<ops::imag>(f); }),
            "aten::imag: imag is not implemented for tensors with non-complex dtypes.");

  // No conjugate bit: conj of a complex tensor is a fresh conjugate, of a real one the tensor.
  const Tensor c = opd::call<ops::conj>(z);
  EXPECT_FALSE(c.is_alias_of(z));
  EXPECT_EQ(opd::to_vector<std::complex<float>>(c)[2], std::complex<float>(4, 1));
  EXPECT_TRUE(opd::call<ops::conj>(f).is_same(f));
  EXPECT_FALSE(opd::call<ops::is_conj>(c));
  EXPECT_TRUE(opd::call<ops::is_complex>(z));
  EXPECT_FALSE(opd::call<ops::is_complex>(f));

  // Meta tensors take the same views.
  const Tensor m = opd::call<ops::view_as_real>(opd::empty(V{4, 3}, ScalarType::ComplexDouble, Device::meta()));
  EXPECT_EQ(m.dtype(), ScalarType::Double);
  EXPECT_EQ(vec(m.strides()), V({6, 2, 1}));
}

}  // namespace
