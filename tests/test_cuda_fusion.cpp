// The cuda backend's deferred products (include/grb/cuda/deferred.cuh): pushes with the assigns
// fused into them, pulls with assigns queued behind them, the edges a product's result carries,
// against the cpu backend and blocking mode.
#include <doctest/doctest.h>

#include "deferred_cases.hpp"

using namespace grb::test::deferred;

TEST_CASE("cuda deferred push: fused or queued-behind assigns match the cpu and blocking mode") {
  if (skip_without_cuda()) return;
  const Index n = 1 << 17;
  // 300 sources x 40 edges: the one-launch small push; 6 000 x 20: the scanned push, too large
  // to wait for assigns (launched at once, the assigns queued behind it, reading its output list
  // and its count on the device, the list sized by a bound above the count); rows of 8: a thread
  // per row. At most 32 sources with more edges (1 x 70 000, 20 x 4 000, 32 x 2 100): launched
  // at once, each block scanning the sources' rows itself.
  for (const auto& [sources, degree] : {std::pair<Index, Index>{300, 40}, {6000, 20}, {3000, 8},
                                        {1, 70000}, {20, 4000}, {32, 2100}}) {
    CAPTURE(sources);
    check_fused_level(random_rows(n, sources, degree, sources), sources,
                      sources * degree <= 65536 ? Deferral::fused : Deferral::behind,
                      grb::MxvStrategy::push);
  }
}

TEST_CASE("cuda pull level: launched, the assigns queued behind it; they match the cpu and "
          "blocking mode") {
  if (skip_without_cuda()) return;
  // Columns of about 1 entry: a thread per output; padded to 300: a warp per output. Fusing the
  // assigns into a pull was measured slower than running them after it (docs/bfs.md), so
  // they queue behind it, reading its result on the device: 24 000 of 131 072 outputs and 3 000
  // of 4 096 are dense, walked position by position; 2 400 of 131 072 (and about 960 of 16 384 with
  // a warp per output) are sparse, walked as the pull's output list, and adopted as that list;
  // about 10 700 of 131 072 are more than size / dense_ratio, but within size / list_ratio: a
  // list too.
  check_fused_level(random_rows(1 << 17, 3000, 8, 11), 3000, Deferral::behind,
                    grb::MxvStrategy::pull);
  check_fused_level(random_rows(1 << 17, 2000, 8, 15), 2000, Deferral::behind,
                    grb::MxvStrategy::pull);
  check_fused_level(random_rows(1 << 12, 100, 30, 12, 300), 100, Deferral::behind,
                    grb::MxvStrategy::pull);
  check_fused_level(random_rows(1 << 17, 300, 8, 13), 300, Deferral::behind,
                    grb::MxvStrategy::pull);
  check_fused_level(random_rows(1 << 14, 48, 30, 14, 256), 48, Deferral::behind,
                    grb::MxvStrategy::pull);
}

TEST_CASE("cuda launched push: sparse targets (a BFS's first level) are made dense behind it") {
  if (skip_without_cuda()) return;
  // 6 000 sources x 20 edges: the push is launched at once; the targets hold one entry each, as
  // a BFS's levels and parents do on its first level, set on the device.
  const Index n = 1 << 17, sources = 6000;
  const grb::Matrix<std::int32_t> a = random_rows(n, sources, 20, 21);
  const auto start = [&](const grb::Matrix<std::int32_t>& matrix) {
    const Backend backend = matrix.backend();
    Level level{grb::Vector<Index>(n, Backend::cpu), grb::Vector<Index>(n, backend),
                grb::Vector<std::int32_t>(n, backend)};
    for (Index k = 0; k < sources; ++k) level.q.set_element(k, 1000 + k);
    level.q = level.q.to(backend);
    level.parent.set_element(n - 1, 5);
    level.visited.set_element(n - 1, 0);
    return level;
  };
  Level want = start(a);
  run_level(want, a, Deferral::none);
  const grb::Matrix<std::int32_t> a_cuda = a.to(Backend::cuda);
  Level got = start(a_cuda);
  REQUIRE(got.visited.format() == grb::VectorFormat::sparse);
  run_level(got, a_cuda, Deferral::behind);
  check_same_level(want, got);
  CHECK(want.q.nvals() > 50000);
}

