// The libtorch side of the differential test (C++17; see torch_bridge.hpp).
#include "torch_bridge.hpp"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>
#include <c10/util/Exception.h>
#include <torch/csrc/api/include/torch/version.h>  // TORCH_VERSION

#include <cstring>
#include <exception>
#include <utility>

namespace torch_bridge {
namespace {

c10::ScalarType st(int dtype) { return static_cast<c10::ScalarType>(dtype); }

at::Scalar to_at(const RawScalar& s) {
  switch (s.kind) {
    case RawScalar::Kind::Bool: return at::Scalar(s.b);
    case RawScalar::Kind::Int: return at::Scalar(s.i);
    case RawScalar::Kind::Double: return at::Scalar(s.d);
  }
  return at::Scalar();
}

// The buffer as a 1-d tensor, and the view of it.
struct Live {
  at::Tensor storage;
  at::Tensor view;
};
Live live(const RawTensor& t) {
  const int64_t item = static_cast<int64_t>(c10::elementSize(st(t.dtype)));
  const int64_t n = static_cast<int64_t>(t.buffer.size()) / item;
  Live l;
  l.storage = at::empty({n}, at::TensorOptions().dtype(st(t.dtype)));
  if (!t.buffer.empty()) std::memcpy(l.storage.data_ptr(), t.buffer.data(), t.buffer.size());
  l.view = l.storage.as_strided(t.sizes, t.strides, t.offset);
  return l;
}

void write_back(const Live& l, RawTensor& t) {
  if (!t.buffer.empty()) std::memcpy(t.buffer.data(), l.storage.data_ptr(), t.buffer.size());
}

RawTensor raw_contiguous(const at::Tensor& t) {
  const at::Tensor c = t.contiguous();
  RawTensor r;
  r.dtype = static_cast<int>(c.scalar_type());
  r.sizes = c.sizes().vec();
  r.strides = c.strides().vec();
  r.offset = 0;
  r.buffer.resize(c.nbytes());
  if (c.nbytes() > 0) std::memcpy(r.buffer.data(), c.data_ptr(), c.nbytes());
  return r;
}

template <class F>
Outcome guarded(F&& f) {
  Outcome o;
  try {
    f(o);
  } catch (const c10::Error& e) {
    o.error = e.what_without_backtrace();
  } catch (const std::exception& e) {
    o.error = e.what();
  }
  return o;
}

}  // namespace

Outcome binary(BinaryOp op, Variant variant, RawTensor& self, const RawTensor& other, const RawScalar& alpha,
               RawTensor* out) {
  return guarded([&](Outcome& o) {
    Live a = live(self);
    Live b = live(other);
    const at::Scalar al = to_at(alpha);
    switch (variant) {
      case Variant::Functional: {
        at::Tensor r;
        switch (op) {
          case BinaryOp::Add: r = at::add(a.view, b.view, al); break;
          case BinaryOp::Sub: r = at::sub(a.view, b.view, al); break;
          case BinaryOp::Mul: r = at::mul(a.view, b.view); break;
          case BinaryOp::Div: r = at::div(a.view, b.view); break;
        }
        o.result = raw_contiguous(r);
        break;
      }
      case Variant::Out: {
        Live d = live(*out);
        switch (op) {
          case BinaryOp::Add: at::add_out(d.view, a.view, b.view, al); break;
          case BinaryOp::Sub: at::sub_out(d.view, a.view, b.view, al); break;
          case BinaryOp::Mul: at::mul_out(d.view, a.view, b.view); break;
          case BinaryOp::Div: at::div_out(d.view, a.view, b.view); break;
        }
        o.result = raw_contiguous(d.view);
        write_back(d, *out);
        break;
      }
      case Variant::InPlace: {
        switch (op) {
          case BinaryOp::Add: a.view.add_(b.view, al); break;
          case BinaryOp::Sub: a.view.sub_(b.view, al); break;
          case BinaryOp::Mul: a.view.mul_(b.view); break;
          case BinaryOp::Div: a.view.div_(b.view); break;
        }
        write_back(a, self);
        break;
      }
    }
  });
}

Outcome binary_scalar(BinaryOp op, Variant variant, RawTensor& self, const RawScalar& other, const RawScalar& alpha,
                      RawTensor* out) {
  return guarded([&](Outcome& o) {
    Live a = live(self);
    const at::Scalar s = to_at(other);
    const at::Scalar al = to_at(alpha);
    switch (variant) {
      case Variant::Functional: {
        at::Tensor r;
        switch (op) {
          case BinaryOp::Add: r = at::add(a.view, s, al); break;
          case BinaryOp::Sub: r = at::sub(a.view, s, al); break;
          case BinaryOp::Mul: r = at::mul(a.view, s); break;
          case BinaryOp::Div: r = at::div(a.view, s); break;
        }
        o.result = raw_contiguous(r);
        break;
      }
      case Variant::Out: {
        Live d = live(*out);
        switch (op) {
          case BinaryOp::Add: at::add_out(d.view, a.view, s, al); break;
          case BinaryOp::Sub: at::sub_out(d.view, a.view, s, al); break;
          case BinaryOp::Mul: at::mul_out(d.view, a.view, s); break;
          case BinaryOp::Div: at::div_out(d.view, a.view, s); break;
        }
        o.result = raw_contiguous(d.view);
        write_back(d, *out);
        break;
      }
      case Variant::InPlace: {
        switch (op) {
          case BinaryOp::Add: a.view.add_(s, al); break;
          case BinaryOp::Sub: a.view.sub_(s, al); break;
          case BinaryOp::Mul: a.view.mul_(s); break;
          case BinaryOp::Div: a.view.div_(s); break;
        }
        write_back(a, self);
        break;
      }
    }
  });
}

Outcome copy(RawTensor& self, const RawTensor& src) {
  return guarded([&](Outcome&) {
    Live d = live(self);
    Live s = live(src);
    d.view.copy_(s.view);
    write_back(d, self);
  });
}

Outcome fill(RawTensor& self, const RawScalar& value) {
  return guarded([&](Outcome&) {
    Live d = live(self);
    d.view.fill_(to_at(value));
    write_back(d, self);
  });
}

int promote_types(int a, int b) { return static_cast<int>(at::promote_types(st(a), st(b))); }
bool can_cast(int from, int to) { return at::can_cast(st(from), st(to)); }

namespace {
at::Tensor probe(int dtype, bool zero_dim) {
  return zero_dim ? at::zeros({}, at::TensorOptions().dtype(st(dtype)))
                  : at::zeros({2}, at::TensorOptions().dtype(st(dtype)));
}
}  // namespace

int result_type(int a, bool a_zero_dim, int b, bool b_zero_dim) {
  return static_cast<int>(at::result_type(probe(a, a_zero_dim), probe(b, b_zero_dim)));
}
int result_type(int a, bool a_zero_dim, const RawScalar& b) {
  return static_cast<int>(at::result_type(probe(a, a_zero_dim), to_at(b)));
}
int result_type(const RawScalar& a, int b, bool b_zero_dim) {
  return static_cast<int>(at::result_type(to_at(a), probe(b, b_zero_dim)));
}
int result_type(const RawScalar& a, const RawScalar& b) {
  return static_cast<int>(at::result_type(to_at(a), to_at(b)));
}

void set_num_threads(int n) { at::set_num_threads(n); }
std::string version() { return TORCH_VERSION; }

namespace {
ViewOutcome call_boxed_with(const std::string& op, const std::string& overload,
                             const std::vector<int64_t>& self_sizes, bool transpose_self,
                             const std::vector<int64_t>* src_sizes, const std::vector<BoxedArg>& args) {
  ViewOutcome o;
  try {
    int64_t n = 1;
    for (int64_t s : self_sizes) n *= s;
    at::Tensor self = at::arange(n, at::TensorOptions().dtype(at::kFloat)).reshape(self_sizes);
    if (transpose_self) self = self.transpose(0, -1);
    const c10::OperatorHandle handle = c10::Dispatcher::singleton().findSchemaOrThrow(("aten::" + op).c_str(),
                                                                                       overload.c_str());
    torch::jit::Stack stack;
    stack.emplace_back(self);
    if (src_sizes != nullptr) {
      int64_t m = 1;
      for (int64_t s : *src_sizes) m *= s;
      stack.emplace_back(at::arange(m, at::TensorOptions().dtype(at::kFloat)).reshape(*src_sizes) + 100);
    }
    for (const BoxedArg& a : args) {
      switch (a.kind) {
        case BoxedArg::Kind::Int: stack.emplace_back(a.i); break;
        case BoxedArg::Kind::IntList: stack.emplace_back(a.list); break;
        case BoxedArg::Kind::None: stack.emplace_back(); break;
        case BoxedArg::Kind::Bool: stack.emplace_back(a.b); break;
      }
    }
    handle.callBoxed(&stack);
    std::vector<at::Tensor> outs;
    if (stack.at(0).isTensor()) {
      outs.push_back(stack.at(0).toTensor());
    } else {
      for (const at::Tensor& t : stack.at(0).toTensorList().vec()) outs.push_back(t);
    }
    for (const at::Tensor& t : outs) {
      ViewResult r;
      r.sizes = t.sizes().vec();
      r.strides = t.strides().vec();
      r.offset = t.storage_offset();
      r.aliases_self = t.storage().is_alias_of(self.storage());
      const at::Tensor c = t.contiguous();
      r.values.assign(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
      o.results.push_back(std::move(r));
    }
  } catch (const c10::Error& e) {
    o.error = e.what_without_backtrace();
  } catch (const std::exception& e) {
    o.error = e.what();
  }
  return o;
}

}  // namespace

ViewOutcome call_view(const std::string& op, const std::string& overload, const std::vector<int64_t>& self_sizes,
                      bool transpose_self, const std::vector<BoxedArg>& args) {
  return call_boxed_with(op, overload, self_sizes, transpose_self, nullptr, args);
}

ViewOutcome call_with_src(const std::string& op, const std::string& overload, const std::vector<int64_t>& self_sizes,
                          bool transpose_self, const std::vector<int64_t>& src_sizes,
                          const std::vector<BoxedArg>& args) {
  return call_boxed_with(op, overload, self_sizes, transpose_self, &src_sizes, args);
}

}  // namespace torch_bridge
