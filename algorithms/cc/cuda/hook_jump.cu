// Hooking and pointer jumping (Shiloach-Vishkin), in the order Afforest (Sutton, Ben-Nun and
// Barak, IPDPS 2018) gives it: every vertex is linked to its first few neighbours only, and the
// trees are flattened; the largest component is then found from a sample of labels, and only
// the vertices outside it link their remaining neighbours. On graphs with one giant component
// (power-law graphs, meshes) most edges are never read.
//
// Linking hooks the larger of two roots under the smaller (an atomicCAS on the root's parent),
// so every parent is smaller than its child and the smallest vertex of a component is never
// hooked: when the last pass is flattened every vertex points at the smallest vertex of its
// component, which is the canonical label with no relabelling.
//
// Skipping the giant component is sound because the graph is symmetric: an edge (u, v) with u
// already in the giant component is also v's edge, and v links it unless v is in the giant
// component too.
//
// The whole run stays on the device (the giant component is chosen by a one-block kernel), so
// run() is six launches and one synchronization.
#include <memory>

#include "cc/cuda/engines.hpp"
#include "cc/cuda/neighbours.cuh"
#include "grb/cuda/runtime.cuh"

namespace grb::cc::kernels {
namespace {

/// Neighbours each vertex links before the giant component is looked for (Afforest's 2).
inline constexpr Offset sampled_neighbours = 2;
/// Labels sampled to find the giant component (Afforest's 1024), one per thread of one block.
inline constexpr unsigned label_samples = 1024;
inline constexpr unsigned block = 256;

/// Parents change under the reader's feet: read them from memory each time (any value read is
/// still an ancestor, as trees only ever merge).
__device__ inline Index parent_of(const Index* parent, Index v) {
  return *reinterpret_cast<const volatile Index*>(parent + v);
}

/// The root of v's tree, halving the path on the way (each vertex passed is pointed at its
/// grandparent), so that the trees of hub neighbourhoods stay shallow without a flatten between
/// links. Racing halvings are harmless: a non-root's parent is only ever replaced by one of its
/// ancestors, which keeps every parent smaller than its child.
__device__ Index find_root(Index v, Index* parent) {
  for (Index up = parent_of(parent, v); up != v; up = parent_of(parent, v)) {
    const Index above = parent_of(parent, up);
    if (above == up) return up;
    *reinterpret_cast<volatile Index*>(parent + v) = above;
    v = above;
  }
  return v;
}

/// Joins the trees of u and v: hooks the larger of their two roots under the smaller. A failed
/// atomicCAS means another thread hooked that root first; the climb goes on from where it was
/// hooked, and as both roots then fall the loop ends.
__device__ void link(Index u, Index v, Index* parent) {
  Index a = find_root(u, parent), b = find_root(v, parent);
  while (a != b) {
    const Index high = a > b ? a : b;
    const Index low = a > b ? b : a;
    const Index seen = atomicCAS(&parent[high], high, low);
    if (seen == high) return;
    a = find_root(seen, parent);
    b = find_root(low, parent);
  }
}

__global__ void own_parents(Index vertices, Index* parent) {
  GRB_GRID_STRIDE_LOOP(v, vertices) parent[v] = static_cast<Index>(v);
}

/// Links every vertex to its neighbours number first .. last - 1, those it has.
__global__ void link_sampled(GraphView graph, Offset first, Offset last, Index* parent) {
  GRB_GRID_STRIDE_LOOP(v, graph.nrows) {
    const Index u = static_cast<Index>(v);
    const Offset begin = graph.begin(u), end = graph.end(u);
    for (Offset k = begin + first; k < begin + last && k < end; ++k)
      link(u, graph.col_indices[k], parent);
  }
}

/// Points every vertex at its root. Each thread writes only its own vertex (no halving of the
/// paths it climbs), so that afterwards every parent is exactly a root; only vertices whose
/// parent changes are written.
__global__ void flatten(Index vertices, Index* parent) {
  GRB_GRID_STRIDE_LOOP(v, vertices) {
    const Index first = parent_of(parent, static_cast<Index>(v));
    Index root = first;
    for (Index up = parent_of(parent, root); up != root; up = parent_of(parent, root)) root = up;
    if (root != first) parent[v] = root;
  }
}

/// The most frequent root among label_samples vertices spread over the ids by a multiplicative
/// hash (ties go to the smaller root, so the choice does not depend on timing). One block of
/// label_samples threads: each counts the samples equal to its own.
__global__ void __launch_bounds__(label_samples)
    find_giant(Index vertices, Index* parent, Index* giant) {
  __shared__ Index roots[label_samples];
  __shared__ unsigned long long best;
  const unsigned i = threadIdx.x;
  const std::uint64_t mixed = (i + 1) * 0x9e3779b97f4a7c15ull;
  roots[i] = find_root(static_cast<Index>((mixed >> 32) % vertices), parent);
  if (i == 0) best = 0;
  __syncthreads();
  unsigned count = 0;
  for (unsigned j = 0; j < label_samples; ++j) count += roots[j] == roots[i];
  // Larger counts first, then smaller roots: the complement of the root in the low word.
  atomicMax(&best, (static_cast<unsigned long long>(count) << 32) | ~roots[i]);
  __syncthreads();
  if (i == 0) *giant = ~static_cast<Index>(best);
}

/// Every vertex outside the giant component links its neighbours past the sampled ones.
__global__ void __launch_bounds__(block)
    link_remaining(GraphView graph, const Index* giant, Index* parent) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * block + threadIdx.x;
  const Index u = static_cast<Index>(i);
  const bool active = i < graph.nrows && parent_of(parent, u) != *giant;
  visit_neighbours(graph, active, u, sampled_neighbours,
                   [&](Index from, Index to) { link(from, to, parent); });
}

class HookJump final : public Engine {
 public:
  void prepare(const Matrix<bool>& graph) override {
    graph_.upload(graph, "cc engine hook-jump");
    parent_ = detail::Array<Index>(graph_.vertices(), Backend::cuda);
    giant_ = detail::Array<Index>(1, Backend::cuda);
    prepared_ = true;
    ran_ = false;
  }

