// Label propagation (seed 001's connected-components kernel: each vertex takes the smallest
// label among its neighbours), made to converge quickly: labels are pushed, with atomicMin, only
// from the vertices whose label fell in the sweep before (a worklist), so that a sweep costs
// the edges of the changed vertices, not of the whole graph. The first sweep pushes from every
// vertex. Labels only fall and the smallest vertex of a component keeps its own id, so at the
// fixed point every vertex holds the smallest id of its component. Sweeps ~ the largest
// component's diameter: fast on power-law graphs, slow on roads and meshes.
#include <algorithm>
#include <memory>

#include "cc/cuda/engines.hpp"
#include "cc/cuda/neighbours.cuh"
#include "grb/cuda/runtime.cuh"

namespace grb::cc::kernels {
namespace {

inline constexpr unsigned block = 256;

__global__ void own_labels(Index vertices, Index* label) {
  GRB_GRID_STRIDE_LOOP(v, vertices) label[v] = static_cast<Index>(v);
}

/// One sweep: every worklist vertex u (every vertex when `worklist` is null) offers its label to
/// its neighbours; a neighbour whose label falls joins the next worklist once, the first writer
/// of this sweep's stamp on it adding it.
__global__ void __launch_bounds__(block)
    push_labels(GraphView graph, const Index* worklist, Index count, Index* label,
                unsigned* stamp, unsigned sweep, Index* next, unsigned* next_count) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * block + threadIdx.x;
  const bool active = i < count;
  const Index u = !active ? 0 : worklist ? worklist[i] : static_cast<Index>(i);
  visit_neighbours(graph, active, u, 0, [&](Index from, Index to) {
    // Read at each use: the label may have fallen since the sweep began (then `from` is on the
    // next worklist as well).
    const Index offered = label[from];
    if (offered >= label[to]) return;
    const Index before = atomicMin(&label[to], offered);
    if (offered < before && atomicExch(&stamp[to], sweep) != sweep) enqueue(to, next, next_count);
  });
}

class LabelPropagation final : public Engine {
 public:
  void prepare(const Matrix<bool>& graph) override {
    graph_.upload(graph, "cc engine label-propagation");
    const std::size_t n = graph_.vertices();
    label_ = detail::Array<Index>(n, Backend::cuda);
    stamp_ = detail::Array<unsigned>(n, Backend::cuda);
    worklist_ = detail::Array<Index>(n, Backend::cuda);
    next_ = detail::Array<Index>(n, Backend::cuda);
    next_count_ = detail::Array<unsigned>(1, Backend::cuda);
    prepared_ = true;
    ran_ = false;
  }

  void run() override {
    if (!prepared_) throw InvalidValue("cc engine label-propagation: run() before prepare()");
    const Index n = graph_.vertices();
    sweeps_ = 0;
    ran_ = true;
    if (n == 0) return;
    own_labels<<<blocks_for(n), block, 0, current_stream()>>>(n, label_.data());
    GRB_CUDA_CHECK_LAUNCH();
    GRB_CUDA_CHECK(
        cudaMemsetAsync(stamp_.data(), 0, std::size_t(n) * sizeof(unsigned), current_stream()));
    const Index* worklist = nullptr;  // the first sweep: every vertex
    for (Index count = n; count > 0;) {
      ++sweeps_;
      GRB_CUDA_CHECK(cudaMemsetAsync(next_count_.data(), 0, sizeof(unsigned), current_stream()));
      push_labels<<<static_cast<unsigned>((std::uint64_t(count) + block - 1) / block), block, 0,
                    current_stream()>>>(graph_.view(), worklist, count, label_.data(),
                                        stamp_.data(), sweeps_, next_.data(), next_count_.data());
      GRB_CUDA_CHECK_LAUNCH();
      count = read_scalar(next_count_.data());  // synchronizes: the sweep is done
      worklist_.swap(next_);
      worklist = worklist_.data();
    }
  }

  Result result() const override {
    if (!ran_) throw InvalidValue("cc engine label-propagation: result() before run()");
    return Result{label_.to_vector(), Stats{.iterations = sweeps_}};
  }

  std::size_t device_bytes() const override {
    return graph_.bytes() + (label_.size() + worklist_.size() + next_.size()) * sizeof(Index) +
           stamp_.size() * sizeof(unsigned);
  }

 private:
  UndirectedGraph graph_;
  detail::Array<Index> label_, worklist_, next_;
  detail::Array<unsigned> stamp_, next_count_;
  unsigned sweeps_ = 0;
  bool prepared_ = false;
  bool ran_ = false;
};

}  // namespace

std::unique_ptr<Engine> make_label_propagation() { return std::make_unique<LabelPropagation>(); }

}  // namespace grb::cc::kernels
