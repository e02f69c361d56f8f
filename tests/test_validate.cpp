// The BFS, SSSP and CC validators: textbook answers on hand-made graphs pass, and every kind of
// corrupted answer fails with a message naming what is wrong. Where a GPU is present, every BFS
// and SSSP answer checked here is also checked by the device validators (validate/on_device.hpp)
// on a cuda copy of the graph, which must give the same result, message included.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <numeric>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include <grb/grb.hpp>

#include "support.hpp"
#include "validate/on_device.hpp"
#include "validate/validate.hpp"

namespace {

using grb::Index;
using grb::no_index;
namespace validate = grb::validate;

constexpr double inf = std::numeric_limits<double>::infinity();

struct Edge {
  Index from, to;
  double weight = 1;
};

template <class T>
grb::Matrix<T> matrix(Index n, const std::vector<Edge>& edges,
                      grb::Backend backend = grb::Backend::cpu) {
  std::vector<Index> rows, cols;
  std::vector<T> values;
  for (const Edge& e : edges) {
    rows.push_back(e.from);
    cols.push_back(e.to);
    values.push_back(static_cast<T>(e.weight));
  }
  grb::Matrix<T> a(n, n, backend);
  a.build(rows, cols, values);
  return a;
}

struct Search {
  std::vector<std::int32_t> level;
  std::vector<Index> parent;
};

/// Textbook queue BFS over an edge list.
Search textbook_bfs(Index n, const std::vector<Edge>& edges, Index source) {
  std::vector<std::vector<Index>> out(n);
  for (const Edge& e : edges) out[e.from].push_back(e.to);
  Search s{std::vector<std::int32_t>(n, -1), std::vector<Index>(n, no_index)};
  std::queue<Index> queue;
  s.level[source] = 0;
  s.parent[source] = source;
  queue.push(source);
  while (!queue.empty()) {
    const Index u = queue.front();
    queue.pop();
    for (Index v : out[u])
      if (s.level[v] < 0) {
        s.level[v] = s.level[u] + 1;
        s.parent[v] = u;
        queue.push(v);
      }
  }
  return s;
}

struct Paths {
  std::vector<double> distance;
  std::vector<Index> parent;
};

/// Textbook Dijkstra with a binary heap.
Paths textbook_dijkstra(Index n, const std::vector<Edge>& edges, Index source) {
  std::vector<std::vector<std::pair<Index, double>>> out(n);
  for (const Edge& e : edges) out[e.from].push_back({e.to, e.weight});
  Paths p{std::vector<double>(n, inf), std::vector<Index>(n, no_index)};
  using Item = std::pair<double, Index>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  p.distance[source] = 0;
  p.parent[source] = source;
  heap.push({0, source});
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d > p.distance[u]) continue;
    for (const auto& [v, w] : out[u])
      if (d + w < p.distance[v]) {
        p.distance[v] = d + w;
        p.parent[v] = u;
        heap.push({d + w, v});
      }
  }
  return p;
}

/// Textbook union-find labelling: each vertex gets its component's smallest id.
std::vector<Index> textbook_components(Index n, const std::vector<Edge>& edges) {
  std::vector<Index> root(n);
  std::iota(root.begin(), root.end(), Index{0});
  auto find = [&](Index v) {
    while (root[v] != v) v = root[v];
    return v;
  };
  for (const Edge& e : edges) {
    const Index a = find(e.from), b = find(e.to);
    root[std::max(a, b)] = std::min(a, b);
  }
  std::vector<Index> label(n);
  for (Index v = 0; v < n; ++v) label[v] = find(v);
  return label;
}

/// validate::bfs, and where a GPU is present validate::bfs_on_device on a cuda copy of `a`,
/// which must agree exactly.
template <class T>
validate::Result bfs_checked(const grb::Matrix<T>& a, Index source,
                             std::span<const std::int32_t> level, std::span<const Index> parent) {
  validate::Result host = validate::bfs(a, source, level, parent);
#if GRB_WITH_CUDA
  if (grb::cuda_available()) {
    const validate::Result device =
        validate::bfs_on_device(a.to(grb::Backend::cuda), source, level, parent);
    CHECK(device.ok == host.ok);
    CHECK(device.message == host.message);
  }
#endif
  return host;
}

