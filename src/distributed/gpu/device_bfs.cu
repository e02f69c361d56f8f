// Seed paper 004's BFS on GPU ranks: see grb/distributed/device_bfs.hpp for the steps.
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "grb/cuda/primitives/search.cuh"
#include "grb/cuda/primitives/warp.cuh"
#include "grb/cuda/runtime.cuh"
#include "grb/distributed/device_bfs.hpp"

namespace grb::dist {
namespace {

using namespace grb::cuda::detail;

/// GAP's direction-switching constants, as the single-GPU direction-optimized engine uses them
/// (algorithms/bfs/cuda/direction_optimized/state.cuh).
constexpr std::uint64_t alpha = 15;
constexpr std::uint64_t beta = 18;

/// The device counters of a level.
enum Counter { next_count, pair_count, kept_count, reached_vertices, reached_rows, counters };

/// An array that only grows: the pairs of a level are at most its frontier's edges, which are
/// known only when the level starts.
template <class T>
void ensure(DeviceArray<T>& array, std::uint64_t size) {
  if (array.size() < size)
    array = device_array<T>(std::max<std::uint64_t>(size, array.size() * 3 / 2));
}

/// Claims local vertex `v` for `parent` at `depth` (the first claim wins) and appends it to the
/// next frontier. Every lane of the warp calls it.
__device__ void claim(bool take, Index v, Index parent, std::int32_t depth, Index* parents,
                      std::int32_t* levels, Index* next, unsigned long long* next_tail) {
  bool won = false;
  if (take && parents[v] == no_index) won = atomicCAS(&parents[v], no_index, parent) == no_index;
  if (won) levels[v] = depth;
  warp_append(won, v, next, next_tail);
}

__global__ void start_search(Index source, Index local, std::int32_t* levels, Index* parents,
                             Index* frontier) {
  levels[local] = 0;
  parents[local] = source;
  frontier[0] = local;
}

__global__ void frontier_degrees(const Index* frontier, std::uint64_t count,
                                 const Offset* row_offsets, Offset* degrees) {
  GRB_GRID_STRIDE_LOOP(i, count) {
    const Index u = frontier[i];
    degrees[i] = row_offsets[u + 1] - row_offsets[u];
  }
}

/// One thread per edge of the frontier: edge t belongs to the frontier vertex whose degree
/// prefix holds it.
__global__ void expand(const Index* frontier, Index count, const Offset* starts,
                       std::uint64_t edges, const Offset* row_offsets, const Index* col_indices,
                       Index first, Index rows, std::int32_t depth, Index* parents,
                       std::int32_t* levels, Index* next, unsigned long long* tails,
                       Index* pair_vertex, Index* pair_parent) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t t = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
       t - lane_id() < edges; t += stride) {
    const bool valid = t < edges;
    Index u = 0, v = 0;
    if (valid) {
      const Index i = owner_of(starts, count, t);
      u = frontier[i];
      v = col_indices[row_offsets[u] + (t - starts[i])];
    }
    const bool local = valid && v - first < rows;
    claim(local, v - first, u + first, depth, parents, levels, next, &tails[next_count]);
    const unsigned long long slot = warp_take_slot(valid && !local, &tails[pair_count]);
    if (valid && !local) {
      pair_vertex[slot] = v;
      pair_parent[slot] = u + first;
    }
  }
}

/// bounds[r] = the pairs (sorted by vertex) below rank r's first vertex, for r in [0, ranks].
__global__ void owner_bounds(const Index* vertices, const unsigned long long* kept,
                             const std::uint64_t* firsts, int ranks, std::uint64_t* bounds) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r > ranks) return;
  std::uint64_t low = 0, high = *kept;
  while (low < high) {
    const std::uint64_t middle = low + (high - low) / 2;
    if (vertices[middle] < firsts[r])
      low = middle + 1;
    else
      high = middle;
  }
  bounds[r] = low;
}

__global__ void claim_received(const Index* vertices, const Index* parents_in, std::uint64_t count,
                               Index first, std::int32_t depth, Index* parents,
                               std::int32_t* levels, Index* next, unsigned long long* tails) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t j = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
       j - lane_id() < count; j += stride) {
    const bool valid = j < count;
    claim(valid, valid ? vertices[j] - first : 0, valid ? parents_in[j] : 0, depth, parents, levels,
          next, &tails[next_count]);
  }
}

/// Sets the bits of the frontier's vertices in this rank's slice of the frontier bitmap.
__global__ void mark_frontier(const Index* frontier, std::uint64_t count, unsigned* slice) {
  GRB_GRID_STRIDE_LOOP(i, count) {
    const Index v = frontier[i];
    atomicOr(&slice[v / 32], 1u << (v % 32));
  }
}

