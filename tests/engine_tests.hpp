// What the engine tests (BFS, SSSP, CC, TC) share: which engines run here, how sanitized runs
// shrink the graphs, the search sources picked from a graph, and the checks every engine table
// and every engine's misuse get.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "grb/grb.hpp"

namespace grb::test {

/// Under compute-sanitizer (GRB_SANITIZER set, as scripts/gpu-check.sh does) the engine tests
/// use smaller graphs: every kernel still runs, in a fraction of the time.
inline const bool sanitizing = std::getenv("GRB_SANITIZER") != nullptr;

/// GRB_TEST_ENGINES=a,b limits the engines (e.g. the hand-written ones under a slow sanitizer).
inline bool selected(std::string_view name) {
  const char* list = std::getenv("GRB_TEST_ENGINES");
  if (list == nullptr || *list == '\0') return true;
  const std::string names = std::string(",") + list + ",";
  return names.find("," + std::string(name) + ",") != std::string::npos;
}

/// The engines of `table` that run here: the selected ones, cuda engines only where a GPU is.
/// Says once per test binary (`test`) when the cuda engines are skipped.
template <class Info>
std::vector<const Info*> engines_to_test(const std::vector<Info>& table, const char* test) {
  std::vector<const Info*> chosen;
  for (const Info& info : table) {
    if (info.backend == Backend::cuda && !cuda_available()) continue;
    if (!selected(info.name)) continue;
    chosen.push_back(&info);
  }
  static bool said = false;
  if (!said && !cuda_available()) {
    std::printf("%s: cuda engines SKIPPED (%s); testing the cpu engines only\n", test,
                GRB_WITH_CUDA ? "no GPU on this machine" : "grb built without CUDA");
    said = true;
  }
  return chosen;
}

/// An engine table's names: every engine described, the cpu ones `cpu`, the cuda ones `cuda` in
/// a CUDA build and none otherwise.
template <class Info>
void check_table_names(const std::vector<Info>& table, const std::set<std::string>& cpu,
                       const std::set<std::string>& cuda) {
  std::set<std::string> cpu_names, cuda_names;
  for (const Info& info : table) {
    CHECK_FALSE(info.description.empty());
    (info.backend == Backend::cpu ? cpu_names : cuda_names).insert(std::string(info.name));
  }
  CHECK(cpu_names == cpu);
  CHECK(cuda_names == (GRB_WITH_CUDA ? cuda : std::set<std::string>{}));
}

/// Engines on pattern graphs (CC, TC): run() and result() before prepare(), and a non-square
/// graph, are errors.
template <class Info>
void check_misuse_refused(const std::vector<const Info*>& engines) {
  for (const Info* info : engines) {
    INFO("engine " << info->name << " (" << to_string(info->backend) << ")");
    CHECK_THROWS_AS(info->make()->run(), InvalidValue);
    CHECK_THROWS_AS(info->make()->result(), InvalidValue);
    const Matrix<bool> wide(2, 3, Backend::cpu);
    CHECK_THROWS_AS(
        info->make()->prepare(info->backend == Backend::cpu ? wide : wide.to(Backend::cuda)),
        DimensionMismatch);
  }
}

/// Search sources: those given, plus the vertex of largest out-degree and a few spread over
/// the ids (the first, one a third in, the last).
template <class T>
std::vector<Index> pick_sources(const Matrix<T>& graph, std::vector<Index> sources) {
  const Csr<T>& csr = graph.csr();
  Index hub = 0;
  for (Index v = 0; v < graph.nrows(); ++v)
    if (csr.row_offsets[v + 1] - csr.row_offsets[v] > csr.row_offsets[hub + 1] - csr.row_offsets[hub])
      hub = v;
  sources.push_back(hub);
  const Index n = graph.nrows();
  for (Index v : {Index{0}, n / 3, n - 1}) sources.push_back(v);
  const std::set<Index> unique(sources.begin(), sources.end());
  return {unique.begin(), unique.end()};
}

/// A cpu pattern matrix of n vertices from an edge list (duplicates dropped; with `undirected`,
/// both directions of every edge).
inline Matrix<bool> from_edges(Index n, const std::vector<std::pair<Index, Index>>& edges,
                               bool undirected) {
  std::set<std::pair<Index, Index>> unique;
  for (auto [u, v] : edges) {
    unique.insert({u, v});
    if (undirected) unique.insert({v, u});
  }
  std::vector<Index> rows, cols;
  for (auto [u, v] : unique) rows.push_back(u), cols.push_back(v);
  Matrix<bool> graph(n, n, Backend::cpu);
  graph.build(rows, cols, std::vector<bool>(rows.size(), true));
  return graph;
}

/// The textbook queue BFS over the host CSR: the oracle for every engine's levels.
inline std::vector<std::int32_t> textbook_levels(const grb::Matrix<bool>& graph, Index source) {
  const grb::Csr<bool>& csr = graph.csr();
  std::vector<std::int32_t> level(graph.nrows(), -1);
  std::deque<Index> queue{source};
  level[source] = 0;
  while (!queue.empty()) {
    const Index u = queue.front();
    queue.pop_front();
    for (grb::Offset e = csr.row_offsets[u]; e < csr.row_offsets[u + 1]; ++e) {
      const Index v = csr.col_indices[e];
      if (level[v] == -1) {
        level[v] = level[u] + 1;
        queue.push_back(v);
      }
    }
  }
  return level;
}

}  // namespace grb::test