/// validate::sssp, and where a GPU is present validate::sssp_on_device, which must agree.
template <class T>
validate::Result sssp_checked(const grb::Matrix<T>& a, Index source,
                              std::span<const double> distance, std::span<const Index> parent = {},
                              double tolerance = 1e-9) {
  validate::Result host = validate::sssp(a, source, distance, parent, tolerance);
#if GRB_WITH_CUDA
  if (grb::cuda_available()) {
    const validate::Result device =
        validate::sssp_on_device(a.to(grb::Backend::cuda), source, distance, parent, tolerance);
    CHECK(device.ok == host.ok);
    CHECK(device.message == host.message);
  }
#endif
  return host;
}

/// Fails the check unless the validator rejects with a message containing `words`.
void check_rejected(const validate::Result& result, const std::string& words) {
  CHECK_FALSE(result.ok);
  CHECK_FALSE(static_cast<bool>(result));
  INFO("message: ", result.message);
  CHECK(result.message.find(words) != std::string::npos);
}

// BFS graph: 0 -> {1, 2}, 1 -> 3, 2 -> 3, 3 -> 4, 4 -> {5, 1}, 5 -> 3; 6 <-> 7 is unreachable.
const Index bfs_n = 8;
const std::vector<Edge> bfs_edges{{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4},
                                  {4, 5}, {4, 1}, {5, 3}, {6, 7}, {7, 6}};

}  // namespace

TEST_CASE_TEMPLATE("bfs validator accepts textbook searches", T, bool, std::int32_t,
                   std::int64_t, std::uint32_t, std::uint64_t, float, double) {
  const auto a = matrix<T>(bfs_n, bfs_edges);
  for (Index source = 0; source < bfs_n; ++source) {
    CAPTURE(source);
    const Search s = textbook_bfs(bfs_n, bfs_edges, source);
    const auto with_parents = bfs_checked(a, source, std::span<const std::int32_t>(s.level),
                                            std::span<const Index>(s.parent));
    INFO(with_parents.message);
    CHECK(with_parents.ok);
    CHECK(with_parents.message.empty());
    CHECK(bfs_checked(a, source, std::span<const std::int32_t>(s.level), {}).ok);
  }
}

TEST_CASE("bfs validator works on every backend's matrix") {
  const Search s = textbook_bfs(bfs_n, bfs_edges, 0);
  GRB_FOR_EACH_BACKEND(backend) {
    const auto a = matrix<bool>(bfs_n, bfs_edges, backend);
    CHECK(bfs_checked(a, 0, std::span<const std::int32_t>(s.level),
                        std::span<const Index>(s.parent))
              .ok);
  }
}

