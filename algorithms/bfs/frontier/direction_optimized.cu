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
// with out-degree 1..chunk_edges plus a list of chunk_edges-long pieces of the larger lists, so
// that a hub's edges spread over the whole grid instead of one warp. Discoveries append to the
// next queue or chunk list as they happen, so no level ever converts a bitmap into a queue: a
// push level right after a pull level reads the frontier bitmap instead of a queue.
#include <cooperative_groups.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "bfs/frontier/bitmap.cuh"
#include "bfs/frontier/cuda_check.cuh"
#include "bfs/frontier/device_graph.cuh"
#include "bfs/frontier/engines.hpp"
#include "bfs/frontier/search_state.cuh"
#include "bfs/frontier/tally.cuh"
#include "bfs/frontier/visit.cuh"

namespace grb::bfs::frontier {
namespace {

namespace cg = cooperative_groups;

constexpr int block = 256;
// GAP's defaults for Beamer's constants.
constexpr double default_alpha = 15;
constexpr double default_beta = 18;
// Out-lists longer than this are pushed as pieces of this many edges, one warp per piece.
constexpr Index default_chunk_edges = 128;
// Levels per graph launch: their stats are written to page-locked host memory, this many slots.
constexpr std::int32_t report_capacity = 1024;

/// A piece of a long out-list: edges [begin(vertex) + index * chunk_edges, + chunk_edges).
struct Chunk {
  Index vertex;
  Index index;
};

/// Read by every block at the start of a level; written by the last block of the level before.
struct Control {
  std::int32_t depth;
  std::int32_t pulling;      // this level pulls
  std::int32_t from_bitmap;  // this push level reads the frontier bitmap (it follows a pull)
  Index frontier;            // vertices on this level
  Offset unexplored;         // GAP's edges_to_check: edges minus the pushed frontiers' out-edges
  unsigned long long queue_size[2];   // by depth parity: this level's, and the next one's tail
  unsigned long long chunk_count[2];  // likewise for the chunk lists
  Tally tally;          // this level: discovered, their out-edges (push), edges read
  unsigned blocks_done;  // blocks of this level that have finished
};

struct LevelRecord {
  Index frontier;
  std::int32_t pulled;
  Offset edges;
};

/// Page-locked, mapped: the device writes it, the host reads it after the search.
struct Report {
  std::int32_t levels;    // levels completed
  std::int32_t finished;  // the last completed level discovered nothing
  LevelRecord level[report_capacity];  // level l at l % report_capacity
};

/// Everything a kernel needs, passed by value (so a graph's kernel node holds it).
struct Search {
  GraphView out, in;
  Index words;  // bitmap words
  std::int32_t* level;
  Index* parent;
  unsigned* visited;
  const unsigned* no_in_edges;  // also marks the padding bits past the last vertex
  const unsigned* large;        // out-degree > chunk_edges
  unsigned* frontier[3];        // level d reads [d % 3], writes [(d + 1) % 3], clears [(d + 2) % 3]
  Index* queue[2];              // level d reads [d % 2], appends to [(d + 1) % 2]
  Chunk* chunks[2];
  Control* control;
  Report* report;
  cudaGraphConditionalHandle condition;
  double alpha, beta;
  Index chunk_edges;
};

__device__ inline unsigned long long global_warp() {
  return (std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
}
__device__ inline unsigned long long warp_count() { return std::uint64_t(gridDim.x) * blockDim.x / 32; }

__device__ inline Index chunks_of(const Search& s, Offset degree) {
  return Index((degree + s.chunk_edges - 1) / s.chunk_edges);
}

/// Appends v's out-list as pieces of chunk_edges edges (one atomic for all of them).
__device__ void append_chunks(const Search& s, Chunk* chunks, unsigned long long* count, Index v,
                              Offset degree) {
  const Index pieces = chunks_of(s, degree);
  const unsigned long long base = atomicAdd(count, static_cast<unsigned long long>(pieces));
  for (Index i = 0; i < pieces; ++i) chunks[base + i] = {v, i};
}

/// Where a push level puts what it discovers.
struct PushTargets {
  std::int32_t next_level;
  unsigned* next_frontier;
  Index* next_queue;
  unsigned long long* queue_tail;
  Chunk* next_chunks;
  unsigned long long* chunk_tail;
};

/// Push edge from -> v: the caller whose atomicOr sets v's visited bit owns v.
__device__ void push_visit(const Search& s, const PushTargets& t, Index v, Index from,
                           Tally& local) {
  const unsigned bit = 1u << (v & 31u);
  unsigned* word = &s.visited[v >> 5];
  if (*word & bit) return;  // a plain read first: on power-law graphs most targets are settled
  if (atomicOr(word, bit) & bit) return;
  s.level[v] = t.next_level;
  s.parent[v] = from;
  atomicOr(&t.next_frontier[v >> 5], bit);
  const Offset degree = s.out.degree(v);
  ++local.discovered;
  local.discovered_edges += degree;
  if (degree > s.chunk_edges) {
    append_chunks(s, t.next_chunks, t.chunk_tail, v, degree);
  } else if (degree > 0) {  // sinks have nothing to push
    // One atomic for the lanes that got here together.
    const cg::coalesced_group group = cg::coalesced_threads();
    unsigned long long base = 0;
    if (group.thread_rank() == 0) base = atomicAdd(t.queue_tail, static_cast<unsigned long long>(group.size()));
    base = group.shfl(base, 0);
    t.next_queue[base + group.thread_rank()] = v;
  }
}

/// One push level. Work units, a warp each: the chunks, then 32 frontier vertices at a time (a
/// queue slice, or a bitmap word after a pull level; their lists are at most chunk_edges long:
/// a warp together for 32 and more, a lane alone below).
__device__ void push_level(const Search& s, std::int32_t depth, bool from_bitmap,
                           unsigned long long queue_size, unsigned long long chunk_count,
                           Tally& local) {
  const unsigned next = (depth + 1) & 1;
  const PushTargets t{depth + 1,        s.frontier[(depth + 1) % 3],     s.queue[next],
                      &s.control->queue_size[next], s.chunks[next], &s.control->chunk_count[next]};
  const Chunk* chunks = s.chunks[depth & 1];
  const Index* queue = s.queue[depth & 1];
  const unsigned* frontier = s.frontier[depth % 3];
  const unsigned long long units =
      chunk_count + (from_bitmap ? s.words : (queue_size + 31) / 32);
  const unsigned lane = lane_id();
  for (unsigned long long unit = global_warp(); unit < units; unit += warp_count()) {
    if (unit < chunk_count) {
      const Chunk chunk = chunks[unit];
      const Offset begin = s.out.begin(chunk.vertex) + Offset(chunk.index) * s.chunk_edges;
      const Offset end = std::min(s.out.end(chunk.vertex), begin + s.chunk_edges);
      if (lane == 0) local.edges += end - begin;
      for (Offset e = begin + lane; e < end; e += 32)
        push_visit(s, t, s.out.targets[e], chunk.vertex, local);
      continue;
    }
    const unsigned long long slice = unit - chunk_count;
    Index u = 0;
    bool mine = false;
    if (from_bitmap) {
      u = Index(slice * 32 + lane);
      mine = (frontier[slice] >> lane) & 1u;
    } else if (slice * 32 + lane < queue_size) {
      u = queue[slice * 32 + lane];
      mine = true;
    }
    Offset begin = 0, end = 0;
    if (mine) {
      begin = s.out.begin(u);
      end = s.out.end(u);
      if (end - begin > s.chunk_edges) end = begin;  // a large list: its chunks are in the list
    }
    local.edges += end - begin;
    while (true) {
      const unsigned bidders = __ballot_sync(0xffffffffu, end - begin >= 32);
      if (bidders == 0) break;
      const unsigned leader = __ffs(bidders) - 1;
      const Index from = __shfl_sync(0xffffffffu, u, leader);
      const Offset list_begin = __shfl_sync(0xffffffffu, begin, leader);
      const Offset list_end = __shfl_sync(0xffffffffu, end, leader);
      if (lane == leader) begin = end;
      for (Offset e = list_begin + lane; e < list_end; e += 32)
        push_visit(s, t, s.out.targets[e], from, local);
    }
    for (Offset e = begin; e < end; ++e) push_visit(s, t, s.out.targets[e], u, local);
  }
}

/// One pull level: a warp per visited-bitmap word; each unsettled vertex walks its in-edges
/// until one comes from the frontier (a lane alone for short lists, the warp 32 edges at a time
/// for long ones). A warp owns its word, so it updates visited and writes the next frontier's word
/// with plain stores.
__device__ void pull_level(const Search& s, std::int32_t depth, Tally& local) {
  const unsigned* frontier = s.frontier[depth % 3];
  unsigned* next_frontier = s.frontier[(depth + 1) % 3];
  const unsigned next = (depth + 1) & 1;
  const unsigned lane = lane_id();
  for (unsigned long long word = global_warp(); word < s.words; word += warp_count()) {
    const unsigned settled = s.visited[word];
    if (settled == 0xffffffffu) continue;
    const Index v = Index(word * 32 + lane);
    Offset begin = 0, end = 0;
    if (!((settled >> lane) & 1u)) {
      begin = s.in.begin(v);
      end = s.in.end(v);
    }
    bool found = false;
    Index from = 0;
    while (true) {
      const unsigned bidders = __ballot_sync(0xffffffffu, end - begin > 32);
      if (bidders == 0) break;
      const unsigned leader = __ffs(bidders) - 1;
      const Offset list_begin = __shfl_sync(0xffffffffu, begin, leader);
      const Offset list_end = __shfl_sync(0xffffffffu, end, leader);
      if (lane == leader) begin = end;
      for (Offset e = list_begin; e < list_end; e += 32) {
        const bool inside = e + lane < list_end;
        const Index w = inside ? s.in.targets[e + lane] : 0;
        const unsigned hits = __ballot_sync(0xffffffffu, inside && bitmap_test(frontier, w));
        if (lane == leader) local.edges += std::min(Offset(32), list_end - e);
        if (hits != 0) {
          const Index parent = __shfl_sync(0xffffffffu, w, __ffs(hits) - 1);
          if (lane == leader) found = true, from = parent;
          break;
        }
      }
    }
    for (Offset e = begin; e < end; ++e) {
      ++local.edges;
      const Index w = s.in.targets[e];
      if (bitmap_test(frontier, w)) {
        found = true;
        from = w;
        break;
      }
    }
    const unsigned discovered = __ballot_sync(0xffffffffu, found);
    if (found) {
      s.level[v] = depth + 1;
      s.parent[v] = from;
      ++local.discovered;
      if (bitmap_test(s.large, v))
        append_chunks(s, s.chunks[next], &s.control->chunk_count[next], v, s.out.degree(v));
    }
    if (lane == 0 && discovered != 0) {
      s.visited[word] = settled | discovered;
      next_frontier[word] = discovered;
    }
  }
}

/// The last block of a level: records the level, chooses the next one's direction (GAP's rule:
/// pull when the next frontier's out-edges exceed unexplored / alpha; stop pulling once the
/// frontier shrinks and is below n / beta) and resets the counters the next level appends to.
__device__ void decide_next_level(const Search& s, bool in_graph) {
  Control& c = *s.control;
  const volatile Tally& tally = c.tally;
  const Index discovered = Index(tally.discovered);
  const Offset discovered_edges = tally.discovered_edges;
  const std::int32_t depth = c.depth;
  s.report->level[depth % report_capacity] = {c.frontier, c.pulling, Offset(tally.edges)};
  if (c.pulling) {
    if (discovered < c.frontier && double(discovered) < double(s.out.vertices) / s.beta) {
      c.pulling = 0;
      c.from_bitmap = 1;
    }
  } else if (double(discovered_edges) > double(c.unexplored) / s.alpha) {
    c.pulling = 1;
  } else {
    c.unexplored -= discovered_edges;
    c.from_bitmap = 0;
  }
  c.depth = depth + 1;
  c.frontier = discovered;
  c.tally = Tally{};
  c.blocks_done = 0;
  c.queue_size[depth & 1] = 0;  // level depth + 2 appends there
  c.chunk_count[depth & 1] = 0;
  s.report->levels = depth + 1;
  s.report->finished = discovered == 0;
  if (in_graph)
    cudaGraphSetConditional(s.condition,
                            discovered > 0 && (depth + 1) % report_capacity != 0 ? 1u : 0u);
}

// 64 registers: four blocks per multiprocessor (more blocks and fewer registers spill, measured
// slower on kron22).
__global__ void __launch_bounds__(block, 4) bfs_level(Search s, bool in_graph) {
  const Control& c = *s.control;
  const std::int32_t depth = c.depth;
  const bool pulling = c.pulling;
  const bool from_bitmap = c.from_bitmap;
  const unsigned long long queue_size = c.queue_size[depth & 1];
  const unsigned long long chunk_count = c.chunk_count[depth & 1];

  // The bitmap two levels ahead held the frontier of the level before this one: nobody reads it.
  unsigned* stale = s.frontier[(depth + 2) % 3];
  for (unsigned long long w = std::uint64_t(blockIdx.x) * block + threadIdx.x; w < s.words;
       w += std::uint64_t(gridDim.x) * block)
    stale[w] = 0;

  Tally local;
  if (pulling) pull_level(s, depth, local);
  else push_level(s, depth, from_bitmap, queue_size, chunk_count, local);

  add_block_tally<block>(&s.control->tally, local);
  __shared__ bool last;
  if (threadIdx.x == 0) {
    __threadfence();  // this block's tally before its ticket
    last = atomicAdd(&s.control->blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    __threadfence();
    decide_next_level(s, in_graph);
  }
}

/// Level 0: levels and parents cleared, visited = the vertices without in-edges plus the source,
/// the source alone in frontier 0 (and in queue 0 or chunk list 0), and the first direction.
__global__ void __launch_bounds__(block) begin_search(Search s, Index source) {
  const unsigned long long stride = std::uint64_t(gridDim.x) * block;
  const unsigned long long first = std::uint64_t(blockIdx.x) * block + threadIdx.x;
  for (unsigned long long v = first; v < s.out.vertices; v += stride) {
    s.level[v] = v == source ? 0 : unreached;
    s.parent[v] = v == source ? source : no_index;
  }
  const Index source_word = source >> 5;
  const unsigned source_bit = 1u << (source & 31u);
  for (unsigned long long w = first; w < s.words; w += stride) {
    const unsigned mine = w == source_word ? source_bit : 0u;
    s.visited[w] = s.no_in_edges[w] | mine;
    s.frontier[0][w] = mine;
    s.frontier[1][w] = 0;
    s.frontier[2][w] = 0;
  }
  if (first == 0) {
    Control c{};
    c.frontier = 1;
    c.unexplored = s.out.edges;
    const Offset degree = s.out.degree(source);
    if (double(degree) > double(c.unexplored) / s.alpha) c.pulling = 1;
    else c.unexplored -= degree;
    if (degree > s.chunk_edges) {
      c.chunk_count[0] = chunks_of(s, degree);
      for (Index i = 0; i < c.chunk_count[0]; ++i) s.chunks[0][i] = {source, i};
    } else if (degree > 0) {
      s.queue[0][0] = source;
      c.queue_size[0] = 1;
    }
    *s.control = c;
  }
}

__global__ void __launch_bounds__(block)
    degree_masks(GraphView out, GraphView in, Index words, Index chunk_edges,
                 unsigned* no_in_edges, unsigned* large) {
  const Index w = blockIdx.x * block + threadIdx.x;
  if (w >= words) return;
  unsigned none = 0, big = 0;
  for (unsigned b = 0; b < 32; ++b) {
    const Index v = w * 32 + b;
    if (v >= out.vertices || in.degree(v) == 0) none |= 1u << b;
    if (v < out.vertices && out.degree(v) > chunk_edges) big |= 1u << b;
  }
  no_in_edges[w] = none;
  large[w] = big;
}

/// Page-locked host memory that the device writes directly.
class MappedReport {
 public:
  MappedReport() {
    check_cuda(cudaHostAlloc(&host_, sizeof(Report), cudaHostAllocMapped), "cudaHostAlloc");
    check_cuda(cudaHostGetDevicePointer(&device_, host_, 0), "cudaHostGetDevicePointer");
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
    if (cudaGraphConditionalHandleCreate(&handle, graph_, 1, cudaGraphCondAssignDefault) !=
        cudaSuccess)
      return fail();
    cudaGraphNodeParams loop{};
    loop.type = cudaGraphNodeTypeConditional;
    loop.conditional.handle = handle;
    loop.conditional.type = cudaGraphCondTypeWhile;
    loop.conditional.size = 1;
    cudaGraphNode_t loop_node;
    if (cudaGraphAddNode(&loop_node, graph_, nullptr, nullptr, 0, &loop) != cudaSuccess)
      return fail();
    search.condition = handle;
    bool in_graph = true;
    void* arguments[] = {&search, &in_graph};
    cudaKernelNodeParams level{};
    level.func = reinterpret_cast<void*>(bfs_level);
    level.gridDim = dim3(grid);
    level.blockDim = dim3(block);
    level.kernelParams = arguments;
    cudaGraphNode_t level_node;
    if (cudaGraphAddKernelNode(&level_node, loop.conditional.phGraph_out[0], nullptr, 0, &level) !=
        cudaSuccess)
      return fail();
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
    search_ = Search{};
    search_.alpha = default_alpha;
    search_.beta = default_beta;
    search_.chunk_edges = default_chunk_edges;
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
    // Each large list is at most degree / chunk_edges + 1 chunks, and has degree > chunk_edges.
    for (auto& c : chunks_)
      c = detail::Array<Chunk>(2 * graph_.edges() / search_.chunk_edges + 1, Backend::cuda);
    control_ = detail::Array<Control>(1, Backend::cuda);

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
    for (int i = 0; i < 2; ++i) search_.chunks[i] = chunks_[i].data();
    search_.control = control_.data();
    search_.report = report_.device();

    if (words > 0) {
      degree_masks<<<blocks_for(words, block), block>>>(graph_.out(), graph_.in(), words,
                                                        search_.chunk_edges, no_in_edges_.data(),
                                                        large_.data());
      check_launch("degree_masks");
    }
    // One resident wave: every level kernel loops over its work (it does not know the frontier's
    // size at launch), so more blocks would only wait.
    int device = 0, processors = 0, per_processor = 0;
    check_cuda(cudaGetDevice(&device), "cudaGetDevice");
    check_cuda(cudaDeviceGetAttribute(&processors, cudaDevAttrMultiProcessorCount, device),
               "cudaDeviceGetAttribute");
    check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_processor, bfs_level, block, 0),
               "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    const std::uint64_t work = std::max<std::uint64_t>(words, chunks_[0].size());
    grid_ = std::max(1u, std::min(unsigned(processors * std::max(per_processor, 1)),
                                  blocks_for(work * 32, block)));
    start_grid_ = std::max(1u, std::min(unsigned(processors * 8), blocks_for(n, block)));
    has_loop_ = loop_.build(search_, grid_);
    check_cuda(cudaDeviceSynchronize(), "prepare");
    prepared_ = true;
  }

  void run(Index source, const Options& options) override {
    if (!prepared_) throw InvalidValue("bfs engine direction-optimized: run() before prepare()");
    if (source >= graph_.vertices())
      throw IndexOutOfBounds("bfs engine direction-optimized: source " + std::to_string(source) +
                             " is not a vertex (n = " + std::to_string(graph_.vertices()) + ")");
    parents_ = options.parents;
    log_.start(options);
    begin_search<<<start_grid_, block>>>(search_, source);
    check_launch("begin_search");
    const Report& report = report_.host();
    if (has_loop_ && !options.level_timing) {
      // Each launch runs up to report_capacity levels; the host collects them between launches.
      std::int32_t recorded = 0;
      do {
        check_cuda(cudaGraphLaunch(loop_.exec(), nullptr), "cudaGraphLaunch");
        check_cuda(cudaStreamSynchronize(nullptr), "bfs levels");
        std::vector<LevelStats> levels;
        for (; recorded < report.levels; ++recorded) levels.push_back(stats(report, recorded));
        log_.end_levels(levels);
      } while (!report.finished);
    } else {
      // One level per launch, waited for: per-level timing (or no conditional graph nodes).
      do {
        log_.begin_level();
        bfs_level<<<grid_, block>>>(search_, false);
        check_launch("bfs_level");
        check_cuda(cudaStreamSynchronize(nullptr), "bfs level");
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
                        (chunks_[0].size() + chunks_[1].size()) * sizeof(Chunk) + sizeof(Control);
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
  detail::Array<Chunk> chunks_[2];
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

}  // namespace grb::bfs::frontier
