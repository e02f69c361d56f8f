// The distributed tests' main: MPI around doctest. Every rank runs every test case (the cases
// call collectives in the same order on every rank); only rank 0 prints doctest's summary, and
// the run fails when any rank's cases failed.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <grb/distributed/communicator.hpp>

int main(int argc, char** argv) {
  grb::dist::Environment environment(&argc, &argv);
  const grb::dist::Communicator world = grb::dist::Communicator::world();
  doctest::Context context(argc, argv);
  if (world.rank() != 0) {
    context.setOption("out", "/dev/null");
    context.setOption("no-colors", true);
  }
  const int failed = context.run();
  return world.all(failed == 0) ? 0 : 1;
}
