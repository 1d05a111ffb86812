#pragma once
// Printing a tensor as PyTorch's print(tensor) does (torch/_tensor_str.py with
// the default print options: precision 4, threshold 1000 elements, 3 edge
// items, line width 80):
//
//   tensor([[1., 2., 3.],
//           [4., 5., 6.]])
//   tensor([   0,    1,    2,  ..., 1997, 1998, 1999], dtype=torch.int32)
//   tensor(..., device='meta', size=(2, 3))
//
// Nested brackets, one element format per tensor (integers, "1." for
// integral floats, fixed 4 decimals, or scientific when the magnitudes span
// more than 1000x, exceed 1e8 or go below 1e-4), the dtype suffix when it is
// not float32, int64, bool or complex64, the device suffix when not CPU, and
// "..." for the middle of a dimension longer than 6 when the tensor has more
// than 1000 elements. Values are read on CPU only: a tensor on another device
// prints "..." and its size, as PyTorch prints a meta tensor (opdispatch
// cannot copy device memory to the host by itself), and so does a dtype with
// no C++ element type (quantized). ComplexHalf prints as its complex64 values
// (PyTorch's _tensor_str calls .cfloat() first), with its dtype suffix.
//
// Out-of-line part of tensor.hpp (compiled once; the helpers below are
// inline, used only here). A non-template function (declared in tensor.hpp,
// which operator<< calls);
// opd::print_tensor_summary keeps the one-line "Tensor(sizes=[2, 3],
// dtype=Float, device=cpu)" form, which IValue printing uses.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "dispatch/core/bfloat16.hpp"
#include "dispatch/core/half.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd {

namespace print_detail {

inline constexpr std::size_t precision = 4, threshold = 1000, edge_items = 3, line_width = 80;

// PyTorch's names: str(torch.float64) is "torch.float64".
inline std::string torch_dtype_name(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: return "torch.uint8";
    case ScalarType::Char: return "torch.int8";
    case ScalarType::Short: return "torch.int16";
    case ScalarType::Int: return "torch.int32";
    case ScalarType::Long: return "torch.int64";
    case ScalarType::Half: return "torch.float16";
    case ScalarType::Float: return "torch.float32";
    case ScalarType::Double: return "torch.float64";
    case ScalarType::ComplexHalf: return "torch.complex32";
    case ScalarType::ComplexFloat: return "torch.complex64";
    case ScalarType::ComplexDouble: return "torch.complex128";
    case ScalarType::Bool: return "torch.bool";
    case ScalarType::QInt8: return "torch.qint8";
    case ScalarType::QUInt8: return "torch.quint8";
    case ScalarType::QInt32: return "torch.qint32";
    case ScalarType::BFloat16: return "torch.bfloat16";
    default: return detail::str_cat("torch.", to_string(t));
  }
}

// str(tuple(t.shape)): "(2, 3)", "(0,)", "()".
inline std::string shape_tuple(IntArrayRef sizes) {
  std::string s = "(";
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (i != 0) s += ", ";
    s += std::to_string(sizes[i]);
  }
  s += sizes.size() == 1 ? ",)" : ")";
  return s;
}

inline std::string printf_double(const char* format, int width, double v) {
  char buf[512];
  const int n = width < 0 ? std::snprintf(buf, sizeof buf, format, v) : std::snprintf(buf, sizeof buf, format, width, v);
  return std::string(buf, n < 0 ? 0 : std::min<std::size_t>(static_cast<std::size_t>(n), sizeof buf - 1));
}

// One element as read from memory: a floating value (real and imaginary part
// for complex dtypes), an integer or a bool.
struct element {
  double re = 0, im = 0;
  std::int64_t integer = 0;
  bool boolean = false;
};

enum class category { floating, complex, integral, boolean };

// PyTorch's _Formatter: one format for all the (visible) values of a tensor.
class formatter {
 public:
  formatter() = default;
  // Integers and bools: as str() writes them, right-aligned to the widest.
  explicit formatter(const std::vector<std::string>& texts) {
    for (const auto& t : texts) width_ = std::max(width_, t.size());
  }
  // Floating values.
  explicit formatter(const std::vector<double>& values) {
    std::vector<double> nonzero_finite;
    for (double v : values)
      if (std::isfinite(v) && v != 0) nonzero_finite.push_back(v);
    if (nonzero_finite.empty()) return;
    double lo = std::abs(nonzero_finite[0]), hi = lo;
    for (double v : nonzero_finite) {
      lo = std::min(lo, std::abs(v));
      hi = std::max(hi, std::abs(v));
      if (v != std::ceil(v)) int_mode_ = false;
    }
    if (int_mode_) {
      sci_ = hi / lo > 1000.0 || hi > 1.0e8;
      for (double v : nonzero_finite)
        width_ = std::max(width_, sci_ ? printf_double("%.4e", -1, v).size() : printf_double("%.0f", -1, v).size() + 1);
    } else {
      sci_ = hi / lo > 1000.0 || hi > 1.0e8 || lo < 1.0e-4;
      for (double v : nonzero_finite)
        width_ = std::max(width_, printf_double(sci_ ? "%.4e" : "%.4f", -1, v).size());
    }
  }

