// Shared by the cuda deferred-work tests (test_cuda_fusion.cpp, test_cuda_deferred_writes.cpp):
// graphs, vectors and BFS levels run on both backends and in both modes, and their checks.
#pragma once

#include <doctest/doctest.h>

#include <grb/grb.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <random>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <vector>

namespace grb::test::deferred {
namespace {  // each test program its own copy

using grb::Backend;
using grb::Index;
using grb::Offset;

bool skip_without_cuda() {
  if (grb::cuda_available()) return false;
  MESSAGE("cuda backend not available here: deferred-push cases SKIPPED");
  return true;
}

/// A graph whose first `sources` rows have `degree` edges each, to distinct random targets: each
/// output of a push or pull over those rows has one parent, so `any` has one answer to give. Every
/// column also gets `padding` edges from the other rows (off the frontier): long columns make a
/// pull take a warp per output.
grb::Matrix<std::int32_t> random_rows(Index n, Index sources, Index degree, std::uint64_t seed,
                                      Index padding = 0) {
  REQUIRE(sources * degree <= n);
  REQUIRE(padding <= n - sources);
  std::mt19937_64 rng(seed);
  std::vector<Index> targets(n);
  for (Index i = 0; i < n; ++i) targets[i] = i;
  std::shuffle(targets.begin(), targets.end(), rng);
  std::vector<Index> rows, cols;
  for (Index k = 0; k < sources; ++k)
    for (Index j = 0; j < degree; ++j) rows.push_back(k), cols.push_back(targets[k * degree + j]);
  for (Index j = 0; j < n; ++j)
    for (Index p = 0; p < padding; ++p)
      rows.push_back(sources + (j * 7 + p) % (n - sources)), cols.push_back(j);
  grb::Matrix<std::int32_t> a(n, n, Backend::cpu);
  a.build(rows, cols, std::vector<std::int32_t>(rows.size(), 1));
  return a;
}

/// A dense vector with every third position present (value = position % 7).
template <class T>
grb::Vector<T> every_third(Index n) {
  std::vector<Index> indices;
  std::vector<T> values;
  for (Index i = 0; i < n; i += 3) indices.push_back(i), values.push_back(static_cast<T>(i % 7));
  grb::Vector<T> v(n, Backend::cpu);
  v.build(indices, values);
  REQUIRE(v.format() == grb::VectorFormat::dense);
  return v;
}

template <class T>
void check_same(const grb::Vector<T>& want, const grb::Vector<T>& got) {
  std::vector<Index> want_indices, got_indices;
  std::vector<T> want_values, got_values;
  want.extract_tuples(want_indices, want_values);
  got.extract_tuples(got_indices, got_values);
  CHECK(got_indices == want_indices);
  CHECK(got_values == want_values);
  CHECK(got.nvals() == want.nvals());
}

/// One BFS-like level: q<!visited> = q any.secondi A; parent<q> = q; visited<q> = depth.
struct Level {
  grb::Vector<Index> q, parent;
  grb::Vector<std::int32_t> visited;
};

Level level_on(Backend backend, const grb::Matrix<std::int32_t>& a, Index sources) {
  const Index n = a.nrows();
  Level level{grb::Vector<Index>(n, Backend::cpu), every_third<Index>(n),
              every_third<std::int32_t>(n)};
  for (Index k = 0; k < sources; ++k) level.q.set_element(k, 1000 + k);
  if (backend == Backend::cuda) {
    level.q = level.q.to(backend);
    level.parent = level.parent.to(backend);
    level.visited = level.visited.to(backend);
  }
  return level;
}

grb::Descriptor unvisited(grb::MxvStrategy strategy = grb::MxvStrategy::push) {
  return {.replace = true, .structural_mask = true, .complement_mask = true, .strategy = strategy};
}
const grb::Descriptor where_present{.structural_mask = true};

/// Where a level's product is when both its assigns have been called: completed, pending with
/// the assigns fused into it, or launched with the assigns queued behind it on the device.
enum class Deferral { none, fused, behind };

void run_level(Level& level, const grb::Matrix<std::int32_t>& a, Deferral expected,
               grb::MxvStrategy strategy = grb::MxvStrategy::push) {
  grb::vxm(level.q, level.visited, grb::no_accum, grb::any_secondi<Index>{}, level.q, a,
           unvisited(strategy));
  grb::assign(level.parent, level.q, grb::no_accum, level.q, grb::all, where_present);
  grb::assign(level.visited, level.q, grb::no_accum, std::int32_t{9}, grb::all, where_present);
  // Neither assign completed the push (as an assign that reads its result on the host would).
  switch (expected) {
    case Deferral::fused: CHECK(grb::detail::pending_work() != nullptr); break;
    case Deferral::behind:
      CHECK(grb::detail::has_deferred_work());
      CHECK(grb::detail::pending_work() == nullptr);
      break;
    case Deferral::none: CHECK_FALSE(grb::detail::has_deferred_work()); break;
  }
}

/// The same frontier, parents and levels.
void check_same_level(const Level& want, const Level& got) {
  check_same(want.q, got.q);
  check_same(want.parent, got.parent);
  check_same(want.visited, got.visited);
}

/// A level on `a` with the first `sources` vertices as frontier, in non-blocking mode (the
/// assigns fused into the product, or queued behind it, as `expected` says) and in blocking mode
/// on the GPU, against the cpu backend. One assign writes the product's own mask, and both
/// targets hold entries (every third position) before the level.
void check_fused_level(const grb::Matrix<std::int32_t>& a, Index sources, Deferral expected,
                       grb::MxvStrategy strategy) {
  const grb::Matrix<std::int32_t> a_cuda = a.to(Backend::cuda);
  Level want = level_on(Backend::cpu, a, sources);
  run_level(want, a, Deferral::none, strategy);
  Level fused = level_on(Backend::cuda, a_cuda, sources);
  run_level(fused, a_cuda, expected, strategy);
  grb::set_mode(grb::Mode::blocking);
  Level blocking = level_on(Backend::cuda, a_cuda, sources);
  run_level(blocking, a_cuda, Deferral::none, strategy);
  grb::set_mode(grb::Mode::nonblocking);
  // Entries that were present already are overwritten, not counted.
  check_same_level(want, fused);
  check_same_level(want, blocking);
  CHECK(want.q.nvals() > 500);
  // A pull's result of few entries is adopted as the list its kernel wrote, not converted.
  if (strategy == grb::MxvStrategy::pull)
    CHECK((fused.q.format() == grb::VectorFormat::sparse) ==
          (std::uint64_t(fused.q.nvals()) * grb::list_ratio <= fused.q.size()));
}


/// A 12-byte value type, made from an arithmetic scalar: a fused assign stores such a scalar byte
/// by byte from two words.
struct Triple {
  std::int32_t a = 0, b = 0, c = 0;
  Triple() = default;
  GRB_HOST_DEVICE Triple(std::int32_t a_, std::int32_t b_, std::int32_t c_) : a(a_), b(b_), c(c_) {}
  GRB_HOST_DEVICE explicit Triple(double v)
      : a(static_cast<std::int32_t>(v)), b(~a), c(0x01020304) {}
  bool operator==(const Triple&) const = default;
};

}  // namespace
}  // namespace grb::test::deferred
