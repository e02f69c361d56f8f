// Pull: one thread (short rows) or one warp (long rows) per output; masked-out outputs are
// skipped before their row is read; lanes stop together once the monoid's terminal value is
// reached. A stopping pull also lists its outputs (PullList) and counts their rows' edges
// (FoundEdges) for the next product's push/pull choice. pull() picks the kernel.
#pragma once

#include <cub/block/block_reduce.cuh>
#include <cuda/functional>

#include <algorithm>
#include <functional>

#include "grb/cuda/policy.hpp"
#include "grb/cuda/mxv/direction.cuh"
#include "grb/cuda/mxv/product.cuh"
#include "grb/cuda/mxv/pull_rows.cuh"
#include "grb/cuda/primitives.cuh"
#include "grb/cuda/write_back.cuh"

namespace grb::cuda::detail {

/// A row's entries: [begin, end) of the column ids, as offsets of type O.
template <class O = Offset>
struct RowBounds {
  O begin, end;
};

/// The lengths of the found outputs' rows in the CSR whose row offsets are `rows` (null: not
/// summed), summed per thread and then per block into *total, and their maximum into *longest
/// (null: not kept): the next product's push/pull choice reads them with the output count
/// (Vector::row_edges, Vector::longest_row). Pulls and pushes both sum them.
struct FoundEdges {
  const Offset* rows;
  unsigned long long* total;
  unsigned long long* longest = nullptr;
  unsigned long long mine = 0, mine_longest = 0;
  /// Output o was found: its row's length is added.
  __device__ void found(Index o) {
    if (rows) found_length(rows[o + 1] - rows[o]);
  }
  /// An output was found whose row (in `rows`) the caller has read already: `length` entries.
  __device__ void found_length(unsigned long long length) {
    if (!rows) return;
    mine += length;
    mine_longest = mine_longest > length ? mine_longest : length;
  }
  /// Called by every thread of the block (Threads of them) after its loop; thread 0 adds the
  /// block's sum to *total, and its longest row to *longest.
  template <unsigned Threads = block_threads>
  __device__ void flush() const {
    if (!rows) return;  // the same for the whole grid
    using Reduce = cub::BlockReduce<unsigned long long, Threads>;
    __shared__ typename Reduce::TempStorage storage;
    const unsigned long long sum = Reduce(storage).Sum(mine);
    unsigned long long most = 0;
    if (longest) {  // the same for the whole grid
      __syncthreads();  // `storage` again
      most = Reduce(storage).Reduce(mine_longest, ::cuda::maximum<>{});
    }
    if (threadIdx.x != 0 || sum == 0) return;
    atomicAdd(total, sum);
    if (longest) atomicMax(longest, most);
  }
};

/// `takes` slots in the output list of `stamps` for each thread of the block, with one atomic
/// for the whole block (block_take_slots: every thread of the block calls it). A level that
/// claims its outputs sparsely (a frontier of hubs whose rows mostly meet outputs claimed
/// already) would otherwise take about one atomic on the one counter per warp and step.
/// The lambda holds the count's pointer, not a reference to `stamps`: a kernel parameter whose
/// address is taken is copied into every thread's local memory (see deferred.cuh).
__device__ inline unsigned long long block_take_slot(const ClaimStamps& stamps, unsigned takes,
                                                     unsigned long long* block_end = nullptr) {
  unsigned long long* const count = stamps.count;
  return block_take_slots<block_threads>(
      takes, [count](unsigned total) { return take_slots(count, total); }, block_end);
}

/// A stopping pull's output list, beside its dense result (null indices: none): the found outputs
/// in any order, their slots taken from the claim stamps' count as a push's claimers take theirs.
/// A level that finds few outputs is then read as a list (a sparse result adopted as it is, and
/// assigns that walk it) rather than by passes over every position. The list holds `capacity`
/// entries, size / list_ratio: a result that finds more is stored dense, so its list is never
/// read. A block that has seen the list full takes no more slots: its later outputs are only
/// counted, into the same count (BlockCount), so its steps need no scan and no barrier (a kron22
/// level of 2 M outputs then writes 4 MB of list, not 16, and most of its steps run without a
/// barrier: the search's pulls took 3-6% less GPU time).
template <class Z>
struct PullList {
  Index* indices = nullptr;
  Z* values = nullptr;
  ClaimStamps stamps{};
  unsigned long long capacity = 0;

