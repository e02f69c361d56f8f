// direction-optimized (Beamer, Asanović & Patterson, SC'12; switching as in the GAP benchmark
// suite's bfs.cc): push while the frontier's out-edges are few; pull once they exceed the
// unexplored edges / alpha (a pull level reads fewer edges: each unvisited vertex stops at its
// first frontier in-neighbour); back to push once the frontier shrinks below n / beta. Pull walks
// in-edges, so directed graphs are handled.
//
// The whole level, push or pull, is one kernel, and the direction is decided on the device: the
// last block to finish a level reads the level's counters and sets up the next one. The host
// does not take part between levels: a CUDA graph whose while-node repeats the level kernel until
// the frontier is empty runs the search, and the host waits once per search (the old host loop
// spent ~20 us per level on a launch and a counter read-back, a third of a kron22 search).
//
// State: `visited` is a bitmap of settled vertices (reached, or without in-edges: those can never
// be reached, so pull skips them); the frontier is a bitmap (three, rotating: one read, one
// written, one being cleared for the level after) and, for push levels, a queue of its vertices
// with out-degree 1..chunk_edges plus a list of the vertices with longer lists, whose edges are
// pushed chunk_edges at a time by a warp each, so that a hub spreads over the whole grid.
// Discoveries go to the next queue or large list as they happen, so no level converts a bitmap
// into a queue: a push level right after a pull level reads the frontier bitmap. A block gathers
// its appends in shared memory and writes them out with one global atomic per list at the end of
// the level: a global atomic per warp or per discovery, all on the same two counters, serialized
// whole levels (kron22's second level, 240 000 discoveries, took 0.12 ms).
//
// Every level is latency-bound (a few dependent memory round trips per edge), so the kernels
// keep many independent loads in flight, and a warp's work does not depend on how its edges are
// split among its lists: a warp takes its lanes' lists laid end to end, `step_edges` edges a step
// (a source with 27 edges is one step, not 7 rounds of one lane; 32 lists of 5 are two steps); a
// warp takes 32 bitmap words at a time and spreads their set bits over its lanes (a frontier or
// an unsettled set that is sparse costs one pass over the words, not one round trip per word).
//
// The device side lives beside this file, in direction_optimized/: state.cuh (constants, the
// search's state, staged appends), push.cuh and pull.cuh (a level each way), level.cuh (the
// kernels). This file is the host side: the report, the CUDA graph of the level loop, the engine.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "bfs/cuda/direction_optimized/level.cuh"
#include "bfs/cuda/engines.hpp"
#include "bfs/cuda/search_state.cuh"
#include "grb/cuda/primitives/while_node.cuh"

namespace grb::bfs::kernels {
namespace {

/// Page-locked host memory that the device writes directly.
class MappedReport {
 public:
  MappedReport() {
    GRB_CUDA_CHECK(cudaHostAlloc(&host_, sizeof(Report), cudaHostAllocMapped));
    GRB_CUDA_CHECK(cudaHostGetDevicePointer(&device_, host_, 0));
  }
  MappedReport(const MappedReport&) = delete;
  MappedReport& operator=(const MappedReport&) = delete;
  ~MappedReport() { cudaFreeHost(host_); }
  const Report& host() const { return *host_; }
  Report* device() const { return device_; }

 private:
  Report* host_ = nullptr;
  Report* device_ = nullptr;
};

/// GRB_CUDA_GRAPHS=0 runs the levels from the host, one launch each (the same kernel). For
/// compute-sanitizer: its memcheck (CUDA 13.0) fails a while-node body's first launch of a kernel
/// with "misaligned address" where the kernel was never launched from the host before (the auto
/// engine's probe on a 4-vertex graph), and racecheck now and then crashes the process; neither
/// happens outside the sanitizer, and the kernel code checked is the same either way.
bool graphs_allowed() {
  const char* setting = std::getenv("GRB_CUDA_GRAPHS");
  return setting == nullptr || std::string_view(setting) != "0";
}

/// A graph of one while-node whose body is the level kernel; the kernel ends the loop.
class LevelLoop {
 public:
  LevelLoop() = default;
  LevelLoop(const LevelLoop&) = delete;
  LevelLoop& operator=(const LevelLoop&) = delete;
  ~LevelLoop() { reset(); }

