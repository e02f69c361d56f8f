// grb::repeat_while (grb/loop.hpp): the same body as a host loop and, on cuda, recorded once and
// run as one CUDA graph; the results, the entry counts and the iteration counts must agree.
// Bodies that need the host inside a recorded loop must fail with NotInLoop, leaving the loop
// unrun. The cuda cases are skipped, visibly, without a GPU.
#include <doctest/doctest.h>

#include <grb/grb.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace {

using grb::Backend;
using grb::Index;

struct halve {
  using result_type = std::uint64_t;
  GRB_HOST_DEVICE std::uint64_t operator()(std::uint64_t x, Index, Index) const { return x / 2; }
};

/// Values 0, 1, ..., n - 1 times `scale`: the largest needs the most halvings.
grb::Vector<std::uint64_t> ramp(Index n, std::uint64_t scale, Backend backend) {
  std::vector<Index> indices(n);
  std::vector<std::uint64_t> values(n);
  for (Index i = 0; i < n; ++i) indices[i] = i, values[i] = i * scale;
  grb::Vector<std::uint64_t> host(n, Backend::cpu);
  host.build(indices, values);
  host.make_dense();
  return host.to(backend);
}

struct Outcome {
  std::uint64_t iterations = 0;
  std::vector<std::uint64_t> halved, largest_seen;
  Index largest_seen_nvals = 0;
};

/// Halves every value until all are zero, and keeps the elementwise max of what it saw in a
/// vector that starts empty (its entries appear in the loop: its count changes on the device).
Outcome halve_to_zero(Index n, Backend backend, grb::LoopMode mode) {
  grb::Vector<std::uint64_t> x = ramp(n, 1000, backend);
  grb::Vector<std::uint64_t> seen(n, backend);
  seen.clear_dense();
  grb::Scalar<std::uint64_t> largest(0, backend);
  Outcome outcome;
  outcome.iterations = grb::repeat_while(
      largest,
      [&] {
        grb::apply(x, grb::no_mask, grb::no_accum, halve{}, x);
        grb::ewise_add(seen, grb::no_mask, grb::no_accum, grb::max<std::uint64_t>{}, seen, x);
        grb::reduce(largest, grb::max_monoid<std::uint64_t>{}, x);
      },
      mode);
  x.extract_dense(outcome.halved, 7);
  seen.extract_dense(outcome.largest_seen, 7);
  outcome.largest_seen_nvals = seen.nvals();
  return outcome;
}

}  // namespace

TEST_CASE("repeat_while on the cpu backend is a do-while loop") {
  const Outcome outcome = halve_to_zero(100, Backend::cpu, grb::LoopMode::device);
  // 99 000 needs 17 halvings to reach 0 (2^16 <= 99 000 < 2^17).
  CHECK(outcome.iterations == 17);
  for (std::uint64_t v : outcome.halved) CHECK(v == 0);
  CHECK(outcome.largest_seen_nvals == 100);
  CHECK(outcome.largest_seen[10] == 5000);  // 10 000 halved once
}

TEST_CASE("repeat_while on cuda: one recorded graph gives what the host loop gives") {
  if (!grb::cuda_available()) {
    MESSAGE("cuda backend not available here: device loop cases SKIPPED");
    return;
  }
  for (Index n : {Index{1}, Index{100}, Index{100000}}) {
    CAPTURE(n);
    const Outcome cpu = halve_to_zero(n, Backend::cpu, grb::LoopMode::device);
    const Outcome host_loop = halve_to_zero(n, Backend::cuda, grb::LoopMode::host);
    const Outcome device_loop = halve_to_zero(n, Backend::cuda, grb::LoopMode::device);
    CHECK(host_loop.iterations == cpu.iterations);
    CHECK(device_loop.iterations == cpu.iterations);
    CHECK(device_loop.halved == cpu.halved);
    CHECK(device_loop.largest_seen == cpu.largest_seen);
    CHECK(device_loop.largest_seen_nvals == cpu.largest_seen_nvals);
    CHECK(host_loop.largest_seen == cpu.largest_seen);
  }
}

