// Push (SpMSpV) over u's entries: each entry's row length is scanned (CUB), every thread takes
// one edge and finds its input entry by binary search in the scan (load-balanced whatever the
// degrees: a 'celebrity' row is spread over many threads). Outputs are combined by an unordered
// scatter for `any` monoids, and otherwise by a radix sort of (output, value) pairs and a
// reduce-by-key with the monoid.
#pragma once

#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <optional>

#include "grb/cuda/policy.hpp"
#include "grb/cuda/mxv/product.cuh"
#include "grb/cuda/write_back.cuh"

namespace grb::cuda::detail {

/// Whether a reader of a sparse vector's entries needs them by increasing index.
enum class EntryOrder { any, by_index };

/// The sparse entries of the input: its own arrays, or a compacted copy of a dense one (which
/// is in index order).
template <class U>
class SparseInput {
 public:
  explicit SparseInput(const Vector<U>& u, EntryOrder order = EntryOrder::any)
      : nvals_(u.nvals()) {
    if (u.format() == VectorFormat::sparse) {
      const bool any = order == EntryOrder::any;
      indices_ = any ? u.unsorted_indices().data() : u.indices().data();
      values_ = any ? u.unsorted_values().data() : u.values().data();
      return;
    }
    owned_indices_ = device_array<Index>(nvals_);
    owned_values_ = device_array<U>(nvals_);
    grb::detail::dense_to_sparse_cuda(sizeof(U), u.size(), nvals_, u.values().data(),
                                      u.present().data(), owned_indices_.data(),
                                      owned_values_.data());
    indices_ = owned_indices_.data();
    values_ = owned_values_.data();
  }
  Index nvals() const { return nvals_; }
  const Index* indices() const { return indices_; }
  const U* values() const { return values_; }

 private:
  Index nvals_;
  const Index* indices_ = nullptr;
  const U* values_ = nullptr;
  DeviceArray<Index> owned_indices_;
  DeviceArray<U> owned_values_;
};

__global__ inline void push_row_lengths(Index count, const Index* indices,
                                        const Offset* row_offsets, Offset* lengths) {
  GRB_GRID_STRIDE_LOOP(f, count) {
    const Index k = indices[f];
    lengths[f] = row_offsets[k + 1] - row_offsets[k];
  }
}

/// starts[0, count] = the exclusive scan of the row lengths of `indices`, total at starts[count],
/// by the calling block (count <= block_scan_inputs). Every thread of the block must call it.
__device__ inline void block_row_starts(Index count, const Index* indices,
                                        const Offset* row_offsets, Offset* starts) {
  using Scan = cub::BlockScan<Offset, block_scan_threads>;
  __shared__ typename Scan::TempStorage temporary;
  Offset lengths[block_scan_items];
  const Index first = threadIdx.x * block_scan_items;
#pragma unroll
  for (unsigned item = 0; item < block_scan_items; ++item) {
    const Index f = first + item;
    lengths[item] = f < count ? row_offsets[indices[f] + 1] - row_offsets[indices[f]] : 0;
  }
  Offset total = 0;
  Scan(temporary).ExclusiveSum(lengths, lengths, total);
#pragma unroll
  for (unsigned item = 0; item < block_scan_items; ++item)
    if (first + item < count) starts[first + item] = lengths[item];
  if (threadIdx.x == 0) starts[count] = total;
}

__global__ inline void __launch_bounds__(block_scan_threads)
    push_row_starts_one_block(Index count, const Index* indices, const Offset* row_offsets,
                              Offset* starts) {
  block_row_starts(count, indices, row_offsets, starts);
}

/// starts[0, count] as block_row_starts makes them, for count <= warp_scan_inputs, by the
/// calling warp (every lane of the block's first warp calls it).
__device__ inline void warp_row_starts(Index count, const Index* indices,
                                       const Offset* row_offsets, Offset* starts) {
  const unsigned lane = threadIdx.x;
  const Offset length =
      lane < count ? row_offsets[indices[lane] + 1] - row_offsets[indices[lane]] : 0;
  Offset sum = length;
#pragma unroll
  for (unsigned distance = 1; distance < 32; distance *= 2) {
    const Offset other = __shfl_up_sync(0xffffffffu, sum, distance);
    if (lane >= distance) sum += other;
  }
  if (lane < count) starts[lane] = sum - length;
  if (lane == 31) starts[count] = sum;  // lengths past count are zero
}

/// What a push expands: u's entries, and (made on first use) the exclusive scan of their rows'
/// lengths in the push matrix (starts()[count()] is the number of edges the push reads, left on
/// the device).
template <class U>
class PushPlan {
 public:
  template <class A>
  PushPlan(const Csr<A>& rows, const Vector<U>& u)
      : input_(u), row_offsets_(rows.row_offsets.data()) {}
  const SparseInput<U>& input() const { return input_; }
  Index count() const { return input_.nvals(); }
  bool scanned() const { return scanned_; }
  const Offset* starts() const {
    if (!scanned_) scan();
    return starts_.data();
  }
  /// The edges the push reads (a read-back the first time: the host waits for the scan).
  Offset edges() const {
    if (!edges_) edges_ = read_scalar(starts() + count());
    return *edges_;
  }
  /// The edges, where edges() has read them already; else at most `bound`, with no read-back.
  Offset edges_at_most(Offset bound) const { return edges_.value_or(bound); }
  /// The edges, known without a scan (Vector::row_edges).
  void know_edges(Offset edges) { edges_ = edges; }
  /// The edges where known (no read-back).
  std::optional<Offset> known_edges() const { return edges_; }

