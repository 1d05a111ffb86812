// TensorImpl / Tensor: metadata, refcounting, views, resize_, factories,
// from_vector / to_vector, and rejection of bad shapes.
#include <gtest/gtest.h>

#include <atomic>
#include <complex>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core_test_support.hpp"
#include "dispatch/core/tensor.hpp"

using opd::Device;
using opd::DispatchKey;
using opd::DispatchKeySet;
using opd::ScalarType;
using opd::Tensor;

namespace {

using opd_core_test::error_of;
std::vector<int64_t> v(std::initializer_list<int64_t> xs) { return xs; }
}  // namespace

TEST(Tensor, EmptyHasContiguousMetadata) {
  Tensor t = opd::empty({2, 3, 4});
  EXPECT_TRUE(t.defined());
  EXPECT_EQ(t.sizes(), v({2, 3, 4}));
  EXPECT_EQ(t.strides(), v({12, 4, 1}));
  EXPECT_EQ(t.dim(), 3);
  EXPECT_EQ(t.numel(), 24);
  EXPECT_EQ(t.dtype(), ScalarType::Float);
  EXPECT_EQ(t.scalar_type(), ScalarType::Float);
  EXPECT_EQ(t.itemsize(), 4u);
  EXPECT_EQ(t.nbytes(), 96u);
  EXPECT_EQ(t.device(), Device::cpu());
  EXPECT_EQ(t.layout(), opd::Layout::Strided);
  EXPECT_EQ(t.key_set(), DispatchKeySet(DispatchKey::CPU));
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_FALSE(t.is_view());
  EXPECT_EQ(t.storage().nbytes(), 96u);
  EXPECT_EQ(t.storage_offset(), 0);
  EXPECT_EQ(t.version(), 0u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(t.data_ptr()) % 64, 0u);
  EXPECT_EQ(t.size(-1), 4);
  EXPECT_EQ(t.stride(0), 12);
  EXPECT_THROW((void)t.size(3), opd::IndexError);
  EXPECT_EQ(error_of([&] { (void)t.size(-4); }),
            "Dimension out of range (expected to be in range of [-3, 2], but got -4)");
}

TEST(Tensor, ZeroDimAndZeroSizedTensors) {
  Tensor scalar = opd::empty({}, ScalarType::Long);
  EXPECT_EQ(scalar.dim(), 0);
  EXPECT_EQ(scalar.numel(), 1);
  EXPECT_EQ(error_of([&] { (void)scalar.size(0); }), "dimension specified as 0 but tensor has no dimensions");
  EXPECT_TRUE(scalar.is_contiguous());
  Tensor none = opd::empty({3, 0, 2});
  EXPECT_EQ(none.numel(), 0);
  EXPECT_EQ(none.storage().nbytes(), 0u);
  EXPECT_TRUE(none.is_contiguous());
  EXPECT_TRUE(opd::to_vector<float>(none).empty());
}

TEST(Tensor, KeySetFollowsDevice) {
  Tensor meta = opd::empty({1000, 1000}, ScalarType::Double, Device::meta());
  EXPECT_EQ(meta.key_set(), DispatchKeySet(DispatchKey::Meta));
  EXPECT_EQ(meta.data_ptr(), nullptr);
  EXPECT_EQ(meta.storage().nbytes(), 8000000u);
  EXPECT_TRUE(meta.is_meta());
  // Extra keys (e.g. autograd when requires_grad is set) are added on the impl.
  Tensor t = opd::empty({1});
  t.unsafe_get_impl()->add_keys(DispatchKeySet{DispatchKey::AutogradCPU, DispatchKey::ADInplaceOrView});
  EXPECT_EQ(t.key_set().highest_priority_key(), DispatchKey::AutogradCPU);
  EXPECT_EQ(t.key_set().str(), "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU)");
}