  void run() override {
    if (!prepared_) throw InvalidValue("cc engine hook-jump: run() before prepare()");
    const Index n = graph_.vertices();
    passes_ = 0;
    ran_ = true;
    if (n == 0) return;
    own_parents<<<blocks_for(n), block_threads, 0, current_stream()>>>(n, parent_.data());
    GRB_CUDA_CHECK_LAUNCH();
    link_sampled<<<blocks_for(n), block_threads, 0, current_stream()>>>(
        graph_.view(), 0, sampled_neighbours, parent_.data());
    GRB_CUDA_CHECK_LAUNCH();
    flatten<<<blocks_for(n), block_threads, 0, current_stream()>>>(n, parent_.data());
    GRB_CUDA_CHECK_LAUNCH();
    find_giant<<<1, label_samples, 0, current_stream()>>>(n, parent_.data(), giant_.data());
    GRB_CUDA_CHECK_LAUNCH();
    link_remaining<<<static_cast<unsigned>((std::uint64_t(n) + block - 1) / block), block, 0,
                     current_stream()>>>(graph_.view(), giant_.data(), parent_.data());
    GRB_CUDA_CHECK_LAUNCH();
    flatten<<<blocks_for(n), block_threads, 0, current_stream()>>>(n, parent_.data());
    GRB_CUDA_CHECK_LAUNCH();
    passes_ = 2;
    GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
  }

  Result result() const override {
    if (!ran_) throw InvalidValue("cc engine hook-jump: result() before run()");
    return Result{parent_.to_vector(), Stats{.iterations = passes_}};
  }

  std::size_t device_bytes() const override {
    return graph_.bytes() + (parent_.size() + giant_.size()) * sizeof(Index);
  }

 private:
  UndirectedGraph graph_;
  detail::Array<Index> parent_, giant_;
  std::uint32_t passes_ = 0;
  bool prepared_ = false;
  bool ran_ = false;
};

}  // namespace

std::unique_ptr<Engine> make_hook_jump() { return std::make_unique<HookJump>(); }

}  // namespace grb::cc::kernels
