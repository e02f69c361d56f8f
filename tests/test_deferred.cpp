// Deferred work (grb/deferred.hpp): what completes it, and (on the GPU) pushes with the assigns
// fused into them against the cpu backend and against blocking mode.
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

namespace {

using grb::Backend;
using grb::Index;
using grb::Offset;

/// Deferred work that counts its launches and finishes (and can fail), for the rules that hold
/// on every backend. It writes `target`, or (null) every object.
class Probe final : public grb::detail::Deferred {
 public:
  Probe(int& runs, bool fails, const void* target = nullptr, std::vector<int>* order = nullptr,
        int id = 0, bool results = true)
      : runs_(runs), fails_(fails), target_(target), order_(order), id_(id), results_(results) {}
  void launch() override {
    launched = true;
    if (!results_ && order_) order_->push_back(id_);  // nothing to finish: launching is all
  }
  void finish() override {
    CHECK(launched);
    ++runs_;
    if (order_) order_->push_back(id_);
    if (fails_) throw std::runtime_error("probe failed");
  }
  bool writes(const void* object) const override { return !target_ || object == target_; }
  bool has_results() const override { return results_; }
  bool launched = false;

 private:
  int& runs_;
  bool fails_;
  const void* target_;
  std::vector<int>* order_;
  int id_;
  bool results_;
};

void queue_probe(int& runs, bool fails = false) {
  grb::detail::defer(std::make_unique<Probe>(runs, fails));
  REQUIRE(grb::detail::pending_work() != nullptr);
}

}  // namespace

TEST_CASE("deferred work completes before any reader, move or destruction") {
  int runs = 0;
  grb::Vector<int> v(10, Backend::cpu);
  v.set_element(3, 1);
  SUBCASE("nvals") {
    queue_probe(runs);
    CHECK(v.nvals() == 1);
    CHECK(runs == 1);
  }
  SUBCASE("format, values, the unsorted views") {
    queue_probe(runs);
    (void)v.format();
    queue_probe(runs);
    (void)v.values();
    queue_probe(runs);
    (void)v.unsorted_indices();
    CHECK(runs == 3);
  }
  SUBCASE("a move, a copy and a destruction") {
    queue_probe(runs);
    grb::Vector<int> moved = std::move(v);
    queue_probe(runs);
    grb::Vector<int> copy = moved;
    queue_probe(runs);
    { grb::Vector<int> gone(4, Backend::cpu); }
    CHECK(runs == 3);
  }
  SUBCASE("a matrix replaced or destroyed") {
    queue_probe(runs);
    { grb::Matrix<int> gone(3, 3, Backend::cpu); }
    queue_probe(runs);
    grb::Matrix<int> a(2, 2, Backend::cpu);
    a = grb::Matrix<int>(3, 3, Backend::cpu);
    CHECK(runs == 2);
  }
  SUBCASE("grb::wait and a change of mode") {
    queue_probe(runs);
    grb::wait();
    queue_probe(runs);
    grb::set_mode(grb::Mode::blocking);
    CHECK(grb::mode() == grb::Mode::blocking);
    grb::set_mode(grb::Mode::nonblocking);
    CHECK(runs == 2);
  }
  CHECK_FALSE(grb::detail::has_deferred_work());
}

TEST_CASE("deferred work: a hold keeps it pending; an error in a destructor surfaces later") {
  int runs = 0;
  grb::Vector<int> v(10, Backend::cpu);
  queue_probe(runs);
  {
    const grb::detail::DeferredHold hold;
    CHECK(v.nvals() == 0);
    CHECK(runs == 0);
  }
  CHECK(v.nvals() == 0);
  CHECK(runs == 1);
  queue_probe(runs, /*fails=*/true);
  { grb::Vector<int> gone(4, Backend::cpu); }  // runs the probe, which throws: kept
  CHECK(runs == 2);
  CHECK_THROWS_WITH_AS(v.nvals(), "probe failed", std::runtime_error);
  CHECK(v.nvals() == 0);  // thrown once
  queue_probe(runs, /*fails=*/true);
  CHECK_THROWS_AS(grb::wait(), std::runtime_error);
  CHECK_FALSE(grb::detail::has_deferred_work());
}

