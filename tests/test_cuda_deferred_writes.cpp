// The cuda backend's deferred writes: element writes queued as one launch, assigns behind a
// launched product, readers that complete deferred pushes, and chained pushes.
#include <doctest/doctest.h>

#include "deferred_cases.hpp"

using namespace grb::test::deferred;

namespace {

/// Entries of every vector after a run of clear_dense and set_element calls (see the test).
struct Written {
  grb::Vector<std::int32_t> level;
  grb::Vector<Index> parent, frontier;
  grb::Vector<std::int16_t> other;
  grb::Vector<Triple> triple;
};

}  // namespace

TEST_CASE("cuda element writes: clear_dense and set_element queued as one launch, in call order") {
  if (skip_without_cuda()) return;
  const Index n = 5000;
  const auto writes = [&](Backend backend, int interrupt) {
    const bool cuda = backend == Backend::cuda;
    Written w{every_third<std::int32_t>(n), every_third<Index>(n),
              grb::Vector<Index>(n, Backend::cpu), grb::Vector<std::int16_t>(n, Backend::cpu),
              grb::Vector<Triple>(n, Backend::cpu)};
    w.other.make_dense();
    w.triple.make_dense();
    if (cuda) {
      w.level = w.level.to(backend);
      w.parent = w.parent.to(backend);
      w.frontier = grb::Vector<Index>(n, backend);
      w.other = w.other.to(backend);
      w.triple = w.triple.to(backend);
    }
    // A BFS's set-up: both results emptied, an element set in each, the frontier's first.
    w.level.clear_dense();
    w.parent.clear_dense();
    w.level.set_element(4001, 0);
    w.frontier.set_element(4001, 4001);
    w.parent.set_element(4001, 4001);
    if (cuda) CHECK(grb::detail::pending_work() != nullptr);
    if (interrupt == 0) CHECK(w.level.nvals() == 1);  // a reader launches them
    // A fresh count (the 16-bit vector has none yet), an entry set twice, two positions in one
    // call's order, a 12-byte value, and elements set in a vector just cleared (the second
    // cannot join the clear: it waits for the next launch).
    w.other.set_element(10, 5);
    w.other.set_element(10, 6);
    w.other.set_element(11, -1);
    w.triple.set_element(3, Triple(7, 8, 9));
    w.parent.set_element(17, 3);
    if (interrupt == 1) (void)w.frontier.nvals();  // not written since: launches, waits for none
    w.level.clear_dense();  // a clear behind a write to its vector: launched after it
    w.level.set_element(2, 1);
    w.level.set_element(3, 1);
    if (cuda) CHECK(grb::detail::pending_work() != nullptr);
    return w;
  };
  const Written want = writes(Backend::cpu, -1);
  for (const int interrupt : {-1, 0, 1}) {
    CAPTURE(interrupt);
    const Written got = writes(Backend::cuda, interrupt);
    check_same(want.level, got.level);
    check_same(want.parent, got.parent);
    check_same(want.frontier, got.frontier);
    check_same(want.other, got.other);
    check_same(want.triple, got.triple);
    CHECK_FALSE(grb::detail::has_deferred_work());
  }
  CHECK(want.level.nvals() == 2);
  CHECK(want.parent.nvals() == 2);
  CHECK(want.other.nvals() == 2);
  // Inside a hold (an operation's own reads), a write that cannot join the pending ones is
  // launched at once, after them.
  grb::Vector<Index> held = every_third<Index>(n).to(Backend::cuda);
  held.clear_dense();
  held.set_element(1, 5);
  {
    const grb::detail::DeferredHold hold;
    held.set_element(2, 6);  // the clear has its element already
  }
  CHECK(held.nvals() == 2);
  CHECK(held.extract_element(1) == Index{5});
  CHECK(held.extract_element(2) == Index{6});
  // In blocking mode each is launched at once.
  grb::set_mode(grb::Mode::blocking);
  grb::Vector<Index> v = every_third<Index>(n).to(Backend::cuda);
  v.clear_dense();
  CHECK_FALSE(grb::detail::has_deferred_work());
  v.set_element(9, 1);
  CHECK_FALSE(grb::detail::has_deferred_work());
  grb::set_mode(grb::Mode::nonblocking);
  CHECK(v.nvals() == 1);
}

