#include "subject.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <span>

#include "../../measure.hpp"
#include "../../runner.hpp"
#include "cc/engine.hpp"
#include "grb/error.hpp"
#include "sssp/engine.hpp"
#include "tc/engine.hpp"
#include "validate/on_device.hpp"
#include "validate/validate.hpp"

namespace grb::app::bench {
namespace {

constexpr double unreached = std::numeric_limits<double>::infinity();

std::string vertex(Index v) { return "vertex " + std::to_string(v); }

/// Where the graph has the edge u -> v, its position in the CSR arrays.
std::optional<Offset> edge_at(const Csr<double>& csr, Index u, Index v) {
  const Index* begin = csr.col_indices.data() + csr.row_offsets[u];
  const Index* end = csr.col_indices.data() + csr.row_offsets[u + 1];
  const Index* at = std::lower_bound(begin, end, v);
  if (at == end || *at != v) return std::nullopt;
  return static_cast<Offset>(at - csr.col_indices.data());
}

/// The cheap check of a run whose values equal the validated ones: each tree edge
/// parent[v] -> v is a graph edge that `achieves(parent, v, edge)` v's value, and only the
/// reached vertices have parents. With the validated values, that makes the tree valid
/// (levels or distances decrease strictly along it, so it has no cycle) except for SSSP's
/// zero-length edges, hence `walk_to_root`.
template <class Achieves>
std::string check_tree(const Csr<double>& csr, const std::vector<double>& valid,
                       std::span<const Index> parent, Index root, bool walk_to_root,
                       Achieves&& achieves) {
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
    if (!achieves(p, v, *edge))
      return "tree edge " + std::to_string(p) + " -> " + std::to_string(v) +
             " does not achieve the validated value of " + vertex(v);
  }
  if (!walk_to_root) return {};
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

/// A level, label or distance as a person reads it: whole numbers without a fraction, others
/// with every digit that tells two doubles apart.
std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

/// The first vertex whose value differs from the validated one, in words; empty if none.
std::string compare(const std::vector<double>& values, const std::vector<double>& valid,
                    const std::string& what) {
  if (values.size() != valid.size()) return "wrong number of " + what;
  for (std::size_t v = 0; v < valid.size(); ++v)
    if (values[v] != valid[v] && !(std::isinf(values[v]) && std::isinf(valid[v])))
      return vertex(static_cast<Index>(v)) + ": " + what + " differ from the validated " + what +
             " (" + number(values[v]) + " instead of " + number(valid[v]) + ")";
  return {};
}

/// Validated in full: the run becomes the root's reference.
std::string adopt(const validate::Result& verdict, const io::Graph& graph,
                  std::vector<double> values, Reference& reference) {
  if (!verdict.ok) return verdict.message;
  reference.input_edges = input_edges_reached(graph, values);
  reference.values = std::move(values);
  return {};
}

class BfsSubject final : public Subject {
 public:
  explicit BfsSubject(const Entry& entry)
      : engine_(bfs::find_engine(entry.engine, entry.backend).make()), backend_(entry.backend) {}

  void prepare(const io::Graph& graph) override { engine_->prepare(pattern(graph.matrix)); }

  void run(Index root) override {
    engine_->run(root, bfs::Options{.parents = true, .level_timing = level_timing_});
    result_.stale();
  }

  std::string check(const io::Graph& graph, Index root, Reference& reference) override {
    const bfs::Result& searched = result();
    std::vector<double> levels(searched.level.size());
    for (std::size_t v = 0; v < levels.size(); ++v)
      levels[v] = searched.level[v] < 0 ? unreached : static_cast<double>(searched.level[v]);
    on_device_ = device_graph_ != nullptr && backend_ == Backend::cuda;
    if (reference.known()) {
      if (std::string problem = compare(levels, reference.values, "levels"); !problem.empty())
        return problem;
      if (!on_device_) {
        const std::vector<double>& valid = reference.values;
        return check_tree(graph.matrix.csr(), valid, searched.parent, root, false,
                          [&](Index p, Index v, Offset) { return valid[p] == valid[v] - 1; });
      }
    }
    validate::Result verdict;
#if GRB_WITH_CUDA
    if (on_device_)
      verdict = validate::bfs_on_device(*device_graph_, root, std::span(searched.level),
                                        std::span(searched.parent));
    else
#endif
      verdict = validate::bfs(graph.matrix, root, std::span(searched.level),
                              std::span(searched.parent));
    if (reference.known()) return verdict.ok ? std::string() : verdict.message;
    return adopt(verdict, graph, std::move(levels), reference);
  }

  std::string validated_on() const override { return on_device_ ? "device" : "host"; }

  Work work() const override {
    const bfs::Result& searched = result();
    Work work;
    std::int32_t deepest = -1;
    for (std::int32_t level : searched.level) deepest = std::max(deepest, level);
    work.levels = deepest + 1;
    if (engine_->counts_levels()) {
      std::uint64_t inspected = 0;
      for (const bfs::LevelStats& level : searched.levels) inspected += level.edges_inspected;
      work.edges_inspected = inspected;
    }
    return work;
  }

  std::size_t device_bytes() const override { return engine_->device_bytes(); }
  std::string chosen() const override { return std::string(engine_->chosen()); }
  std::vector<bfs::LevelStats> level_stats() const override { return result().levels; }
  bool counts_levels() const override { return engine_->counts_levels(); }
  void time_levels(bool on) override { level_timing_ = on; }

 private:
  std::unique_ptr<bfs::Engine> engine_;
  Backend backend_;
  bool level_timing_ = false;
  bool on_device_ = false;
  LastResult<bfs::Result> result_;