  /// Builds the graph; false (and no graph) where the driver has no conditional nodes.
  bool build(Search& search, unsigned grid) {
    reset();
    if (cudaGraphCreate(&graph_, 0) != cudaSuccess) return fail();
    cudaGraphConditionalHandle handle;
    cudaGraph_t body;
    if (grb::cuda::detail::add_while_node(graph_, handle, body) != cudaSuccess) return fail();
    search.condition = handle;
    bool in_graph = true;
    void* arguments[] = {&search, &in_graph};
    cudaKernelNodeParams level{};
    level.func = reinterpret_cast<void*>(bfs_level);
    level.gridDim = dim3(grid);
    level.blockDim = dim3(block);
    level.kernelParams = arguments;
    cudaGraphNode_t level_node;
    if (cudaGraphAddKernelNode(&level_node, body, nullptr, 0, &level) != cudaSuccess) return fail();
    if (cudaGraphInstantiate(&exec_, graph_, 0) != cudaSuccess) return fail();
    return true;
  }
  cudaGraphExec_t exec() const { return exec_; }

 private:
  bool fail() {
    (void)cudaGetLastError();  // the failed call's status is not a sticky error
    reset();
    return false;
  }
  void reset() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
    exec_ = nullptr;
    graph_ = nullptr;
  }
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

class DirectionOptimized final : public Engine {
 public:
  void prepare(const Matrix<bool>& graph) override {
    graph_.upload(graph, DeviceGraph::Edges::out_and_in, "direction-optimized");
    const Index n = graph_.vertices();
    const Index words = Index(bitmap_words(n));
    const auto bitmap = [&] { return detail::Array<unsigned>(std::max<Index>(words, 1), Backend::cuda); };
    level_ = detail::Array<std::int32_t>(std::max<Index>(n, 1), Backend::cuda);
    parent_ = detail::Array<Index>(std::max<Index>(n, 1), Backend::cuda);
    visited_ = bitmap();
    no_in_edges_ = bitmap();
    large_ = bitmap();
    for (auto& f : frontier_) f = bitmap();
    for (auto& q : queue_) q = detail::Array<Index>(std::max<Index>(n, 1), Backend::cuda);
    // A large vertex has more than chunk_edges out-edges.
    const Offset large_capacity = std::min<Offset>(n, graph_.edges() / (chunk_edges + 1)) + 1;
    for (auto& list : large_list_) list = detail::Array<LargeVertex>(large_capacity, Backend::cuda);
    control_ = detail::Array<Control>(1, Backend::cuda);

    search_ = Search{};
    search_.out = graph_.out();
    search_.in = graph_.in();
    search_.words = words;
    search_.level = level_.data();
    search_.parent = parent_.data();
    search_.visited = visited_.data();
    search_.no_in_edges = no_in_edges_.data();
    search_.large = large_.data();
    for (int i = 0; i < 3; ++i) search_.frontier[i] = frontier_[i].data();
    for (int i = 0; i < 2; ++i) search_.queue[i] = queue_[i].data();
    for (int i = 0; i < 2; ++i) search_.large_list[i] = large_list_[i].data();
    search_.control = control_.data();
    search_.report = report_.device();

    if (words > 0) {
      degree_masks<<<blocks_for(words, block), block, 0, current_stream()>>>(
          graph_.out(), graph_.in(), words, no_in_edges_.data(), large_.data());
      GRB_CUDA_CHECK_LAUNCH();
    }
    // One resident wave: every level kernel loops over its work (it does not know the frontier's
    // size at launch), so more blocks would only wait.
    const std::uint64_t work = std::max<std::uint64_t>(words, graph_.edges() / chunk_edges + 1);
    grid_ = std::min(resident_blocks(bfs_level, block), blocks_for(work * 32, block));
    start_grid_ = std::min(multiprocessor_count() * 8, blocks_for(n, block));
    // The arrays above are allocated stream-ordered: they exist before the graph is built.
    GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
    has_loop_ = graphs_allowed() && loop_.build(search_, grid_);
    prepared_ = true;
  }