/// A bottom-up level: every unreached local vertex looks for a neighbour in the global frontier
/// bitmap (rank r's vertices in words [r * words, (r + 1) * words)) and stops at the first.
/// Only this vertex's thread writes its parent, so no atomics. Aligned: every block holds
/// words * 32 vertices (n a multiple of 32 * ranks, as for every Kronecker graph on a power of two
/// of ranks), so vertex u is bit u, with no division to find its owner.
template <bool Aligned>
__global__ void bottom_up(const Offset* row_offsets, const Index* col_indices, Index rows,
                          BlockPartition partition, std::uint64_t words, const unsigned* bitmap,
                          std::int32_t depth, Index* parents, std::int32_t* levels, Index* next,
                          unsigned long long* tails) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i - lane_id() < rows;
       i += stride) {
    bool found = false;
    if (i < rows && parents[i] == no_index) {
      for (Offset e = row_offsets[i]; e < row_offsets[i + 1]; ++e) {
        const Index u = col_indices[e];
        std::uint64_t bit = u;
        if constexpr (!Aligned) {
          const int owner = partition.owner(u);
          bit = owner * words * 32 + (u - partition.first(owner));
        }
        if ((bitmap[bit / 32] >> (bit % 32)) & 1u) {
          parents[i] = u;
          levels[i] = depth;
          found = true;
          break;
        }
      }
    }
    warp_append(found, Index(i), next, &tails[next_count]);
  }
}

__global__ void count_reached(const std::int32_t* levels, Index rows, const Offset* row_offsets,
                              unsigned long long* tails) {
  using Reduce = cub::BlockReduce<unsigned long long, block_threads>;
  __shared__ typename Reduce::TempStorage storage;
  unsigned long long vertices = 0, entries = 0;
  GRB_GRID_STRIDE_LOOP(i, rows) {
    if (levels[i] >= 0) {
      ++vertices;
      entries += row_offsets[i + 1] - row_offsets[i];
    }
  }
  vertices = Reduce(storage).Sum(vertices);
  __syncthreads();
  entries = Reduce(storage).Sum(entries);
  if (threadIdx.x == 0) {
    atomicAdd(&tails[reached_vertices], vertices);
    atomicAdd(&tails[reached_rows], entries);
  }
}

}  // namespace

struct DeviceBfs::Buffers {
  DeviceArray<std::int32_t> levels;
  DeviceArray<Index> parents, frontier, next;
  DeviceArray<Offset> starts;
  DeviceArray<Index> pair_vertex, pair_parent, sorted_vertex, sorted_parent;
  DeviceArray<Index> received_vertex, received_parent;
  DeviceArray<unsigned long long> tails;
  DeviceArray<std::uint64_t> firsts, bounds;
  DeviceArray<unsigned> bitmap;  // the global frontier bitmap: words_per_rank words a rank
  std::uint64_t words_per_rank = 0;
};

DeviceBfs::DeviceBfs(const DeviceCommunicator& comm, const DeviceGraph& graph, BfsOptions options)
    : comm_(comm), graph_(graph), options_(options), buffers_(std::make_unique<Buffers>()) {
  if (graph.partition.ranks() != comm.size() || graph.rank != comm.rank())
    throw InvalidValue("DeviceBfs: the graph is rank " + std::to_string(graph.rank) + " of " +
                       std::to_string(graph.partition.ranks()) + ", the communicator rank " +
                       std::to_string(comm.rank()) + " of " + std::to_string(comm.size()));
  ContextScope scope(comm.context());
  const std::size_t rows = graph.rows();
  Buffers& b = *buffers_;
  b.levels = device_array<std::int32_t>(rows);
  b.parents = device_array<Index>(rows);
  b.frontier = device_array<Index>(rows);
  b.next = device_array<Index>(rows);
  b.starts = device_array<Offset>(rows + 1);
  b.tails = device_array<unsigned long long>(counters);
  std::vector<std::uint64_t> firsts(std::size_t(comm.size()) + 1);
  for (int r = 0; r <= comm.size(); ++r) firsts[r] = graph.partition.first(r);
  b.firsts = grb::detail::Array<std::uint64_t>::from(firsts, Backend::cuda);
  b.bounds = device_array<std::uint64_t>(firsts.size());
  if (options.direction_optimizing) {
    b.words_per_rank =
        (std::uint64_t(graph.partition.count(0)) + 31) / 32;  // rank 0's block is the largest
    b.bitmap = device_array<unsigned>(b.words_per_rank * comm.size());
  }
}

DeviceBfs::~DeviceBfs() {
  ContextScope scope(comm_.context());
  buffers_.reset();
}

