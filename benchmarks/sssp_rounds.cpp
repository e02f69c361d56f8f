// light-heavy's rounds, replayed on the host: the bulk-synchronous schedule of the engine
// (algorithms/sssp/cuda/light_heavy.cu) on a generated graph, with its delta rule, counting what
// each round relaxes. Light rounds relax the near queue's light edges; when the near side runs
// dry, a heavy round relaxes the heavy edges of the vertices the light rounds relaxed; then the
// split moves to the smallest far distance + delta. The engine's rounds are the same except
// that improvements within a round race (so its counts differ by a few percent): this shows
// where its relaxations go without a GPU.
//
//   sssp_rounds --kron 22 [--lengths graph500|integer] [--factor F] [--largest N]
//
// Prints the rounds, phases and relaxations per stored entry, the largest rounds (heavy ones
// marked), and the share of the relaxations in ranges of 4 096 edges or more (the engine's hub
// ranges, which the whole grid relaxes one after another).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <utility>
#include <vector>

#include <grb/generate.hpp>

#include "sssp/engine.hpp"

namespace {

using grb::Index;
using grb::Offset;

struct Round {
  bool heavy = false;
  std::uint64_t vertices = 0, edges = 0, hub_edges = 0;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"light-heavy's SSSP rounds replayed on the host"};
  int scale = 20;
  std::string lengths = "graph500";
  double factor = 1;
  std::size_t largest = 8;
  app.add_option("--kron", scale, "the Graph500 Kronecker graph's scale")->check(CLI::Range(1, 26));
  app.add_option("--lengths", lengths, "graph500 (uniform in [0, 1)) or integer (1..64)")
      ->check(CLI::IsMember({"graph500", "integer"}));
  app.add_option("--factor", factor, "delta = FACTOR x light-heavy's default")
      ->check(CLI::PositiveNumber);
  app.add_option("--largest", largest, "how many of the largest rounds to list");
  CLI11_PARSE(app, argc, argv);

  grb::Matrix<double> graph = grb::generate::kronecker(scale, 16);
  const grb::Csr<double>& csr = graph.csr();
  const Index n = csr.nrows;
  const Offset m = csr.nvals();
  std::vector<Offset> offsets(csr.row_offsets.begin(), csr.row_offsets.end());
  std::vector<std::pair<double, Index>> edges(m);  // rows sorted by length, as prepare() sorts
  for (Offset e = 0; e < m; ++e) {
    const double length = csr.values[e];
    edges[e] = {lengths == "integer" ? 1 + std::floor(64 * length) : length, csr.col_indices[e]};
  }
  grb::sssp::WeightSummary summary;
  for (const auto& edge : edges) summary.mean_weight += edge.first / double(m);
  summary.mean_degree = double(m) / n;
  const double delta = factor * grb::sssp::light_heavy_delta(summary);
  std::vector<Offset> light_end(n);
  for (Index v = 0; v < n; ++v) {
    std::sort(edges.begin() + offsets[v], edges.begin() + offsets[v + 1]);
    light_end[v] = offsets[v];
    while (light_end[v] < offsets[v + 1] && edges[light_end[v]].first <= delta) ++light_end[v];
  }

  Index source = 0;
  while (source < n && offsets[source + 1] == offsets[source]) ++source;
  if (source == n) return std::puts("the graph has no edges"), 1;
  std::vector<double> distance(n, INFINITY);
  distance[source] = 0;
  std::vector<char> queued(n, 0), in_far(n, 0), listed(n, 0);
  std::vector<Index> near{source}, far, settled;
  double split = delta;
  std::vector<Round> rounds;
  std::uint64_t phases = 1;
  const auto relax = [&](Index u, Offset begin, Offset end, std::vector<Index>& next, Round& round) {
    round.edges += end - begin;
    if (end - begin >= 4096) round.hub_edges += end - begin;
    for (Offset e = begin; e < end; ++e) {
      const auto [length, v] = edges[e];
      const double candidate = distance[u] + length;
      if (!(candidate < distance[v])) continue;
      distance[v] = candidate;
      if (candidate < split) {
        if (!queued[v]) queued[v] = 1, next.push_back(v);
      } else if (!in_far[v]) {
        in_far[v] = 1, far.push_back(v);
      }
    }
  };
  for (;;) {
    while (!near.empty()) {  // light rounds
      Round round{false, near.size()};
      std::vector<Index> next;
      for (Index u : near) queued[u] = 0;
      for (Index u : near) {
        if (!listed[u]) listed[u] = 1, settled.push_back(u);
        relax(u, offsets[u], light_end[u], next, round);
      }
      rounds.push_back(round);
      near.swap(next);
    }
    if (!settled.empty()) {  // the heavy round
      Round round{true, settled.size()};
      for (Index u : settled) listed[u] = 0, relax(u, light_end[u], offsets[u + 1], near, round);
      rounds.push_back(round);
      settled.clear();
      continue;
    }
    double smallest = INFINITY;  // the phase change
    for (Index v : far)
      if (distance[v] >= split) smallest = std::min(smallest, distance[v]);
    if (far.empty() || !std::isfinite(smallest)) break;
    const double next_split = std::max(smallest + delta, std::nextafter(smallest, INFINITY));
    std::vector<Index> kept;
    for (Index v : far) {
      in_far[v] = 0;
      if (distance[v] < split) continue;
      if (distance[v] < next_split) queued[v] = 1, near.push_back(v);
      else in_far[v] = 1, kept.push_back(v);
    }
    far.swap(kept);
    split = next_split;
    ++phases;
  }

  std::uint64_t total = 0, hub = 0;
  for (const Round& round : rounds) total += round.edges, hub += round.hub_edges;
  std::printf("kron%d (%s lengths), delta %.4g: %zu rounds, %llu phases, %.3f relaxations per "
              "stored entry; %.1f%% of them in ranges of 4096 edges or more\n",
              scale, lengths.c_str(), delta, rounds.size(), (unsigned long long)phases,
              double(total) / double(m), 100.0 * double(hub) / double(std::max<std::uint64_t>(total, 1)));
  std::sort(rounds.begin(), rounds.end(),
            [](const Round& a, const Round& b) { return a.edges > b.edges; });
  for (std::size_t r = 0; r < std::min(largest, rounds.size()); ++r)
    std::printf("  %s round: %llu vertices, %llu edges (%.1f%% of all)\n",
                rounds[r].heavy ? "heavy" : "light", (unsigned long long)rounds[r].vertices,
                (unsigned long long)rounds[r].edges, 100.0 * double(rounds[r].edges) / double(total));
  return 0;
}