TEST(Tensor, CopyBumpsRefcountMoveDoesNot) {
  Tensor a = opd::empty({2});
  EXPECT_EQ(a.use_count(), 1u);
  {
    Tensor b = a;
    EXPECT_EQ(a.use_count(), 2u);
    EXPECT_TRUE(b.is_same(a));
    Tensor c = std::move(b);
    EXPECT_EQ(a.use_count(), 2u);
    EXPECT_FALSE(b.defined());  // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(b.use_count(), 0u);
    Tensor d;
    d = std::move(c);
    EXPECT_EQ(a.use_count(), 2u);
  }
  EXPECT_EQ(a.use_count(), 1u);
  EXPECT_FALSE(a.is_same(opd::empty({2})));
}

TEST(ConcurrencyTensor, RefcountIsAtomicAcrossThreads) {
  Tensor t = opd::empty({1});
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&t] {
      for (int k = 0; k < 20000; ++k) {
        Tensor copy = t;
        (void)copy;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(t.use_count(), 1u);
}

TEST(Tensor, UndefinedTensorIsANullHandle) {
  Tensor u;
  EXPECT_FALSE(u.defined());
  EXPECT_EQ(u.use_count(), 0u);
  EXPECT_EQ(u.unsafe_get_impl(), nullptr);
  EXPECT_EQ(error_of([&] { (void)u.sizes(); }), "operation on an undefined Tensor");
  EXPECT_THROW((void)u.data_ptr(), opd::Error);
  std::ostringstream os;
  os << u;
  EXPECT_EQ(os.str(), "Tensor(undefined)");
}

// docs/dispatcher.md's OPD_CHECK example: message parts are streamed into
// the message, each macro throws its opd::Error kind.
std::string my_relu_error(const Tensor& self) {
  try {
    OPD_CHECK(self.dim() <= 4, "my_relu: expected at most 4 dimensions, got ", self.dim(), " (sizes ", self.sizes(),
              ")");
    OPD_CHECK_TYPE(self.dtype() == ScalarType::Float, "my_relu: expected Float, got ", self.dtype());
    OPD_CHECK_INDEX(self.numel() > 0, "my_relu: empty input");
    OPD_CHECK(self.is_contiguous());
  } catch (const opd::TypeError& e) {
    return std::string("TypeError: ") + e.what();
  } catch (const opd::IndexError& e) {
    return std::string("IndexError: ") + e.what();
  } catch (const opd::Error& e) {
    return std::string("Error: ") + e.what();
  }
  return "ok";
}

TEST(Error, CheckMessageParts) {
  EXPECT_EQ(my_relu_error(opd::empty({1, 1, 1, 1, 2})),
            "Error: my_relu: expected at most 4 dimensions, got 5 (sizes [1, 1, 1, 1, 2])");
  EXPECT_EQ(my_relu_error(opd::empty({2}, ScalarType::Long)), "TypeError: my_relu: expected Float, got Long");
  EXPECT_EQ(my_relu_error(opd::empty({0})), "IndexError: my_relu: empty input");
  EXPECT_EQ(my_relu_error(opd::empty({2, 2}).as_strided({2, 2}, {1, 2})), "Error: Check failed: self.is_contiguous()");
  EXPECT_EQ(my_relu_error(opd::empty({2})), "ok");
  try {
    OPD_CHECK_WITH(opd::NotImplementedError, false, "parts ", 1, ' ', ScalarType::Half);
    FAIL();
  } catch (const opd::NotImplementedError& e) {
    EXPECT_STREQ(e.what(), "parts 1 Half");
  }
  EXPECT_THROW(opd::check(false, "x"), opd::Error);
}

// The run-time code's messages: one call over string pieces, the error type
// chosen by throw_concat's argument.
TEST(Error, ConcatJoinsPiecesAndThrowConcatThrowsTheNamedType) {
  const std::string name = "myops::f";
  EXPECT_EQ(opd::detail::concat({}), "");
  EXPECT_EQ(opd::detail::concat({"operator '", name, "': return ", std::to_string(2), ""}),
            "operator 'myops::f': return 2");
  try {
    opd::detail::throw_concat<opd::NotImplementedError>({"no kernel for ", std::string_view("CPU")});
    FAIL();
  } catch (const opd::NotImplementedError& e) {
    EXPECT_STREQ(e.what(), "no kernel for CPU");
  }
  EXPECT_THROW(opd::detail::throw_concat({"x"}), opd::Error);
}

TEST(Tensor, PrintingSummary) {
  std::ostringstream os;
  opd::print_tensor_summary(os, opd::empty({2, 3})) << " ";
  opd::print_tensor_summary(os, opd::empty({}, ScalarType::Bool, Device::meta()));
  EXPECT_EQ(os.str(), "Tensor(sizes=[2, 3], dtype=Float, device=cpu) Tensor(sizes=[], dtype=Bool, device=meta)");
}

std::string printed(const Tensor& t) {
  std::ostringstream os;
  os << t;
  return os.str();
}

template <class T>
Tensor arange(int64_t n, T start = T(0)) {
  std::vector<T> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<T>(start + static_cast<T>(i));
  return opd::from_vector<T>(v);
}

// What print(t) shows in PyTorch (torch/_tensor_str.py, default options), for
// the tensor built by the Python expression in each comment.
TEST(Tensor, PrintingAsPyTorch) {
  // torch.tensor([[1., 2., 3.], [4., 5., 6.]])
  EXPECT_EQ(printed(opd::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3})),
            "tensor([[1., 2., 3.],\n"
            "        [4., 5., 6.]])");
  // torch.tensor([0.1, 2.5, -3.])
  EXPECT_EQ(printed(opd::from_vector<float>({0.1f, 2.5f, -3.f})), "tensor([ 0.1000,  2.5000, -3.0000])");
  // torch.arange(8).reshape(2, 2, 2)
  EXPECT_EQ(printed(arange<int64_t>(8).as_strided({2, 2, 2}, {4, 2, 1})),
            "tensor([[[0, 1],\n"
            "         [2, 3]],\n"
            "\n"
            "        [[4, 5],\n"
            "         [6, 7]]])");
  // torch.arange(2000, dtype=torch.int32): more than 1000 elements, 3 edge items
  EXPECT_EQ(printed(arange<int32_t>(2000)), "tensor([   0,    1,    2,  ..., 1997, 1998, 1999], dtype=torch.int32)");
  // torch.arange(2000.).reshape(40, 50): integral floats 1999x apart, scientific
  EXPECT_EQ(printed(arange<float>(2000).as_strided({40, 50}, {50, 1})),
            "tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 4.7000e+01, 4.8000e+01,\n"
            "         4.9000e+01],\n"
            "        [5.0000e+01, 5.1000e+01, 5.2000e+01,  ..., 9.7000e+01, 9.8000e+01,\n"
            "         9.9000e+01],\n"
            "        [1.0000e+02, 1.0100e+02, 1.0200e+02,  ..., 1.4700e+02, 1.4800e+02,\n"
            "         1.4900e+02],\n"
            "        ...,\n"
            "        [1.8500e+03, 1.8510e+03, 1.8520e+03,  ..., 1.8970e+03, 1.8980e+03,\n"
            "         1.8990e+03],\n"
            "        [1.9000e+03, 1.9010e+03, 1.9020e+03,  ..., 1.9470e+03, 1.9480e+03,\n"
            "         1.9490e+03],\n"
            "        [1.9500e+03, 1.9510e+03, 1.9520e+03,  ..., 1.9970e+03, 1.9980e+03,\n"
            "         1.9990e+03]])");
  // torch.arange(0.5, 30.): 8 elements of width 7 per 80-column line
  EXPECT_EQ(printed(arange<float>(30, 0.5f)),
            "tensor([ 0.5000,  1.5000,  2.5000,  3.5000,  4.5000,  5.5000,  6.5000,  7.5000,\n"
            "         8.5000,  9.5000, 10.5000, 11.5000, 12.5000, 13.5000, 14.5000, 15.5000,\n"
            "        16.5000, 17.5000, 18.5000, 19.5000, 20.5000, 21.5000, 22.5000, 23.5000,\n"
            "        24.5000, 25.5000, 26.5000, 27.5000, 28.5000, 29.5000])");
  // torch.tensor([1e-5, 1., 100.], dtype=torch.float64)
  EXPECT_EQ(printed(opd::from_vector<double>({1e-5, 1, 100})),
            "tensor([1.0000e-05, 1.0000e+00, 1.0000e+02], dtype=torch.float64)");
  // torch.tensor([True, False]); torch.tensor(3.5); torch.tensor([0., -0.]); torch.tensor([float('nan'), 1.])
  EXPECT_EQ(printed(opd::from_vector<bool>({true, false})), "tensor([ True, False])");
  EXPECT_EQ(printed(opd::from_vector<float>({3.5f}, {})), "tensor(3.5000)");
  EXPECT_EQ(printed(opd::from_vector<float>({0.f, -0.f})), "tensor([0., -0.])");
  EXPECT_EQ(printed(opd::from_vector<float>({std::numeric_limits<float>::quiet_NaN(), 1.f})), "tensor([nan, 1.])");
  // torch.tensor([1+2j, -3-0.5j]): real and imaginary parts formatted apart
  EXPECT_EQ(printed(opd::from_vector<std::complex<float>>({{1, 2}, {-3, -0.5f}})), "tensor([ 1.+2.0000j, -3.-0.5000j])");
  // torch.empty(0, 3, dtype=torch.long); torch.empty(0); torch.empty(2, 3, device='meta')
  EXPECT_EQ(printed(opd::empty({0, 3}, ScalarType::Long)), "tensor([], size=(0, 3), dtype=torch.int64)");
  EXPECT_EQ(printed(opd::empty({0})), "tensor([])");
  EXPECT_EQ(printed(opd::empty({2, 3}, ScalarType::Float, Device::meta())), "tensor(..., device='meta', size=(2, 3))");
  EXPECT_EQ(printed(opd::empty({}, ScalarType::Bool, Device::meta())),
            "tensor(..., device='meta', size=(), dtype=torch.bool)");
  // A strided view prints its own elements: the transpose of the first one.
  EXPECT_EQ(printed(opd::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3}).as_strided({3, 2}, {1, 3})),
            "tensor([[1., 4.],\n"
            "        [2., 5.],\n"
            "        [3., 6.]])");
  // torch.arange(1., 21., dtype=torch.float64): the suffix fits after the last line
  EXPECT_EQ(printed(arange<double>(20, 1.0)),
            "tensor([ 1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13., 14.,\n"
            "        15., 16., 17., 18., 19., 20.], dtype=torch.float64)");
  // torch.arange(1., 15., dtype=torch.float64): it would pass 80 columns, so it
  // goes to a new line, indented under "tensor("
  EXPECT_EQ(printed(arange<double>(14, 1.0)),
            "tensor([ 1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13., 14.],\n"
            "       dtype=torch.float64)");
}

