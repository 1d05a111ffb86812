#pragma once
// How the library is consumed, decided by one macro (as {fmt}'s FMT_HEADER_ONLY):
//
//   compiled (default)  the run-time parts and the built-in kernels live in
//                       libopdispatch (target opdispatch::opdispatch); headers
//                       declare them, src/ defines them once.
//   OPD_HEADER_ONLY     every header also includes its `-inl.hpp` part, whose
//                       definitions become `inline` (target opdispatch::header_only).
//
// The same public headers serve both: user code does not change.
//
// OPD_API marks what is shared across shared objects: the functions and
// classes defined out of line, and above all the process-wide state (the
// Dispatcher, the allocator table, the thread's dispatch keys). It gives them
// default visibility even in a plugin built with -fvisibility=hidden, so that
// every module of a process reaches the same instance (docs/building.md).
#if !defined(__cplusplus) || __cplusplus < 202002L
#if !defined(_MSVC_LANG) || _MSVC_LANG < 202002L
#error "opdispatch needs C++20: compile with -std=c++20 (CMake: link opdispatch::opdispatch or opdispatch::header_only, which ask for it, nvcc included)"
// Stop here rather than after a hundred errors from C++20 code below.
#include <opdispatch_stops_here_compile_with_std_cxx20>
#endif
#endif

#if defined(_WIN32)
#define OPD_API
#else
#define OPD_API __attribute__((visibility("default")))
#endif

// Definitions in `-inl.hpp` headers: inline when header-only, ordinary
// (compiled once, in src/) otherwise.
#ifdef OPD_HEADER_ONLY
#define OPD_FUNC inline
#else
#define OPD_FUNC
#endif
