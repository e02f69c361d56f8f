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
//             (output, value) pairs and a reduce-by-key with the monoid.
//   cusparse: cusparseSpMV, for plus_times on float/double (same value type everywhere).
//   automatic: direction optimization (below).
// One value is read back per call (the push's edge count, or the output's entry count).
#pragma once

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <cstring>
#include <mutex>
#include <type_traits>

#include "grb/cuda/claim_stamps.cuh"
#include "grb/cuda/views.cuh"
#include "grb/cuda/write_back.cuh"

namespace grb::cuda::detail {

// ------------------------------------------------------------------ the push/pull choice
// Pull reads every allowed output's row, push every input entry's row; with average degrees
// d = nvals / dimension the work estimates are allowed * d_P and nvals(u) * d_R. Pull is cheaper
// per edge than push: it writes each output once (push sorts or scatters every edge), and with a
// terminal monoid it stops at the first hit. Beamer et al. (SC'12) switch a BFS to pull when
// the frontier's edges exceed the unvisited edges / alpha with alpha = 14; we use that factor
// for monoids that stop early and a smaller one for the others.
inline constexpr double pull_advantage_early_exit = 14.0;
inline constexpr double pull_advantage = 2.0;

inline bool choose_push(MxvStrategy strategy, bool early_exit, Index input_nvals,
                        Index input_size, Index allowed_outputs, Index output_size,
                        Offset matrix_nvals) {
  if (strategy == MxvStrategy::push) return true;
  if (strategy == MxvStrategy::pull) return false;
  const double nvals = double(matrix_nvals);
  const double push_work = double(input_nvals) * nvals / (input_size > 0 ? input_size : 1);
  const double pull_work = double(allowed_outputs) * nvals / (output_size > 0 ? output_size : 1);
  return push_work * (early_exit ? pull_advantage_early_exit : pull_advantage) < pull_work;
}

/// Average row length at or above which a warp (not a thread) takes each output row.
inline constexpr double warp_per_row_length = 8.0;

// ------------------------------------------------------------------ products

/// The multiply of mxv (A(o,k) * u(k)) or vxm (u(k) * A(k,o)), positional or not.
template <bool is_vxm, class Multiply>
struct Product {
  Multiply multiply;
  template <class A, class U>
  __device__ auto operator()(const A& a, const U& u, Index o, Index k) const {
    if constexpr (is_vxm) return grb::detail::multiply(multiply, u, a, Index{0}, k, o);
    else return grb::detail::multiply(multiply, a, u, o, k, Index{0});
  }
};

/// __shfl_down_sync for any trivially copyable value (user types too), 4 bytes at a time.
template <class T>
__device__ T shuffle_down(const T& value, unsigned offset) {
  constexpr int words = (sizeof(T) + 3) / 4;
  unsigned bits[words] = {};
  memcpy(bits, &value, sizeof(T));
#pragma unroll
  for (int w = 0; w < words; ++w) bits[w] = __shfl_down_sync(0xffffffffu, bits[w], offset);
  T result;
  memcpy(&result, bits, sizeof(T));
  return result;
}

// ------------------------------------------------------------------ pull

template <class Z, class A, class U, class M, class Add, class Prod>
__global__ void pull_thread_per_row(CsrView<A> rows, const U* u_values,
                                    const std::uint8_t* u_present, VectorMaskView<M> mask,
                                    Add add, Prod product, Z* t_values, std::uint8_t* t_present) {
  GRB_GRID_STRIDE_LOOP(position, rows.nrows) {
    const Index o = static_cast<Index>(position);
    bool found = false;
    Z sum{};
    if (mask.allows(o)) {
      for (Offset e = rows.row_offsets[o]; e < rows.row_offsets[o + 1]; ++e) {
        const Index k = rows.col_indices[e];
        if (!u_present[k]) continue;
        const Z term = static_cast<Z>(product(rows.values[e], u_values[k], o, k));
        sum = found ? static_cast<Z>(add(sum, term)) : term;
        found = true;
        if (grb::detail::is_terminal(add, sum)) break;
      }
    }
    t_present[o] = found ? 1 : 0;
    t_values[o] = found ? sum : Z{};
  }
}

template <class Z, class A, class U, class M, class Add, class Prod>
__global__ void pull_warp_per_row(CsrView<A> rows, const U* u_values,
                                  const std::uint8_t* u_present, VectorMaskView<M> mask, Add add,
                                  Prod product, Z* t_values, std::uint8_t* t_present) {
  constexpr unsigned full = 0xffffffffu;
  const unsigned lane = threadIdx.x & 31u;
  const std::uint64_t warps = (std::uint64_t(gridDim.x) * blockDim.x) / 32;
  for (std::uint64_t position = (std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
       position < rows.nrows; position += warps) {
    const Index o = static_cast<Index>(position);
    bool found = false;
    Z sum{};
    if (mask.allows(o)) {  // the same answer on every lane: the warp skips the row together
      const Offset end = rows.row_offsets[o + 1];
      for (Offset base = rows.row_offsets[o]; base < end; base += 32) {
        const Offset e = base + lane;
        if (e < end) {
          const Index k = rows.col_indices[e];
          if (u_present[k]) {
            const Z term = static_cast<Z>(product(rows.values[e], u_values[k], o, k));
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
    if (lane == 0) {
      t_present[o] = found ? 1 : 0;
      t_values[o] = found ? sum : Z{};
    }
  }
}

template <class Z, class A, class U, class M, class Add, class Prod>
void pull(DenseResult<Z>& t, const Csr<A>& rows, const Vector<U>& u,
          const VectorMaskView<M>& mask, const Add& add, const Prod& product) {
  if (rows.nrows == 0) return;
  const DenseInput<U> input(u);
  const double average = double(rows.nvals()) / rows.nrows;
  if (average >= warp_per_row_length) {
    pull_warp_per_row<Z><<<blocks_for(std::uint64_t(rows.nrows) * 32), block_threads>>>(
        view_of(rows), input.values(), input.present(), mask, add, product, t.values.data(),
        t.present.data());
  } else {
    pull_thread_per_row<Z><<<blocks_for(rows.nrows), block_threads>>>(
        view_of(rows), input.values(), input.present(), mask, add, product, t.values.data(),
        t.present.data());
  }
  GRB_CUDA_CHECK_LAUNCH();
}

// ------------------------------------------------------------------ push

/// The sparse entries of the input: its own arrays, or a compacted copy of a dense one.
template <class U>
class SparseInput {
 public:
  explicit SparseInput(const Vector<U>& u) : nvals_(u.nvals()) {
    if (u.format() == VectorFormat::sparse) {
      indices_ = u.indices().data();
      values_ = u.values().data();
      return;
    }
    owned_indices_ = device_array<Index>(nvals_);
    owned_values_ = device_array<U>(nvals_);
    grb::detail::dense_to_sparse_cuda(sizeof(U), u.size(), u.values().data(), u.present().data(),
                                      owned_indices_.data(), owned_values_.data());
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

inline int key_bits(Index largest_key) {
  int bits = 1;
  while (bits < 32 && (std::uint64_t(largest_key) >> bits) != 0) ++bits;
  return bits;
}

template <class Z, class A, class U, class M, class Add, class Prod>
void push(DenseResult<Z>& t, const Csr<A>& rows, const Vector<U>& u,
          const VectorMaskView<M>& mask, const Add& add, const Prod& product) {
  const SparseInput<U> input(u);
  const Index count = input.nvals();
  if (count == 0) return;
  auto starts = device_array<Offset>(std::size_t(count) + 1);
  push_row_lengths<<<blocks_for(count), block_threads>>>(count, input.indices(),
                                                         rows.row_offsets.data(), starts.data());
  GRB_CUDA_CHECK_LAUNCH();
  fill_zero(starts.data() + count, 1);
  const std::int64_t scan_items = std::int64_t(count) + 1;
  cub_run([&](void* temporary, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(temporary, bytes, starts.data(), starts.data(),
                                         scan_items);
  });
  const Offset edges = read_scalar(starts.data() + count);
  if (edges == 0) return;
  const CsrView<A> view = view_of(rows);
  if constexpr (grb::detail::is_any_monoid<Add>()) {
    push_scatter_any<Z><<<blocks_for(edges), block_threads>>>(
        edges, starts.data(), count, input.indices(), input.values(), view, mask, product,
        t.values.data(), t.present.data());
    GRB_CUDA_CHECK_LAUNCH();
  } else {
    const Index excluded = t.size;  // a key past every output: masked-out products sort last
    auto keys = device_array<Index>(edges);
    auto values = device_array<Z>(edges);
    push_products<Z><<<blocks_for(edges), block_threads>>>(edges, starts.data(), count,
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

/// Each allowed edge's output is claimed once (claim stamps); the claimer appends (o, value).
template <class W, class A, class U, class M, class Prod>
__global__ void push_claim_any(const Offset* starts, Index count, const Index* indices,
                               const U* u_values, CsrView<A> rows, VectorMaskView<M> mask,
                               Prod product, ClaimStamps stamps, Index* out_indices,
                               W* out_values, unsigned long long* out_count) {
  const Offset edges = starts[count];  // read here, so the host never waits for the scan
  GRB_GRID_STRIDE_LOOP(e, edges) {
    const PushEdge edge = push_edge(e, starts, count, indices, rows);
    const Index o = rows.col_indices[edge.position];
    if (!mask.allows(o) || !claim(stamps, o)) continue;
    const auto slot = atomicAdd(out_count, 1ull);
    out_indices[slot] = o;
    out_values[slot] = static_cast<W>(
        product(rows.values[edge.position], u_values[edge.f], o, indices[edge.f]));
  }
}

/// Blocks for an expansion of about `edges` edges: enough to fill the GPU at most, and a
/// grid-stride loop covers whatever the estimate misses.
inline unsigned expansion_blocks(double edges) {
  constexpr double most = 4096;
  const double blocks = edges / block_threads + 1;
  return static_cast<unsigned>(blocks < most ? blocks : most);
}

/// w = T for a push whose monoid is `any`, when nothing of the old w survives (no accumulator;
/// replace, or no mask): the outputs come straight out as a sparse list, deduplicated by claim
/// stamps and sorted by index — work in proportion to the input's edges, not to w's size, and
/// one value read back (the output count). This is a BFS level on a high-diameter graph.
template <class W, class A, class U, class M, class Prod>
void push_any_sparse(Vector<W>& w, const Csr<A>& rows, const Vector<U>& u,
                     const VectorMaskView<M>& mask, const Prod& product) {
  const Index n = w.size();
  const SparseInput<U> input(u);
  const Index count = input.nvals();
  auto starts = device_array<Offset>(std::size_t(count) + 1);
  push_row_lengths<<<blocks_for(count), block_threads>>>(count, input.indices(),
                                                         rows.row_offsets.data(), starts.data());
  GRB_CUDA_CHECK_LAUNCH();
  fill_zero(starts.data() + count, 1);
  const std::int64_t scan_items = std::int64_t(count) + 1;
  cub_run([&](void* temporary, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(temporary, bytes, starts.data(), starts.data(),
                                         scan_items);
  });
  // Up to n distinct outputs: the pool hands out the space without touching it.
  auto indices = device_array<Index>(n);
  auto values = device_array<W>(n);
  auto found = device_array<unsigned long long>(1);
  fill_zero(found.data(), 1);
  const double average_degree = rows.nrows > 0 ? double(rows.nvals()) / rows.nrows : 0.0;
  push_claim_any<W><<<expansion_blocks(count * average_degree), block_threads>>>(
      starts.data(), count, input.indices(), input.values(), view_of(rows), mask, product,
      claim_stamps(n), indices.data(), values.data(), found.data());
  GRB_CUDA_CHECK_LAUNCH();
  const Index nvals = static_cast<Index>(read_scalar(found.data()));
  auto sorted_indices = device_array<Index>(nvals);
  auto sorted_values = device_array<W>(nvals);
  if (nvals > 0) {
    const std::int64_t items = nvals;
    cub_run([&](void* temporary, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(temporary, bytes, indices.data(),
                                             sorted_indices.data(), values.data(),
                                             sorted_values.data(), items, 0, key_bits(n - 1));
    });
  }
  Vector<W> result(n, Backend::cuda);
  result.adopt_sparse(std::move(sorted_indices), std::move(sorted_values));
  w = std::move(result);
  w.settle_format();
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

__global__ inline void narrow_offsets(Index count, const Offset* in, std::int32_t* out) {
  GRB_GRID_STRIDE_LOOP(i, count) out[i] = static_cast<std::int32_t>(in[i]);
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

template <bool is_vxm, class W, class Mask, class Accum, class Semiring, class A, class U>
void semiring_product(const char* operation, Vector<W>& w, const Mask& mask, const Accum& accum,
                      const Semiring& semiring, const Matrix<A>& a, const Vector<U>& u,
                      bool transposed, const Descriptor& desc) {
  using Z = typename Semiring::value_type;
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
  constexpr bool early_exit = any_monoid || grb::detail::has_terminal<typename Semiring::add_type>();
  const bool pushes = products && desc.strategy != MxvStrategy::cusparse &&
                      choose_push(desc.strategy, early_exit, u.nvals(), input_size, allowed,
                                  output_size, a.nvals());
  if constexpr (any_monoid && !has_accum<Accum>) {
    if (pushes && (desc.replace || mask_view.everything)) {
      push_any_sparse(w, pull_is_csc ? a.csr() : a.csc(), u, mask_view, product);
      return;
    }
  }
  DenseResult<Z> t(output_size);
  t.clear();
  if (products) {
    if (desc.strategy == MxvStrategy::cusparse) {
      if constexpr (cusparse_supports<Semiring, W, A, U>())
        cusparse_spmv(t, pull_is_csc ? a.csc() : a.csr(), u, mask_view);
    } else if (pushes) {
      push(t, pull_is_csc ? a.csr() : a.csc(), u, mask_view, semiring.add, product);
    } else {
      pull(t, pull_is_csc ? a.csc() : a.csr(), u, mask_view, semiring.add, product);
    }
  }
  write_back(w, mask_view, accum, std::move(t), desc);
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