TEST(Tensor, AsStridedViewSharesStorageAndVersionCounter) {
  Tensor base = opd::from_vector<float>({0, 1, 2, 3, 4, 5}, {2, 3});
  Tensor view = base.as_strided({3, 2}, {1, 3});  // the transpose
  EXPECT_TRUE(view.is_view());
  EXPECT_TRUE(view.storage().is_same(base.storage()));
  EXPECT_TRUE(view.is_alias_of(base));
  EXPECT_FALSE(view.is_same(base));
  EXPECT_EQ(base.storage().use_count(), 2u);
  EXPECT_FALSE(view.is_contiguous());
  EXPECT_EQ(view.key_set(), base.key_set());
  EXPECT_EQ(view.dtype(), ScalarType::Float);

  // One shared counter: bumping through either is seen by both.
  view.bump_version();
  EXPECT_EQ(base.version(), 1u);
  base.bump_version();
  EXPECT_EQ(view.version(), 2u);
  EXPECT_EQ(view.unsafe_get_impl()->version_counter(), base.unsafe_get_impl()->version_counter());
  // A fresh tensor has its own counter.
  EXPECT_EQ(opd::empty({1}).version(), 0u);

  // Writes through the view land in the base.
  view.data_ptr<float>()[0 * 1 + 1 * 3] = 42.0f;  // view[0][1] is base[1][0]
  EXPECT_EQ(opd::to_vector<float>(base), (std::vector<float>{0, 1, 2, 42, 4, 5}));

  // A view of a view keeps the same storage and counter.
  Tensor row = view.as_strided({2}, {3}, 1);
  EXPECT_EQ(row.storage_offset(), 1);
  EXPECT_EQ(opd::to_vector<float>(row), (std::vector<float>{1, 4}));
  row.bump_version();
  EXPECT_EQ(base.version(), 3u);
  // alias(): same metadata, shared everything.
  Tensor alias = base.alias();
  EXPECT_EQ(alias.sizes(), base.sizes());
  EXPECT_EQ(alias.data_ptr(), base.data_ptr());
}