namespace {

/// Targets of every value size for the assigns behind a product, each holding every third
/// position before (so that entries overwritten are not counted again).
struct Targets {
  grb::Vector<Index> parent;
  grb::Vector<bool> flag;
  grb::Vector<std::int16_t> small;
  grb::Vector<double> weight;
  grb::Vector<Triple> triple;  // 12 bytes: not queued behind, the product is waited for
};

Targets targets_on(Backend backend, Index n) {
  std::vector<Index> indices;
  std::vector<Triple> triples;
  for (Index i = 0; i < n; i += 3) indices.push_back(i), triples.emplace_back(1, 2, 3);
  Targets t{every_third<Index>(n), every_third<bool>(n), every_third<std::int16_t>(n),
            every_third<double>(n), grb::Vector<Triple>(n, Backend::cpu)};
  t.triple.build(indices, triples);
  if (backend == Backend::cuda) {
    t.parent = t.parent.to(backend);
    t.flag = t.flag.to(backend);
    t.small = t.small.to(backend);
    t.weight = t.weight.to(backend);
    t.triple = t.triple.to(backend);
  }
  return t;
}

}  // namespace

TEST_CASE("cuda assigns behind a launched product: two targets of any size in one launch, one "
          "alone, one vector twice, a 12-byte one waits") {
  if (skip_without_cuda()) return;
  // 6 000 sources x 20 edges: a push launched at once, its output a list; a pull: dense, and
  // listed or not by its count (3 000 x 8: ~24 000 of 131 072 outputs; 300 x 8: a list).
  const Index n = 1 << 17;
  for (const auto& [sources, degree, strategy] :
       {std::tuple{Index{6000}, Index{20}, grb::MxvStrategy::push},
        std::tuple{Index{3000}, Index{8}, grb::MxvStrategy::pull},
        std::tuple{Index{300}, Index{8}, grb::MxvStrategy::pull}}) {
    CAPTURE(sources);
    const grb::Matrix<std::int32_t> a = random_rows(n, sources, degree, sources + 1);
    const grb::Matrix<std::int32_t> a_cuda = a.to(Backend::cuda);
    for (int which = 0; which < 5; ++which) {
      CAPTURE(which);
      const auto run = [&](const grb::Matrix<std::int32_t>& m) {
        const bool cuda = m.backend() == Backend::cuda;
        Level level = level_on(m.backend(), m, sources);
        Targets t = targets_on(m.backend(), n);
        const grb::Vector<Index>& q = level.q;
        grb::vxm(level.q, level.visited, grb::no_accum, grb::any_secondi<Index>{}, level.q, m,
                 unvisited(strategy));
        switch (which) {
          case 0:  // 1 byte and the product's own values (4 bytes): launched with the second
            grb::assign(t.flag, q, grb::no_accum, true, grb::all, where_present);
            if (cuda) CHECK(grb::detail::pending_work() != nullptr);
            grb::assign(t.parent, q, grb::no_accum, q, grb::all, where_present);
            if (cuda) CHECK(grb::detail::pending_work() == nullptr);
            break;
          case 1:  // 8 bytes and 2
            grb::assign(t.weight, q, grb::no_accum, 2.5, grb::all, where_present);
            grb::assign(t.small, q, grb::no_accum, std::int16_t{-3}, grb::all, where_present);
            if (cuda) CHECK(grb::detail::pending_work() == nullptr);
            break;
          case 2:  // one alone: pending until something else is called
            grb::assign(t.weight, q, grb::no_accum, 2.5, grb::all, where_present);
            if (cuda) CHECK(grb::detail::pending_work() != nullptr);
            break;
          case 3:  // one vector twice: the first launched alone, the second written last
            grb::assign(t.small, q, grb::no_accum, std::int16_t{5}, grb::all, where_present);
            grb::assign(t.small, q, grb::no_accum, std::int16_t{7}, grb::all, where_present);
            if (cuda) CHECK(grb::detail::pending_work() != nullptr);
            break;
          default:  // 12 bytes: the product is waited for, and the assign runs after it
            grb::assign(t.triple, q, grb::no_accum, 4.0, grb::all, where_present);
            if (cuda) CHECK_FALSE(grb::detail::has_deferred_work());
            break;
        }
        // The product itself is still in flight (bar the 12-byte case).
        if (cuda && which != 4) CHECK(grb::detail::has_deferred_work());
        return std::pair{std::move(level), std::move(t)};
      };
      const auto [want_level, want] = run(a);
      const auto [got_level, got] = run(a_cuda);
      check_same(want_level.q, got_level.q);
      check_same(want.parent, got.parent);
      check_same(want.flag, got.flag);
      check_same(want.small, got.small);
      check_same(want.weight, got.weight);
      check_same(want.triple, got.triple);
      CHECK(want_level.q.nvals() > 200);
    }
  }
  CHECK_FALSE(grb::detail::has_deferred_work());
}

