#include "runner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "measure.hpp"

namespace grb::app {

std::string_view to_string(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::bfs: return "bfs";
    case Algorithm::sssp: return "sssp";
    case Algorithm::cc: return "cc";
  }
  return "unknown";
}

namespace {

std::string vertex(Index v) { return "vertex " + std::to_string(v); }

/// Where the graph has the edge u -> v, its position in the CSR arrays.
std::optional<Offset> edge_at(const Csr<double>& csr, Index u, Index v) {
  const Index* begin = csr.col_indices.data() + csr.row_offsets[u];
  const Index* end = csr.col_indices.data() + csr.row_offsets[u + 1];
  const Index* at = std::lower_bound(begin, end, v);
  if (at == end || *at != v) return std::nullopt;
  return static_cast<Offset>(at - csr.col_indices.data());
}

/// A level, label or distance as a person reads it: whole numbers without a fraction, others
/// with every digit that tells two doubles apart.
std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

/// The first vertex whose value differs from the validated one, in words; empty if none.
std::string compare(const std::vector<double>& values, const std::vector<double>& valid,
                    std::string_view noun) {
  const std::string what(noun);
  if (values.size() != valid.size()) return "wrong number of " + what;
  for (std::size_t v = 0; v < valid.size(); ++v)
    if (values[v] != valid[v] && !(std::isinf(values[v]) && std::isinf(valid[v])))
      return vertex(static_cast<Index>(v)) + ": " + what + " differ from the validated " + what +
             " (" + number(values[v]) + " instead of " + number(valid[v]) + ")";
  return {};
}

}  // namespace

bool Runner::device_validates() const {
#if GRB_WITH_CUDA
  return device_graph_ != nullptr;
#else
  return false;
#endif
}

std::string Runner::check(const io::Graph& graph, Index source, Reference& reference) const {
  std::vector<double> values = this->values();
  if (reference.known()) {
    // Exact, distances too: fl(x + w) is monotone in x, so every SSSP engine that stops when no
    // edge improves ends at the same rounded sums (docs/sssp.md, "Correctness").
    if (std::string problem = compare(values, reference.values, values_noun()); !problem.empty())
      return problem;
    const std::optional<Tree> tree = this->tree();
    if (!tree) return {};
    if (!device_validates() && !graph.pattern_only)  // a pattern-only graph: validated in full
      return check_tree(graph.matrix.csr(), reference.values, tree->parent, source,
                        tree->weighted);
    // On the device, validating the whole run again is fast (validate/on_device.hpp).
    const validate::Result verdict = validate(graph, source);
    return verdict.ok ? std::string() : verdict.message;
  }
  const validate::Result verdict = validate(graph, source);
  if (!verdict.ok) return verdict.message;
  reference.input_edges = input_edges_reached(graph, values);
  reference.values = std::move(values);
  return {};
}

std::string check_tree(const Csr<double>& csr, const std::vector<double>& valid,
                       std::span<const Index> parent, Index root, bool weighted) {
  const Index n = csr.nrows;
  if (parent.size() != n) return "no parents";
  for (Index v = 0; v < n; ++v) {
    const Index p = parent[v];
    if (std::isinf(valid[v])) {
      if (p != no_index) return "unreached " + vertex(v) + " has a parent";
      continue;
    }
    if (v == root) {
      if (p != root) return "the root is not its own parent";
      continue;
    }
    if (p >= n) return "reached " + vertex(v) + " has no parent";
    const std::optional<Offset> edge = edge_at(csr, p, v);
    if (!edge)
      return "tree edge " + std::to_string(p) + " -> " + std::to_string(v) + " is not an edge";
    const bool achieves =
        weighted ? valid[p] + csr.values[*edge] == valid[v] : valid[p] == valid[v] - 1;
    if (!achieves)
      return "tree edge " + std::to_string(p) + " -> " + std::to_string(v) +
             " does not achieve the validated value of " + vertex(v);
  }
  if (!weighted) return {};
  std::vector<char> reaches(n, 0);  // memoized: v's parents lead to the root
  reaches[root] = 1;
  std::vector<Index> walk;
  for (Index v = 0; v < n; ++v) {
    if (std::isinf(valid[v]) || reaches[v]) continue;
    walk.clear();
    for (Index u = v; !reaches[u]; u = parent[u]) {
      walk.push_back(u);
      if (walk.size() > n) return "the parents of " + vertex(v) + " form a cycle";
    }
    for (Index w : walk) reaches[w] = 1;
  }
  return {};
}

}  // namespace grb::app