TEST(Tensor, AsStridedRejectsOutOfBoundsAndNegativeStrides) {
  Tensor t = opd::empty({6});
  EXPECT_EQ(error_of([&] { (void)t.as_strided({2, 4}, {4, 1}); }),
            "setStorage: sizes [2, 4], strides [4, 1], storage offset 0, and itemsize 4 requiring a storage size of 32 "
            "are out of bounds for storage of size 24");
  EXPECT_THROW((void)t.as_strided({2}, {1}, 5), opd::Error);
  EXPECT_NO_THROW((void)t.as_strided({1}, {1}, 5));
  EXPECT_THROW((void)t.as_strided({2}, {-1}), opd::Error);
  EXPECT_THROW((void)t.as_strided({2, 2}, {1}), opd::Error);
  EXPECT_THROW((void)t.as_strided({-1}, {1}), opd::Error);
  EXPECT_THROW((void)t.as_strided({1}, {1}, -1), opd::Error);
  // Huge strides overflow the storage computation instead of wrapping.
  EXPECT_THROW((void)t.as_strided({3, 3}, {std::numeric_limits<int64_t>::max() / 2, 1}), opd::Error);
  // An empty view never touches the storage, whatever its strides.
  EXPECT_NO_THROW((void)t.as_strided({0, 5}, {1000, 1000}, 6));
  // ... even where its extent would overflow before the zero size is seen.
  EXPECT_NO_THROW((void)t.as_strided({4, 0}, {std::numeric_limits<int64_t>::max() / 2, 1}));
  // A wrong geometry leaves the tensor as it was.
  Tensor u = opd::empty({6});
  EXPECT_THROW(u.unsafe_get_impl()->set_sizes_and_strides(v({2, 4}), v({4, 1}), 0), opd::Error);
  EXPECT_EQ(u.sizes(), v({6}));
  EXPECT_EQ(u.numel(), 6);
}

