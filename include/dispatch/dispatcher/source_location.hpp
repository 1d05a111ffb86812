#pragma once
// Where a registration was made, captured by a defaulted argument:
//
//   void register_x(..., opd::source_location where = opd::source_location::current());
//
// (Not opd::source_location: libstdc++ 12 provides it only to compilers with
// __builtin_source_location, which clang 14 lacks. __builtin_FILE and
// __builtin_LINE, used as default arguments, name the caller in g++, clang
// and nvcc alike.)
namespace opd {

class source_location {
 public:
  static constexpr source_location current(const char* file = __builtin_FILE(), unsigned line = __builtin_LINE()) noexcept {
    return source_location(file, line);
  }
  constexpr source_location() noexcept = default;
  constexpr const char* file_name() const noexcept { return file_; }
  constexpr unsigned line() const noexcept { return line_; }

 private:
  constexpr source_location(const char* file, unsigned line) noexcept : file_(file), line_(line) {}
  const char* file_ = "";
  unsigned line_ = 0;
};

}  // namespace opd