TEST_CASE("bfs validator rejects every kind of wrong search") {
  const auto a = matrix<bool>(bfs_n, bfs_edges);
  const Search good = textbook_bfs(bfs_n, bfs_edges, 0);
  REQUIRE(good.level == std::vector<std::int32_t>{0, 1, 1, 2, 3, 4, -1, -1});
  const auto run = [&](const Search& s, Index source = 0) {
    return bfs_checked(a, source, std::span<const std::int32_t>(s.level),
                         std::span<const Index>(s.parent));
  };
  const auto run_levels = [&](const std::vector<std::int32_t>& level) {
    return bfs_checked(a, 0, std::span<const std::int32_t>(level), {});
  };

  SUBCASE("wrong sizes and source") {
    Search s = good;
    s.level.pop_back();
    check_rejected(run(s), "level has 7 entries");
    s = good;
    s.parent.push_back(0);
    check_rejected(run(s), "parent has 9 entries");
    check_rejected(run(good, 8), "source 8 outside");
    check_rejected(bfs_checked(matrix<bool>(3, {{0, 1}}), 0, std::span<const std::int32_t>(good.level),
                                 std::span<const Index>{}),
                   "level has 8 entries");
  }
  SUBCASE("source not at level 0, or not its own parent") {
    Search s = textbook_bfs(bfs_n, bfs_edges, 0);
    check_rejected(run(s, 1), "source 1: level 1");
    s.parent[0] = 4;
    check_rejected(run(s), "source 0: parent 4");
  }
  SUBCASE("wrong level") {
    Search s = good;
    s.level[4] = 2;  // its parent 3 has level 2
    check_rejected(run(s), "vertex 4: level 2 but its parent 3 has level 2");
    check_rejected(run_levels(s.level), "4");
    s = good;
    s.level[6] = -3;
    s.parent[6] = 6;
    check_rejected(run(s), "vertex 6: level -3");
    s = good;
    s.level[2] = 0;
    check_rejected(run(s), "vertex 2: level 0 but it is not the source");
  }
  SUBCASE("level too small, levels alone: no in-neighbour one level up") {
    // 0 -> 1 -> 2 with level[2] = 1 satisfies the edge rule; only the in-neighbour rule sees it.
    const std::vector<Edge> path{{0, 1}, {1, 2}};
    const auto p = matrix<bool>(3, path);
    const std::vector<std::int32_t> level{0, 1, 1};
    check_rejected(bfs_checked(p, 0, std::span<const std::int32_t>(level), {}),
                   "vertex 2: level 1 but no in-neighbour has level 0");
  }
  SUBCASE("level too large: an edge skips a level") {
    std::vector<std::int32_t> level = good.level;
    level[5] = 5;
    check_rejected(run_levels(level), "edge 4 -> 5: level 3 -> 5 skips a level");
  }
  SUBCASE("parent not an edge") {
    Search s = good;
    s.parent[3] = 0;  // 0 -> 3 is no edge, though level[0] + 2 == level[3]
    check_rejected(run(s), "vertex 3: parent 0 but there is no edge 0 -> 3");
    s = good;
    s.parent[2] = 12;
    check_rejected(run(s), "vertex 2: parent 12 outside");
  }
  SUBCASE("cycle in parents") {
    Search s = good;
    s.parent[3] = 5, s.parent[4] = 3, s.parent[5] = 4;  // all three are graph edges
    check_rejected(run(s), "cycle");
  }
  SUBCASE("reachable vertex left unreached") {
    Search s = good;
    s.level[5] = -1, s.parent[5] = no_index;
    check_rejected(run(s), "vertex 5 is reachable from source 0 but unreached");
    std::vector<std::int32_t> level = good.level;
    level[5] = -1;
    check_rejected(run_levels(level), "vertex 5 is reachable");
  }
  SUBCASE("unreachable vertex reached") {
    std::vector<std::int32_t> level = good.level;
    level[6] = 2, level[7] = 3;
    check_rejected(run_levels(level), "vertex 6: level 2 but it is not reachable from source 0");
  }
  SUBCASE("level and parent disagree about being reached") {
    Search s = good;
    s.parent[6] = 7;
    check_rejected(run(s), "vertex 6: unreached (level -1) but has parent 7");
    s = good;
    s.parent[4] = no_index;
    check_rejected(run(s), "vertex 4: level 3 but no parent");
  }
}

namespace {
// SSSP graph: shortest paths from 0 go 0 -> 2 -> 1 -> 3 -> 4; 5 reaches 4 but not back; 6 alone.
const Index sssp_n = 7;
const std::vector<Edge> sssp_edges{{0, 1, 4}, {0, 2, 1}, {2, 1, 2}, {1, 3, 1},
                                   {2, 3, 5}, {3, 4, 3}, {4, 0, 1}, {5, 4, 1}};
}  // namespace

TEST_CASE_TEMPLATE("sssp validator accepts textbook shortest paths", T, std::int32_t,
                   std::int64_t, std::uint32_t, std::uint64_t, float, double) {
  const auto a = matrix<T>(sssp_n, sssp_edges);
  for (Index source = 0; source < sssp_n; ++source) {
    CAPTURE(source);
    const Paths p = textbook_dijkstra(sssp_n, sssp_edges, source);
    const auto result = sssp_checked(a, source, std::span<const double>(p.distance),
                                       std::span<const Index>(p.parent));
    INFO(result.message);
    CHECK(result.ok);
    CHECK(sssp_checked(a, source, std::span<const double>(p.distance)).ok);
  }
}

TEST_CASE("sssp validator: unit weights of a bool matrix, and every backend") {
  const Search s = textbook_bfs(bfs_n, bfs_edges, 0);
  std::vector<double> distance(bfs_n);
  for (Index v = 0; v < bfs_n; ++v) distance[v] = s.level[v] < 0 ? inf : s.level[v];
  GRB_FOR_EACH_BACKEND(backend) {
    const auto a = matrix<bool>(bfs_n, bfs_edges, backend);
    CHECK(sssp_checked(a, 0, std::span<const double>(distance), std::span<const Index>(s.parent)).ok);
  }
}