TEST_CASE("cuda product: its result carries its entries' edges for the next push/pull choice") {
  if (skip_without_cuda()) return;
  const Index n = 1 << 17;
  // 300 x 40: the one-launch small push, deferred; 3 000 x 20: the scanned push, deferred;
  // 4 000 x 20: the scanned push, launched at once; then a pull. Rows longer than a push by rows
  // takes (16) make the products sum their outputs' edges.
  for (const auto& [sources, degree, strategy] :
       {std::tuple{Index{300}, Index{40}, grb::MxvStrategy::push},
        std::tuple{Index{3000}, Index{20}, grb::MxvStrategy::push},
        std::tuple{Index{4000}, Index{20}, grb::MxvStrategy::push},
        std::tuple{Index{4000}, Index{20}, grb::MxvStrategy::pull}}) {
    CAPTURE(sources);
    const grb::Matrix<std::int32_t> a = random_rows(n, sources, degree, sources + 1, 3);
    const grb::Matrix<std::int32_t> a_cuda = a.to(Backend::cuda);
    Level level = level_on(Backend::cuda, a_cuda, sources);
    grb::vxm(level.q, level.visited, grb::no_accum, grb::any_secondi<Index>{}, level.q, a_cuda,
             unvisited(strategy));
    std::vector<Index> indices;
    std::vector<Index> values;
    level.q.extract_tuples(indices, values);
    REQUIRE(indices.size() > 1000);
    Offset edges = 0, longest = 0;  // the outputs' row lengths in A, on the host
    for (Index i : indices) {
      edges += a.csr().row_offsets[i + 1] - a.csr().row_offsets[i];
      longest = std::max<Offset>(longest, a.csr().row_offsets[i + 1] - a.csr().row_offsets[i]);
    }
    const void* rows = a_cuda.csr().row_offsets.data();
    CHECK(grb::detail::Storage::row_edges(level.q, rows) == std::optional<Offset>(edges));
    CHECK(grb::detail::Storage::longest_row(level.q, rows) == std::optional<Offset>(longest));
    CHECK_FALSE(grb::detail::Storage::row_edges(level.q, a_cuda.csr().col_indices.data())
                    .has_value());  // other rows
    grb::Vector<Index> copy = level.q;
    CHECK(grb::detail::Storage::row_edges(copy, rows) == std::optional<Offset>(edges));
    copy.make_sparse();
    CHECK(grb::detail::Storage::row_edges(copy, rows) ==
          std::optional<Offset>(edges));  // the same entries
    CHECK(grb::detail::Storage::longest_row(copy, rows) == std::optional<Offset>(longest));
    level.q.set_element(indices.front(), 7);
    CHECK_FALSE(grb::detail::Storage::row_edges(level.q, rows).has_value());  // a change drops it
    CHECK_FALSE(grb::detail::Storage::longest_row(level.q, rows).has_value());
  }
  // A rectangular matrix: an output is no row of it, so nothing is summed (nor read past its
  // row offsets).
  const Index inputs = 100, outputs = 5000;
  std::vector<Index> rows, cols;
  for (Index r = 0; r < inputs; ++r)
    for (Index j = 0; j < 40; ++j) rows.push_back(r), cols.push_back(r * 40 + j);
  grb::Matrix<std::int32_t> wide(inputs, outputs, Backend::cpu);
  wide.build(rows, cols, std::vector<std::int32_t>(rows.size(), 1));
  const grb::Matrix<std::int32_t> wide_cuda = wide.to(Backend::cuda);
  grb::Vector<Index> u = grb::Vector<Index>::full(inputs, 1, Backend::cuda);
  for (auto strategy : {grb::MxvStrategy::push, grb::MxvStrategy::pull}) {
    grb::Vector<Index> w(outputs, Backend::cuda);
    grb::vxm(w, grb::no_mask, grb::no_accum, grb::any_secondi<Index>{}, u, wide_cuda,
             grb::Descriptor{.strategy = strategy});
    CHECK(w.nvals() == inputs * 40);
    CHECK_FALSE(grb::detail::Storage::row_edges(w, wide_cuda.csr().row_offsets.data()).has_value());
  }
}

TEST_CASE("cuda push by rows: lanes from the input's own longest row, whole rows even where "
          "that bound is wrong") {
  if (skip_without_cuda()) return;
  // 1 000 sources of 5 edges each, and one vertex off the search with 70 000: by the matrix's
  // longest row, a scanned push. The frontier's rows say 5 at most, so a group of 8 lanes per
  // source takes it, with no scan. Told 2 (a stale bound), groups of 2 lanes walk each row in
  // three steps: the same result.
  const Index n = 1 << 17, sources = 1000;
  std::vector<Index> rows, cols;
  for (Index k = 0; k < sources; ++k)
    for (Index j = 0; j < 5; ++j) rows.push_back(k), cols.push_back(sources + 5 * k + j);
  for (Index j = 0; j < 70000; ++j) rows.push_back(n - 1), cols.push_back(10000 + j);
  grb::Matrix<std::int32_t> a(n, n, Backend::cpu);
  a.build(rows, cols, std::vector<std::int32_t>(rows.size(), 1));
  const grb::Matrix<std::int32_t> a_cuda = a.to(Backend::cuda);
  Level want = level_on(Backend::cpu, a, sources);
  run_level(want, a, Deferral::none);
  for (Offset bound : {Offset{5}, Offset{2}}) {
    CAPTURE(bound);
    Level got = level_on(Backend::cuda, a_cuda, sources);
    grb::detail::Storage::set_row_edges(got.q, a_cuda.csr().row_offsets.data(), Offset{sources} * 5,
                                        bound);
    run_level(got, a_cuda, Deferral::fused);
    check_same_level(want, got);
  }
  CHECK(want.q.nvals() > 3000);
}

