// mxv (w = A u) and vxm (w = u' A) on the GPU. Both are one product
//   T(o) = ⊕_k P(o, k) ⊗ u(k)
// over the "pull matrix" P (rows indexed by outputs); its transpose R (rows indexed by inputs)
// is the "push matrix". Which of A.csr / A.csc is P depends on mxv vs vxm and the descriptor's
// transpose flag; the multiply operator's operand order and positions follow the cpu backend.
//
// Strategies (Descriptor::strategy):
//   pull:     one thread (short rows) or one warp (long rows) per output; masked-out outputs are
//             skipped before their row is read; lanes stop together once the monoid's terminal
//             value (lor: true, any: anything) is reached.
//   push:     SpMSpV over u's entries. Each entry's row length is scanned (CUB), every thread
//             takes one edge and finds its input entry by binary search in the scan (load-balanced
//             whatever the degrees: a 'celebrity' row is spread over many threads). Outputs are
//             combined by an unordered scatter for `any` monoids, and otherwise by a radix sort of
//             (output, value) pairs and a reduce-by-key with the monoid. An `any` push whose old
//             output does not survive (replace, or no mask) claims its outputs with claim stamps
//             and emits them as a sparse list: a BFS level costs in proportion to its frontier.
//             Rows of at most 16 entries skip the scan (a group of lanes per input entry); a
//             small such push is deferred so that the assigns masked by its result join its
//             launch (deferred.cuh), and its kernel writes its output count into host memory.
//   cusparse: cusparseSpMV, for plus_times on float/double (same value type everywhere).
//   automatic: direction optimization (below).
// Values read back per call: the output's entry count; plus the push's edge count where the
// generic push needs it, or where skewed degrees leave the direction to the exact count and the
// input does not carry it. An `any` push or a stopping pull on skewed rows sums its outputs'
// edges in the push matrix and reads them back with its count (Vector::row_edges), so a BFS
// level that follows one reads one value: its own count.
#pragma once

#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/functional>

#include <algorithm>
#include <cstring>
#include <functional>
#include <optional>
#include <mutex>
#include <type_traits>

#include "grb/cuda/claim_stamps.cuh"
#include "grb/cuda/deferred.cuh"
#include "grb/cuda/views.cuh"
#include "grb/cuda/write_back.cuh"