TEST_CASE("repeat_while on cuda refuses bodies that need the host, and runs nothing of them") {
  if (!grb::cuda_available()) {
    MESSAGE("cuda backend not available here: device loop cases SKIPPED");
    return;
  }
  const Index n = 64;
  grb::Vector<std::uint64_t> x = ramp(n, 3, Backend::cuda);
  grb::Scalar<bool> more(false, Backend::cuda);
  SUBCASE("a count read back") {
    CHECK_THROWS_AS(grb::repeat_while(more, [&] { (void)x.nvals(); }), grb::NotInLoop);
  }
  SUBCASE("a scalar read back") {
    CHECK_THROWS_AS(grb::repeat_while(more, [&] { (void)more.value(); }), grb::NotInLoop);
  }
  SUBCASE("an output stored sparse") {
    grb::Vector<std::uint64_t> sparse(n, Backend::cuda);
    CHECK_THROWS_AS(grb::repeat_while(
                        more, [&] { grb::apply(sparse, grb::no_mask, grb::no_accum, halve{}, x); }),
                    grb::NotInLoop);
  }
  // Nothing ran: x still holds its ramp, and the context is usable.
  std::vector<std::uint64_t> values;
  x.extract_dense(values, 0);
  for (Index i = 0; i < n; ++i) CHECK(values[i] == 3 * i);
  CHECK(x.nvals() == n);
}

TEST_CASE("a bad index inside a device loop fails the loop when it ends") {
  if (!grb::cuda_available()) {
    MESSAGE("cuda backend not available here: device loop cases SKIPPED");
    return;
  }
  const Index n = 16;
  grb::Vector<std::uint64_t> x = ramp(n, 1, Backend::cuda);
  auto y = grb::Vector<std::uint64_t>::full(n, 0, Backend::cuda);
  std::vector<Index> ids(n, 3);
  ids[5] = 99;  // outside [0, 16)
  grb::Vector<Index> host_ids(n, Backend::cpu);
  std::vector<Index> positions(n);
  for (Index i = 0; i < n; ++i) positions[i] = i;
  host_ids.build(positions, ids);
  const grb::Vector<Index> device_ids = host_ids.to(Backend::cuda);
  grb::Scalar<bool> more(true, Backend::cuda);
  const grb::IndexList list(
      std::span<const Index>(device_ids.values().data(), device_ids.values().size()),
      Backend::cuda);
  CHECK_THROWS_AS(grb::repeat_while(more,
                                    [&] {
                                      grb::extract(y, grb::no_mask, grb::no_accum, x, list);
                                      grb::reduce(more, grb::lor_monoid<bool>{}, device_ids);
                                    }),
                  grb::IndexOutOfBounds);
}

TEST_CASE("a pull inside a device loop tests its input's presence as each iteration leaves it") {
  // The recorded pull decides on the device whether its input is full (InputPresence). Here the
  // input loses its first two entries and gains the last two in every iteration, so that its
  // count comes back to what it was when the pull was recorded while the input is not full.
  if (!grb::cuda_available()) {
    MESSAGE("cuda backend not available here: device loop cases SKIPPED");
    return;
  }
  const Index n = 4;
  const auto run = [&](grb::LoopMode mode) {
    grb::Matrix<std::uint64_t> identity(n, n, Backend::cuda);
    identity.build(std::vector<Index>{0, 1, 2, 3}, std::vector<Index>{0, 1, 2, 3},
                   std::vector<std::uint64_t>{1, 1, 1, 1});
    grb::Vector<std::uint64_t> x(n, Backend::cuda);
    x.clear_dense();
    x.set_element(0, 10);
    x.set_element(1, 20);
    grb::Vector<bool> last_two(n, Backend::cuda);
    last_two.set_element(2, true);
    last_two.set_element(3, true);
    auto total = grb::Vector<std::uint64_t>::full(n, 0, Backend::cuda);
    auto countdown = grb::Vector<std::uint64_t>::full(1, 4, Backend::cuda);
    grb::Scalar<std::uint64_t> more(0, Backend::cuda);
    const std::uint64_t iterations = grb::repeat_while(
        more,
        [&] {
          grb::mxv(total, grb::no_mask, grb::plus<std::uint64_t>{},
                   grb::plus_times<std::uint64_t>{}, identity, x);
          x.clear_dense();
          grb::assign(x, last_two, grb::no_accum, std::uint64_t{5}, grb::all,
                      grb::Descriptor{.structural_mask = true});
          grb::apply(countdown, grb::no_mask, grb::no_accum, halve{}, countdown);
          grb::reduce(more, grb::max_monoid<std::uint64_t>{}, countdown);
        },
        mode);
    std::vector<std::uint64_t> values;
    total.extract_dense(values, 7);
    CHECK(iterations == 3);  // 4 -> 2 -> 1 -> 0
    CHECK(x.nvals() == 2);
    return values;
  };
  const std::vector<std::uint64_t> expected{10, 20, 10, 10};
  CHECK(run(grb::LoopMode::host) == expected);
  CHECK(run(grb::LoopMode::device) == expected);
}