TEST_CASE("sssp validator rejects every kind of wrong distance") {
  const auto a = matrix<double>(sssp_n, sssp_edges);
  const Paths good = textbook_dijkstra(sssp_n, sssp_edges, 0);
  REQUIRE(good.distance == std::vector<double>{0, 3, 1, 4, 7, inf, inf});
  const auto run = [&](const Paths& p, Index source = 0) {
    return sssp_checked(a, source, std::span<const double>(p.distance),
                          std::span<const Index>(p.parent));
  };
  const auto run_distances = [&](const std::vector<double>& distance) {
    return sssp_checked(a, 0, std::span<const double>(distance));
  };

  SUBCASE("within tolerance passes, beyond it fails") {
    Paths p = good;
    p.distance[3] = 4 + 1e-12;
    CHECK(run(p).ok);
    p.distance[3] = 4 + 1e-6;
    CHECK(sssp_checked(a, 0, std::span<const double>(p.distance), std::span<const Index>(p.parent), 1e-5).ok);
    CHECK_FALSE(run(p).ok);
  }
  SUBCASE("wrong sizes and source") {
    Paths p = good;
    p.distance.push_back(0);
    check_rejected(run(p), "distance has 8 entries");
    p = good;
    p.parent.pop_back();
    check_rejected(run(p), "parent has 6 entries");
    check_rejected(run(good, 7), "source 7 outside");
    p = good;
    p.distance[0] = 1;
    check_rejected(run(p), "source 0: distance 1, not 0");
  }
  SUBCASE("edge not relaxed") {
    std::vector<double> distance = good.distance;
    distance[3] = 5;
    check_rejected(run_distances(distance), "edge 1 -> 3 (weight 1) not relaxed: distance[3] = 5");
  }
  SUBCASE("distance not achieved") {
    std::vector<double> distance = good.distance;
    distance[4] = 6.5;
    check_rejected(run_distances(distance), "vertex 4: distance 6.5 is not achieved");
  }
  SUBCASE("distance achieved only around a zero-weight cycle") {
    const std::vector<Edge> edges{{0, 1, 1}, {1, 2, 0}, {2, 1, 0}};
    const auto z = matrix<double>(3, edges);
    const Paths truth = textbook_dijkstra(3, edges, 0);
    CHECK(sssp_checked(z, 0, std::span<const double>(truth.distance), std::span<const Index>(truth.parent)).ok);
    const std::vector<double> distance{0, 0.5, 0.5};
    check_rejected(sssp_checked(z, 0, std::span<const double>(distance)),
                   "is not the length of any path from source 0");
    const std::vector<Index> cycle{0, 2, 1};
    check_rejected(sssp_checked(z, 0, std::span<const double>(truth.distance), std::span<const Index>(cycle)), "cycle");
  }
  SUBCASE("reachability: inf exactly where unreachable") {
    std::vector<double> distance = good.distance;
    distance[5] = 2;
    check_rejected(run_distances(distance), "vertex 5: distance 2 but it is not reachable");
    distance = good.distance;
    distance[4] = inf;
    check_rejected(run_distances(distance), "vertex 4 is reachable from source 0 but has distance inf");
    distance = good.distance;
    distance[6] = std::numeric_limits<double>::quiet_NaN();
    check_rejected(run_distances(distance), "vertex 6: distance");
  }
  SUBCASE("wrong parents") {
    Paths p = good;
    p.parent[1] = 0;  // an edge, but 0 + 4 != 3
    check_rejected(run(p), "vertex 1: distance 3 but parent edge 0 -> 1 (weight 4) gives 4");
    p = good;
    p.parent[3] = 0;
    check_rejected(run(p), "vertex 3: parent 0 but there is no edge 0 -> 3");
    p = good;
    p.parent[5] = 4;
    check_rejected(run(p), "vertex 5: distance inf but has parent 4");
    p = good;
    p.parent[0] = 4;
    check_rejected(run(p), "source 0: parent 4");
  }
}

namespace {
// Components {0, 3, 5}, {1, 2}, {4}, {6, 7, 8}; the 1 -> 2 edge is one-way (weakly connected).
const Index cc_n = 9;
const std::vector<Edge> cc_edges{{3, 5}, {5, 3}, {5, 0}, {0, 5}, {1, 2},
                                 {8, 7}, {7, 8}, {7, 6}, {6, 7}};
}  // namespace