  /// One step of a block with Items consecutive outputs a thread, from `first`: every thread
  /// calls it; bit j of `found` says whether output first + j was found (its value
  /// found_values[j]). One atomic per block and step. False: the list is full, for the whole
  /// block (the block's next outputs are not listed).
  template <unsigned Items>
  __device__ bool append_rows(unsigned found, Index first, const Z (&found_values)[Items]) const {
    unsigned long long end = 0;
    unsigned long long slot = block_take_slot(stamps, unsigned(__popc(found)), &end);
#pragma unroll
    for (unsigned j = 0; j < Items; ++j) {
      if (!((found >> j) & 1u)) continue;
      if (slot < capacity) {
        indices[slot] = first + j;
        values[slot] = found_values[j];
      }
      ++slot;
    }
    return end < capacity;
  }
  /// One step of a block, one output a thread: every thread calls it, found or not.
  __device__ bool append(bool found, Index o, const Z& value) const {
    const Z one[1] = {value};
    return append_rows(found ? 1u : 0u, o, one);
  }
};

/// A thread per row, pull_rows_per_thread consecutive rows a step, at most 32 registers
/// (launch bounds of 8 blocks per SM): a step is a chain of dependent loads, so the warps in
/// flight decide its time. At 40 registers an SM held 6 blocks (ncu on a kron22 search's third
/// pull: 64% achieved occupancy, 41% of the cycles between a warp's instructions waiting on
/// loads); with 8, and a grid of one wave rather than of 2 048 blocks, three roots' fourth pulls
/// took 61, 57 and 56 us against 69, 65 and 65 (one row a step; a few bytes spilled, to L1).
///
/// `offsets`: the rows' offsets, rows.row_offsets or their 32-bit copy (Matrix::narrow_offsets)
/// where the matrix has fewer than 2^32 entries: every allowed row's bounds are read, and 32-bit
/// ones are half the bytes and half the registers.
template <unsigned Items, class O, class Z, class A, class U, class M, class Add, class Prod>
__global__ void __launch_bounds__(block_threads, 8)
    pull_thread_per_row(CsrView<A> rows, const O* offsets, const U* u_values,
                        InputPresence u_presence, VectorMaskView<M> mask, Add add, Prod product,
                        Z* t_values, std::uint8_t* t_present, unsigned long long* t_count,
                        FoundEdges edges, ClaimStamps publish, PullList<Z> list) {
  const std::uint8_t* const u_present = u_presence.resolve();
  __shared__ unsigned block_count;
  // A listing pull counts its outputs in the list's slots until the list is full (PullList), and
  // from then on here.
  const BlockCount counter{&block_count, list.indices ? list.stamps.count : t_count};
  counter.start();
  bool listing = list.indices != nullptr;  // the same for the whole block
  // Whole-block strides: every thread of a block takes the same steps (PullList::append_rows).
  const std::uint64_t span = std::uint64_t(blockDim.x) * Items;
  const std::uint64_t stride = std::uint64_t(gridDim.x) * span;
  for (std::uint64_t base = std::uint64_t(blockIdx.x) * span; base < rows.nrows; base += stride) {
    const std::uint64_t first = base + std::uint64_t(threadIdx.x) * Items;
    bool allowed[Items];
#pragma unroll
    for (unsigned j = 0; j < Items; ++j) {
      const std::uint64_t at = first + j;
      allowed[j] = at < rows.nrows && mask.allows(mask.load(static_cast<Index>(at)));
    }
    RowBounds<O> row[Items];
#pragma unroll
    for (unsigned j = 0; j < Items; ++j)
      row[j] = allowed[j] ? RowBounds<O>{offsets[first + j], offsets[first + j + 1]}
                          : RowBounds<O>{0, 0};
    unsigned found = 0;
    Z sums[Items];
#pragma unroll
    for (unsigned j = 0; j < Items; ++j) {
      const Index o = static_cast<Index>(first + j);
      bool hit = false;
      Z sum{};
      for (O e = row[j].begin; e < row[j].end; ++e) {
        const Index k = rows.col_indices[e];
        if (u_present && !u_present[k]) continue;
        const Z term = static_cast<Z>(product(rows.values[e], input_at<Prod>(u_values, k), o, k));
        sum = hit ? static_cast<Z>(add(sum, term)) : term;
        hit = true;
        if (grb::detail::is_terminal(add, sum)) break;
      }
      sums[j] = sum;
      if (hit) found |= 1u << j;
    }
    if (listing) listing = list.append_rows(found, static_cast<Index>(first), sums);
    else counter.count_found(unsigned(__popc(found)));
#pragma unroll
    for (unsigned j = 0; j < Items; ++j) {
      const std::uint64_t at = first + j;
      if (at >= rows.nrows) break;
      const bool hit = (found >> j) & 1u;
      t_present[at] = hit ? 1 : 0;
      t_values[at] = hit ? sums[j] : Z{};
      // The edges are summed in the push matrix's rows: a symmetric matrix's are these rows.
      if (hit && edges.rows == rows.row_offsets) edges.found_length(row[j].end - row[j].begin);
      else if (hit) edges.found(static_cast<Index>(at));
    }
  }
  counter.flush();
  edges.flush();
  if (publish.published) publish_count(publish);  // the same for the whole grid
}

template <class Z, class A, class U, class M, class Add, class Prod>
__global__ void pull_warp_per_row(CsrView<A> rows, const U* u_values, InputPresence u_presence,
                                  VectorMaskView<M> mask, Add add, Prod product, Z* t_values,
                                  std::uint8_t* t_present, unsigned long long* t_count,
                                  FoundEdges edges, ClaimStamps publish, PullList<Z> list) {
  const std::uint8_t* const u_present = u_presence.resolve();
  constexpr unsigned full = 0xffffffffu;
  constexpr unsigned warps_per_block = block_threads / 32;
  __shared__ unsigned block_count;
  // As pull_thread_per_row counts: in the list's slots until the list is full, then here.
  const BlockCount counter{&block_count, list.indices ? list.stamps.count : t_count};
  counter.start();
  bool listing = list.indices != nullptr;  // the same for the whole block
  const unsigned lane = threadIdx.x & 31u;
  // Whole-block strides: every warp of a block takes the same steps (PullList::append).
  const std::uint64_t stride = std::uint64_t(gridDim.x) * warps_per_block;
  for (std::uint64_t base = std::uint64_t(blockIdx.x) * warps_per_block; base < rows.nrows;
       base += stride) {
    const std::uint64_t position = base + threadIdx.x / 32;
    const Index o = static_cast<Index>(position);
    bool found = false;
    Z sum{};
    // The same answers on every lane: the warp skips the row together.
    if (position < rows.nrows && mask.allows(o)) {
      const Offset end = rows.row_offsets[o + 1];
      for (Offset row_base = rows.row_offsets[o]; row_base < end; row_base += 32) {
        const Offset e = row_base + lane;
        if (e < end) {
          const Index k = rows.col_indices[e];
          if (!u_present || u_present[k]) {
            const Z term =
                static_cast<Z>(product(rows.values[e], input_at<Prod>(u_values, k), o, k));
            sum = found ? static_cast<Z>(add(sum, term)) : term;
            found = true;
          }
        }
        if constexpr (grb::detail::is_any_monoid<Add>() || grb::detail::has_terminal<Add>()) {
          if (__any_sync(full, found && grb::detail::is_terminal(add, sum))) break;
        }
      }
      for (unsigned offset = 16; offset > 0; offset /= 2) {
        const bool other_found = __shfl_down_sync(full, found, offset);
        const Z other = shuffle_down(sum, offset);
        if (other_found) {
          sum = found ? static_cast<Z>(add(sum, other)) : other;
          found = true;
        }
      }
    }
    const bool listed = listing;
    if (listing) listing = list.append(lane == 0 && found, o, sum);
    if (lane == 0 && position < rows.nrows) {
      t_present[o] = found ? 1 : 0;
      t_values[o] = found ? sum : Z{};
      if (found) {
        if (!listed) atomicAdd(&block_count, 1u);
        edges.found(o);
      }
    }
  }
  counter.flush();
  edges.flush();
  if (publish.published) publish_count(publish);  // the same for the whole grid
}

// A full pull (a monoid without early exit: plus_times SpMV) on rows of 8 or more entries on
// average, or with long rows (power-law graphs), splits the work in two so that no row's length
// decides the time: rows up to `split_row_length` entries take a group of 2-32 lanes each (sized
// to the average row, so short rows do not idle a whole warp); longer rows are cut into chunks of
// `split_row_length` entries, a block reduces each chunk to a partial, and a thread per long row
// combines its chunks' partials in order.

/// Rows longer than this are split over blocks (a block of 256 threads, 8 entries each).

/// took 13.6 ms a round so).
template <class Add, class Z>
constexpr bool stops_at_first_hit() {
  return grb::detail::is_any_monoid<Add>() ||
         (grb::detail::has_terminal<Add>() && std::is_same_v<Z, bool>);
}

/// `longest_row`: the longest row of `rows`, exactly, unless stops_at_first_hit<Add, Z>() (rows
/// longer than split_row_length are left to pull_long_rows, which runs only when it says so).
/// `count`: the result will be adopted as it is (write_back), so its entries are worth counting,
/// and (when `edge_rows` is not null) their rows' lengths in the CSR of those row offsets.
/// `publish` (only where stops_at_first_hit<Add, Z>()): the count and edges go into its counters
/// instead, and the kernel publishes them into host memory (publish_count), as a push does.
template <class Z, class A, class U, class M, class Add, class Prod>
void pull(DenseResult<Z>& t, const Csr<A>& rows, const Vector<U>& u,
          const VectorMaskView<M>& mask, const Add& add, const Prod& product,
          Offset longest_row, bool count, const Offset* edge_rows = nullptr,
          const ClaimStamps* publish = nullptr, const PullList<Z>& list = {},
          const std::function<const std::uint32_t*()>& narrow_offsets = {}) {
  if (rows.nrows == 0) return;
  // Only the presence of a sparse input where the product ignores its values: for kron22's
  // any.secondi BFS that spares a 32 MB memset of values no kernel reads.
  const DenseInput<U> input(u, reads_input<Prod>());
  // A full input needs no presence test per entry: one random read less per stored entry (on
  // kron22 that halves the traffic the SpMV makes in L2). A recorded loop cannot read the count:
  // a dense input's count change is read by the kernels instead (InputPresence).
  InputPresence present;
  if (!grb::detail::current_context().recording) {
    if (u.nvals() != u.size()) present.present = input.present();
  } else {
    present.present = input.present();
    if (u.format() == VectorFormat::dense) {
      const auto count = grb::detail::Storage::count_on_device(u);
      present.change = count.change;
      present.missing = std::int64_t(u.size()) - std::int64_t(count.settled);
    }
  }
  const double average = double(rows.nvals()) / rows.nrows;
  // A monoid that stops at its first hit (a BFS's any or lor) usually reads a few entries of a
  // row: a thread per row keeps all lanes busy, where a warp would leave most of them idle.
  constexpr bool stops_early = stops_at_first_hit<Add, Z>();
  if (!stops_early && (average >= warp_per_row_length || longest_row > split_row_length)) {
    pull_groups(t, rows, input.values(), present, mask, add, product, average);
    if (longest_row > split_row_length)
      pull_long_rows(t, rows, input.values(), present, mask, add, product);
    return;
  }
  // These kernels can count the entries they write, so the result needs no counting pass.
  // A listing pull counts its outputs as it takes their slots (in the stamps' count).
  unsigned long long* counter =
      list.indices ? nullptr : publish ? publish->count : count ? t.counter() : nullptr;
  if (count) t.edge_rows = edge_rows;
  const FoundEdges edges{count ? edge_rows : nullptr,
                         publish ? publish->edges : counter ? counter + 1 : nullptr,
                         publish ? publish->longest : nullptr};
  const ClaimStamps published = publish ? *publish : ClaimStamps{};
  if (average >= (stops_early ? warp_per_row_length_early_exit : warp_per_row_length)) {
    pull_warp_per_row<Z>
        <<<std::min(blocks_for(std::uint64_t(rows.nrows) * 32), pull_most_blocks), block_threads, 0,
           current_stream()>>>(view_of(rows), input.values(), present, mask, add, product,
                               t.values.data(), t.present.data(), counter, edges, published, list);
  } else {
    // One wave: every block resident from the start, none waiting for another to finish.
    constexpr unsigned rows_each = pull_rows_per_thread;
    const std::uint64_t threads = (std::uint64_t(rows.nrows) + rows_each - 1) / rows_each;
    auto launch = [&](auto kernel, const auto* offsets, unsigned wave) {
      kernel<<<std::min(blocks_for(threads), wave), block_threads, 0, current_stream()>>>(
          view_of(rows), offsets, input.values(), present, mask, add, product, t.values.data(),
          t.present.data(), counter, edges, published, list);
    };
    // The 32-bit copy of the offsets, where the matrix has one (narrow_offsets_of).
    if (const std::uint32_t* offsets32 = narrow_offsets ? narrow_offsets() : nullptr) {
      const auto kernel = pull_thread_per_row<rows_each, std::uint32_t, Z, A, U, M, Add, Prod>;
      static const unsigned wave = resident_blocks(kernel);
      launch(kernel, offsets32, wave);
    } else {
      const auto kernel = pull_thread_per_row<rows_each, Offset, Z, A, U, M, Add, Prod>;
      static const unsigned wave = resident_blocks(kernel);
      launch(kernel, rows.row_offsets.data(), wave);
    }
  }
  GRB_CUDA_CHECK_LAUNCH();
}

}  // namespace grb::cuda::detail
