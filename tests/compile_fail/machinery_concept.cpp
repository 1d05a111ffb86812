// EXPECT: constraints not satisfied
// EXPECT-GNU: no matching function for call to .f\(int\).*constraints not satisfied
// EXPECT-Clang: candidate template ignored: constraints not satisfied
// COMPILERS: GNU Clang
// Proves the per-compiler EXPECT overrides and COMPILERS filter.
template <class T>
concept Small = sizeof(T) <= 1;

template <Small T>
void f(T) {}

int main() { f(42); }