TEST_CASE("deferred work: nvals waits only for the work that writes its vector") {
  int runs = 0;
  std::vector<int> order;
  grb::Vector<int> v(10, Backend::cpu), w(10, Backend::cpu), x(10, Backend::cpu);
  SUBCASE("pending work that leaves the vector alone is launched, not waited for") {
    grb::detail::defer(std::make_unique<Probe>(runs, false, &w));
    CHECK(v.nvals() == 0);
    CHECK(runs == 0);
    CHECK(grb::detail::pending_work() == nullptr);  // launched
    REQUIRE(grb::detail::has_deferred_work());
    CHECK(w.nvals() == 0);
    CHECK(runs == 1);
  }
  SUBCASE("pending work that writes it completes everything") {
    grb::detail::defer(std::make_unique<Probe>(runs, false, &v));
    CHECK(v.nvals() == 0);
    CHECK(runs == 1);
  }
  SUBCASE("work queued behind other work finishes in order, as far as the vector needs") {
    grb::detail::defer(std::make_unique<Probe>(runs, false, &v, &order, 1));
    grb::detail::defer_behind(std::make_unique<Probe>(runs, false, &w, &order, 2));
    CHECK(grb::detail::pending_work() != nullptr);  // the second; the first is launched
    CHECK(v.nvals() == 0);                          // launches the second, finishes the first
    CHECK(order == std::vector<int>{1});
    grb::detail::defer_behind(std::make_unique<Probe>(runs, false, &x, &order, 3));
    CHECK(x.nvals() == 0);  // written by the newest: everything, oldest first
    CHECK(order == std::vector<int>{1, 2, 3});
  }
  SUBCASE("any other reader finishes everything, oldest first") {
    grb::detail::defer(std::make_unique<Probe>(runs, false, &v, &order, 1));
    grb::detail::defer_behind(std::make_unique<Probe>(runs, false, &w, &order, 2));
    (void)x.format();
    CHECK(order == std::vector<int>{1, 2});
  }
  SUBCASE("an error in launched work surfaces where it is waited for") {
    grb::detail::defer(std::make_unique<Probe>(runs, true, &w));
    CHECK(v.nvals() == 0);
    CHECK_THROWS_WITH_AS(w.nvals(), "probe failed", std::runtime_error);
  }
  CHECK_FALSE(grb::detail::has_deferred_work());
}

TEST_CASE("deferred work without results: skipped by newest_work, dropped once launched") {
  int runs = 0;
  std::vector<int> order;
  grb::Vector<int> v(10, Backend::cpu), w(10, Backend::cpu);
  grb::detail::defer(std::make_unique<Probe>(runs, false, &v, &order, 1));
  grb::detail::Deferred* first = grb::detail::pending_work();
  grb::detail::defer_behind(std::make_unique<Probe>(runs, false, &w, &order, 2, false));
  // The newest work with results is the first, launched; the second waits, pending.
  CHECK(grb::detail::newest_work() == first);
  CHECK(grb::detail::pending_work() != first);
  SUBCASE("a reader of another vector launches it, and it is gone") {
    CHECK(v.nvals() == 0);  // launches the second, finishes the first
    CHECK(order == std::vector<int>{2, 1});
    CHECK_FALSE(grb::detail::has_deferred_work());
  }
  SUBCASE("a reader of its target launches everything") {
    CHECK(w.nvals() == 0);
    CHECK(order == std::vector<int>{2, 1});
    CHECK(runs == 1);  // only the first had anything to finish
    CHECK_FALSE(grb::detail::has_deferred_work());
  }
}

namespace {

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

}  // namespace

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
      CHECK(grb::detail::deferred_state.launched.size() == 1);
    }
    grb::assign(search.parent, next, grb::no_accum, next, grb::all, where_present);
    grb::assign(search.level, next, grb::no_accum, depth, grb::all, where_present);
    if (depth == interrupt) (void)search.level.nvals();  // a target: completes everything
    const Index found = q.nvals();
    // q's push is finished; the new level's is launched, not waited for.
    if (cuda && depth > 1 && depth != interrupt) {
      CHECK(grb::detail::pending_work() == nullptr);
      CHECK(grb::detail::deferred_state.launched.size() == 1);
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
