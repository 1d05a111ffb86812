// Compile-pass sanity check of the machinery: C++20, warnings as errors.
#include <boost/mp11/list.hpp>

#include <concepts>

template <class T>
concept Small = sizeof(T) <= 1;

template <Small T>
constexpr int f(T) { return 1; }

static_assert(f('x') == 1);
static_assert(boost::mp11::mp_size<boost::mp11::mp_list<int, char>>::value == 2);
static_assert(std::same_as<decltype(f(char{})), int>);

int main() { return 0; }