TEST(Tensor, ResizeGrowsStoragePreservingData) {
  Tensor t = opd::from_vector<int32_t>({1, 2, 3, 4}, {2, 2});
  Tensor view = t.as_strided({4}, {1});
  const void* old_data = t.data_ptr();
  t.resize_({4, 8});
  EXPECT_EQ(t.sizes(), v({4, 8}));
  EXPECT_EQ(t.strides(), v({8, 1}));
  EXPECT_EQ(t.numel(), 32);
  EXPECT_GE(t.storage().nbytes(), 32 * sizeof(int32_t));
  EXPECT_NE(t.data_ptr(), old_data);
  const int32_t* p = t.data_ptr<int32_t>();
  EXPECT_EQ(p[0], 1);
  EXPECT_EQ(p[3], 4);
  // The view shares the grown storage and still reads the old values.
  EXPECT_EQ(view.data_ptr(), t.data_ptr());
  EXPECT_EQ(opd::to_vector<int32_t>(view), (std::vector<int32_t>{1, 2, 3, 4}));

  // Shrinking keeps the storage; same sizes is a no-op.
  const std::size_t cap = t.storage().nbytes();
  t.resize_({3});
  EXPECT_EQ(t.storage().nbytes(), cap);
  EXPECT_EQ(opd::to_vector<int32_t>(t), (std::vector<int32_t>{1, 2, 3}));
  Tensor strided = opd::empty_strided({2, 2}, {1, 2});
  strided.resize_({2, 2});
  EXPECT_EQ(strided.strides(), v({1, 2}));

  // A view with an offset needs offset + numel elements.
  Tensor small = opd::empty({4}, ScalarType::Byte);
  Tensor tail = small.as_strided({2}, {1}, 2);
  tail.resize_({10});
  EXPECT_EQ(small.storage().nbytes(), 12u);
  EXPECT_THROW(t.resize_({-1}), opd::Error);
}