const std::vector<BfsLevel>& DeviceBfs::run(Index source) {
  const Index n = graph_.partition.vertices();
  if (source >= n)
    throw IndexOutOfBounds("distributed bfs: source " + std::to_string(source) + " outside [0, " +
                           std::to_string(n) + ")");
  ContextScope scope(comm_.context());
  Buffers& b = *buffers_;
  const Index first = graph_.first(), rows = graph_.rows();
  const int ranks = comm_.size();
  const int vertex_bits = key_bits(n - 1);
  const cudaStream_t stream = current_stream();
  if (rows > 0) {
    GRB_CUDA_CHECK(cudaMemsetAsync(b.levels.data(), 0xff, rows * sizeof(std::int32_t), stream));
    GRB_CUDA_CHECK(cudaMemsetAsync(b.parents.data(), 0xff, rows * sizeof(Index), stream));
  }
  Index frontier = 0;
  if (source - first < rows) {
    start_search<<<1, 1, 0, stream>>>(source, source - first, b.levels.data(), b.parents.data(),
                                      b.frontier.data());
    GRB_CUDA_CHECK_LAUNCH();
    frontier = 1;
  }
  // The degree prefix of a frontier list, in b.starts; returns its edges.
  const auto scan_degrees = [&](const Index* list, Index count) -> std::uint64_t {
    if (count == 0) return 0;
    frontier_degrees<<<blocks_for(count), block_threads, 0, stream>>>(
        list, count, graph_.row_offsets.data(), b.starts.data());
    GRB_CUDA_CHECK_LAUNCH();
    exclusive_scan_counts(b.starts.data(), count);
    return read_scalar(b.starts.data() + count);
  };
  std::uint64_t edges = scan_degrees(b.frontier.data(), frontier);
  // Global counts: the frontier's vertices and edges, the edges of unreached vertices.
  std::vector<std::uint64_t> global = comm_.sum({frontier, edges});
  std::uint64_t frontier_vertices = global[0], frontier_edges = global[1];
  std::uint64_t unexplored_edges = graph_.global_entries - frontier_edges;
  std::uint64_t previous_vertices = 0;
  bool bottom_up_level = false;
  levels_.clear();
  for (std::int32_t depth = 1;; ++depth) {
    // GAP's rule: pull once the frontier's edges exceed the unexplored edges / alpha; push again
    // once the frontier shrinks below n / beta. The counts are global: every rank decides alike.
    if (options_.direction_optimizing) {
      if (!bottom_up_level)
        bottom_up_level = frontier_edges > unexplored_edges / alpha;
      else
        bottom_up_level = frontier_vertices >= previous_vertices || frontier_vertices > n / beta;
    }
    fill_zero(b.tails.data(), counters);
    std::uint64_t found = 0, kept = 0;
    if (bottom_up_level) {
      unsigned* slice = b.bitmap.data() + b.words_per_rank * comm_.rank();
      fill_zero(slice, b.words_per_rank);
      if (frontier > 0) {
        mark_frontier<<<blocks_for(frontier), block_threads, 0, stream>>>(b.frontier.data(),
                                                                          frontier, slice);
        GRB_CUDA_CHECK_LAUNCH();
      }
      comm_.all_gather_bytes(slice, b.bitmap.data(), b.words_per_rank * sizeof(unsigned));
      if (rows > 0) {
        const bool aligned =
            std::uint64_t(n) == b.words_per_rank * 32 * std::uint64_t(comm_.size());
        (aligned ? bottom_up<true>
                 : bottom_up<false>)<<<blocks_for(rows), block_threads, 0, stream>>>(
            graph_.row_offsets.data(), graph_.col_indices.data(), rows, graph_.partition,
            b.words_per_rank, b.bitmap.data(), depth, b.parents.data(), b.levels.data(),
            b.next.data(), b.tails.data());
        GRB_CUDA_CHECK_LAUNCH();
      }
    } else {
      std::tie(found, kept) = top_down(depth, frontier, edges);
    }
    const std::uint64_t next = read_scalar(b.tails.data() + next_count);
    edges = scan_degrees(b.next.data(), static_cast<Index>(next));
    // One all-reduce a level: the next frontier's size decides; the rest is the level's record.
    global = comm_.sum({next, edges, frontier, found, kept});
    levels_.push_back(BfsLevel{global[2], global[3], global[4], bottom_up_level});
    if (global[0] == 0) break;
    b.frontier.swap(b.next);
    frontier = static_cast<Index>(next);
    previous_vertices = frontier_vertices;
    frontier_vertices = global[0];
    frontier_edges = global[1];
    unexplored_edges -= std::min(unexplored_edges, frontier_edges);
  }
  return levels_;
}

