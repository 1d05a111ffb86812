# Initial cache for scripts/test.sh's Release build: -O2, as distributions
# build packages, instead of CMake's default -O3 (the same warnings and tests,
# less compile time).
set(CMAKE_CXX_FLAGS_RELEASE "-O2 -DNDEBUG" CACHE STRING "Flags used by the CXX compiler during RELEASE builds.")