TEST_CASE_TEMPLATE("components validator accepts textbook labels", T, bool, std::int32_t,
                   std::int64_t, std::uint32_t, std::uint64_t, float, double) {
  const auto a = matrix<T>(cc_n, cc_edges);
  const std::vector<Index> label = textbook_components(cc_n, cc_edges);
  REQUIRE(label == std::vector<Index>{0, 1, 1, 0, 4, 0, 6, 6, 6});
  const auto result = validate::components(a, std::span<const Index>(label));
  INFO(result.message);
  CHECK(result.ok);
}

TEST_CASE("components validator rejects every kind of wrong labelling") {
  const auto a = matrix<bool>(cc_n, cc_edges);
  const std::vector<Index> good = textbook_components(cc_n, cc_edges);
  const auto run = [&](const std::vector<Index>& label) {
    return validate::components(a, std::span<const Index>(label));
  };
  std::vector<Index> label = good;

  SUBCASE("wrong size") {
    label.pop_back();
    check_rejected(run(label), "label has 8 entries");
  }
  SUBCASE("label out of range") {
    label[4] = 9;
    check_rejected(run(label), "vertex 4: label 9 outside");
  }
  SUBCASE("an edge across labels (a component split)") {
    label[2] = 2;
    check_rejected(run(label), "edge 1 -> 2 joins label 1 to label 2");
  }
  SUBCASE("non-canonical label") {
    for (Index v : {0u, 3u, 5u}) label[v] = 3;
    check_rejected(run(label), "vertex 0: label 3 is not canonical: the smallest vertex of its component is 0");
  }
  SUBCASE("merged components") {
    for (Index v : {6u, 7u, 8u}) label[v] = 4;
    check_rejected(run(label), "vertex 6: label 4, but vertex 4 is not connected to it");
  }
  SUBCASE("not square") {
    grb::Matrix<bool> rectangle(3, 4, grb::Backend::cpu);
    check_rejected(validate::components(rectangle, std::span<const Index>(label)), "not square");
  }
}

TEST_CASE("validators split large graphs over the cores and name the first problem") {
  // 2^19 vertices: several ranges of vertices per pass, and frontiers large enough for the
  // parallel expansion of the reachability walks. Every vertex links to the next one and to a
  // scattered one (a multiplicative hash), weights 1..4.
  const Index n = Index{1} << 19;
  std::vector<Edge> edges;
  for (Index v = 0; v + 1 < n; ++v) {
    edges.push_back({v, v + 1, double(1 + v % 4)});
    edges.push_back({v, static_cast<Index>((std::uint64_t{v} * 2654435761u) % n), double(1 + v % 3)});
  }
  const auto a = matrix<double>(n, edges);
  const Search good = textbook_bfs(n, edges, 0);
  const auto bfs_run = [&](const Search& s) {
    return bfs_checked(a, 0, std::span<const std::int32_t>(s.level),
                         std::span<const Index>(s.parent));
  };
  CHECK(bfs_run(good).ok);
  CHECK(bfs_checked(a, 0, std::span<const std::int32_t>(good.level), {}).ok);

  // Two bad vertices in different ranges: the lower one is named, as a sequential scan would.
  Search two_bad = good;
  two_bad.level[1000] = two_bad.level[n - 1000] = -3;
  check_rejected(bfs_run(two_bad), "vertex 1000: level -3");
  // A reachable vertex left out is found by the parallel walk.
  std::vector<std::int32_t> missing = good.level;
  const Index far = n - 7;
  REQUIRE(missing[far] > 0);
  missing[far] = -1;
  check_rejected(bfs_checked(a, 0, std::span<const std::int32_t>(missing), {}),
                 "vertex " + std::to_string(far) + " is reachable from source 0 but unreached");

  const Paths paths = textbook_dijkstra(n, edges, 0);
  const auto sssp_run = [&](const std::vector<double>& distance) {
    return sssp_checked(a, 0, std::span<const double>(distance),
                          std::span<const Index>(paths.parent));
  };
  CHECK(sssp_run(paths.distance).ok);
  std::vector<double> long_distance = paths.distance;
  long_distance[far] += 0.5;
  check_rejected(sssp_run(long_distance),
                 "not relaxed: distance[" + std::to_string(far) + "] = ");
}
