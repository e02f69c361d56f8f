// DeviceGraph construction (grb/distributed/device_graph.hpp): Graph500 kernel 1 on the GPU
// ranks, and the copy of a host-built share.
#include <algorithm>
#include <cub/device/device_radix_sort.cuh>
#include <vector>

#include "../../cuda/coordinate_sort.cuh"
#include "../../generate/kronecker_arguments.hpp"
#include "../../generate/kronecker_sampler.hpp"
#include "grb/cuda/runtime.cuh"
#include "grb/distributed/device_graph.hpp"

namespace grb::dist {
namespace {

using namespace grb::cuda::detail;
using generate::detail::KroneckerEdge;
using generate::detail::KroneckerSampler;

/// Edge k0 + p fills slots 2p (source -> target) and 2p + 1 (its mirror); a self loop fills both
/// with the sentinel, which sorts last and is cut off (the single-process generator drops them).
__global__ void write_edge_keys(KroneckerSampler sampler, std::uint64_t k0, std::uint64_t count,
                                CoordinateKeys keys, std::uint64_t* out) {
  GRB_GRID_STRIDE_LOOP(p, count) {
    const KroneckerEdge edge = sampler(k0 + p);
    const bool loop = edge.source == edge.target;
    out[2 * p] = loop ? keys.sentinel() : keys.pack(edge.source, edge.target);
    out[2 * p + 1] = loop ? keys.sentinel() : keys.pack(edge.target, edge.source);
  }
}

/// Global (row, column) keys -> keys of this rank's rows (row - first).
__global__ void rebase_rows(std::uint64_t* keys, std::uint64_t count, CoordinateKeys global,
                            CoordinateKeys local, Index first) {
  GRB_GRID_STRIDE_LOOP(p, count) {
    const std::uint64_t key = keys[p];
    keys[p] = local.pack(global.row(key) - first, global.column(key));
  }
}

__global__ void find_first_with_edge(const Offset* row_offsets, Index rows, Index first,
                                     unsigned* found) {
  GRB_GRID_STRIDE_LOOP(i, rows) {
    if (row_offsets[i + 1] > row_offsets[i]) atomicMin(found, unsigned(first + i));
  }
}

/// Sorts keys in place (the array may come back swapped with the sort's second buffer).
void sort_keys(DeviceArray<std::uint64_t>& keys, int bits) {
  if (keys.empty()) return;
  DeviceArray<std::uint64_t> other = device_array<std::uint64_t>(keys.size());
  cub::DoubleBuffer<std::uint64_t> buffer(keys.data(), other.data());
  cub_run([&](void* temporary, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortKeys(temporary, bytes, buffer,
                                          static_cast<std::int64_t>(keys.size()), 0, bits,
                                          current_stream());
  });
  if (buffer.Current() != keys.data()) keys.swap(other);
}

}  // namespace

Graph<bool> DeviceGraph::to_host() const {
  Graph<bool> graph;
  graph.partition = partition;
  graph.rank = rank;
  graph.global_entries = global_entries;
  grb::detail::Array<bool> values(col_indices.size(), Backend::cpu);
  std::fill(values.begin(), values.end(), true);
  graph.local = Matrix<bool>(Csr<bool>{rows(), partition.vertices(), row_offsets.to(Backend::cpu),
                                       col_indices.to(Backend::cpu), std::move(values)});
  return graph;
}

Index first_vertex_with_edge(const DeviceCommunicator& comm, const DeviceGraph& graph) {
  static_assert(sizeof(Index) == sizeof(unsigned));
  ContextScope scope(comm.context());
  const Index n = graph.partition.vertices();
  DeviceArray<unsigned> found = device_array<unsigned>(1);
  write_scalar(found.data(), unsigned(n));
  if (graph.rows() > 0) {
    find_first_with_edge<<<blocks_for_bound(graph.rows()), block_threads, 0, current_stream()>>>(
        graph.row_offsets.data(), graph.rows(), graph.first(), found.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  const Index mine = read_scalar(found.data());
  return static_cast<Index>(n - comm.max(n - mine));
}

DeviceGraph to_device(const Graph<bool>& graph) {
  const Csr<bool>& csr = graph.local.csr();
  DeviceGraph result;
  result.partition = graph.partition;
  result.rank = graph.rank;
  result.global_entries = graph.global_entries;
  result.row_offsets = csr.row_offsets.to(Backend::cuda);
  result.col_indices = csr.col_indices.to(Backend::cuda);
  return result;
}

DeviceGraph kronecker_on_devices(const DeviceCommunicator& comm, int scale, int edge_factor,
                                 std::uint64_t seed) {
  generate::detail::check_kronecker_arguments(scale, edge_factor);
  ContextScope scope(comm.context());
  const std::uint64_t n = std::uint64_t{1} << scale;
  const std::uint64_t nedges = std::uint64_t(edge_factor) * n;
  DeviceGraph graph;
  graph.partition = BlockPartition(static_cast<Index>(n), comm.size());
  graph.rank = comm.rank();
  const BlockPartition& partition = graph.partition;

  // This rank's edge numbers, both directions of each, sorted by (row, column): the rows of each
  // owner are then one slice, found by binary search.
  const std::uint64_t k0 = nedges * comm.rank() / comm.size();
  const std::uint64_t k1 = nedges * (comm.rank() + 1) / comm.size();
  const CoordinateKeys global = coordinate_keys(Index(n), Index(n), true);
  DeviceArray<std::uint64_t> keys = device_array<std::uint64_t>(2 * (k1 - k0));
  if (k1 > k0) {
    const KroneckerSampler sampler(scale, nedges, seed);
    write_edge_keys<<<blocks_for(k1 - k0), block_threads, 0, current_stream()>>>(
        sampler, k0, k1 - k0, global, keys.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  sort_keys(keys, global.key_bits);
  std::vector<std::uint64_t> send_counts(comm.size());
  Offset below = 0;
  for (int r = 0; r < comm.size(); ++r) {
    const Offset next = count_below(keys, global.pack(partition.first(r + 1), 0));
    send_counts[r] = next - below;
    below = next;
  }
  const std::vector<std::uint64_t> receive_counts = comm.exchange_counts(send_counts);
  std::uint64_t total = 0;
  for (std::uint64_t count : receive_counts) total += count;
  DeviceArray<std::uint64_t> received = device_array<std::uint64_t>(total);
  comm.all_to_all_bytes(keys.data(), send_counts, received.data(), receive_counts,
                        sizeof(std::uint64_t));
  keys = {};

  // This rank's rows: keyed by local row, sorted, one entry per (row, column).
  const Index first = partition.first(comm.rank());
  const Index rows = partition.count(comm.rank());
  const CoordinateKeys local = coordinate_keys(rows, Index(n), false);
  if (total > 0) {
    rebase_rows<<<blocks_for(total), block_threads, 0, current_stream()>>>(received.data(), total,
                                                                           global, local, first);
    GRB_CUDA_CHECK_LAUNCH();
  }
  sort_keys(received, local.key_bits);
  const DeviceArray<Offset> starts = run_starts(received, total);
  graph.row_offsets = device_array<Offset>(std::size_t(rows) + 1);
  graph.col_indices = device_array<Index>(starts.size());
  write_structure(local, received, starts, rows, graph.row_offsets.data(),
                  graph.col_indices.data());
  graph.global_entries = comm.sum(graph.col_indices.size());
  return graph;
}

}  // namespace grb::dist
