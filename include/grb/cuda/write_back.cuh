// The step every cuda operation ends with:  output<mask, replace> = accum(output, T).
//
// Same rule as the cpu backend (grb/cpu/write_back.hpp): Z = T without an accumulator, else the
// union of output and T with accum where both exist; inside the mask the output becomes Z,
// outside it keeps its entries (or loses them with replace). The result is always fresh storage,
// so the output may alias the mask or any input.
//
// Vectors: T is dense (values + presence), one thread per position; the new entry count comes
// from a per-block __syncthreads_count and one atomic per block, and is the one value read back.
// Matrices: one thread per row merges the output's row with T's (two passes: count, then write
// at the scanned offsets), so the result's rows stay sorted.
#pragma once

#include <cub/device/device_scan.cuh>

#include <cstdint>
#include <type_traits>
#include <utility>

#include "grb/cuda/views.cuh"

namespace grb::cuda::detail {

/// A dense result on the device: values + presence for `size` positions; plus, where the
/// kernel that wrote it also counted its entries, that count (on the device).
template <class T>
struct DenseResult {
  Index size = 0;
  DeviceArray<T> values;
  DeviceArray<std::uint8_t> present;
  DeviceArray<unsigned long long> count;  // empty: not counted; [1]: the edges (see edge_rows)
  // Where the kernel also summed its entries' row lengths in the CSR of these row offsets (into
  // count[1]): the result's Vector::row_edges.
  const Offset* edge_rows = nullptr;

  explicit DenseResult(Index n)
      : size(n), values(device_array<T>(n)), present(device_array<std::uint8_t>(n)) {}
  /// Presence cleared; values zeroed so no position is ever uninitialized memory.
  void clear() {
    fill_zero(present.data(), size);
    fill_zero(values.data(), size);
  }
  /// A zeroed counter for the kernel that writes every position to add its entries to (and a
  /// second, after it, for their edges).
  unsigned long long* counter() {
    count = device_array<unsigned long long>(2);
    fill_zero(count.data(), 2);
    return count.data();
  }
};

/// Counts entries per block, for kernels whose threads leave a grid-stride loop at different
/// times (so __syncthreads_count cannot be used inside it): count_found by every lane of a warp,
/// a shared atomic per warp, then flush once by every thread after the loop.
struct BlockCount {
  unsigned* shared;
  unsigned long long* total;  // null: not counting
  __device__ void start() const {
    if (threadIdx.x == 0) *shared = 0;
    __syncthreads();
  }
  /// `found` more entries of this thread; every lane of the warp calls it.
  __device__ void count_found(unsigned found) const {
    if (!total) return;  // the same for the whole grid
    const unsigned sum = __reduce_add_sync(0xffffffffu, found);
    if (sum != 0 && (threadIdx.x & 31u) == 0) atomicAdd(shared, sum);
  }
  __device__ void flush() const {
    __syncthreads();
    if (threadIdx.x == 0 && total && *shared != 0)
      atomicAdd(total, static_cast<unsigned long long>(*shared));
  }
};

/// Counts the positions with present[i] != 0 (blocks of block_threads threads).
__device__ inline void count_present(bool present, unsigned long long* count) {
  const int block_count = __syncthreads_count(present);
  if (threadIdx.x == 0 && block_count > 0)
    atomicAdd(count, static_cast<unsigned long long>(block_count));
}

template <class W, class Z, class M, class Accum>
__global__ void write_back_vector_kernel(Index size, VectorView<W> old, const Z* t_values,
                                         const std::uint8_t* t_present, VectorMaskView<M> mask,
                                         Accum accum, bool replace, W* values,
                                         std::uint8_t* present, unsigned long long* count) {
  // Every thread of a block reaches __syncthreads_count, so the loop runs in whole-grid strides.
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t base = std::uint64_t(blockIdx.x) * blockDim.x; base < size; base += stride) {
    const std::uint64_t position = base + threadIdx.x;
    bool has = false;
    W value{};
    if (position < size) {
      const Index i = static_cast<Index>(position);
      // The old entry is looked up only where it can survive (a sparse output costs a binary
      // search per position).
      W old_value{};
      if (!mask.allows(i)) {
        if (!replace && old.find(i, old_value)) has = true, value = old_value;
      } else {
        const bool has_new = t_present[i] != 0;
        if constexpr (has_accum<Accum>) {
          const bool has_old = old.find(i, old_value);
          if (has_old && has_new) has = true, value = static_cast<W>(accum(old_value, t_values[i]));
          else if (has_old) has = true, value = old_value;
          else if (has_new) has = true, value = static_cast<W>(t_values[i]);
        } else if (has_new) {
          has = true, value = static_cast<W>(t_values[i]);
        }
      }
      present[i] = has ? 1 : 0;
      values[i] = has ? value : W{};
    }
    count_present(has, count);
  }
}

