// Hooking and pointer jumping (Shiloach-Vishkin), in the order Afforest (Sutton, Ben-Nun and
// Barak, IPDPS 2018) gives it: every vertex is linked to its first few neighbours only, and the
// trees are flattened; the largest component is then found from a sample of labels, and only
// the vertices outside it link their remaining neighbours. On graphs with one giant component
// (power-law graphs, meshes) most edges are never read.
//
// Linking hooks the larger of two roots under the smaller (an atomicCAS on the root's parent),
// so parents only fall and the smallest vertex of a component is never hooked: when the last
// pass is flattened every vertex points at the smallest vertex of its component, which is the
// canonical label with no relabelling.
//
// Skipping the giant component is sound because the graph is symmetric: an edge (u, v) with u
// already in the giant component is also v's edge, and v links it unless v is in the giant
// component too.
#include <algorithm>
#include <memory>
#include <vector>

#include "cc/frontier/engines.hpp"
#include "cc/frontier/neighbours.cuh"
#include "grb/cuda/launch.cuh"

namespace grb::cc::frontier {
namespace {

using grb::cuda::detail::blocks_for;
using grb::cuda::detail::block_threads;

/// Neighbours each vertex links before the giant component is looked for (Afforest's 2).
inline constexpr Offset sampled_neighbours = 2;
/// Labels sampled to find the giant component (Afforest's 1024).
inline constexpr Index label_samples = 1024;
inline constexpr unsigned block = 256;

/// Parents change under the reader's feet: read them from memory each time (any value read is
/// still an ancestor, as parents only fall within a component).
__device__ inline Index parent_of(const Index* parent, Index v) {
  return *reinterpret_cast<const volatile Index*>(parent + v);
}

/// Joins the trees of u and v: climbs from both towards their roots until the larger of the two
/// vertices reached is a root, and hooks it under the smaller one.
__device__ void link(Index u, Index v, Index* parent) {
  Index a = parent_of(parent, u), b = parent_of(parent, v);
  while (a != b) {
    const Index high = a > b ? a : b;
    const Index low = a > b ? b : a;
    const Index seen = atomicCAS(&parent[high], high, low);
    if (seen == high || seen == low) return;  // hooked now, or already under `low`
    // `high` is no root; its parent `seen` is smaller, so the pair falls and the loop ends.
    a = seen;
    b = parent_of(parent, low);
  }
}

__global__ void own_parents(Index vertices, Index* parent) {
  GRB_GRID_STRIDE_LOOP(v, vertices) parent[v] = static_cast<Index>(v);
}

/// Links every vertex to its neighbour number `round`, if it has one.
__global__ void link_sampled(GraphView graph, Offset round, Index* parent) {
  GRB_GRID_STRIDE_LOOP(v, graph.vertices) {
    const Index u = static_cast<Index>(v);
    if (graph.degree(u) > round) link(u, graph.targets[graph.begin(u) + round], parent);
  }
}

/// Pointer jumping to the root: afterwards every parent is a root.
__global__ void flatten(Index vertices, Index* parent) {
  GRB_GRID_STRIDE_LOOP(v, vertices) {
    Index root = parent_of(parent, static_cast<Index>(v));
    for (Index up = parent_of(parent, root); up != root; up = parent_of(parent, root)) root = up;
    parent[v] = root;
  }
}

/// The labels of `samples` vertices spread over the ids by a multiplicative hash.
__global__ void sample_labels(Index vertices, const Index* parent, Index samples, Index* labels) {
  GRB_GRID_STRIDE_LOOP(i, samples) {
    const std::uint64_t mixed = (i + 1) * 0x9e3779b97f4a7c15ull;
    labels[i] = parent[(mixed >> 32) % vertices];
  }
}

/// Every vertex outside the giant component links its neighbours past the sampled ones.
__global__ void __launch_bounds__(block)
    link_remaining(GraphView graph, Index giant, Index* parent) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * block + threadIdx.x;
  const Index u = static_cast<Index>(i);
  const bool active = i < graph.vertices && parent_of(parent, u) != giant;
  visit_neighbours(graph, active, u, sampled_neighbours,
                   [&](Index from, Index to) { link(from, to, parent); });
}

/// The most frequent label among the samples.
Index most_frequent(std::vector<Index> labels) {
  std::sort(labels.begin(), labels.end());
  Index best = labels.front();
  std::size_t best_run = 0;
  for (std::size_t start = 0, end = 0; start < labels.size(); start = end) {
    for (end = start; end < labels.size() && labels[end] == labels[start];) ++end;
    if (end - start > best_run) best_run = end - start, best = labels[start];
  }
  return best;
}

class HookJump final : public Engine {
 public:
  void prepare(const Matrix<bool>& graph) override {
    graph_.upload(graph, "cc engine hook-jump");
    parent_ = detail::Array<Index>(graph_.vertices(), Backend::cuda);
    samples_ = detail::Array<Index>(label_samples, Backend::cuda);
    prepared_ = true;
    ran_ = false;
  }

  void run() override {
    if (!prepared_) throw InvalidValue("cc engine hook-jump: run() before prepare()");
    const Index n = graph_.vertices();
    passes_ = 0;
    ran_ = true;
    if (n == 0) return;
    own_parents<<<blocks_for(n), block_threads>>>(n, parent_.data());
    GRB_CUDA_CHECK_LAUNCH();
    for (Offset round = 0; round < sampled_neighbours; ++round) {
      link_sampled<<<blocks_for(n), block_threads>>>(graph_.view(), round, parent_.data());
      GRB_CUDA_CHECK_LAUNCH();
      flatten<<<blocks_for(n), block_threads>>>(n, parent_.data());
      GRB_CUDA_CHECK_LAUNCH();
      ++passes_;
    }
    sample_labels<<<1, block_threads>>>(n, parent_.data(), label_samples, samples_.data());
    GRB_CUDA_CHECK_LAUNCH();
    const Index giant = most_frequent(samples_.to_vector());
    link_remaining<<<static_cast<unsigned>((std::uint64_t(n) + block - 1) / block), block>>>(
        graph_.view(), giant, parent_.data());
    GRB_CUDA_CHECK_LAUNCH();
    flatten<<<blocks_for(n), block_threads>>>(n, parent_.data());
    GRB_CUDA_CHECK_LAUNCH();
    ++passes_;
    GRB_CUDA_CHECK(cudaDeviceSynchronize());
  }

  Result result() const override {
    if (!ran_) throw InvalidValue("cc engine hook-jump: result() before run()");
    return Result{parent_.to_vector(), Stats{.iterations = passes_}};
  }

  std::size_t device_bytes() const override {
    return graph_.bytes() + (parent_.size() + samples_.size()) * sizeof(Index);
  }

 private:
  UndirectedGraph graph_;
  detail::Array<Index> parent_, samples_;
  std::uint32_t passes_ = 0;
  bool prepared_ = false;
  bool ran_ = false;
};

}  // namespace

std::unique_ptr<Engine> make_hook_jump() { return std::make_unique<HookJump>(); }

}  // namespace grb::cc::frontier
