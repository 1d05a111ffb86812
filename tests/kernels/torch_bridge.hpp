// A plain-C++17 window onto libtorch for the differential test.
//
// libtorch 1.13's headers do not compile as C++20 with clang, and opd's
// need C++20, so the two never meet in one translation unit: torch_bridge.cpp
// (C++17, ATen) runs the libtorch side on tensors described by raw buffers,
// and the test (C++20, opd) builds the same buffers for its own side.
// dtypes are ScalarType numbers, identical in c10 and opd.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace torch_bridge {

// A strided view (sizes, strides, offset in elements) over a whole buffer.
struct RawTensor {
  int dtype = 0;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  int64_t offset = 0;
  std::vector<unsigned char> buffer;
};

struct RawScalar {
  enum class Kind { Bool, Int, Double } kind = Kind::Int;
  bool b = false;
  int64_t i = 0;
  double d = 0.0;
};

enum class BinaryOp { Add, Sub, Mul, Div };
enum class Variant { Functional, Out, InPlace };

struct Outcome {
  std::optional<std::string> error;  // what libtorch threw, without backtrace
  RawTensor result;                  // the result (Out: out after the call, maybe resized), contiguous
};

// at::add/sub/mul/div(self, other[, alpha]), at::*_out(out, ...) or
// self.*_(other[, alpha]). Out and InPlace write the buffer of out/self back.
Outcome binary(BinaryOp op, Variant variant, RawTensor& self, const RawTensor& other, const RawScalar& alpha,
               RawTensor* out);
// The Scalar overloads (add.Scalar, add_.Scalar, add.Scalar_out, ...), likewise.
Outcome binary_scalar(BinaryOp op, Variant variant, RawTensor& self, const RawScalar& other, const RawScalar& alpha,
                      RawTensor* out = nullptr);
// self.copy_(src) and self.fill_(value); self's buffer written back.
Outcome copy(RawTensor& self, const RawTensor& src);
Outcome fill(RawTensor& self, const RawScalar& value);

int promote_types(int a, int b);
bool can_cast(int from, int to);
// at::result_type with tensors of 1 (or 0 when zero_dim) dimensions and Scalars.
int result_type(int a, bool a_zero_dim, int b, bool b_zero_dim);
int result_type(int a, bool a_zero_dim, const RawScalar& b);
int result_type(const RawScalar& a, int b, bool b_zero_dim);
int result_type(const RawScalar& a, const RawScalar& b);

// A boxed call of an ATen view operator by name (views_torch_diff_test.cpp):
// self is a contiguous Float arange of `self_sizes`, transposed (first and
// last dims) when `transpose_self`; every argument after self is given.
struct BoxedArg {
  enum class Kind { Int, IntList, None, Bool } kind = Kind::Int;
  int64_t i = 0;
  std::vector<int64_t> list;
  bool b = false;
};
struct ViewResult {
  std::vector<int64_t> sizes, strides;
  int64_t offset = 0;          // storage offset, in elements
  bool aliases_self = false;   // shares self's storage
  std::vector<float> values;   // in row-major logical order
};
struct ViewOutcome {
  std::optional<std::string> error;
  std::vector<ViewResult> results;  // one, or one per element of a Tensor[] return
};
ViewOutcome call_view(const std::string& op, const std::string& overload, const std::vector<int64_t>& self_sizes,
                      bool transpose_self, const std::vector<BoxedArg>& args);

// The same with a second tensor argument after self (the scatters' src): a
// contiguous Float arange of `src_sizes` plus 100.
ViewOutcome call_with_src(const std::string& op, const std::string& overload, const std::vector<int64_t>& self_sizes,
                          bool transpose_self, const std::vector<int64_t>& src_sizes,
                          const std::vector<BoxedArg>& args);
void set_num_threads(int n);
std::string version();

}  // namespace torch_bridge