TEST_CASE("cuda push: sized by the edges its input carries, not by the longest row's bound") {
  if (skip_without_cuda()) return;
  // Vertices 0-99 reach 500 others (5 each), which reach 1 000 more (2 each); the last vertex,
  // off the search, has 70 000 out-edges. By the longest row, either push reads up to all 72 500
  // edges: a scanned push, launched at once, its assigns queued behind it. The second push's
  // input carries its exact edges (at most 1 000), so it is a small push, deferred, and its
  // assigns fuse into it.
  const Index n = 1 << 17;
  std::vector<Index> rows, cols;
  for (Index k = 0; k < 100; ++k)
    for (Index j = 0; j < 5; ++j) rows.push_back(k), cols.push_back(100 + 5 * k + j);
  for (Index t = 100; t < 600; ++t)
    for (Index j = 0; j < 2; ++j) rows.push_back(t), cols.push_back(600 + 2 * (t - 100) + j);
  for (Index j = 0; j < 70000; ++j) rows.push_back(n - 1), cols.push_back(2000 + j);
  grb::Matrix<std::int32_t> a(n, n, Backend::cpu);
  a.build(rows, cols, std::vector<std::int32_t>(rows.size(), 1));
  const grb::Matrix<std::int32_t> a_cuda = a.to(Backend::cuda);
  Level want = level_on(Backend::cpu, a, 100);
  run_level(want, a, Deferral::none);
  run_level(want, a, Deferral::none);
  Level got = level_on(Backend::cuda, a_cuda, 100);
  run_level(got, a_cuda, Deferral::behind);
  run_level(got, a_cuda, Deferral::fused);
  check_same_level(want, got);
  CHECK(want.q.nvals() > 300);
}

TEST_CASE("cuda set_element on a product's unsorted result: an overwrite and an insertion") {
  if (skip_without_cuda()) return;
  // 100 sources x 20 edges: about 2 000 outputs of 131 072, left sparse in the order the push
  // found them; set_element overwrites one in place and adds one after the others, on the device.
  const Index n = 1 << 17;
  const grb::Matrix<std::int32_t> a = random_rows(n, 100, 20, 31);
  const grb::Matrix<std::int32_t> a_cuda = a.to(Backend::cuda);
  Level want = level_on(Backend::cpu, a, 100);
  run_level(want, a, Deferral::none);
  Level got = level_on(Backend::cuda, a_cuda, 100);
  run_level(got, a_cuda, Deferral::fused);
  REQUIRE(got.q.nvals() > 1000);
  CHECK(got.q.format() == grb::VectorFormat::sparse);
  std::vector<Index> indices;
  std::vector<Index> values;
  want.q.extract_tuples(indices, values);
  Index absent = 0;
  while (std::binary_search(indices.begin(), indices.end(), absent)) ++absent;
  for (Level* level : {&want, &got}) {
    level->q.set_element(indices[indices.size() / 2], 77);
    level->q.set_element(absent, 88);
  }
  check_same(want.q, got.q);
  CHECK(got.q.nvals() == indices.size() + 1);
}

TEST_CASE("cuda deferred push: a fused scalar assign of a 12-byte type") {
  if (skip_without_cuda()) return;
  const Index n = 1 << 14, sources = 200;
  const grb::Matrix<std::int32_t> a = random_rows(n, sources, 30, 21);
  const double scalar = -7;
  const auto level_into_triples = [&](Backend backend, const grb::Matrix<std::int32_t>& m) {
    Level level = level_on(backend, m, sources);
    std::vector<Index> indices;
    std::vector<Triple> values;
    for (Index i = 0; i < n; i += 3)
      indices.push_back(i), values.emplace_back(static_cast<std::int32_t>(i), 2, 3);
    grb::Vector<Triple> triples(n, Backend::cpu);
    triples.build(indices, values);
    REQUIRE(triples.format() == grb::VectorFormat::dense);
    if (backend == Backend::cuda) triples = triples.to(backend);
    grb::vxm(level.q, level.visited, grb::no_accum, grb::any_secondi<Index>{}, level.q, m,
             unvisited());
    grb::assign(triples, level.q, grb::no_accum, scalar, grb::all, where_present);
    if (backend == Backend::cuda) CHECK(grb::detail::pending_work() != nullptr);
    return triples;
  };
  const grb::Vector<Triple> want = level_into_triples(Backend::cpu, a);
  check_same(want, level_into_triples(Backend::cuda, a.to(Backend::cuda)));
  CHECK(want.nvals() > n / 3);
}
