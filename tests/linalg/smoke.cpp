#include <doctest/doctest.h>
TEST_CASE("placeholder") { CHECK(1 == 1); }
