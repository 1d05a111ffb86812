// The target that builds tests/support/test_pch.hpp's precompiled header.