  std::size_t width() const { return width_; }

  std::string format(double v) const {  // floating values
    std::string s;
    if (sci_) {
      s = printf_double("%*.4e", static_cast<int>(width_), v);
    } else if (int_mode_) {
      s = printf_double("%.0f", -1, v);
      if (!std::isinf(v) && !std::isnan(v)) s += '.';
    } else {
      s = printf_double("%.4f", -1, v);
    }
    return pad(std::move(s));
  }
  std::string format(const std::string& text) const { return pad(text); }

 private:
  std::string pad(std::string s) const {
    if (s.size() < width_) s.insert(0, width_ - s.size(), ' ');
    return s;
  }

  bool int_mode_ = true, sci_ = false;  // (integers and bools: neither applies)
  std::size_t width_ = 1;
};

inline std::string int_text(const element& e, category c) {
  return c == category::boolean ? (e.boolean ? "True" : "False") : std::to_string(e.integer);
}

class printer {
 public:
  printer(const Tensor& t, category c, std::vector<element> (*read)(const Tensor&, const std::vector<std::int64_t>&))
      : t_(t), cat_(c), summarize_(static_cast<std::size_t>(t.numel()) > threshold) {
    std::vector<std::int64_t> offsets;
    visible_offsets(0, 0, offsets);
    const std::vector<element> values = read(t, offsets);
    if (c == category::floating || c == category::complex) {
      std::vector<double> re, im;
      for (const element& e : values) re.push_back(e.re), im.push_back(e.im);
      real_ = formatter(re);
      if (c == category::complex) imag_ = formatter(im);
    } else {
      std::vector<std::string> texts;
      for (const element& e : values) texts.push_back(int_text(e, c));
      real_ = formatter(texts);
    }
    read_ = read;
  }

  std::string str(std::size_t indent) const { return str_at(0, 0, indent); }

 private:
  bool elided(std::int64_t size) const { return summarize_ && size > static_cast<std::int64_t>(2 * edge_items); }

  // The storage offsets (from data_ptr) of the elements shown, in order:
  // get_summarized_data's elements.
  void visible_offsets(std::size_t dim, std::int64_t offset, std::vector<std::int64_t>& out) const {
    if (dim == t_.sizes().size()) {
      out.push_back(offset);
      return;
    }
    const std::int64_t n = t_.sizes()[dim], stride = t_.strides()[dim];
    for (std::int64_t i = 0; i < n; ++i) {
      if (elided(n) && i == static_cast<std::int64_t>(edge_items)) i = n - static_cast<std::int64_t>(edge_items);
      visible_offsets(dim + 1, offset + i * stride, out);
    }
  }

  std::string value_str(std::int64_t offset) const {
    const element e = read_(t_, {offset}).front();
    if (cat_ == category::floating) return real_.format(e.re);
    if (cat_ == category::complex) {
      std::string im = imag_.format(e.im);
      im += 'j';
      im.erase(0, im.find_first_not_of(' '));
      std::string out = real_.format(e.re);
      if (im[0] != '+' && im[0] != '-') out += '+';
      out += im;
      return out;
    }
    return real_.format(int_text(e, cat_));
  }

  std::string str_at(std::size_t dim, std::int64_t offset, std::size_t indent) const {
    const std::size_t rank = t_.sizes().size() - dim;
    if (rank == 0) return value_str(offset);
    const std::int64_t n = t_.sizes()[dim], stride = t_.strides()[dim];
    std::vector<std::string> parts;
    for (std::int64_t i = 0; i < n; ++i) {
      if (elided(n) && i == static_cast<std::int64_t>(edge_items)) {
        parts.push_back(rank == 1 ? " ..." : "...");
        i = n - static_cast<std::int64_t>(edge_items);
      }
      parts.push_back(rank == 1 ? value_str(offset + i * stride) : str_at(dim + 1, offset + i * stride, indent + 1));
    }
    std::string out = "[";
    if (rank == 1) {  // _vector_str: as many elements per line as fit
      std::size_t element_length = real_.width() + 2;
      if (cat_ == category::complex) element_length += imag_.width() + 1;
      const std::ptrdiff_t room = static_cast<std::ptrdiff_t>(line_width) - static_cast<std::ptrdiff_t>(indent);
      const std::size_t per_line =
          std::max<std::size_t>(1, room > 0 ? static_cast<std::size_t>(room) / element_length : 0);
      for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i != 0 && i % per_line == 0) {
          out += ",\n";
          out.append(indent + 1, ' ');
        } else if (i != 0) {
          out += ", ";
        }
        out += parts[i];
      }
    } else {
      std::string sep = ",";
      sep.append(rank - 1, '\n');
      sep.append(indent + 1, ' ');
      for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i != 0) out += sep;
        out += parts[i];
      }
    }
    out += ']';
    return out;
  }

  const Tensor& t_;
  category cat_;
  bool summarize_;
  formatter real_, imag_;
  std::vector<element> (*read_)(const Tensor&, const std::vector<std::int64_t>&) = nullptr;
};

