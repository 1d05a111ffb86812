"""A stand-in for the `expecttest` package (Debian has none), enough for
torch.testing._internal.common_utils to import: the conformance script uses
PyTorch's OpInfo samples, never expect-file tests."""
import unittest

ACCEPT = False


class TestCase(unittest.TestCase):
    def assertExpectedInline(self, actual, expect, skip=0):  # noqa: N802 (expecttest's name)
        raise unittest.SkipTest("expecttest stand-in: inline expectations are not checked")