  void run(Index source, const Options& options) override {
    if (!prepared_) throw InvalidValue("bfs engine direction-optimized: run() before prepare()");
    if (source >= graph_.vertices())
      throw IndexOutOfBounds("bfs engine direction-optimized: source " + std::to_string(source) +
                             " is not a vertex (n = " + std::to_string(graph_.vertices()) + ")");
    parents_ = options.parents;
    log_.start(options);
    begin_search<<<start_grid_, block, 0, current_stream()>>>(search_, source);
    GRB_CUDA_CHECK_LAUNCH();
    const Report& report = report_.host();
    if (has_loop_ && !options.level_timing) {
      // Each launch runs up to report_capacity levels; the host collects them between launches.
      std::int32_t recorded = 0;
      do {
        GRB_CUDA_CHECK(cudaGraphLaunch(loop_.exec(), current_stream()));
        GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
        std::vector<LevelStats> levels;
        for (; recorded < report.levels; ++recorded) levels.push_back(stats(report, recorded));
        log_.end_levels(levels);
      } while (!report.finished);
    } else {
      // One level per launch, waited for: per-level timing (or no conditional graph nodes).
      do {
        log_.begin_level();
        bfs_level<<<grid_, block, 0, current_stream()>>>(search_, false);
        GRB_CUDA_CHECK_LAUNCH();
        GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
        const LevelStats level = stats(report, report.levels - 1);
        log_.end_level(level.frontier, level.edges_inspected, level.direction);
      } while (!report.finished);
    }
  }

  Result result() const override {
    Result result;
    result.level = level_.to_vector();
    result.level.resize(graph_.vertices());
    if (parents_) {
      result.parent = parent_.to_vector();
      result.parent.resize(graph_.vertices());
    }
    result.levels = log_.levels();
    return result;
  }

  std::size_t device_bytes() const override {
    std::size_t bytes = graph_.bytes() + level_.size() * sizeof(std::int32_t) +
                        (parent_.size() + queue_[0].size() + queue_[1].size()) * sizeof(Index) +
                        (large_list_[0].size() + large_list_[1].size()) * sizeof(LargeVertex) +
                        sizeof(Control);
    for (const auto* bits : {&visited_, &no_in_edges_, &large_, &frontier_[0], &frontier_[1],
                             &frontier_[2]})
      bytes += bits->size() * sizeof(unsigned);
    return bytes;
  }

 private:
  static LevelStats stats(const Report& report, std::int32_t level) {
    const LevelRecord& record = report.level[level % report_capacity];
    return {record.frontier, record.edges, record.pulled ? Direction::pull : Direction::push, 0};
  }

  DeviceGraph graph_;
  detail::Array<std::int32_t> level_;
  detail::Array<Index> parent_;
  detail::Array<unsigned> visited_, no_in_edges_, large_, frontier_[3];
  detail::Array<Index> queue_[2];
  detail::Array<LargeVertex> large_list_[2];
  detail::Array<Control> control_;
  MappedReport report_;
  Search search_;
  LevelLoop loop_;
  bool has_loop_ = false;
  unsigned grid_ = 1, start_grid_ = 1;
  LevelLog log_;
  bool prepared_ = false;
  bool parents_ = true;
};

}  // namespace

std::unique_ptr<Engine> make_direction_optimized() {
  return std::make_unique<DirectionOptimized>();
}

}  // namespace grb::bfs::kernels