  const bfs::Result& result() const {
    return result_.get([&] { return engine_->result(); });
  }
};

class SsspSubject final : public Subject {
 public:
  SsspSubject(const Entry& entry, double delta)
      : engine_(sssp::find_engine(entry.engine, entry.backend).make()), backend_(entry.backend) {
    options_.delta = delta;
    options_.parents = true;  // the check needs the tree
  }

  void prepare(const io::Graph& graph) override { engine_->prepare(graph.matrix); }

  void run(Index root) override {
    engine_->run(root, options_);
    result_.stale();
  }

  std::string check(const io::Graph& graph, Index root, Reference& reference) override {
    const sssp::Result& searched = result();
    on_device_ = device_graph_ != nullptr && backend_ == Backend::cuda;
    if (reference.known()) {
      // Exact: fl(x + w) is monotone in x, so every engine that stops when no edge improves
      // ends at the same rounded sums (docs/sssp.md, "Correctness").
      if (std::string problem = compare(searched.distance, reference.values, "distances");
          !problem.empty())
        return problem;
      if (!on_device_) {
        const Csr<double>& csr = graph.matrix.csr();
        const std::vector<double>& valid = reference.values;
        return check_tree(csr, valid, searched.parent, root, true,
                          [&](Index p, Index v, Offset edge) {
                            return valid[p] + csr.values[edge] == valid[v];
                          });
      }
    }
    validate::Result verdict;
#if GRB_WITH_CUDA
    if (on_device_)
      verdict = validate::sssp_on_device(*device_graph_, root, std::span(searched.distance),
                                         std::span(searched.parent));
    else
#endif
      verdict = validate::sssp(graph.matrix, root, std::span(searched.distance),
                               std::span(searched.parent));
    if (reference.known()) return verdict.ok ? std::string() : verdict.message;
    return adopt(verdict, graph, searched.distance, reference);
  }

  std::string validated_on() const override { return on_device_ ? "device" : "host"; }

  Work work() const override {
    const sssp::Stats& stats = result().stats;
    Work work;
    work.rounds = stats.iterations;
    work.buckets = stats.phases;
    if (stats.relaxations > 0) work.edges_inspected = stats.relaxations;
    if (stats.delta > 0) work.delta = stats.delta;
    return work;
  }

  std::size_t device_bytes() const override { return engine_->device_bytes(); }

 private:
  std::unique_ptr<sssp::Engine> engine_;
  Backend backend_;
  sssp::Options options_;
  bool on_device_ = false;
  LastResult<sssp::Result> result_;

  const sssp::Result& result() const {
    return result_.get([&] { return engine_->result(); });
  }
};

class CcSubject final : public Subject {
 public:
  explicit CcSubject(const Entry& entry)
      : engine_(cc::find_engine(entry.engine, entry.backend).make()) {}

  void prepare(const io::Graph& graph) override { engine_->prepare(pattern(graph.matrix)); }

  void run(Index) override {
    engine_->run();
    result_.stale();
  }

  std::string check(const io::Graph& graph, Index, Reference& reference) override {
    const cc::Result& found = result();
    std::vector<double> labels(found.label.begin(), found.label.end());
    if (reference.known()) return compare(labels, reference.values, "labels");
    return adopt(validate::components(graph.matrix, std::span<const Index>(found.label)), graph,
                 std::move(labels), reference);
  }

  Work work() const override {
    Work work;
    work.rounds = result().stats.iterations;
    return work;
  }

  std::size_t device_bytes() const override { return engine_->device_bytes(); }

 private:
  std::unique_ptr<cc::Engine> engine_;
  LastResult<cc::Result> result_;

  const cc::Result& result() const {
    return result_.get([&] { return engine_->result(); });
  }
};

class TcSubject final : public Subject {
 public:
  explicit TcSubject(const Entry& entry)
      : engine_(tc::find_engine(entry.engine, entry.backend).make()) {}

  void prepare(const io::Graph& graph) override { engine_->prepare(pattern(graph.matrix)); }

  void run(Index) override {
    engine_->run();
    result_.stale();
  }

  std::string check(const io::Graph& graph, Index, Reference& reference) override {
    const double triangles = static_cast<double>(result().triangles);
    if (!reference.known()) {
      // Every input edge takes part in the count.
      reference.values = {triangles};
      reference.input_edges = static_cast<double>(graph.matrix.nvals()) / (graph.directed ? 1 : 2);
      return {};
    }
    if (triangles == reference.values.front()) return {};
    return "counts " + std::to_string(result().triangles) + " triangles, the first engine " +
           std::to_string(static_cast<std::uint64_t>(reference.values.front()));
  }

  std::string validated_on() const override { return "agreement"; }

  Work work() const override {
    Work work;
    work.triangles = result().triangles;
    work.edges_inspected = result().edges_intersected;
    return work;
  }

  std::size_t device_bytes() const override { return engine_->device_bytes(); }

 private:
  std::unique_ptr<tc::Engine> engine_;
  LastResult<tc::Result> result_;

  const tc::Result& result() const {
    return result_.get([&] { return engine_->result(); });
  }
};

}  // namespace

std::unique_ptr<Subject> make_subject(const Entry& entry, double delta) {
  switch (entry.algorithm) {
    case Algorithm::bfs: return std::make_unique<BfsSubject>(entry);
    case Algorithm::sssp: return std::make_unique<SsspSubject>(entry, delta);
    case Algorithm::cc: return std::make_unique<CcSubject>(entry);
    case Algorithm::tc: return std::make_unique<TcSubject>(entry);
  }
  throw InvalidValue("unknown algorithm");
}

}  // namespace grb::app::bench