std::pair<std::uint64_t, std::uint64_t> DeviceBfs::top_down(std::int32_t depth, Index frontier,
                                                            std::uint64_t edges) {
  Buffers& b = *buffers_;
  const Index first = graph_.first(), rows = graph_.rows();
  const int ranks = comm_.size();
  const int vertex_bits = key_bits(graph_.partition.vertices() - 1);
  const cudaStream_t stream = current_stream();
  if (edges > 0) {
    ensure(b.pair_vertex, edges);
    ensure(b.pair_parent, edges);
    expand<<<blocks_for(edges), block_threads, 0, stream>>>(
        b.frontier.data(), frontier, b.starts.data(), edges, graph_.row_offsets.data(),
        graph_.col_indices.data(), first, rows, depth, b.parents.data(), b.levels.data(),
        b.next.data(), b.tails.data(), b.pair_vertex.data(), b.pair_parent.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  const std::uint64_t found = read_scalar(b.tails.data() + pair_count);
  std::uint64_t kept = found;
  const Index* out_vertex = b.pair_vertex.data();
  const Index* out_parent = b.pair_parent.data();
  std::vector<std::uint64_t> send_counts(ranks, 0);
  if (found > 0) {
    // Sorted by vertex: the pairs of each owner are one slice, and a vertex's pairs adjacent.
    ensure(b.sorted_vertex, found);
    ensure(b.sorted_parent, found);
    cub_run([&](void* temporary, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(
          temporary, bytes, b.pair_vertex.data(), b.sorted_vertex.data(), b.pair_parent.data(),
          b.sorted_parent.data(), std::int64_t(found), 0, vertex_bits, stream);
    });
    out_vertex = b.sorted_vertex.data();
    out_parent = b.sorted_parent.data();
    if (options_.prune) {
      cub_run([&](void* temporary, std::size_t& bytes) {
        return cub::DeviceSelect::UniqueByKey(
            temporary, bytes, b.sorted_vertex.data(), b.sorted_parent.data(), b.pair_vertex.data(),
            b.pair_parent.data(), b.tails.data() + kept_count, std::int64_t(found), stream);
      });
      out_vertex = b.pair_vertex.data();
      out_parent = b.pair_parent.data();
    } else {
      write_scalar(b.tails.data() + kept_count, static_cast<unsigned long long>(found));
    }
    owner_bounds<<<blocks_for(ranks + 1), block_threads, 0, stream>>>(
        out_vertex, b.tails.data() + kept_count, b.firsts.data(), ranks, b.bounds.data());
    GRB_CUDA_CHECK_LAUNCH();
    const std::vector<std::uint64_t> bounds = b.bounds.to_vector();
    for (int r = 0; r < ranks; ++r) send_counts[r] = bounds[r + 1] - bounds[r];
    kept = bounds[ranks] - bounds[0];
  }
  const std::vector<std::uint64_t> receive_counts = comm_.exchange_counts(send_counts);
  std::uint64_t received = 0;
  for (std::uint64_t count : receive_counts) received += count;
  ensure(b.received_vertex, received);
  ensure(b.received_parent, received);
  comm_.all_to_all_bytes(out_vertex, send_counts, b.received_vertex.data(), receive_counts,
                         sizeof(Index));
  comm_.all_to_all_bytes(out_parent, send_counts, b.received_parent.data(), receive_counts,
                         sizeof(Index));
  if (received > 0) {
    claim_received<<<blocks_for(received), block_threads, 0, stream>>>(
        b.received_vertex.data(), b.received_parent.data(), received, first, depth,
        b.parents.data(), b.levels.data(), b.next.data(), b.tails.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  return {found, kept};
}

BfsResult DeviceBfs::result() const {
  ContextScope scope(comm_.context());
  BfsResult result;
  result.level = buffers_->levels.to_vector();
  result.parent = buffers_->parents.to_vector();
  result.levels = levels_;
  return result;
}

namespace {
std::vector<std::uint64_t> reached_counts(const DeviceCommunicator& comm, const DeviceGraph& graph,
                                          DeviceArray<unsigned long long>& tails,
                                          const DeviceArray<std::int32_t>& levels) {
  ContextScope scope(comm.context());
  fill_zero(tails.data(), counters);
  if (graph.rows() > 0) {
    count_reached<<<blocks_for_bound(graph.rows()), block_threads, 0, current_stream()>>>(
        levels.data(), graph.rows(), graph.row_offsets.data(), tails.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  const std::vector<unsigned long long> local = tails.to_vector();
  return comm.sum({local[reached_vertices], local[reached_rows]});
}
}  // namespace

std::uint64_t DeviceBfs::reached_entries() const {
  return reached_counts(comm_, graph_, buffers_->tails, buffers_->levels)[1];
}

std::uint64_t DeviceBfs::reached() const {
  return reached_counts(comm_, graph_, buffers_->tails, buffers_->levels)[0];
}

}  // namespace grb::dist
