// Edge list -> CSR adjacency matrix on the GPU (Graph500 kernel 1), giving exactly the matrix the
// host to_matrix gives.
//
// Why one radix sort of packed 64-bit (row, column) keys over all entries rather than a
// segmented sort per row: a permuted Kronecker graph's rows range from empty to millions of
// entries, which segmented sorts handle badly, while an LSD radix sort's cost depends only on
// the entry count and the key width, and packing both ids into 2 * log2(n) bits (48 at scale 24)
// saves two of its eight 8-bit passes. The sort carries each entry's edge number (4 bytes) rather
// than its weight (8): weights are gathered once per run afterwards.
//
// Edge e owns entry slots 2e and 2e + 1 (its mirror when symmetrizing), so the keys are written
// without a scan; a dropped slot (self loop, or a self loop's mirror) holds a sentinel key that
// sorts after every entry and is cut off after the sort.
//
// Device memory per input edge, at the peak (the sort), when symmetrizing with 32-bit edge
// numbers: 16 (the edge list; 8 of them freed first when the list is consumed) + 2 slots x
// (8 + 8 key buffers + 4 + 4 edge-number buffers) = 64 bytes (56 consumed). Afterwards: the
// sorted keys and edge numbers (12 bytes per slot), the run starts (8 per stored entry) and the
// result's columns (4 per stored entry, 8 per row); then the keys are freed and the values
// (8 per stored entry) allocated, so the peak after the sort stays below the sort's own.
#include <cstdint>
#include <limits>
#include <string>

#include "../generate/device.hpp"
#include "coordinate_sort.cuh"
#include "grb/cuda/runtime.cuh"
#include "grb/error.hpp"