TEST(Tensor, ResizeOfNonResizableStorageThrows) {
  static float buffer[4] = {};
  Tensor t = opd::from_blob(buffer, {4}, {1}, ScalarType::Float);
  EXPECT_EQ(t.data_ptr(), buffer);
  EXPECT_NO_THROW(t.resize_({2, 2}));
  EXPECT_EQ(error_of([&] { t.resize_({5}); }), "Trying to resize storage that is not resizable");
}

TEST(Tensor, BadSizesThrowInsteadOfUB) {
  EXPECT_EQ(error_of([] { (void)opd::empty({2, -3}); }), "Trying to create tensor with negative dimension -3: [2, -3]");
  const int64_t big = int64_t{1} << 40;
  EXPECT_EQ(error_of([&] { (void)opd::empty({big, big}); }), "numel overflows int64");
  EXPECT_EQ(error_of([] { (void)opd::empty({int64_t{1} << 61}, ScalarType::Double); }),
            "empty: nbytes overflows int64");
  EXPECT_THROW((void)opd::empty({big, big}, ScalarType::Float, Device::meta()), opd::Error);
  EXPECT_THROW((void)opd::empty({1}, ScalarType::Undefined), opd::Error);
  EXPECT_THROW((void)opd::empty_strided({2}, {1, 1}), opd::Error);
  EXPECT_THROW((void)opd::empty({1}, ScalarType::Float, Device::cuda(0)), opd::Error);  // no CUDA allocator
}

TEST(Tensor, TypedDataPtrChecksDtype) {
  Tensor t = opd::empty({2}, ScalarType::Int);
  EXPECT_NE(t.data_ptr<int32_t>(), nullptr);
  EXPECT_NE(t.data_ptr<const int32_t>(), nullptr);
  EXPECT_EQ(error_of([&] { (void)t.data_ptr<float>(); }), "expected scalar type Float but found Int");
  EXPECT_EQ(static_cast<void*>(t.data_ptr<int32_t>()), t.data_ptr());
  Tensor offset = t.as_strided({1}, {1}, 1);
  EXPECT_EQ(offset.data_ptr<int32_t>(), t.data_ptr<int32_t>() + 1);
}

TEST(Tensor, EmptyStridedSizesStorageToFit) {
  Tensor t = opd::empty_strided({2, 3}, {1, 2}, ScalarType::Double);
  EXPECT_EQ(t.strides(), v({1, 2}));
  EXPECT_EQ(t.storage().nbytes(), 6 * sizeof(double));  // last element at 1*1 + 2*2 = 5
  EXPECT_FALSE(t.is_contiguous());
  Tensor expanded = opd::empty_strided({4, 3}, {0, 1});
  EXPECT_EQ(expanded.storage().nbytes(), 3 * sizeof(float));
}

