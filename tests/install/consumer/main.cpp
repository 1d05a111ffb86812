// Downstream consumer: only sees opdispatch through opdispatch::opdispatch.
#if __has_include(<dispatch/schema.hpp>)
#include <dispatch/schema.hpp>
#define OPD_CONSUMER_HEADER "dispatch/schema.hpp"
#else
#define OPD_CONSUMER_HEADER "(none yet)"
#endif

// Boost is a usage requirement of opdispatch (find_dependency(Boost)).
#include <boost/mp11/algorithm.hpp>

#include <cstdio>

static_assert(__cplusplus >= 202002L, "opdispatch::opdispatch must require C++20");
static_assert(boost::mp11::mp_size<boost::mp11::mp_list<int, float, double>>::value == 3);

int main() {
  std::printf("opd_consumer OK (%s)\n", OPD_CONSUMER_HEADER);
  return 0;
}
