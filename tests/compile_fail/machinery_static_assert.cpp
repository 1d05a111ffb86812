// EXPECT: static.assert(ion)? failed.*opd_cf_sentinel
// Proves the compile-fail machinery itself (no library headers involved):
// this must fail to compile with the sentinel message.
template <class T>
struct must_be_small {
  static_assert(sizeof(T) <= 1, "opd_cf_sentinel: type too large");
};

int main() {
  must_be_small<long long> x;
  (void)x;
}