namespace grb::generate::detail {
namespace {

using namespace grb::cuda::detail;

/// *first_bad = the smallest edge with an endpoint >= n (initialized to nedges by the caller).
__global__ void find_bad_endpoint(std::uint64_t nedges, Index n, const Index* source,
                                  const Index* target, unsigned long long* first_bad) {
  GRB_GRID_STRIDE_LOOP(e, nedges) {
    if (source[e] >= n || target[e] >= n) atomicMin(first_bad, static_cast<unsigned long long>(e));
  }
}

template <class EdgeNumber>
__global__ void write_entry_keys(std::uint64_t nedges, const Index* source, const Index* target,
                                 CoordinateKeys coordinates, bool symmetrize,
                                 bool drop_self_loops, std::uint64_t* keys,
                                 EdgeNumber* edge_of) {
  const int slots = symmetrize ? 2 : 1;
  GRB_GRID_STRIDE_LOOP(e, nedges) {
    const Index s = source[e], t = target[e];
    const std::uint64_t slot = e * slots;
    keys[slot] = drop_self_loops && s == t ? coordinates.sentinel() : coordinates.pack(s, t);
    edge_of[slot] = static_cast<EdgeNumber>(e);
    if (symmetrize) {
      // A self loop is its own mirror image: symmetrizing must not store it twice.
      keys[slot + 1] = s == t ? coordinates.sentinel() : coordinates.pack(t, s);
      edge_of[slot + 1] = static_cast<EdgeNumber>(e);
    }
  }
}

/// The value of each run: its smallest weight, or (keep_sum) the sum of its weights in
/// increasing order, the order in which the host to_matrix adds them, so the sums agree to the
/// bit. Runs are short (parallel edges), so the quadratic ordered walk costs little.
template <class EdgeNumber>
__global__ void combine_runs(Offset nruns, Offset nentries, const Offset* starts,
                             const EdgeNumber* edge_of, const double* weight, bool keep_sum,
                             double* values) {
  GRB_GRID_STRIDE_LOOP(r, nruns) {
    const Offset begin = starts[r];
    const Offset end = r + 1 < nruns ? starts[r + 1] : nentries;
    double smallest = weight[edge_of[begin]];
    for (Offset p = begin + 1; p < end; ++p) smallest = fmin(smallest, weight[edge_of[p]]);
    if (!keep_sum || end - begin == 1) {
      values[r] = smallest;
      continue;
    }
    double total = 0, current = smallest;
    for (;;) {
      double next = std::numeric_limits<double>::infinity();
      bool more = false;
      for (Offset p = begin; p < end; ++p) {
        const double w = weight[edge_of[p]];
        if (w == current) total += w;
        else if (w > current && w <= next) next = w, more = true;
      }
      if (!more) break;
      current = next;
    }
    values[r] = total;
  }
}

template <class EdgeNumber>
Csr<double> build_csr(const DeviceEdgeList& edges, const Options& options,
                      DeviceEdgeList* consumed) {
  const Index n = edges.nvertices;
  const std::uint64_t nedges = edges.size();
  // With self loops kept, the all-ones key could be the real entry (n - 1, n - 1).
  const CoordinateKeys coordinates = coordinate_keys(n, n, !options.drop_self_loops);
  const std::uint64_t nslots = nedges * (options.symmetrize ? 2 : 1);

  DeviceArray<std::uint64_t> keys = device_array<std::uint64_t>(nslots);
  DeviceArray<EdgeNumber> edge_of = device_array<EdgeNumber>(nslots);
  write_entry_keys<<<blocks_for(nedges), block_threads, 0, current_stream()>>>(
      nedges, edges.source.data(), edges.target.data(), coordinates, options.symmetrize,
      options.drop_self_loops, keys.data(), edge_of.data());
  GRB_CUDA_CHECK_LAUNCH();
  if (consumed) {
    consumed->source = {};
    consumed->target = {};
  }
  sort_coordinates(keys, edge_of, coordinates.key_bits);

  const Offset nentries = count_below(keys, coordinates.sentinel());
  const DeviceArray<Offset> starts = run_starts(keys, nentries);
  const Offset nruns = starts.size();
  Csr<double> csr{n, n, device_array<Offset>(std::size_t(n) + 1), device_array<Index>(nruns), {}};
  write_structure(coordinates, keys, starts, n, csr.row_offsets.data(), csr.col_indices.data());
  keys = {};  // before the values are allocated: see the memory arithmetic above
  csr.values = device_array<double>(nruns);
  if (nruns > 0) {
    combine_runs<<<blocks_for(nruns), block_threads, 0, current_stream()>>>(
        nruns, nentries, starts.data(), edge_of.data(), edges.weight.data(),
        !options.drop_duplicates, csr.values.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  return csr;
}

}  // namespace

Csr<double> edge_list_to_csr_cuda(const DeviceEdgeList& edges, const Options& options,
                                  DeviceEdgeList* consumed) {
  const Index n = edges.nvertices;
  const std::uint64_t nedges = edges.size();
  if (nedges > 0) {
    DeviceArray<unsigned long long> first_bad = device_array<unsigned long long>(1);
    write_scalar(first_bad.data(), static_cast<unsigned long long>(nedges));
    find_bad_endpoint<<<blocks_for(nedges), block_threads, 0, current_stream()>>>(
        nedges, n, edges.source.data(), edges.target.data(), first_bad.data());
    GRB_CUDA_CHECK_LAUNCH();
    if (const std::uint64_t e = read_scalar(first_bad.data()); e < nedges) {
      Index source = 0, target = 0;
      grb::detail::copy_bytes(&source, Backend::cpu, edges.source.data() + e, Backend::cuda,
                              sizeof source);
      grb::detail::copy_bytes(&target, Backend::cpu, edges.target.data() + e, Backend::cuda,
                              sizeof target);
      throw IndexOutOfBounds("to_matrix: edge " + std::to_string(e) + " (" +
                             std::to_string(source) + " -> " + std::to_string(target) +
                             ") has an end outside [0, " + std::to_string(n) + ")");
    }
  }
  // 32-bit edge numbers halve the sort's payload whenever they can number every edge.
  if (nedges <= std::numeric_limits<std::uint32_t>::max())
    return build_csr<std::uint32_t>(edges, options, consumed);
  return build_csr<std::uint64_t>(edges, options, consumed);
}

}  // namespace grb::generate::detail