__global__ inline void count_entries_kernel(Index size, const std::uint8_t* present,
                                            unsigned long long* count) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t base = std::uint64_t(blockIdx.x) * blockDim.x; base < size; base += stride) {
    const std::uint64_t i = base + threadIdx.x;
    count_present(i < size && present[i] != 0, count);
  }
}

/// Counts T's entries (one pass over its presence bytes, one value read back).
inline Index count_entries(const std::uint8_t* present, Index size) {
  if (size == 0) return 0;
  auto count = device_array<unsigned long long>(1);
  fill_zero(count.data(), 1);
  count_entries_kernel<<<blocks_for(size), block_threads, 0, current_stream()>>>(size, present,
                                                                                 count.data());
  GRB_CUDA_CHECK_LAUNCH();
  return static_cast<Index>(read_scalar(count.data()));
}

template <class W, class Z>
__global__ void cast_dense_kernel(Index size, const Z* t_values, const std::uint8_t* t_present,
                                  W* values) {
  GRB_GRID_STRIDE_LOOP(i, size) values[i] = t_present[i] ? static_cast<W>(t_values[i]) : W{};
}

/// write_back_vector_kernel's rule, written into w's own dense arrays, the entry count's change
/// added to *change: for a device loop's body, whose recorded work must write where it read.
/// Position i reads and writes only position i of w and of a mask that may be w itself.
template <class W, class Z, class M, class Accum>
__global__ void write_back_in_place_kernel(Index size, const Z* t_values,
                                           const std::uint8_t* t_present, VectorMaskView<M> mask,
                                           Accum accum, bool replace, W* values,
                                           std::uint8_t* present, std::int64_t* change) {
  GRB_GRID_STRIDE_LOOP(position, size) {
    const Index i = static_cast<Index>(position);
    const bool had = present[i] != 0;
    bool has = had;
    W value = had ? values[i] : W{};
    if (!mask.allows(i)) {
      if (replace) has = false;
    } else if (t_present[i] != 0) {
      if constexpr (has_accum<Accum>) {
        value = had ? static_cast<W>(accum(value, t_values[i])) : static_cast<W>(t_values[i]);
      } else {
        value = static_cast<W>(t_values[i]);
      }
      has = true;
    } else if (!has_accum<Accum>) {
      has = false;
    }
    if (has != had)
      atomicAdd(reinterpret_cast<unsigned long long*>(change),
                has ? 1ull : ~0ull);  // +1 or -1 in two's complement
    present[i] = has ? 1 : 0;
    values[i] = has ? value : W{};
  }
}

/// write_back inside a device loop's recording: in place, into a vector stored dense, its count
/// kept on the device (Vector::update_dense) rather than read back.
template <class W, class M, class Accum, class Z>
void write_back_in_place(Vector<W>& w, const VectorMaskView<M>& mask, const Accum& accum,
                         const DenseResult<Z>& t, const Descriptor& desc) {
  if (w.format() != VectorFormat::dense)
    throw NotInLoop(
        "an operation's output inside grb::repeat_while is stored sparse: a recorded loop writes "
        "in place, into vectors stored dense (Vector::full or clear_dense before the loop)");
  const auto update = grb::detail::Storage::update_dense(w);
  const Index n = w.size();
  if (n == 0) return;
  write_back_in_place_kernel<<<blocks_for(n), block_threads, 0, current_stream()>>>(
      n, t.values.data(), t.present.data(), mask, accum, desc.replace, update.values,
      update.present, update.nvals_change);
  GRB_CUDA_CHECK_LAUNCH();
}

