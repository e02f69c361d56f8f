// mxv / vxm by cusparseSpMV, for plus_times on float or double (the same value type
// everywhere).
#pragma once

#include <cusparse.h>

#include <memory>
#include <type_traits>

#include "grb/cuda/mxv/direction.cuh"
#include "grb/cuda/views.cuh"

namespace grb::cuda::detail {

/// The current context's cuSPARSE handle, working on its stream (created on first use, destroyed
/// with the context: a handle is not to be used by two threads at once).
inline cusparseHandle_t cusparse_handle() {
  grb::detail::ContextState& context = grb::detail::current_context();
  if (!context.cusparse) {
    cusparseHandle_t created = nullptr;
    GRB_CUSPARSE_CHECK(cusparseCreate(&created));
    context.cusparse = std::shared_ptr<void>(created, [](void* handle) {
      (void)cusparseDestroy(static_cast<cusparseHandle_t>(handle));
    });
    GRB_CUSPARSE_CHECK(cusparseSetStream(created, current_stream()));
  }
  return static_cast<cusparseHandle_t>(context.cusparse.get());
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
    zero_absent<<<blocks_for(u.size()), block_threads, 0, current_stream()>>>(
        u.size(), input.values(), input.present(), x.data());
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
    narrow_offsets<<<blocks_for(rows.nrows + 1), block_threads, 0, current_stream()>>>(
        rows.nrows + 1, rows.row_offsets.data(), offsets32.data());
    GRB_CUDA_CHECK_LAUNCH();
    offsets = offsets32.data();
  } else {
    columns64 = device_array<std::int64_t>(rows.nvals());
    widen_indices<<<blocks_for(rows.nvals()), block_threads, 0, current_stream()>>>(
        rows.nvals(), rows.col_indices.data(), columns64.data());
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
  product_pattern<<<blocks_for(rows.nrows), block_threads, 0, current_stream()>>>(
      view_of(rows), input.present(), mask, t.present.data());
  GRB_CUDA_CHECK_LAUNCH();
}

}  // namespace grb::cuda::detail
