// The doctest main for flowc_unit_tests: every tests/unit/*_test.cc links in.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