// The elements at these offsets (from data_ptr), as elements.
template <class T>
std::vector<element> read_elements(const Tensor& t, const std::vector<std::int64_t>& offsets) {
  const T* data = static_cast<const T*>(t.data_ptr());
  std::vector<element> out(offsets.size());
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    const T& v = data[offsets[i]];
    element& e = out[i];
    if constexpr (std::is_same_v<T, bool>) {
      e.boolean = v;
    } else if constexpr (std::is_same_v<T, ComplexHalf>) {
      e.re = static_cast<double>(static_cast<float>(v.real()));
      e.im = static_cast<double>(static_cast<float>(v.imag()));
    } else if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
      e.re = static_cast<double>(v.real());
      e.im = static_cast<double>(v.imag());
    } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
      e.re = static_cast<double>(static_cast<float>(v));
    } else if constexpr (std::is_floating_point_v<T>) {
      e.re = static_cast<double>(v);
    } else {
      e.integer = static_cast<std::int64_t>(v);
    }
  }
  return out;
}

// _add_suffixes: ", suffix", or on a new line when the line would pass 80.
inline std::string add_suffixes(std::string s, const std::vector<std::string>& suffixes, std::size_t indent) {
  const std::size_t newline = s.rfind('\n');
  std::size_t last_line = newline == std::string::npos ? s.size() + 2 : s.size() - newline + 1;
  for (const std::string& suffix : suffixes) {
    if (last_line + suffix.size() + 2 > line_width) {
      s += ",\n";
      s.append(indent, ' ');
      s += suffix;
      last_line = indent + suffix.size();
    } else {
      s += ", ";
      s += suffix;
      last_line += suffix.size() + 2;
    }
  }
  s += ')';
  return s;
}

}  // namespace print_detail

// tensor.hpp declares both; operator<< calls print_tensor.
OPD_FUNC std::ostream& print_tensor(std::ostream& os, const Tensor& t) {
  using namespace print_detail;
  if (!t.defined()) return os << "Tensor(undefined)";
  const std::string prefix = "tensor(";
  const std::size_t indent = prefix.size();
  const ScalarType dtype = t.dtype();
  std::vector<std::string> suffixes;
  if (t.device().type() != DeviceType::CPU) suffixes.push_back(detail::str_cat("device='", t.device(), "'"));

  category cat = category::floating;
  std::vector<element> (*read)(const Tensor&, const std::vector<std::int64_t>&) = nullptr;
  if (t.is_cpu()) {
    try {
      visit_scalar_type(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        read = &read_elements<T>;
        if constexpr (std::is_same_v<T, bool>) cat = category::boolean;
        else if constexpr (std::is_same_v<T, ComplexHalf> || std::is_same_v<T, std::complex<float>> ||
                           std::is_same_v<T, std::complex<double>>)
          cat = category::complex;
        else if constexpr (std::is_integral_v<T>) cat = category::integral;
      });
    } catch (const TypeError&) {
      read = nullptr;  // no C++ element type: print as a meta tensor
    }
  }

  std::string body;
  if (read == nullptr) {  // meta, another device, or a dtype without values to read
    suffixes.push_back(detail::str_cat("size=", shape_tuple(t.sizes())));
    if (dtype != ScalarType::Float) suffixes.push_back(detail::str_cat("dtype=", torch_dtype_name(dtype)));
    body = "...";
  } else if (t.numel() == 0) {
    if (t.dim() != 1) suffixes.push_back(detail::str_cat("size=", shape_tuple(t.sizes())));
    if (dtype != ScalarType::Float) suffixes.push_back(detail::str_cat("dtype=", torch_dtype_name(dtype)));
    body = "[]";
  } else {
    const bool default_dtype = dtype == ScalarType::Float || dtype == ScalarType::ComplexFloat ||
                               dtype == ScalarType::Long || dtype == ScalarType::Bool;
    if (!default_dtype) suffixes.push_back(detail::str_cat("dtype=", torch_dtype_name(dtype)));
    body = printer(t, cat, read).str(indent);
  }
  return os << add_suffixes(prefix + body, suffixes, indent);
}

}  // namespace opd
