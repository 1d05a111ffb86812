// A structured operator: one struct, declared by its out= schema, with a meta
// function (checks, output sizes and dtype) and a CPU impl (the math). The
// functional and in-place variants, their schemas, their kernels, and a Meta
// kernel (shape inference, no data) are derived.
#include <structured/structured.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

// scaled_add(self, other, alpha) = self + alpha * other, elementwise, Float or
// Double, same shapes (a 1-element side is broadcast).
struct scaled_add
    : opd::structured<"myops::scaled_add.out(Tensor self, Tensor other, *, float alpha=1.0, Tensor(a!) out) -> Tensor(a!)",
                      "Tensor"> {
  static opd::TensorMeta meta(const opd::Tensor& self, const opd::Tensor& other, double /*alpha*/) {
    if (self.numel() != 1 && other.numel() != 1 && !(other.sizes() == self.sizes()))
      throw opd::Error("scaled_add: shapes differ and neither side has one element");
    const opd::ScalarType dtype = opd::promote_types(self.dtype(), other.dtype());
    if (dtype != opd::ScalarType::Float && dtype != opd::ScalarType::Double)
      throw opd::Error("scaled_add: expected floating tensors");
    return {(self.numel() >= other.numel() ? self : other).sizes().vec(), dtype};
  }

  // `out` has meta()'s sizes and dtype and is contiguous; it may be self (in-place).
  static void impl(opd::backend_tag<opd::DispatchKey::CPU>, const opd::Tensor& self, const opd::Tensor& other,
                   double alpha, opd::Tensor& out) {
    opd::visit_scalar_type(out.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_floating_point_v<T>) {
        const std::vector<double> a = as_doubles(self), b = as_doubles(other);
        T* o = out.data_ptr<T>();
        for (int64_t i = 0; i < out.numel(); ++i)
          o[i] = static_cast<T>(a[a.size() == 1 ? 0 : i] + alpha * b[b.size() == 1 ? 0 : i]);
      }
    });
  }

 private:
  static std::vector<double> as_doubles(const opd::Tensor& t) {
    if (t.dtype() == opd::ScalarType::Double) return opd::to_vector<double>(t);
    const std::vector<float> f = opd::to_vector<float>(t);
    return std::vector<double>(f.begin(), f.end());
  }
};

// The derived schemas, at compile time.
static_assert(scaled_add::functional::schema_str ==
              "myops::scaled_add.Tensor(Tensor self, Tensor other, *, float alpha=1.0) -> Tensor");
static_assert(scaled_add::inplace::schema_str ==
              "myops::scaled_add_.Tensor(Tensor(a!) self, Tensor other, *, float alpha=1.0) -> Tensor(a!)");

namespace {
bool failed = false;
void expect(bool ok, const char* what) {
  std::printf("  %-52s %s\n", what, ok ? "ok" : "WRONG");
  failed = failed || !ok;
}
template <class T = float>
std::string show(const opd::Tensor& t) {
  std::string s = "[";
  const std::vector<T> v = opd::to_vector<T>(t);
  for (std::size_t i = 0; i < v.size(); ++i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%g", i ? ", " : "", static_cast<double>(v[i]));
    s += buf;
  }
  return s + "]";
}
}  // namespace

int main() {
  const opd::RegistrationSet registrations = opd::register_structured<scaled_add>();  // CPU + Meta, 3 variants each
  std::printf("%s\n%s\n%s\n", std::string(scaled_add::out::schema_str).c_str(),
              std::string(scaled_add::functional::schema_str).c_str(),
              std::string(scaled_add::inplace::schema_str).c_str());

  const opd::Tensor x = opd::from_vector<float>({1, 2, 3, 4});
  const opd::Tensor y = opd::from_vector<float>({10, 20, 30, 40});

  // functional: a new tensor
  const opd::Tensor z = opd::call<scaled_add::functional>(x, y, opd::arg<"alpha"> = 0.5);
  std::printf("functional  x + 0.5 * y  = %s\n", show(z).c_str());
  expect(opd::to_vector<float>(z) == std::vector<float>{6, 12, 18, 24}, "functional result");

  // in-place: into self
  opd::Tensor acc = opd::from_vector<float>({1, 1, 1, 1});
  opd::call<scaled_add::inplace>(acc, y);  // alpha defaults to 1.0
  std::printf("in-place    acc += y      = %s\n", show(acc).c_str());
  expect(opd::to_vector<float>(acc) == std::vector<float>{11, 21, 31, 41}, "in-place result");

  // out=: an empty out is resized; a Double out takes the Float result, converted
  opd::Tensor out = opd::empty(std::vector<int64_t>{0}, opd::ScalarType::Double);
  opd::call<scaled_add::out>(x, y, opd::arg<"alpha"> = -1.0, opd::arg<"out"> = out);
  std::printf("out=        x - y         = %s (dtype %s)\n", show<double>(out).c_str(),
              std::string(opd::to_string(out.dtype())).c_str());
  expect(opd::to_vector<double>(out) == std::vector<double>{-9, -18, -27, -36}, "out= result (Double out)");

  // The rules of in-place and out=: self is never resized (meta() says [4]
  // for a [1] self); no float result into an int out.
  opd::Tensor small = opd::from_vector<float>({1});
  bool refused = false;
  try {
    opd::call<scaled_add::inplace>(small, x);
  } catch (const opd::Error& e) {
    refused = true;
    std::printf("in-place refused: %s\n", e.what());
  }
  expect(refused, "in-place into a smaller self is refused");
  opd::Tensor int_out = opd::empty(std::vector<int64_t>{4}, opd::ScalarType::Long);
  refused = false;
  try {
    opd::call<scaled_add::out>(x, y, opd::arg<"out"> = int_out);
  } catch (const opd::Error& e) {
    refused = true;
    std::printf("out= refused: %s\n", e.what());
  }
  expect(refused, "a Float result into a Long out is refused");

  // Meta: shape and dtype inference from meta() alone, nothing allocated.
  const opd::Tensor mx = opd::empty(std::vector<int64_t>{1000, 1000}, opd::ScalarType::Float, opd::Device::meta());
  const opd::Tensor my = opd::empty(std::vector<int64_t>{1}, opd::ScalarType::Double, opd::Device::meta());
  const opd::Tensor mz = opd::call<scaled_add::functional>(mx, my);
  std::printf("meta        sizes [%lld, %lld], dtype %s, device %s\n", static_cast<long long>(mz.size(0)),
              static_cast<long long>(mz.size(1)), std::string(opd::to_string(mz.dtype())).c_str(),
              mz.device().str().c_str());
  expect(mz.is_meta() && mz.sizes() == std::vector<int64_t>{1000, 1000} && mz.dtype() == opd::ScalarType::Double &&
             mz.data_ptr() == nullptr,
         "Meta kernel from meta()");

  // Boxed: the derived variants are ordinary operators.
  opd::Stack stack{x, y, 2.0};
  opd::call_boxed("myops::scaled_add.Tensor", stack);
  expect(opd::to_vector<float>(stack[0].to_tensor()) == std::vector<float>{21, 42, 63, 84}, "boxed functional call");

  std::printf("%s\n", failed ? "FAILED" : "all results right");
  return failed ? 1 : 0;
}
