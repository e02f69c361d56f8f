// doctest's main, plus one visible line about which backends the tests run on.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

#include "support.hpp"

int main(int argc, char** argv) {
  std::printf("grb tests: backends %s\n", grb::test::backend_summary().c_str());
  doctest::Context context;
  context.applyCommandLine(argc, argv);
  return context.run();
}