 private:
  SparseInput<U> input_;
  const Offset* row_offsets_;
  mutable DeviceArray<Offset> starts_;
  mutable bool scanned_ = false;
  mutable std::optional<Offset> edges_;

  void scan() const {
    const Index count = input_.nvals();
    starts_ = device_array<Offset>(std::size_t(count) + 1);
    scanned_ = true;
    if (count <= block_scan_inputs) {
      push_row_starts_one_block<<<1, block_scan_threads, 0, current_stream()>>>(
          count, input_.indices(), row_offsets_, starts_.data());
      GRB_CUDA_CHECK_LAUNCH();
      return;
    }
    push_row_lengths<<<blocks_for(count), block_threads, 0, current_stream()>>>(
        count, input_.indices(), row_offsets_, starts_.data());
    GRB_CUDA_CHECK_LAUNCH();
    exclusive_scan_counts(starts_.data(), count);
  }
};

/// The edge `e` of the expansion: its input entry f (binary search of the scanned lengths).
struct PushEdge {
  Index f;
  Offset position;  // in the push matrix's entries
};

template <class A>
__device__ PushEdge push_edge(Offset e, const Offset* starts, Index count, const Index* indices,
                              const CsrView<A>& rows) {
  const Index f = owner_of(starts, count, e);
  return PushEdge{f, rows.row_offsets[indices[f]] + (e - starts[f])};
}

template <class Z, class A, class U, class M, class Prod>
__global__ void push_scatter_any(Offset edges, const Offset* starts, Index count,
                                 const Index* indices, const U* u_values, CsrView<A> rows,
                                 VectorMaskView<M> mask, Prod product, Z* t_values,
                                 std::uint8_t* t_present) {
  GRB_GRID_STRIDE_LOOP(e, edges) {
    const PushEdge edge = push_edge(e, starts, count, indices, rows);
    const Index o = rows.col_indices[edge.position];
    if (!mask.allows(o)) continue;
    // Any candidate is a valid answer for an `any` monoid: concurrent writers of one output
    // each store a complete value, and whichever lands last is kept.
    t_values[o] = static_cast<Z>(product(rows.values[edge.position], u_values[edge.f], o,
                                         indices[edge.f]));
    t_present[o] = 1;
  }
}

template <class Z, class A, class U, class M, class Prod>
__global__ void push_products(Offset edges, const Offset* starts, Index count,
                              const Index* indices, const U* u_values, CsrView<A> rows,
                              VectorMaskView<M> mask, Prod product, Index excluded, Index* keys,
                              Z* values) {
  GRB_GRID_STRIDE_LOOP(e, edges) {
    const PushEdge edge = push_edge(e, starts, count, indices, rows);
    const Index o = rows.col_indices[edge.position];
    const bool allowed = mask.allows(o);
    keys[e] = allowed ? o : excluded;
    values[e] = allowed ? static_cast<Z>(product(rows.values[edge.position], u_values[edge.f], o,
                                                 indices[edge.f]))
                        : Z{};
  }
}

template <class Z>
__global__ void scatter_reduced(Offset capacity, const std::int64_t* runs, const Index* keys,
                                const Z* values, Index excluded, Z* t_values,
                                std::uint8_t* t_present) {
  GRB_GRID_STRIDE_LOOP(r, capacity) {
    if (std::int64_t(r) >= *runs) return;
    const Index o = keys[r];
    if (o == excluded) continue;
    t_values[o] = values[r];
    t_present[o] = 1;
  }
}

template <class Z, class A, class U, class M, class Add, class Prod>
void push(DenseResult<Z>& t, const Csr<A>& rows, const PushPlan<U>& plan,
          const VectorMaskView<M>& mask, const Add& add, const Prod& product) {
  const SparseInput<U>& input = plan.input();
  const Index count = plan.count();
  if (count == 0) return;
  const Offset* starts = plan.starts();
  const Offset edges = plan.edges();
  if (edges == 0) return;
  const CsrView<A> view = view_of(rows);
  if constexpr (grb::detail::is_any_monoid<Add>()) {
    push_scatter_any<Z><<<blocks_for(edges), block_threads, 0, current_stream()>>>(
        edges, starts, count, input.indices(), input.values(), view, mask, product, t.values.data(),
        t.present.data());
    GRB_CUDA_CHECK_LAUNCH();
  } else {
    const Index excluded = t.size;  // a key past every output: masked-out products sort last
    auto keys = device_array<Index>(edges);
    auto values = device_array<Z>(edges);
    push_products<Z><<<blocks_for(edges), block_threads, 0, current_stream()>>>(
        edges, starts, count, input.indices(), input.values(), view, mask, product, excluded,
        keys.data(), values.data());
    GRB_CUDA_CHECK_LAUNCH();
    auto sorted_keys = device_array<Index>(edges);
    auto sorted_values = device_array<Z>(edges);
    const std::int64_t items = static_cast<std::int64_t>(edges);
    const int end_bit = key_bits(excluded);
    cub_run([&](void* temporary, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(temporary, bytes, keys.data(), sorted_keys.data(),
                                             values.data(), sorted_values.data(), items, 0, end_bit,
                                             current_stream());
    });
    auto runs = device_array<std::int64_t>(1);
    cub_run([&](void* temporary, std::size_t& bytes) {
      return cub::DeviceReduce::ReduceByKey(temporary, bytes, sorted_keys.data(), keys.data(),
                                            sorted_values.data(), values.data(), runs.data(), add,
                                            items, current_stream());
    });
    scatter_reduced<<<blocks_for(edges), block_threads, 0, current_stream()>>>(
        edges, runs.data(), keys.data(), values.data(), excluded, t.values.data(),
        t.present.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
}

}  // namespace grb::cuda::detail