TEST(Tensor, ChannelsLast) {
  Tensor t = opd::empty({2, 3, 4, 5}, ScalarType::Float, Device::cpu(), opd::MemoryFormat::ChannelsLast);
  EXPECT_EQ(t.strides(), v({60, 1, 15, 3}));
  EXPECT_TRUE(t.is_contiguous(opd::MemoryFormat::ChannelsLast));
  EXPECT_FALSE(t.is_contiguous());
  Tensor t3 = opd::empty({2, 3, 4, 5, 6}, ScalarType::Float, Device::cpu(), opd::MemoryFormat::ChannelsLast3d);
  EXPECT_EQ(t3.strides(), v({360, 1, 90, 18, 3}));
  EXPECT_TRUE(t3.is_contiguous(opd::MemoryFormat::ChannelsLast3d));
  EXPECT_THROW((void)opd::empty({2, 3}, ScalarType::Float, Device::cpu(), opd::MemoryFormat::ChannelsLast),
               opd::Error);
  EXPECT_THROW((void)t.is_contiguous(opd::MemoryFormat::Preserve), opd::Error);
}

TEST(Tensor, FromVectorToVectorRoundTrip) {
  Tensor t = opd::from_vector<double>({1.5, 2.5, 3.5, 4.5, 5.5, 6.5}, {3, 2});
  EXPECT_EQ(t.dtype(), ScalarType::Double);
  EXPECT_EQ(t.sizes(), v({3, 2}));
  EXPECT_EQ(opd::to_vector<double>(t), (std::vector<double>{1.5, 2.5, 3.5, 4.5, 5.5, 6.5}));
  Tensor flat = opd::from_vector<int64_t>({7, 8, 9});
  EXPECT_EQ(flat.sizes(), v({3}));
  Tensor b = opd::from_vector<bool>({true, false, true}, {3});
  EXPECT_EQ(b.dtype(), ScalarType::Bool);
  EXPECT_EQ(opd::to_vector<bool>(b), (std::vector<bool>{true, false, true}));
  Tensor h = opd::from_vector<opd::Half>({opd::Half(1.0f), opd::Half(-0.5f)});
  EXPECT_EQ(h.dtype(), ScalarType::Half);
  EXPECT_EQ(static_cast<float>(opd::to_vector<opd::Half>(h)[1]), -0.5f);

  EXPECT_EQ(error_of([] { (void)opd::from_vector<float>({1, 2, 3}, {2, 2}); }),
            "from_vector: 3 values do not fill a tensor of sizes [2, 2]");
  EXPECT_EQ(error_of([&] { (void)opd::to_vector<float>(t); }),
            "to_vector: tensor has dtype Double but Float was requested");
  EXPECT_THROW((void)opd::to_vector<float>(opd::empty({1}, ScalarType::Float, Device::meta())), opd::Error);
}

TEST(Tensor, ToVectorFollowsStridesOfNonContiguousViews) {
  Tensor base = opd::from_vector<int64_t>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {3, 4});
  // Transpose.
  EXPECT_EQ(opd::to_vector<int64_t>(base.as_strided({4, 3}, {1, 4})),
            (std::vector<int64_t>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  // Column slice base[:, 1:3].
  EXPECT_EQ(opd::to_vector<int64_t>(base.as_strided({3, 2}, {4, 1}, 1)), (std::vector<int64_t>{1, 2, 5, 6, 9, 10}));
  // Every other element of row 2, reversed-order dims.
  EXPECT_EQ(opd::to_vector<int64_t>(base.as_strided({2}, {2}, 8)), (std::vector<int64_t>{8, 10}));
  // Broadcast (stride 0).
  EXPECT_EQ(opd::to_vector<int64_t>(base.as_strided({2, 3}, {0, 1}, 1)), (std::vector<int64_t>{1, 2, 3, 1, 2, 3}));
  // 0-d view of one element.
  EXPECT_EQ(opd::to_vector<int64_t>(base.as_strided({}, {}, 7)), (std::vector<int64_t>{7}));
  // Size-1 dims with arbitrary strides are still contiguous.
  EXPECT_TRUE(base.as_strided({1, 4}, {100, 1}).is_contiguous());
}
