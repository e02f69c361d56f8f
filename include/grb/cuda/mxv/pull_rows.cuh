// Pulls that read whole rows (monoids without a useful terminal, such as plus or min): a group
// of lanes per row sized to the average row, and rows longer than split_row_length split over
// blocks whose partial sums are combined per row.
#pragma once

#include <cstdint>
#include <type_traits>

#include "grb/cuda/mxv/product.cuh"
#include "grb/cuda/policy.hpp"
#include "grb/cuda/views.cuh"

namespace grb::cuda::detail {

/// The input's presence as a pull kernel reads it: `present`, null where every entry is known on
/// the host to be there; or, in a recorded loop (grb/loop.hpp), where the host cannot read the
/// count, decided on the device each time the kernel runs: the input is full when its pending
/// count change (Vector::update_dense's counter) makes up the entries it lacked when recorded,
/// and then no entry is tested (one random read less per stored entry: FastSV's products).
struct InputPresence {
  const std::uint8_t* present = nullptr;
  const std::int64_t* change = nullptr;  // null: `present` as it is
  std::int64_t missing = 0;              // size - nvals when recorded
  __device__ const std::uint8_t* resolve() const {
    return change && *change == missing ? nullptr : present;
  }
};

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

/// Rows of at most split_row_length entries, a group of Lanes threads per row; longer rows are
/// left to the split kernels.
template <unsigned Lanes, class Z, class A, class U, class M, class Add, class Prod>
__global__ void pull_group_per_row(CsrView<A> rows, const U* u_values, InputPresence u_presence,
                                   VectorMaskView<M> mask, Add add, Prod product, Z* t_values,
                                   std::uint8_t* t_present) {
  const std::uint8_t* const u_present = u_presence.resolve();
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
                         InputPresence u_presence, VectorMaskView<M> mask, Add add, Prod product,
                         Partial<Z>* partials) {
  const std::uint8_t* const u_present = u_presence.resolve();
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
                 const InputPresence& u_present, const VectorMaskView<M>& mask, const Add& add,
                 const Prod& product, double average) {
  const auto groups = [&](auto lanes_constant) {
    constexpr unsigned lanes = decltype(lanes_constant)::value;
    pull_group_per_row<lanes, Z>
        <<<blocks_for(std::uint64_t(rows.nrows) * lanes), block_threads, 0, current_stream()>>>(
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
                    const InputPresence& u_present, const VectorMaskView<M>& mask, const Add& add,
                    const Prod& product) {
  const CsrView<A> view = view_of(rows);
  DeviceArray<Offset> chunk_starts = device_array<Offset>(std::size_t(rows.nrows) + 1);
  count_row_chunks<<<blocks_for(rows.nrows), block_threads, 0, current_stream()>>>(
      view, chunk_starts.data());
  GRB_CUDA_CHECK_LAUNCH();
  exclusive_scan_counts(chunk_starts.data(), rows.nrows);
  // Every split row has more than split_row_length entries, so it has fewer chunks than
  // 2 * length / split_row_length: a bound on the chunks without reading the count back.
  const Offset most_chunks = 2 * rows.nvals() / split_row_length + 1;
  DeviceArray<Partial<Z>> partials = device_array<Partial<Z>>(most_chunks);
  pull_long_row_chunks<Z><<<static_cast<unsigned>(most_chunks), 256, 0, current_stream()>>>(
      view, chunk_starts.data(), u_values, u_present, mask, add, product, partials.data());
  GRB_CUDA_CHECK_LAUNCH();
  combine_long_rows<Z, A><<<blocks_for(rows.nrows), block_threads, 0, current_stream()>>>(
      rows.nrows, chunk_starts.data(), partials.data(), add, t.values.data(), t.present.data());
  GRB_CUDA_CHECK_LAUNCH();
}

/// Whether a product's rows usually end at their first term: any, and a terminal over bool (lor,
/// land: one of the two values ends the row). A terminal such as min's lowest value (SSSP's
/// -inf, FastSV's vertex 0) is rarely met: such rows are read whole, by the kernels for whole
/// rows (a thread per row would leave a hub's row to one thread: FastSV's min.second on kron20

}  // namespace grb::cuda::detail