namespace grb::cuda::detail {

// ------------------------------------------------------------------ the push/pull choice
// Push reads the rows of u's entries (m_f edges, the frontier's edges in a BFS), pull the rows
// of the allowed outputs (about allowed * average degree: m_u, the unexplored edges). Pull is
// cheaper per edge than push: it writes each output once (push sorts or scatters every edge),
// and with a terminal monoid it stops at the first hit. Beamer et al. (SC'12) switch a BFS to
// pull when m_f > m_u / alpha with alpha = 14. For monoids that stop early we take 40: a push's
// output is a list, so a large one also costs its consumers (a BFS level's assigns walk it with
// scattered writes, and the next pull needs it made dense). On kron24 a third level pushed over
// ~30 M edges took 411 us, its assigns 455 and the conversion 200, where the pull and its
// assigns take ~570; 40 rather than 14 took 64 roots' mean from 1.73 to 1.48 ms (p90 3.2 to
// 1.9) and left kron22's within noise. Other monoids read whole rows: a smaller factor.
inline constexpr double pull_advantage_early_exit = 40.0;
inline constexpr double pull_advantage = 2.0;

/// The longest row of a CSR (one pass over its offsets; Matrix::longest_row caches it).
__global__ inline void longest_row_kernel(Index nrows, const Offset* offsets,
                                          unsigned long long* longest) {
  unsigned long long mine = 0;
  GRB_GRID_STRIDE_LOOP(i, nrows) {
    const Offset length = offsets[i + 1] - offsets[i];
    mine = length > mine ? length : mine;
  }
  for (unsigned offset = 16; offset > 0; offset /= 2) {
    const unsigned long long other = __shfl_down_sync(0xffffffffu, mine, offset);
    mine = other > mine ? other : mine;
  }
  if ((threadIdx.x & 31u) == 0 && mine > 0) atomicMax(longest, mine);
}

template <class A>
Offset longest_row_of(const Matrix<A>& a, bool transposed) {
  return a.longest_row(transposed, [](const Csr<A>& rows) -> Offset {
    if (rows.nrows == 0) return 0;
    auto longest = device_array<unsigned long long>(1);
    fill_zero(longest.data(), 1);
    longest_row_kernel<<<blocks_for(rows.nrows), block_threads>>>(rows.nrows,
                                                                  rows.row_offsets.data(),
                                                                  longest.data());
    GRB_CUDA_CHECK_LAUNCH();
    return static_cast<Offset>(read_scalar(longest.data()));
  });
}

/// Row offsets narrowed to 32 (or fewer) bits, where every offset fits.
template <class Narrow>
__global__ void narrow_offsets(std::uint64_t count, const Offset* in, Narrow* out) {
  GRB_GRID_STRIDE_LOOP(i, count) out[i] = static_cast<Narrow>(in[i]);
}

/// The 32-bit row offsets of csr() (of csc() when `transposed`), made once and cached with the
/// matrix (Matrix::narrow_offsets); null where the matrix has 2^32 entries or more.
template <class A>
const std::uint32_t* narrow_offsets_of(const Matrix<A>& a, bool transposed) {
  if (a.nvals() >= (Offset{1} << 32)) return nullptr;
  return a.narrow_offsets(transposed, [](const Csr<A>& rows) {
    auto narrow = device_array<std::uint32_t>(std::size_t(rows.nrows) + 1);
    narrow_offsets<<<blocks_for(std::uint64_t(rows.nrows) + 1), block_threads>>>(
        std::uint64_t(rows.nrows) + 1, rows.row_offsets.data(), narrow.data());
    GRB_CUDA_CHECK_LAUNCH();
    return narrow;
  }).data();
}

/// Average row length at or above which a warp (not a thread) takes each output row; rows
/// that usually stop early (terminal monoids) need far longer ones to fill a warp.
inline constexpr double warp_per_row_length = 8.0;
inline constexpr double warp_per_row_length_early_exit = 256.0;

// ------------------------------------------------------------------ products

/// The multiply of mxv (A(o,k) * u(k)) or vxm (u(k) * A(k,o)), positional or not.
template <bool is_vxm, class Multiply>
struct Product {
  /// Whether the product reads u's values: positional operators (a BFS's secondi) and first or
  /// second of the matrix's value do not, so an input made dense for them needs no values.
  static constexpr bool reads_input =
      is_vxm ? grb::detail::uses_first<Multiply>() : grb::detail::uses_second<Multiply>();
  Multiply multiply;
  template <class A, class U>
  __device__ auto operator()(const A& a, const U& u, Index o, Index k) const {
    if constexpr (is_vxm) return grb::detail::multiply(multiply, u, a, Index{0}, k, o);
    else return grb::detail::multiply(multiply, a, u, o, k, Index{0});
  }
};

template <class Prod>
constexpr bool reads_input() {
  if constexpr (requires { Prod::reads_input; }) return Prod::reads_input;
  else return true;
}

/// u(k) as the product's operand: never loaded where the product does not read it (the input may
/// then have no values: DenseInput).
template <class Prod, class U>
__device__ U input_at(const U* u_values, Index k) {
  if constexpr (reads_input<Prod>()) return u_values[k];
  else return U{};
}

/// __shfl_down_sync for any trivially copyable value (user types too), 4 bytes at a time, within
/// aligned groups of `width` lanes; `lanes`: the lanes that take part (all of them call it).
template <class T>
__device__ T shuffle_down(const T& value, unsigned offset, int width = 32,
                          unsigned lanes = 0xffffffffu) {
  constexpr int words = (sizeof(T) + 3) / 4;
  unsigned bits[words] = {};
  memcpy(bits, &value, sizeof(T));
#pragma unroll
  for (int w = 0; w < words; ++w) bits[w] = __shfl_down_sync(lanes, bits[w], offset, width);
  T result;
  memcpy(&result, bits, sizeof(T));
  return result;
}

// ------------------------------------------------------------------ pull

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

/// `takes` slots in the output list of `stamps` for each thread of the block (the first one's
/// position), with one atomic for the whole block: every thread of the block calls it (a step of
/// whole-block strides). `block_end` (if given): the slot after the block's last, for every
/// thread.
/// A level that claims its outputs sparsely (a frontier of hubs whose rows mostly meet outputs
/// claimed already) would otherwise take about one atomic on the one counter per warp and step.
__device__ inline unsigned long long block_take_slot(const ClaimStamps& stamps, unsigned takes,
                                                     unsigned long long* block_end = nullptr) {
  using Scan = cub::BlockScan<unsigned, block_threads>;
  __shared__ typename Scan::TempStorage storage;
  __shared__ unsigned long long first;
  unsigned rank = 0, total = 0;
  Scan(storage).ExclusiveSum(takes, rank, total);
  if (threadIdx.x == 0 && total > 0) first = take_slots(stamps, total);
  __syncthreads();
  const unsigned long long slot = first + rank;
  if (block_end) *block_end = total > 0 ? first + total : 0;
  __syncthreads();  // `storage` and `first` are the next step's
  return slot;
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

/// The grid of a stopping pull with a warp per row, at most: its blocks loop (whole-block
/// strides). Each block has fixed costs (its barriers, its tallies, and its finish on the one
/// counter publish_count shares); with a block per 256 of kron22's 4 M outputs (16 384 blocks)
/// they were a fifth of the pulls' time: 2 048 blocks took 218 us for a search's three pulls
/// against 267 (1 024: 219; 4 096: 227; 528: 337). The pull with a thread per row takes one wave
/// of blocks (resident_blocks).
inline constexpr unsigned pull_most_blocks = 2048;

/// Consecutive rows a thread of the stopping pull takes per step. A step ends with a block
/// barrier (the output list's slots, PullList::append_rows), and a block's step lasts as long as
/// its longest row walk: ncu on a kron22 search's fourth pull found 37% of the cycles between a
/// warp's instructions at that barrier. Two rows a step halve the steps; their mask entries, then
/// their bounds, load together. Three kron22 roots' third and fourth pulls took 100, 58 / 88, 50 /
/// 87, 51 us with 2 rows, against 104, 62 / 89, 56 / 90, 58 with one (its mask entry and bounds
/// loaded a step ahead), and 118, 65 / 104, 54 / 105, 56 with 4 (H100, one build).
inline constexpr unsigned pull_rows_per_thread = 2;

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
                        const std::uint8_t* u_present, VectorMaskView<M> mask, Add add,
                        Prod product, Z* t_values, std::uint8_t* t_present,
                        unsigned long long* t_count, FoundEdges edges, ClaimStamps publish,
                        PullList<Z> list) {
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
__global__ void pull_warp_per_row(CsrView<A> rows, const U* u_values,
                                  const std::uint8_t* u_present, VectorMaskView<M> mask, Add add,
                                  Prod product, Z* t_values, std::uint8_t* t_present,
                                  unsigned long long* t_count, FoundEdges edges,
                                  ClaimStamps publish, PullList<Z> list) {
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
inline constexpr Offset split_row_length = 2048;
inline constexpr unsigned long_row_threads = 256;

/// The partial result of one chunk of a long row.
template <class Z>
struct Partial {
  Z sum;
  bool found;
};

/// Combines (found, sum) with (other_found, other) under `add`, in that order.
template <class Z, class Add>
__device__ void combine(bool& found, Z& sum, bool other_found, const Z& other, const Add& add) {
  if (!other_found) return;
  sum = found ? static_cast<Z>(add(sum, other)) : other;
  found = true;
}

/// A load that will not be reused (the matrix's entries, read once per product), marked to be
/// evicted first, so that the inputs' lines, gathered at random, stay in L1 longer.
template <class T>
__device__ T load_once(const T* p) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                std::is_same_v<T, int> || std::is_same_v<T, unsigned>)
    return __ldcs(p);
  else
    return *p;
}

/// Adds the terms of entries first + i * stride (i < Batch, before `end`) of row o to (found,
/// sum): every column id and matrix value is loaded first, then every input, so a thread keeps
/// up to 2 * Batch loads in flight, not 2.
template <int Batch, class Z, class A, class U, class Add, class Prod>
__device__ void add_terms(const CsrView<A>& rows, Offset first, Offset stride, Offset end, Index o,
                          const U* u_values, const std::uint8_t* u_present, const Add& add,
                          const Prod& product, bool& found, Z& sum) {
  Index k[Batch];
  A a[Batch];
#pragma unroll
  for (int i = 0; i < Batch; ++i) {
    const Offset e = first + i * stride;
    if (e < end) {
      k[i] = load_once(rows.col_indices + e);
      a[i] = load_once(rows.values + e);
    }
  }
  bool has[Batch];
  U x[Batch];
#pragma unroll
  for (int i = 0; i < Batch; ++i) {
    has[i] = first + i * stride < end && (!u_present || u_present[k[i]]);
    if (has[i]) x[i] = input_at<Prod>(u_values, k[i]);
  }
#pragma unroll
  for (int i = 0; i < Batch; ++i)
    if (has[i]) combine(found, sum, true, static_cast<Z>(product(a[i], x[i], o, k[i])), add);
}

/// Entries per lane per step of pull_group_per_row. Measured on the H100 (kron22 and grid2000
/// SpMV, 2 runs each): 2 entries 1.47 and 0.091 ms; 4 entries 1.55 and 0.094; 1 (without the
/// evict-first loads) 1.60 and 0.094.
inline constexpr int group_batch = 2;

/// Rows of at most split_row_length entries, a group of Lanes threads per row; longer rows are
/// left to the split kernels.
template <unsigned Lanes, class Z, class A, class U, class M, class Add, class Prod>
__global__ void pull_group_per_row(CsrView<A> rows, const U* u_values,
                                   const std::uint8_t* u_present, VectorMaskView<M> mask, Add add,
                                   Prod product, Z* t_values, std::uint8_t* t_present) {
  const unsigned lane = threadIdx.x % Lanes;
  // The shuffles name the group's own lanes: other groups of the warp may have left the loop,
  // or skipped a long row.
  const unsigned my_group =
      Lanes == 32 ? 0xffffffffu : ((1u << (Lanes % 32)) - 1) << (threadIdx.x % 32 / Lanes * Lanes);
  const std::uint64_t groups = (std::uint64_t(gridDim.x) * blockDim.x) / Lanes;
  for (std::uint64_t position = (std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / Lanes;
       position < rows.nrows; position += groups) {
    const Index o = static_cast<Index>(position);
    const Offset begin = rows.row_offsets[o], end = rows.row_offsets[o + 1];
    if (end - begin > split_row_length) continue;  // the same on every lane of the group
    bool found = false;
    Z sum{};
    if (mask.allows(o)) {
      for (Offset e = begin + lane; e < end; e += Lanes * group_batch)
        add_terms<group_batch>(rows, e, Lanes, end, o, u_values, u_present, add, product, found,
                               sum);
    }
    for (unsigned offset = Lanes / 2; offset > 0; offset /= 2) {
      const bool other_found = __shfl_down_sync(my_group, found, offset, Lanes);
      const Z other = shuffle_down(sum, offset, Lanes, my_group);
      combine(found, sum, other_found, other, add);
    }
    if (lane == 0) {
      t_present[o] = found ? 1 : 0;
      t_values[o] = found ? sum : Z{};
    }
  }
}

/// chunks[o] = the number of split_row_length chunks of row o when it is split, else 0.
template <class A>
__global__ void count_row_chunks(CsrView<A> rows, Offset* chunks) {
  GRB_GRID_STRIDE_LOOP(o, rows.nrows) {
    const Offset length = rows.row_offsets[o + 1] - rows.row_offsets[o];
    chunks[o] = length > split_row_length ? (length + split_row_length - 1) / split_row_length : 0;
  }
}

/// One block per chunk of a long row (chunk_starts: the exclusive scan of count_row_chunks, with
/// the total at [nrows]); each writes its chunk's partial.
template <class Z, class A, class U, class M, class Add, class Prod>
__global__ void __launch_bounds__(long_row_threads)
    pull_long_row_chunks(CsrView<A> rows, const Offset* chunk_starts, const U* u_values,
                         const std::uint8_t* u_present, VectorMaskView<M> mask, Add add,
                         Prod product, Partial<Z>* partials) {
  const Offset chunk = blockIdx.x;
  if (chunk >= chunk_starts[rows.nrows]) return;  // the grid is sized by an upper bound
  // The row owning the chunk: the last row whose first chunk is at or before it.
  Index low = 0, high = rows.nrows;  // chunk_starts[low] <= chunk < chunk_starts[high]
  while (high - low > 1) {
    const Index middle = low + (high - low) / 2;
    if (chunk_starts[middle] <= chunk) low = middle;
    else high = middle;
  }
  const Index o = low;
  const Offset begin = rows.row_offsets[o] + (chunk - chunk_starts[o]) * split_row_length;
  const Offset row_end = rows.row_offsets[o + 1];
  const Offset end = begin + split_row_length < row_end ? begin + split_row_length : row_end;
  bool found = false;
  Z sum{};
  if (mask.allows(o)) {
    add_terms<split_row_length / long_row_threads>(rows, begin + threadIdx.x, long_row_threads,
                                                   end, o, u_values, u_present, add, product,
                                                   found, sum);
  }
  for (unsigned offset = 16; offset > 0; offset /= 2) {
    const bool other_found = __shfl_down_sync(0xffffffffu, found, offset);
    const Z other = shuffle_down(sum, offset);
    combine(found, sum, other_found, other, add);
  }
  __shared__ Z warp_sums[long_row_threads / 32];
  __shared__ bool warp_found[long_row_threads / 32];
  const unsigned warp = threadIdx.x / 32;
  if (threadIdx.x % 32 == 0) {
    warp_sums[warp] = sum;
    warp_found[warp] = found;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (unsigned w = 1; w < blockDim.x / 32; ++w)
      combine(found, sum, warp_found[w], warp_sums[w], add);
    partials[chunk] = Partial<Z>{found ? sum : Z{}, found};
  }
}

/// A thread per long row combines its chunks' partials, in chunk order.
template <class Z, class A, class Add>
__global__ void combine_long_rows(Index nrows, const Offset* chunk_starts,
                                  const Partial<Z>* partials, Add add, Z* t_values,
                                  std::uint8_t* t_present) {
  GRB_GRID_STRIDE_LOOP(o, nrows) {
    const Offset first = chunk_starts[o], last = chunk_starts[o + 1];
    if (first == last) continue;
    bool found = false;
    Z sum{};
    for (Offset c = first; c < last; ++c) combine(found, sum, partials[c].found, partials[c].sum, add);
    t_present[o] = found ? 1 : 0;
    t_values[o] = found ? sum : Z{};
  }
}

/// Lanes per row for rows of `average` entries: the power of two nearest half the average, so
/// that a group reads each row in about two steps (at least 2 lanes, at most a warp).
inline unsigned group_lanes(double average) {
  unsigned lanes = 2;
  while (lanes < 32 && lanes * 3 < average) lanes *= 2;
  return lanes;
}

/// Rows of up to split_row_length entries, a group of lanes per row sized to the average row.
template <class Z, class A, class U, class M, class Add, class Prod>
void pull_groups(DenseResult<Z>& t, const Csr<A>& rows, const U* u_values,
                 const std::uint8_t* u_present, const VectorMaskView<M>& mask, const Add& add,
                 const Prod& product, double average) {
  const auto groups = [&](auto lanes_constant) {
    constexpr unsigned lanes = decltype(lanes_constant)::value;
    pull_group_per_row<lanes, Z><<<blocks_for(std::uint64_t(rows.nrows) * lanes), block_threads>>>(
        view_of(rows), u_values, u_present, mask, add, product, t.values.data(),
        t.present.data());
  };
  switch (group_lanes(average)) {
    case 2: groups(std::integral_constant<unsigned, 2>{}); break;
    case 4: groups(std::integral_constant<unsigned, 4>{}); break;
    case 8: groups(std::integral_constant<unsigned, 8>{}); break;
    case 16: groups(std::integral_constant<unsigned, 16>{}); break;
    default: groups(std::integral_constant<unsigned, 32>{}); break;
  }
  GRB_CUDA_CHECK_LAUNCH();
}

/// Rows longer than split_row_length: chunks reduced by blocks, then combined per row.
template <class Z, class A, class U, class M, class Add, class Prod>
void pull_long_rows(DenseResult<Z>& t, const Csr<A>& rows, const U* u_values,
                    const std::uint8_t* u_present, const VectorMaskView<M>& mask, const Add& add,
                    const Prod& product) {
  const CsrView<A> view = view_of(rows);
  DeviceArray<Offset> chunk_starts = device_array<Offset>(std::size_t(rows.nrows) + 1);
  count_row_chunks<<<blocks_for(rows.nrows), block_threads>>>(view, chunk_starts.data());
  GRB_CUDA_CHECK_LAUNCH();
  exclusive_scan_counts(chunk_starts.data(), rows.nrows);
  // Every split row has more than split_row_length entries, so it has fewer chunks than
  // 2 * length / split_row_length: a bound on the chunks without reading the count back.
  const Offset most_chunks = 2 * rows.nvals() / split_row_length + 1;
  DeviceArray<Partial<Z>> partials = device_array<Partial<Z>>(most_chunks);
  pull_long_row_chunks<Z><<<static_cast<unsigned>(most_chunks), 256>>>(
      view, chunk_starts.data(), u_values, u_present, mask, add, product, partials.data());
  GRB_CUDA_CHECK_LAUNCH();
  combine_long_rows<Z, A><<<blocks_for(rows.nrows), block_threads>>>(
      rows.nrows, chunk_starts.data(), partials.data(), add, t.values.data(), t.present.data());
  GRB_CUDA_CHECK_LAUNCH();
}

/// Whether a product's rows usually end at their first term: any, and a terminal over bool (lor,
/// land: one of the two values ends the row). A terminal such as min's lowest value (SSSP's
/// -inf, FastSV's vertex 0) is rarely met: such rows are read whole, by the kernels for whole
/// rows (a thread per row would leave a hub's row to one thread: FastSV's min.second on kron20
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
  // kron22 that halves the traffic the SpMV makes in L2).
  const std::uint8_t* present = u.nvals() == u.size() ? nullptr : input.present();
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
    pull_warp_per_row<Z><<<std::min(blocks_for(std::uint64_t(rows.nrows) * 32), pull_most_blocks),
                           block_threads>>>(
        view_of(rows), input.values(), present, mask, add, product, t.values.data(),
        t.present.data(), counter, edges, published, list);
  } else {
    // One wave: every block resident from the start, none waiting for another to finish.
    constexpr unsigned rows_each = pull_rows_per_thread;
    const std::uint64_t threads = (std::uint64_t(rows.nrows) + rows_each - 1) / rows_each;
    auto launch = [&](auto kernel, const auto* offsets, unsigned wave) {
      kernel<<<std::min(blocks_for(threads), wave), block_threads>>>(
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

// ------------------------------------------------------------------ push

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

/// Inputs of at most this many entries are scanned by one block (one launch, no temporary
/// storage), not by the device-wide scan (three launches and an allocation): the small
/// frontiers of a high-diameter graph's BFS.
inline constexpr unsigned block_scan_threads = 256;
inline constexpr unsigned block_scan_items = 16;
inline constexpr Index block_scan_inputs = block_scan_threads * block_scan_items;

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

/// Inputs of at most this many entries are not scanned by a launch of their own: each block of
/// their push scans them for itself with one warp's shuffles (a BFS's first levels: one source,
/// then its neighbours; the scan's launch was a tenth of such a level's host time).
inline constexpr Index warp_scan_inputs = 32;

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
      push_row_starts_one_block<<<1, block_scan_threads>>>(count, input_.indices(), row_offsets_,
                                                           starts_.data());
      GRB_CUDA_CHECK_LAUNCH();
      return;
    }
    push_row_lengths<<<blocks_for(count), block_threads>>>(count, input_.indices(), row_offsets_,
                                                           starts_.data());
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
    push_scatter_any<Z><<<blocks_for(edges), block_threads>>>(
        edges, starts, count, input.indices(), input.values(), view, mask, product,
        t.values.data(), t.present.data());
    GRB_CUDA_CHECK_LAUNCH();
  } else {
    const Index excluded = t.size;  // a key past every output: masked-out products sort last
    auto keys = device_array<Index>(edges);
    auto values = device_array<Z>(edges);
    push_products<Z><<<blocks_for(edges), block_threads>>>(edges, starts, count,
                                                           input.indices(), input.values(), view,
                                                           mask, product, excluded, keys.data(),
                                                           values.data());
    GRB_CUDA_CHECK_LAUNCH();
    auto sorted_keys = device_array<Index>(edges);
    auto sorted_values = device_array<Z>(edges);
    const std::int64_t items = static_cast<std::int64_t>(edges);
    const int end_bit = key_bits(excluded);
    cub_run([&](void* temporary, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(temporary, bytes, keys.data(), sorted_keys.data(),
                                             values.data(), sorted_values.data(), items, 0,
                                             end_bit);
    });
    auto runs = device_array<std::int64_t>(1);
    cub_run([&](void* temporary, std::size_t& bytes) {
      return cub::DeviceReduce::ReduceByKey(temporary, bytes, sorted_keys.data(), keys.data(),
                                            sorted_values.data(), values.data(), runs.data(), add,
                                            items);
    });
    scatter_reduced<<<blocks_for(edges), block_threads>>>(edges, runs.data(), keys.data(),
                                                          values.data(), excluded,
                                                          t.values.data(), t.present.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
}

// ------------------------------------------------------------------ sparse push for `any`

/// A push block's running totals, kept by every thread of the block: the new entries of each
/// fused target (in shared memory) and the claimed outputs' edges (FoundEdges). finish() adds
/// them to the grid's and publishes the output count (publish_count).
template <unsigned Threads>
struct PushBlockTally {
  FusedCounts fused_added;
  FoundEdges edges;
  __device__ void finish(const FusedAssigns& fused, const ClaimStamps& stamps) {
    fused_added.flush(fused);
    edges.flush<Threads>();
    publish_count(stamps);
  }
};

/// The tally of this block (Threads threads), started: called once by every thread of a push
/// kernel before its first claim.
template <unsigned Threads>
__device__ PushBlockTally<Threads> start_push_tally(const ClaimStamps& stamps) {
  __shared__ unsigned fused_added[max_fused_assigns];
  const FusedCounts counts{fused_added};
  counts.start();
  return {counts, FoundEdges{stamps.edge_rows, stamps.edges, stamps.longest}};
}

/// An output the push visits: entry `position` of the push matrix, output o; `won`: this thread
/// claimed o and the mask allows it (the fused targets' presence at o is then in `had`).
struct Visit {
  Offset position = 0;
  Index o = 0;
  bool won = false;
  FusedPresence had{};
};

/// The push's claim of the output at entry `position` of the push matrix: claimed once (claim
/// stamps), and its row length added to the block's edges (when the stamps sum them).
template <unsigned Threads, class A, class M>
__device__ Visit claim_visit(Offset position, const CsrView<A>& rows,
                             const VectorMaskView<M>& mask, const ClaimStamps& stamps,
                             const FusedAssigns& fused, PushBlockTally<Threads>& tally) {
  const Index o = rows.col_indices[position];
  // The mask read, the claim and the fused targets' presence reads overlap (one wait, not
  // several): claiming a position the mask refuses changes nothing, as this push never emits it;
  // a target's presence at o changes only by the thread that claims o. On skewed rows
  // (after_mask) the claim waits for the mask: a Kronecker BFS's tail frontier meets visited hubs
  // on most edges, and their exchanges queued on a few words (kron22 root 206848's fifth level:
  // 62 -> 45 us); a grid's levels keep the shorter chain. o's row bounds are read by
  // the winners only: most edges of a frontier of hubs lose, and their reads were a random
  // sector each.
  const FusedPresence had = fused_presence(fused, o);
  const bool allowed = mask.allows(o);
  const bool claimed = (!stamps.after_mask || allowed) && claim(stamps, o);
  const bool won = allowed && claimed;
  if (won) tally.edges.found(o);
  return {position, o, won, had};
}

/// A won visit's output, in input entry f's row (index k, value u_value), into `slot` of the
/// output list and into the assigns fused into the push (deferred.cuh). Called by the winners
/// only.
template <unsigned Threads, class W, class A, class U, class Prod>
__device__ void emit_visit(const Visit& visit, unsigned long long slot, Index k, const U& u_value,
                           const CsrView<A>& rows, const Prod& product, const FusedAssigns& fused,
                           PushBlockTally<Threads>& tally, Index* out_indices, W* out_values) {
  const W value = static_cast<W>(product(rows.values[visit.position], u_value, visit.o, k));
  out_indices[slot] = visit.o;
  out_values[slot] = value;
  write_fused(fused, tally.fused_added, visit.had, visit.o, value,
              cooperative_groups::coalesced_threads());
}

/// The push's visit of entry `position` of the push matrix, in the row of input entry f (index
/// k, value u_value), with its slot taken by the group of lanes that won together.
template <unsigned Threads, class W, class A, class U, class M, class Prod>
__device__ void claim_output(Offset position, Index k, const U& u_value, const CsrView<A>& rows,
                             const VectorMaskView<M>& mask, const Prod& product,
                             const ClaimStamps& stamps, const FusedAssigns& fused,
                             PushBlockTally<Threads>& tally, Index* out_indices,
                             W* out_values) {
  const Visit visit = claim_visit(position, rows, mask, stamps, fused, tally);
  if (!visit.won) return;
  // One atomic per group of lanes that claimed together: a level that discovers 10^5 vertices
  // would otherwise serialize on the one counter.
  const auto claimers = cooperative_groups::coalesced_threads();
  unsigned long long first = 0;
  if (claimers.thread_rank() == 0) first = take_slots(stamps, claimers.size());
  emit_visit(visit, claimers.shfl(first, 0) + claimers.thread_rank(), k, u_value, rows, product,
             fused, tally, out_indices, out_values);
}

/// Edge e of the expansion, its input entry found in the scanned row starts.
template <unsigned Threads, class W, class A, class U, class M, class Prod>
__device__ void claim_edge(Offset e, const Offset* starts, Index count, const Index* indices,
                           const U* u_values, const CsrView<A>& rows,
                           const VectorMaskView<M>& mask, const Prod& product,
                           const ClaimStamps& stamps, const FusedAssigns& fused,
                           PushBlockTally<Threads>& tally, Index* out_indices, W* out_values) {
  const PushEdge edge = push_edge(e, starts, count, indices, rows);
  claim_output(edge.position, indices[edge.f], u_values[edge.f], rows, mask, product, stamps,
               fused, tally, out_indices, out_values);
}

/// `warp_scan`: the input's row starts are not given (count <= warp_scan_inputs): each block
/// scans them for itself (warp_row_starts).
template <bool warp_scan, class W, class A, class U, class M, class Prod>
__global__ void push_claim_any(const Offset* starts, Index count, const Index* indices,
                               const U* u_values, CsrView<A> rows, VectorMaskView<M> mask,
                               Prod product, ClaimStamps stamps,
                               __grid_constant__ const FusedAssigns fused, Index* out_indices,
                               W* out_values) {
  auto tally = start_push_tally<block_threads>(stamps);
  if constexpr (warp_scan) {
    __shared__ Offset scanned[warp_scan_inputs + 1];
    if (threadIdx.x < 32) warp_row_starts(count, indices, rows.row_offsets, scanned);
    __syncthreads();
    starts = scanned;
  }
  const Offset edges = starts[count];  // read here, so the host never waits for the scan
  // Whole-block steps, each taking its slots with one atomic (block_take_slot), not one per
  // warp: kron22's frontiers of hub vertices (10^6-10^7 edges, their outputs claimed a few per
  // warp and step) queued on the one counter. A root whose third level pushes 2 258 hubs' 7.9 M
  // edges: 965 -> 373 us of pushes; 32 roots' mean search 645 -> 550 us
  // (`grb bench --graphs kron22 --algorithms bfs --engines linalg`, against one atomic per warp).
  const std::uint64_t stride = std::uint64_t(gridDim.x) * block_threads;
  for (std::uint64_t base = std::uint64_t(blockIdx.x) * block_threads; base < edges;
       base += stride) {
    const Offset e = base + threadIdx.x;
    PushEdge edge{};
    Visit visit{};
    if (e < edges) {
      edge = push_edge(e, starts, count, indices, rows);
      visit = claim_visit(edge.position, rows, mask, stamps, fused, tally);
    }
    const unsigned long long slot = block_take_slot(stamps, visit.won ? 1u : 0u);
    if (visit.won)
      emit_visit(visit, slot, indices[edge.f], u_values[edge.f], rows, product, fused, tally,
                 out_indices, out_values);
  }
  tally.finish(fused, stamps);
}

/// push_claim_any for an input of at most block_scan_inputs entries, with the scan done by
/// every block for itself in shared memory: one launch per push instead of two, and no scan
/// array (a high-diameter graph's BFS level is a few thousand edges; its launches are its cost).
template <class W, class A, class U, class M, class Prod>
__global__ void __launch_bounds__(block_scan_threads)
    push_claim_any_small(Index count, const Index* indices, const U* u_values, CsrView<A> rows,
                         VectorMaskView<M> mask, Prod product, ClaimStamps stamps,
                         __grid_constant__ const FusedAssigns fused, Index* out_indices,
                         W* out_values) {
  auto tally = start_push_tally<block_scan_threads>(stamps);
  __shared__ Offset starts[block_scan_inputs + 1];
  block_row_starts(count, indices, rows.row_offsets, starts);
  __syncthreads();
  const Offset edges = starts[count];
  GRB_GRID_STRIDE_LOOP(e, edges) {
    claim_edge(e, starts, count, indices, u_values, rows, mask, product, stamps, fused, tally,
               out_indices, out_values);
  }
  tally.finish(fused, stamps);
}

/// Rows of at most this many entries are expanded by push_claim_any_by_row.
inline constexpr Offset lane_row_entries = 16;

/// push_claim_any for short rows: a group of Lanes threads per input entry, each thread taking
/// every Lanes-th entry of the row, with no scan and no search (a grid's BFS level, rows of at
/// most 4 entries and 4 lanes: the chain of dependent reads is what a level costs there, and each
/// thread's chain is one edge long; a Kronecker BFS's tail, rows of up to 16 entries and about
/// 1.4 on average, 2 lanes).
/// `count_on_device`: where the input's count is still only on the device (a push queued behind
/// the one that makes its input: chained_push), its low 32 bits are the count; else null.
template <unsigned Lanes, class W, class A, class U, class M, class Prod>
__global__ void push_claim_any_by_row(Index count, const unsigned long long* count_on_device,
                                      const Index* indices, const U* u_values, CsrView<A> rows,
                                      VectorMaskView<M> mask, Prod product, ClaimStamps stamps,
                                      __grid_constant__ const FusedAssigns fused,
                                      Index* out_indices, W* out_values) {
  auto tally = start_push_tally<block_threads>(stamps);
  if (count_on_device) count = static_cast<Index>(*count_on_device & 0xffffffffull);
  GRB_GRID_STRIDE_LOOP(t, std::uint64_t(count) * Lanes) {
    const Index f = static_cast<Index>(t / Lanes);
    const Index k = indices[f];
    // A row longer than Lanes (the bound came from the input's own rows, which a product
    // reported: Vector::longest_row) is walked Lanes entries a step, never cut short.
    const Offset end = rows.row_offsets[k + 1];
    for (Offset position = rows.row_offsets[k] + t % Lanes; position < end; position += Lanes)
      claim_output(position, k, u_values[f], rows, mask, product, stamps, fused, tally,
                   out_indices, out_values);
  }
  tally.finish(fused, stamps);
}

/// Installs a deferred product's result in w once its kernel has published the count: dense
/// (made by `make_dense(count)`) above `list_most` entries, else the output list, truncated to
/// the count. Returns what was published.
template <class W, class MakeDense>
Published install_result(Vector<W>& w, const ClaimStamps& stamps, DeviceArray<Index>& indices,
                         DeviceArray<W>& values, Index list_most, MakeDense make_dense) {
  const Published published = await_count(stamps);  // no copy, no stream synchronization
  const Index n = w.size();
  const Index nvals = published.count;
  if (nvals > list_most) {
    w = make_dense(nvals);
  } else {
    indices.truncate(nvals);
    values.truncate(nvals);
    Vector<W> result(n, Backend::cuda);
    result.adopt_unsorted(std::move(indices), std::move(values));
    w = std::move(result);
  }
  if (stamps.edge_rows) w.set_row_edges(stamps.edge_rows, published.edges, published.longest);
  return published;
}

/// The lanes per input entry for rows of at most `longest` entries (a power of two).
inline unsigned row_lanes(Offset longest) {
  unsigned lanes = 1;
  while (lanes < longest) lanes *= 2;
  return lanes;
}

/// A push of at most this many edges (by the longest-row bound) is expanded by
/// push_claim_any_small, whose blocks each repeat the scan of the input's row lengths.
inline constexpr Offset small_push_edges = Offset{1} << 16;

/// w = T for a push whose monoid is `any`, when nothing of the old w survives (no accumulator;
/// replace, or no mask): the outputs come straight out as a list, deduplicated by claim stamps
/// and left in the order found (Vector::adopt_unsorted; scattered into a dense w when that many
/// are found): work in proportion to the input's edges, not to w's size, and one value read
/// back (the output count). This is a BFS level on a high-diameter graph.
///
/// In non-blocking mode the push is queued (grb/deferred.hpp) until its result is read, so that
/// the assigns masked by it can join its launch (deferred.cuh): everything is set up here;
/// launch() launches, finish() waits for the count and installs the result in w.
template <class W, class A, class U, class M, class Prod>
class PushAnySparse final : public PendingPush {
 public:
  /// A push over u's entries, which `plan` holds.
  /// `longest_row`: a bound on the rows of u's entries; `matrix_longest`: the push matrix's
  /// longest row.
  PushAnySparse(Vector<W>& w, const Vector<U>& u, const Csr<A>& rows, PushPlan<U>&& plan,
                Offset longest_row, Offset matrix_longest, const VectorMaskView<M>& mask,
                const Prod& product)
      : PushAnySparse(w, u, rows, longest_row, mask, product) {
    const PushPlan<U>& input = plan_.emplace(std::move(plan));
    count_ = input.count();
    indices_in_ = input.input().indices();
    values_in_ = input.input().values();
    // The grid is sized by the edges when known, else by their bound from the longest row: an
    // estimate from the average degree gave a level of a few hub vertices (10^6 edges) 4 blocks.
    const Offset edges =
        input.edges_at_most(std::min<Offset>(Offset(count_) * longest_row, rows.nvals()));
    take_output(edges);
    blocks_ = blocks_for_bound(edges);
    small_ = !input.scanned() && count_ <= block_scan_inputs && edges <= small_push_edges;
    // Lanes for the input's average row where its edges are known (a Kronecker BFS's tail: ~1.4
    // edges a vertex, its longest rows 10-20), so that a group of 16 lanes per entry does not
    // leave 15 idle; longer rows are walked in steps (push_claim_any_by_row). kron22 root
    // 206848's fifth level (323 815 inputs, 446 827 edges): 131 us with 16 lanes, 45 with 2.
    if (const auto known = input.known_edges(); by_row_ && known && count_ > 0)
      lanes_ = std::min(lanes_, row_lanes((*known + count_ - 1) / count_));
    if (by_row_) {
      blocks_ = blocks_for(std::uint64_t(count_) * lanes_);
    } else if (!small_) {
      warp_scan_ = !input.scanned() && count_ <= warp_scan_inputs;
      if (!warp_scan_) input.starts();  // the scan (its launches) now; no read-back
    }
    // Skewed rows of a square matrix: the outputs' edges are summed for the next push/pull
    // choice (Vector::row_edges; an output is a row of the next push only when the matrix is
    // square). Rows of at most lane_row_entries never need them: the bound decides there.
    if (matrix_longest > lane_row_entries && rows.nrows == rows.ncols)
      stamps_.edge_rows = rows.row_offsets.data();
    // Skewed rows: a claim waits for the mask (claim_visit).
    stamps_.after_mask = matrix_longest > lane_row_entries;
  }

  /// A push over the result of the deferred push `source` (u), read on the device before its
  /// count reaches the host (chained_push); rows of at most lane_row_entries only.
  PushAnySparse(Vector<W>& w, const Vector<U>& u, PendingPush& source, const Csr<A>& rows,
                Offset longest_row, const VectorMaskView<M>& mask, const Prod& product)
      : PushAnySparse(w, u, rows, longest_row, mask, product) {
    leader = &source;
    source.follower = this;
    count_ = source.device_output.capacity;  // a bound: the kernel reads the count
    count_on_device_ = source.device_output.count;
    indices_in_ = source.device_output.indices;
    values_in_ = static_cast<const U*>(source.device_output.values);
    take_output(std::min<Offset>(Offset(count_) * longest_row, rows.nvals()));
    // Sized by the bound, so capped: the grid-stride loop covers the rest, and every block costs
    // its tally and an atomic at the end even when the real count leaves it idle.
    blocks_ = blocks_for_bound(std::uint64_t(count_) * lanes_);
  }

  /// At most small_push_edges edges (by the bound): a few microseconds of work.
  bool launch_bound() const { return edges_ <= small_push_edges; }

  void launch() override {
    if (by_row_) {
      const auto by_row = [&](auto lanes_constant) {
        push_claim_any_by_row<decltype(lanes_constant)::value, W><<<blocks_, block_threads>>>(
            count_, count_on_device_, indices_in_, values_in_, rows_, mask_, product_, stamps_,
            fused, indices_.data(), values_.data());
      };
      switch (lanes_) {
        case 1: by_row(std::integral_constant<unsigned, 1>{}); break;
        case 2: by_row(std::integral_constant<unsigned, 2>{}); break;
        case 4: by_row(std::integral_constant<unsigned, 4>{}); break;
        case 8: by_row(std::integral_constant<unsigned, 8>{}); break;
        default: by_row(std::integral_constant<unsigned, 16>{}); break;
      }
    } else if (small_) {
      push_claim_any_small<W><<<blocks_, block_scan_threads>>>(
          count_, indices_in_, values_in_, rows_, mask_, product_, stamps_, fused,
          indices_.data(), values_.data());
    } else if (warp_scan_) {
      push_claim_any<true, W><<<blocks_, block_threads>>>(
          nullptr, count_, indices_in_, values_in_, rows_, mask_, product_, stamps_, fused,
          indices_.data(), values_.data());
    } else {
      push_claim_any<false, W><<<blocks_, block_threads>>>(
          plan_->starts(), count_, indices_in_, values_in_, rows_, mask_, product_, stamps_,
          fused, indices_.data(), values_.data());
    }
    GRB_CUDA_CHECK_LAUNCH();
  }

  void finish() override {
    const Published published = install_result(w_, stamps_, indices_, values_,
                                               size / dense_ratio, [&](Index nvals) {
      indices_.truncate(nvals);
      values_.truncate(nvals);
      Vector<W> dense(size, Backend::cuda);
      dense.adopt_unsorted(std::move(indices_), std::move(values_));
      dense.make_dense();  // the list scattered (and freed in stream order)
      return dense;
    });
    // The push queued behind this one (chained_push) reads the list on the device; a list freed
    // here goes to later work in stream order only.
    if (follower) follower->input_counted(published.count);
  }

  void run() {
    launch();
    finish();
  }

 private:
  Vector<W>& w_;
  std::optional<PushPlan<U>> plan_;
  Index count_ = 0;  // of the input; its bound where count_on_device_ is set
  const unsigned long long* count_on_device_ = nullptr;
  const Index* indices_in_ = nullptr;
  const U* values_in_ = nullptr;
  CsrView<A> rows_;
  VectorMaskView<M> mask_;
  Prod product_;
  DeviceArray<Index> indices_;
  DeviceArray<W> values_;
  unsigned blocks_ = 0;
  ClaimStamps stamps_{};
  Offset edges_ = 0;     // the edges, or their bound
  bool by_row_ = false;  // push_claim_any_by_row, with lanes_ threads per input entry
  unsigned lanes_ = 1;
  bool small_ = false;   // push_claim_any_small
  bool warp_scan_ = false;  // push_claim_any scanning its input itself

  PushAnySparse(Vector<W>& w, const Vector<U>& u, const Csr<A>& rows, Offset longest_row,
                const VectorMaskView<M>& mask, const Prod& product)
      : w_(w), rows_(view_of(rows)), mask_(mask), product_(product) {
    output = &w;
    input = &u;
    value_type = &typeid(W);
    size = w.size();
    stamps_ = claim_stamps(size);
    by_row_ = longest_row <= lane_row_entries;
    lanes_ = row_lanes(longest_row);
    this->longest_row = longest_row;
  }

  /// The output list for at most `edges` edges: at most one output per edge, and n distinct
  /// ones (a grid's level, a few thousand edges, takes a few kilobytes, not n-sized arrays: the
  /// pool's large blocks cost more to hand out). Work queued behind the push may read the list.
  void take_output(Offset edges) {
    edges_ = edges;
    const std::size_t capacity = std::min<Offset>(edges, size);
    indices_ = device_array<Index>(capacity);
    values_ = device_array<W>(capacity);
    device_output = {indices_.data(), values_.data(), stamps_.count, static_cast<Index>(capacity)};
  }
};

/// w = T for a pull whose monoid stops at its first hit (a BFS level's pull), when nothing of the
/// old w survives, in non-blocking mode: launched, and finished when its result is read. Its
/// kernel publishes the count (and the edges) into host memory as a push does, so the assigns
/// masked by the result queue behind it on the device (assign_behind_push), and the GPU goes on
/// to them while the host waits. The kernel also lists its outputs (PullList): a result of few
/// entries is adopted as that list (no conversion from dense), and the assigns behind it walk the
/// list instead of every position (they read the count on the device).
template <class W>
class PendingPull final : public PendingPush {
  Vector<W>& w_;
  DeviceArray<Index> indices_;
  DeviceArray<W> values_;

 public:
  DenseResult<W> t;
  ClaimStamps stamps;

  PendingPull(Vector<W>& w, const void* input_vector, const Offset* edge_rows)
      : w_(w),
        indices_(device_array<Index>(list_capacity(w.size()))),
        values_(device_array<W>(list_capacity(w.size()))),
        t(w.size()),
        stamps(claim_stamps(w.size())) {
    output = &w;
    input = input_vector;
    value_type = &typeid(W);
    size = w.size();
    stamps.edge_rows = edge_rows;
    device_output = {indices_.data(), values_.data(), stamps.count, size, t.present.data()};
    device_output.dense_values = t.values.data();
    device_output.listed = static_cast<Index>(indices_.size());
  }

  PullList<W> list() { return {indices_.data(), values_.data(), stamps, indices_.size()}; }

  /// Room for every result left sparse (count * list_ratio <= size); at least one entry, so
  /// that the list exists.
  static Index list_capacity(Index size) { return std::max<Index>(size / list_ratio, 1); }

  void finish() override {
    install_result(w_, stamps, indices_, values_, Index(indices_.size()), [&](Index nvals) {
      Vector<W> dense(size, Backend::cuda);
      dense.adopt_dense(std::move(t.values), std::move(t.present), nvals);
      return dense;
    });
  }
};

/// Rows of the push matrix at most this long let a push queue behind the push that makes its
/// input, up to this many edges by the bound (chained_push).
inline constexpr Offset chained_push_edges = Offset{1} << 20;

template <class W, class A, class U, class M, class Prod>
void push_any_sparse(Vector<W>& w, const Vector<U>& u, const Csr<A>& rows, PushPlan<U>&& plan,
                     Offset longest_row, Offset matrix_longest, const VectorMaskView<M>& mask,
                     const Prod& product) {
  auto push = std::make_unique<PushAnySparse<W, A, U, M, Prod>>(
      w, u, rows, std::move(plan), longest_row, matrix_longest, mask, product);
  // Only a push whose launches are its cost waits to be fused: in a push of 10^5 outputs (a
  // Kronecker graph's second level) the fused writes lengthen every claimer's chain of reads,
  // and separate assigns were as fast or faster (kron22, 16 roots, 2 runs each: medians 0.90
  // either way, means 1.03 and 1.17 ms fused against 0.91 and 0.95 ms).
  if (grb::mode() == Mode::blocking) push->run();
  else if (push->launch_bound()) grb::detail::defer(std::move(push));
  // Launched at once, and finished when its result is read: the assigns masked by the result
  // queue behind it on the device (assign_behind_push) before the host waits for its count.
  else grb::detail::launch_deferred(std::move(push));
}

// ------------------------------------------------------------------ cuSPARSE

/// The process's cuSPARSE handle, on the default stream (created on first use; kept to exit).
inline cusparseHandle_t cusparse_handle() {
  static cusparseHandle_t handle = [] {
    cusparseHandle_t created = nullptr;
    GRB_CUSPARSE_CHECK(cusparseCreate(&created));
    GRB_CUSPARSE_CHECK(cusparseSetStream(created, cudaStream_t{0}));
    return created;
  }();
  return handle;
}

template <class T>
constexpr bool cusparse_value = std::is_same_v<T, float> || std::is_same_v<T, double>;

template <class Semiring, class W, class A, class U>
constexpr bool cusparse_supports() {
  using Z = typename Semiring::value_type;
  return std::is_same_v<Semiring, plus_times<Z>> && cusparse_value<Z> && std::is_same_v<A, Z> &&
         std::is_same_v<U, Z>;
}

template <class T>
__global__ void zero_absent(Index size, const T* values, const std::uint8_t* present, T* out) {
  GRB_GRID_STRIDE_LOOP(i, size) out[i] = present[i] ? values[i] : T{0};
}

/// T(o) exists where row o holds an entry whose input exists (cuSPARSE cannot say).
template <class A, class M>
__global__ void product_pattern(CsrView<A> rows, const std::uint8_t* u_present,
                                VectorMaskView<M> mask, std::uint8_t* t_present) {
  GRB_GRID_STRIDE_LOOP(position, rows.nrows) {
    const Index o = static_cast<Index>(position);
    bool found = false;
    if (mask.allows(o))
      for (Offset e = rows.row_offsets[o]; e < rows.row_offsets[o + 1] && !found; ++e)
        found = u_present[rows.col_indices[e]] != 0;
    t_present[o] = found ? 1 : 0;
  }
}

__global__ inline void widen_indices(Offset count, const Index* in, std::int64_t* out) {
  GRB_GRID_STRIDE_LOOP(i, count) out[i] = in[i];
}

template <class T, class M>
void cusparse_spmv(DenseResult<T>& t, const Csr<T>& rows, const Vector<T>& u,
                   const VectorMaskView<M>& mask) {
  if (rows.nrows == 0) return;
  const DenseInput<T> input(u);
  auto x = device_array<T>(std::max<std::size_t>(u.size(), 1));
  if (u.size() > 0) {
    zero_absent<<<blocks_for(u.size()), block_threads>>>(u.size(), input.values(),
                                                         input.present(), x.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  const cudaDataType value_type = std::is_same_v<T, float> ? CUDA_R_32F : CUDA_R_64F;
  // 32-bit indices when they suffice (cuSPARSE's fastest path; row offsets narrowed, column ids
  // reinterpreted), else 64-bit offsets and widened column ids.
  const bool narrow = rows.nvals() < (Offset{1} << 31) && rows.nrows < (Index{1} << 31) &&
                      rows.ncols < (Index{1} << 31);
  DeviceArray<std::int32_t> offsets32;
  DeviceArray<std::int64_t> columns64;
  void* offsets = const_cast<Offset*>(rows.row_offsets.data());
  void* columns = const_cast<Index*>(rows.col_indices.data());
  if (narrow) {
    offsets32 = device_array<std::int32_t>(std::size_t(rows.nrows) + 1);
    narrow_offsets<<<blocks_for(rows.nrows + 1), block_threads>>>(
        rows.nrows + 1, rows.row_offsets.data(), offsets32.data());
    GRB_CUDA_CHECK_LAUNCH();
    offsets = offsets32.data();
  } else {
    columns64 = device_array<std::int64_t>(rows.nvals());
    widen_indices<<<blocks_for(rows.nvals()), block_threads>>>(rows.nvals(),
                                                              rows.col_indices.data(),
                                                              columns64.data());
    GRB_CUDA_CHECK_LAUNCH();
    columns = columns64.data();
  }
  const cusparseIndexType_t index_type = narrow ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I;
  cusparseHandle_t handle = cusparse_handle();
  cusparseSpMatDescr_t matrix = nullptr;
  cusparseDnVecDescr_t vec_x = nullptr, vec_y = nullptr;
  // Descriptors are released on every path, including a failed call.
  struct Release {
    cusparseSpMatDescr_t& matrix;
    cusparseDnVecDescr_t& x;
    cusparseDnVecDescr_t& y;
    ~Release() {
      if (matrix) cusparseDestroySpMat(matrix);
      if (x) cusparseDestroyDnVec(x);
      if (y) cusparseDestroyDnVec(y);
    }
  } release{matrix, vec_x, vec_y};
  GRB_CUSPARSE_CHECK(cusparseCreateCsr(&matrix, rows.nrows, rows.ncols,
                                       static_cast<std::int64_t>(rows.nvals()), offsets, columns,
                                       const_cast<T*>(rows.values.data()), index_type, index_type,
                                       CUSPARSE_INDEX_BASE_ZERO, value_type));
  GRB_CUSPARSE_CHECK(cusparseCreateDnVec(&vec_x, rows.ncols, x.data(), value_type));
  GRB_CUSPARSE_CHECK(cusparseCreateDnVec(&vec_y, rows.nrows, t.values.data(), value_type));
  const T alpha = 1, beta = 0;
  std::size_t bytes = 0;
  GRB_CUSPARSE_CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                                             matrix, vec_x, &beta, vec_y, value_type,
                                             CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
  auto buffer = device_array<std::uint8_t>(bytes > 0 ? bytes : 1);
  GRB_CUSPARSE_CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matrix, vec_x,
                                  &beta, vec_y, value_type, CUSPARSE_SPMV_ALG_DEFAULT,
                                  buffer.data()));
  product_pattern<<<blocks_for(rows.nrows), block_threads>>>(view_of(rows), input.present(), mask,
                                                             t.present.data());
  GRB_CUDA_CHECK_LAUNCH();
}

// ------------------------------------------------------------------ the shared driver

/// Queues a push by rows behind the deferred push whose result is its input u, before that result
/// reaches the host: the kernel reads the input's count on the device, so the GPU can run this
/// product while the host waits for the count of the one before (a BFS that tests the frontier a
/// level late: bfs/linear_algebra.hpp). Rows of at most lane_row_entries only, where a push by
/// rows needs neither the count nor a scan, and the output list is sized by a bound. True: queued
/// (the assigns masked by its result may fuse into it); false: nothing was done.
template <bool is_vxm, class W, class Mask, class Semiring, class A, class U>
bool chained_push(Vector<W>& w, const Mask& mask, const Semiring& semiring, const Matrix<A>& a,
                  const Vector<U>& u, bool transposed, const Descriptor& desc) {
  if (grb::mode() == Mode::blocking) return false;
  if (desc.strategy != MxvStrategy::automatic && desc.strategy != MxvStrategy::push) return false;
  // Nothing of the old w survives (push_any_sparse's case), and the mask allows something.
  if constexpr (std::is_same_v<Mask, NoMask>) {
    if (desc.complement_mask) return false;
  } else if (!desc.replace) {
    return false;
  }
  auto* source = dynamic_cast<PendingPush*>(grb::detail::newest_work());
  // Not behind a pull: its list holds its outputs only when they are few (PullList).
  if (!source || source->output != static_cast<const void*>(&u) ||
      !source->device_output.indices || source->device_output.present ||
      *source->value_type != typeid(U))
    return false;
  // u, the source's result, is stale on the host: it is read only through device_output. w and
  // the mask must not be replaced by deferred work (targets it updates in place are fine: their
  // arrays stay where they are).
  const grb::detail::DeferredHold hold;
  if (a.nrows() != a.ncols() || u.size() != a.nrows() || w.size() != a.ncols()) return false;
  if (grb::detail::deferred_work_replaces(&w)) return false;
  if constexpr (!std::is_same_v<Mask, NoMask>) {
    if (grb::detail::deferred_work_replaces(&mask)) return false;
  }
  const bool pull_is_csc = is_vxm != transposed;
  const Offset longest = longest_row_of(a, !pull_is_csc);
  if (longest > lane_row_entries) return false;
  if (std::min<Offset>(Offset(source->device_output.capacity) * longest, a.nvals()) >
      chained_push_edges)
    return false;
  const auto mask_view = vector_mask(mask, desc, w.size(), is_vxm ? "vxm" : "mxv");
  const Product<is_vxm, typename Semiring::multiply_type> product{semiring.multiply};
  using Push = PushAnySparse<W, A, U, typename decltype(mask_view)::value_type, decltype(product)>;
  grb::detail::defer_behind(std::make_unique<Push>(w, u, *source, pull_is_csc ? a.csr() : a.csc(),
                                                   longest, mask_view, product));
  return true;
}

template <bool is_vxm, class W, class Mask, class Accum, class Semiring, class A, class U>
void semiring_product(const char* operation, Vector<W>& w, const Mask& mask, const Accum& accum,
                      const Semiring& semiring, const Matrix<A>& a, const Vector<U>& u,
                      bool transposed, const Descriptor& desc) {
  using Z = typename Semiring::value_type;
  if constexpr (grb::detail::is_any_monoid<typename Semiring::add_type>() && !has_accum<Accum>) {
    if (chained_push<is_vxm>(w, mask, semiring, a, u, transposed, desc)) return;
  }
  grb::detail::complete_deferred();  // before claim stamps or anything else is taken
  const Index nrows = transposed ? a.ncols() : a.nrows();
  const Index ncols = transposed ? a.nrows() : a.ncols();
  const Index output_size = is_vxm ? ncols : nrows;
  const Index input_size = is_vxm ? nrows : ncols;
  if (u.size() != input_size || w.size() != output_size)
    dimension_mismatch(operation, "w (size " + std::to_string(w.size()) + "), u (size " +
                                      std::to_string(u.size()) + ") and A (" +
                                      shape(nrows, ncols) + (transposed ? ", transposed" : "") +
                                      ") do not fit");
  Index allowed = 0;
  const auto mask_view = vector_mask(mask, desc, output_size, operation, &allowed);
  // The pull matrix has a row per output; mxv reads A's rows, vxm A's columns.
  const bool pull_is_csc = is_vxm != transposed;
  if constexpr (!cusparse_supports<Semiring, W, A, U>()) {
    if (desc.strategy == MxvStrategy::cusparse)
      throw InvalidValue(std::string(operation) +
                         ": the cusparse strategy needs plus_times on float or double, with "
                         "the matrix, vector and semiring of one type");
  }
  // `allowed` is an estimate (see vector_mask): only a mask that allows nothing at all skips.
  const bool nothing_allowed = mask_view.everything && mask_view.complement;
  constexpr bool any_monoid = grb::detail::is_any_monoid<typename Semiring::add_type>();
  const Product<is_vxm, typename Semiring::multiply_type> product{semiring.multiply};
  const bool products = !nothing_allowed && u.nvals() > 0 && a.nvals() > 0;
  if (!products && !has_accum<Accum> &&
      (desc.replace || (mask_view.everything && !mask_view.complement))) {
    w.clear();  // nothing found, and nothing of w survives (a BFS's level past the last)
    return;
  }
  // pull() reads whole rows, and splits the long ones, unless the monoid stops at a row's first
  // hit: the same test decides here which longest row it needs.
  constexpr bool early_exit = stops_at_first_hit<typename Semiring::add_type, Z>();
  // The push matrix is the transpose of the pull matrix: csr when pull reads csc.
  const Csr<A>& push_rows = pull_is_csc ? a.csr() : a.csc();
  std::optional<PushPlan<U>> plan;
  bool pushes = false;
  // u's longest row where the product that made it reported one (Vector::longest_row): a
  // tighter bound than the matrix's, so that a tail frontier of short rows is pushed by rows.
  const Offset matrix_longest = longest_row_of(a, !pull_is_csc);
  Offset input_longest = matrix_longest;
  if (const auto longest = u.longest_row(push_rows.row_offsets.data()))
    input_longest = std::min(input_longest, *longest);
  // u's exact edges, where the product that made it left them (Vector::row_edges).
  const auto known_edges = u.row_edges(push_rows.row_offsets.data());
  if (products && desc.strategy == MxvStrategy::push) {
    pushes = true;
  } else if (products && desc.strategy == MxvStrategy::automatic) {
    // Decided without a read-back where the degrees settle it: push when even u's longest
    // rows are few enough, pull when even its average rows are too many; else (skewed
    // degrees) by the exact edge count of u's rows, from the scan the push needs anyway.
    // Exact edges that u already carries decide first only where u is a list, which the push
    // reads as it is: a dense u is compacted first, and pull_work counts every allowed output,
    // a Kronecker graph's isolated vertices too, so on a dense tail level the exact edges chose
    // a push that cost twice the pull it replaced (kron22: ~3 * 10^5 low-degree
    // vertices, 92 us of compaction, scan and push against a 48 us pull). A pull now leaves
    // such a level a list (list_ratio), which is pushed by rows (~30-45 us against ~40-65).
    const double alpha = early_exit ? pull_advantage_early_exit : pull_advantage;
    const double pull_work = double(allowed) * double(a.nvals()) / std::max<Index>(output_size, 1);
    const double average_push = double(u.nvals()) * double(a.nvals()) / std::max<Index>(input_size, 1);
    if (double(u.nvals()) * double(input_longest) * alpha < pull_work) {
      pushes = true;
    } else if (known_edges && u.format() == VectorFormat::sparse) {
      pushes = double(*known_edges) * alpha < pull_work;
    } else if (average_push * alpha < pull_work) {
      // The exact edges: left on u by the product that made it, else scanned and read back.
      plan.emplace(push_rows, u);
      if (known_edges) plan->know_edges(*known_edges);
      pushes = double(plan->edges()) * alpha < pull_work;
    }
  }
  if (pushes && !plan) {
    // The exact edges, where u carries them, size the push's grid (a tail level of a few hundred
    // hubs' neighbours is otherwise sized by its bound from the longest row).
    plan.emplace(push_rows, u);
    if (known_edges) plan->know_edges(*known_edges);
  }
  if constexpr (any_monoid && !has_accum<Accum>) {
    if (pushes && (desc.replace || mask_view.everything)) {
      push_any_sparse(w, u, push_rows, std::move(*plan), input_longest, matrix_longest,
                      mask_view, product);
      return;
    }
  }
  // write_back adopts T itself when nothing of w survives (a BFS level's pull).
  const bool adopted =
      !has_accum<Accum> && ((mask_view.everything && !mask_view.complement) || desc.replace);
  // On skewed rows of a square matrix the result's edges in the push matrix are summed for the
  // next product's push/pull choice (Vector::row_edges); short rows never need them.
  // The pull matrix's 32-bit offsets, made (once per matrix) only for a pull that reads them.
  const auto narrow = [&] { return narrow_offsets_of(a, pull_is_csc); };
  const Offset* edge_rows = adopted && early_exit && a.nrows() == a.ncols() &&
                                    longest_row_of(a, !pull_is_csc) > lane_row_entries
                                ? push_rows.row_offsets.data()
                                : nullptr;
  if constexpr (early_exit && std::is_same_v<W, Z>) {
    if (products && !pushes && adopted && desc.strategy != MxvStrategy::cusparse &&
        grb::mode() == Mode::nonblocking) {
      auto pending = std::make_unique<PendingPull<W>>(w, &u, edge_rows);
      pull(pending->t, pull_is_csc ? a.csc() : a.csr(), u, mask_view, semiring.add, product,
           Offset{0}, true, edge_rows, &pending->stamps, pending->list(), narrow);
      grb::detail::launch_deferred(std::move(pending));
      return;
    }
  }
  DenseResult<Z> t(output_size);
  // Pull and cuSPARSE write every output position (absent ones too); a push writes only the
  // outputs it reaches.
  if (!products || pushes) t.clear();
  if (products) {
    if (desc.strategy == MxvStrategy::cusparse) {
      if constexpr (cusparse_supports<Semiring, W, A, U>())
        cusparse_spmv(t, pull_is_csc ? a.csc() : a.csr(), u, mask_view);
    } else if (pushes) {
      push(t, push_rows, *plan, mask_view, semiring.add, product);
    } else {
      // The longest row decides whether long rows are split (only for monoids that read whole
      // rows; cached in the matrix after the first call).
      const Offset longest = early_exit ? 0 : longest_row_of(a, pull_is_csc);
      pull(t, pull_is_csc ? a.csc() : a.csr(), u, mask_view, semiring.add, product, longest,
           adopted, edge_rows, nullptr, {}, narrow);
    }
  }
  write_back(w, mask_view, accum, std::move(t), desc, /*t_within_mask=*/true);
}

}  // namespace grb::cuda::detail

namespace grb::cuda {

template <class W, class Mask, class Accum, class Semiring, class A, class U>
void mxv(Vector<W>& w, const Mask& mask, const Accum& accum, const Semiring& semiring,
         const Matrix<A>& a, const Vector<U>& u, const Descriptor& desc) {
  detail::semiring_product<false>("mxv", w, mask, accum, semiring, a, u, desc.transpose_first,
                                  desc);
}

template <class W, class Mask, class Accum, class Semiring, class U, class A>
void vxm(Vector<W>& w, const Mask& mask, const Accum& accum, const Semiring& semiring,
         const Vector<U>& u, const Matrix<A>& a, const Descriptor& desc) {
  detail::semiring_product<true>("vxm", w, mask, accum, semiring, a, u, desc.transpose_second,
                                 desc);
}

}  // namespace grb::cuda