/// w<mask, replace> = accum(w, t) with t dense. `t_within_mask`: the operation left T's entries
/// only where the mask allows (mxv, vxm), so that with replace the result is T itself.
template <class W, class M, class Accum, class Z>
void write_back(Vector<W>& w, const VectorMaskView<M>& mask, const Accum& accum,
                DenseResult<Z>&& t, const Descriptor& desc, bool t_within_mask = false) {
  if (grb::detail::current_context().recording) {
    write_back_in_place(w, mask, accum, t, desc);
    return;
  }
  const Index n = w.size();
  const bool unmasked = mask.everything && !mask.complement;
  if (!has_accum<Accum> && (unmasked || (desc.replace && t_within_mask))) {
    // The result is T itself: no merge with the old output (a BFS level's masked vxm with
    // replace lands here, so its O(n) result is adopted, not copied).
    // The count, and the edges where they were summed, in one read-back.
    struct Counts {
      unsigned long long entries, edges;
    };
    const Counts counts = t.count.empty()
                              ? Counts{count_entries(t.present.data(), n), 0}
                              : read_scalar(reinterpret_cast<const Counts*>(t.count.data()));
    const Index t_nvals = static_cast<Index>(counts.entries);
    const Offset* edge_rows = t.count.empty() ? nullptr : t.edge_rows;
    Vector<W> result(n, Backend::cuda);
    if constexpr (std::is_same_v<W, Z>) {
      grb::detail::Storage::adopt_dense(result, std::move(t.values), std::move(t.present), t_nvals);
    } else {
      auto values = device_array<W>(n);
      if (n > 0) {
        cast_dense_kernel<<<blocks_for(n), block_threads, 0, current_stream()>>>(
            n, t.values.data(), t.present.data(), values.data());
        GRB_CUDA_CHECK_LAUNCH();
      }
      grb::detail::Storage::adopt_dense(result, std::move(values), std::move(t.present), t_nvals);
    }
    w = std::move(result);
    grb::detail::Storage::settle_format(w);
    if (edge_rows) grb::detail::Storage::set_row_edges(w, edge_rows, counts.edges);
    return;
  }
  auto values = device_array<W>(n);
  auto present = device_array<std::uint8_t>(n);
  auto count = device_array<unsigned long long>(1);
  fill_zero(count.data(), 1);
  if (n > 0) {
    write_back_vector_kernel<<<blocks_for(n), block_threads, 0, current_stream()>>>(
        n, view_of(w), t.values.data(), t.present.data(), mask, accum, desc.replace, values.data(),
        present.data(), count.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  const Index nvals = static_cast<Index>(read_scalar(count.data()));
  Vector<W> result(n, Backend::cuda);
  grb::detail::Storage::adopt_dense(result, std::move(values), std::move(present), nvals);
  w = std::move(result);
  grb::detail::Storage::settle_format(w);
}

// ------------------------------------------------------------------------------------ matrices

/// Where a row program's entries go: counted in the first pass, written in the second.
template <class T>
struct RowSink {
  Index* columns = nullptr;  // null in the counting pass
  T* values = nullptr;
  Offset at = 0;
  __device__ void push(Index j, const T& value) {
    if (columns) {
      columns[at] = j;
      values[at] = value;
    }
    ++at;
  }
};

template <class T, class Program>
__global__ void count_rows_kernel(Index nrows, Program program, Offset* counts) {
  GRB_GRID_STRIDE_LOOP(i, nrows) {
    RowSink<T> sink;
    program(static_cast<Index>(i), sink);
    counts[i] = sink.at;
  }
}

template <class T, class Program>
__global__ void write_rows_kernel(Index nrows, Program program, const Offset* offsets,
                                  Index* columns, T* values) {
  GRB_GRID_STRIDE_LOOP(i, nrows) {
    RowSink<T> sink{columns, values, offsets[i]};
    program(static_cast<Index>(i), sink);
  }
}

/// A CSR built by `program(i, sink)`, which pushes row i's entries by increasing column. The
/// program runs twice per row (count, write), so it must be deterministic.
template <class T, class Program>
Csr<T> build_rows(Index nrows, Index ncols, const Program& program) {
  auto offsets = device_array<Offset>(std::size_t(nrows) + 1);
  if (nrows > 0) {
    count_rows_kernel<T>
        <<<blocks_for(nrows), block_threads, 0, current_stream()>>>(nrows, program, offsets.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  exclusive_scan_counts(offsets.data(), nrows);
  const Offset nvals = nrows > 0 ? read_scalar(offsets.data() + nrows) : 0;
  auto columns = device_array<Index>(nvals);
  auto values = device_array<T>(nvals);
  if (nrows > 0 && nvals > 0) {
    write_rows_kernel<T><<<blocks_for(nrows), block_threads, 0, current_stream()>>>(
        nrows, program, offsets.data(), columns.data(), values.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  return Csr<T>{nrows, ncols, std::move(offsets), std::move(columns), std::move(values)};
}

/// Row i of C<mask, replace> = accum(C, T): a merge of the old row and T's row.
template <class C, class Z, class M, class Accum>
struct WriteBackRow {
  CsrView<C> old;
  CsrView<Z> t;
  MatrixMaskView<M> mask;
  Accum accum;
  bool replace;

  __device__ void operator()(Index i, RowSink<C>& sink) const {
    Offset a = old.row_offsets[i], a_end = old.row_offsets[i + 1];
    Offset b = t.row_offsets[i], b_end = t.row_offsets[i + 1];
    while (a < a_end || b < b_end) {
      const Index ja = a < a_end ? old.col_indices[a] : no_index;
      const Index jb = b < b_end ? t.col_indices[b] : no_index;
      const Index j = ja < jb ? ja : jb;
      const bool has_old = ja == j, has_new = jb == j;
      if (!mask.allows(i, j)) {
        if (!replace && has_old) sink.push(j, old.values[a]);
      } else if constexpr (has_accum<Accum>) {
        if (has_old && has_new) sink.push(j, static_cast<C>(accum(old.values[a], t.values[b])));
        else if (has_old) sink.push(j, old.values[a]);
        else sink.push(j, static_cast<C>(t.values[b]));
      } else if (has_new) {
        sink.push(j, static_cast<C>(t.values[b]));
      }
      if (has_old) ++a;
      if (has_new) ++b;
    }
  }
};

template <class C, class Z>
__global__ void cast_values_kernel(Offset nvals, const Z* in, C* out) {
  GRB_GRID_STRIDE_LOOP(e, nvals) out[e] = static_cast<C>(in[e]);
}

template <class C, class Z>
Csr<C> cast_csr(Csr<Z>&& t) {
  if constexpr (std::is_same_v<C, Z>) {
    return std::move(t);
  } else {
    auto values = device_array<C>(t.nvals());
    if (t.nvals() > 0) {
      cast_values_kernel<<<blocks_for(t.nvals()), block_threads, 0, current_stream()>>>(
          t.nvals(), t.values.data(), values.data());
      GRB_CUDA_CHECK_LAUNCH();
    }
    return Csr<C>{t.nrows, t.ncols, std::move(t.row_offsets), std::move(t.col_indices),
                  std::move(values)};
  }
}

template <class C, class M, class Accum, class Z>
void write_back(Matrix<C>& c, const MatrixMaskView<M>& mask, const Accum& accum, Csr<Z>&& t,
                const Descriptor& desc) {
  // A matrix's result is new storage, which a recorded loop would not see on its next iteration.
  grb::detail::check_not_recording("an operation that writes a matrix");
  if (mask.everything && !mask.complement && !has_accum<Accum>) {
    grb::detail::Storage::adopt(c, cast_csr<C>(std::move(t)));
    return;
  }
  WriteBackRow<C, Z, M, Accum> program{view_of(c.csr()), view_of(t), mask, accum, desc.replace};
  grb::detail::Storage::adopt(c, build_rows<C>(c.nrows(), c.ncols(), program));
}

}  // namespace grb::cuda::detail