TEST_CASE("cuda deferred push: completed by readers, moves, other operations, destruction") {
  if (skip_without_cuda()) return;
  const Index n = 1 << 14;
  const grb::Matrix<std::int32_t> a = random_rows(n, 200, 30, 5);
  Level want = level_on(Backend::cpu, a, 200);
  run_level(want, a, Deferral::none);
  const grb::Matrix<std::int32_t> a_cuda = a.to(Backend::cuda);
  Level got = level_on(Backend::cuda, a_cuda, 200);
  SUBCASE("the result moved away before it is read") {
    grb::vxm(got.q, got.visited, grb::no_accum, grb::any_secondi<Index>{}, got.q, a_cuda,
             unvisited());
    const grb::Vector<Index> moved = std::move(got.q);
    CHECK_FALSE(grb::detail::has_deferred_work());
    check_same(want.q, moved);
  }
  SUBCASE("the mask destroyed before the result is read") {
    {
      grb::Vector<std::int32_t> mask = got.visited;
      grb::vxm(got.q, mask, grb::no_accum, grb::any_secondi<Index>{}, got.q, a_cuda, unvisited());
      CHECK(grb::detail::pending_work() != nullptr);
    }
    CHECK_FALSE(grb::detail::has_deferred_work());
    check_same(want.q, got.q);
  }
  SUBCASE("the matrix replaced before the result is read") {
    grb::Matrix<std::int32_t> local = a_cuda;
    grb::vxm(got.q, got.visited, grb::no_accum, grb::any_secondi<Index>{}, got.q, local,
             unvisited());
    local = grb::Matrix<std::int32_t>(n, n, Backend::cuda);  // frees the entries the push reads
    CHECK_FALSE(grb::detail::has_deferred_work());
    check_same(want.q, got.q);
  }
  SUBCASE("an assign that cannot fuse (an accumulator) completes the push first") {
    grb::vxm(got.q, got.visited, grb::no_accum, grb::any_secondi<Index>{}, got.q, a_cuda,
             unvisited());
    grb::assign(got.parent, got.q, grb::plus<Index>{}, got.q, grb::all, where_present);
    CHECK_FALSE(grb::detail::has_deferred_work());
    grb::Vector<Index> parent = level_on(Backend::cpu, a, 200).parent;
    grb::assign(parent, want.q, grb::plus<Index>{}, want.q, grb::all, where_present);
    check_same(parent, got.parent);
  }
  SUBCASE("a sparse target (not in place yet) completes the push first") {
    grb::Vector<Index> sparse_target(n, Backend::cuda);
    grb::vxm(got.q, got.visited, grb::no_accum, grb::any_secondi<Index>{}, got.q, a_cuda,
             unvisited());
    grb::assign(sparse_target, got.q, grb::no_accum, got.q, grb::all, where_present);
    CHECK_FALSE(grb::detail::has_deferred_work());
    check_same(want.q, sparse_target);
  }
}

namespace {

/// A side x side grid, each vertex joined to its 4 neighbours (rows of at most 4 entries).
grb::Matrix<std::int32_t> grid_of(Index side) {
  std::vector<Index> rows, cols;
  for (Index r = 0; r < side; ++r)
    for (Index c = 0; c < side; ++c) {
      const Index v = r * side + c;
      if (c + 1 < side) rows.push_back(v), cols.push_back(v + 1), rows.push_back(v + 1), cols.push_back(v);
      if (r + 1 < side) rows.push_back(v), cols.push_back(v + side), rows.push_back(v + side), cols.push_back(v);
    }
  grb::Matrix<std::int32_t> a(side * side, side * side, Backend::cpu);
  a.build(rows, cols, std::vector<std::int32_t>(rows.size(), 1));
  return a;
}

struct LateSearch {
  grb::Vector<std::int32_t> level;
  grb::Vector<Index> parent;
  std::vector<Index> frontiers;  // the size of each level's frontier, as the host saw it
};

/// bfs/linear_algebra.hpp's loop (the frontier tested a level late), with checks of what is
/// deferred on the way; `interrupt`: at this depth a reader that completes everything.
LateSearch late_search(const grb::Matrix<std::int32_t>& a, Index source, int interrupt = -1) {
  const Index n = a.nrows();
  const Backend backend = a.backend();
  const bool cuda = backend == Backend::cuda;
  LateSearch search{grb::Vector<std::int32_t>(n, backend), grb::Vector<Index>(n, backend), {}};
  search.level.set_element(source, 0);
  search.parent.set_element(source, source);
  std::array<grb::Vector<Index>, 2> frontier{grb::Vector<Index>(n, backend),
                                             grb::Vector<Index>(n, backend)};
  frontier[0].set_element(source, source);
  for (std::int32_t depth = 1;; ++depth) {
    CAPTURE(depth);
    const grb::Vector<Index>& q = frontier[(depth - 1) % 2];
    grb::Vector<Index>& next = frontier[depth % 2];
    grb::vxm(next, search.level, grb::no_accum, grb::any_secondi<Index>{}, q, a, unvisited(
                 grb::MxvStrategy::automatic));
    // From the third level on, the push queues behind the one that makes q, still in flight.
    // (On these short rows the first level's push is left pending, and its assigns, whose
    // targets are sparse until then, complete it.)
    if (cuda && depth > 2 && depth != interrupt + 1) {
      CHECK(grb::detail::pending_work() != nullptr);
      CHECK(grb::detail::deferred_state().launched.size() == 1);
    }
    grb::assign(search.parent, next, grb::no_accum, next, grb::all, where_present);
    grb::assign(search.level, next, grb::no_accum, depth, grb::all, where_present);
    if (depth == interrupt) (void)search.level.nvals();  // a target: completes everything
    const Index found = q.nvals();
    // q's push is finished; the new level's is launched, not waited for.
    if (cuda && depth > 1 && depth != interrupt) {
      CHECK(grb::detail::pending_work() == nullptr);
      CHECK(grb::detail::deferred_state().launched.size() == 1);
    }
    if (found == 0) break;
    search.frontiers.push_back(found);
  }
  return search;
}

}  // namespace

TEST_CASE("cuda chained pushes: a BFS that tests its frontier a level late, on short rows") {
  if (skip_without_cuda()) return;
  const Index side = 50;
  const grb::Matrix<std::int32_t> a = grid_of(side);
  const grb::Matrix<std::int32_t> a_cuda = a.to(Backend::cuda);
  const Index source = side / 3;
  const LateSearch want = late_search(a, source);
  REQUIRE(want.frontiers.size() > 60);
  for (const int interrupt : {-1, 5}) {
    CAPTURE(interrupt);
    const LateSearch got = late_search(a_cuda, source, interrupt);
    CHECK(got.frontiers == want.frontiers);
    check_same(want.level, got.level);
    // Parents: any neighbour one level up (the grid is connected: every vertex has a level).
    std::vector<Index> vertices, parents, leveled;
    std::vector<std::int32_t> levels;
    got.parent.extract_tuples(vertices, parents);
    want.level.extract_tuples(leveled, levels);
    REQUIRE(leveled.size() == std::size_t(a.nrows()));
    REQUIRE(vertices == leveled);
    const auto& csr = a.csr();
    for (std::size_t v = 0; v < vertices.size(); ++v) {
      if (vertices[v] == source) {
        CHECK(parents[v] == source);
        continue;
      }
      const Index p = parents[v];
      REQUIRE(p < a.nrows());
      CHECK(levels[p] == levels[v] - 1);
      const Index* begin = csr.col_indices.data() + csr.row_offsets[p];
      const Index* end = csr.col_indices.data() + csr.row_offsets[p + 1];
      CHECK(std::binary_search(begin, end, vertices[v]));
    }
  }
  CHECK_FALSE(grb::detail::has_deferred_work());
}

TEST_CASE("cuda product over an empty input: an empty result, whatever w held") {
  if (skip_without_cuda()) return;
  const grb::Matrix<std::int32_t> a = grid_of(8).to(Backend::cuda);
  grb::Vector<Index> empty(64, Backend::cuda);
  grb::Vector<Index> w = grb::Vector<Index>::full(64, 3, Backend::cuda);
  grb::vxm(w, grb::no_mask, grb::no_accum, grb::any_secondi<Index>{}, empty, a);
  CHECK(w.nvals() == 0);
  grb::Vector<Index> replaced = grb::Vector<Index>::full(64, 3, Backend::cuda);
  grb::Vector<std::int32_t> mask = every_third<std::int32_t>(64).to(Backend::cuda);
  grb::vxm(replaced, mask, grb::no_accum, grb::any_secondi<Index>{}, empty, a, unvisited());
  CHECK(replaced.nvals() == 0);
  // No replace: w keeps what the mask protects.
  grb::Vector<Index> kept = grb::Vector<Index>::full(64, 3, Backend::cuda);
  grb::vxm(kept, mask, grb::no_accum, grb::any_secondi<Index>{}, empty, a,
           grb::Descriptor{.structural_mask = true, .complement_mask = true});
  CHECK(kept.nvals() == 22);
}
