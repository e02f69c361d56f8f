// reduce: a vector or a matrix to a scalar with a monoid (CUB's device reduce), and a matrix's
// rows to a vector (CUB's segmented reduce).
#pragma once

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>

#include <optional>
#include <string>
#include <type_traits>

#include "grb/cuda/views.cuh"
#include "grb/cuda/write_back.cuh"

namespace grb::cuda::detail {

/// The monoid's value of each entry (its identity where a dense vector has none).
template <class Z, class U>
__global__ void reduction_terms(std::uint64_t count, const U* values, const std::uint8_t* present,
                                Z identity, Z* terms) {
  GRB_GRID_STRIDE_LOOP(i, count)
  terms[i] = (present == nullptr || present[i]) ? static_cast<Z>(values[i]) : identity;
}

template <class Flag>
__global__ void first_present_kernel(std::uint64_t count, const Flag* present,
                                     unsigned long long* first) {
  GRB_GRID_STRIDE_LOOP(i, count) if (present[i]) atomicMin(first, static_cast<unsigned long long>(i));
}

/// *sum = the monoid's sum of count values (those present, where present is not null), on the
/// device: nothing is read back. Not for `any` monoids (see reduce_values).
template <class Monoid, class U>
void reduce_values_into(const Monoid& monoid, std::uint64_t count, const U* values,
                        const std::uint8_t* present, typename Monoid::value_type* sum) {
  using Z = typename Monoid::value_type;
  const Z identity = monoid.identity();
  auto terms = device_array<Z>(std::max<std::uint64_t>(count, 1));
  if (count > 0) {
    reduction_terms<<<blocks_for(count), block_threads, 0, current_stream()>>>(
        count, values, present, identity, terms.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  const std::int64_t items = static_cast<std::int64_t>(count);
  cub_run([&](void* temporary, std::size_t& bytes) {
    return cub::DeviceReduce::Reduce(temporary, bytes, terms.data(), sum, items, monoid, identity,
                                     current_stream());
  });
}

template <class T, class Z>
__global__ void cast_one(const Z* from, T* to) {
  *to = static_cast<T>(*from);
}

template <class Monoid, class U>
typename Monoid::value_type reduce_values(const Monoid& monoid, std::uint64_t count,
                                          const U* values, const std::uint8_t* present) {
  using Z = typename Monoid::value_type;
  const Z identity = monoid.identity();
  if (count == 0) return identity;
  if constexpr (grb::detail::is_any_monoid<Monoid>()) {
    // Any entry will do, but it must be an entry (the identity is not one): the first present.
    std::uint64_t at = 0;
    if (present != nullptr) {
      auto first = device_array<unsigned long long>(1);
      GRB_CUDA_CHECK(
          cudaMemsetAsync(first.data(), 0xff, sizeof(unsigned long long), current_stream()));
      first_present_kernel<<<blocks_for(count), block_threads, 0, current_stream()>>>(
          count, present, first.data());
      GRB_CUDA_CHECK_LAUNCH();
      at = read_scalar(first.data());
      if (at >= count) return identity;
    }
    return static_cast<Z>(read_scalar(values + at));
  }
  auto sum = device_array<Z>(1);
  reduce_values_into(monoid, count, values, present, sum.data());
  return read_scalar(sum.data());
}

template <class Z, class A, class M>
__global__ void reduce_rows_kernel(CsrView<A> rows, const Z* sums, VectorMaskView<M> mask,
                                   Z* t_values, std::uint8_t* t_present) {
  GRB_GRID_STRIDE_LOOP(at, rows.nrows) {
    const Index i = static_cast<Index>(at);
    const bool has = rows.row_offsets[i] != rows.row_offsets[i + 1] && mask.allows(i);
    t_present[i] = has ? 1 : 0;
    t_values[i] = has ? sums[i] : Z{};
  }
}

}  // namespace grb::cuda::detail

namespace grb::cuda {

template <class Monoid, class U>
typename Monoid::value_type reduce(const Monoid& monoid, const Vector<U>& u) {
  if (u.format() == VectorFormat::sparse)
    return detail::reduce_values(monoid, u.nvals(), u.values().data(), nullptr);
  return detail::reduce_values(monoid, u.size(), u.values().data(), u.present().data());
}

/// *scalar = the monoid's sum of u's entries, left on the device (reduce into a grb::Scalar).
template <class T, class Monoid, class U>
void reduce(T* scalar, const Monoid& monoid, const Vector<U>& u) {
  using Z = typename Monoid::value_type;
  if constexpr (grb::detail::is_any_monoid<Monoid>()) {
    throw InvalidValue(
        "reduce into a Scalar: the any monoid needs an entry to be found and read back; use a "
        "monoid with an identity (lor, min, max, plus)");
  } else {
    const bool dense = u.format() == VectorFormat::dense;
    const std::uint64_t count = dense ? u.size() : u.nvals();
    const U* values = count > 0 ? u.values().data() : nullptr;
    const std::uint8_t* present = dense ? u.present().data() : nullptr;
    if constexpr (std::is_same_v<T, Z>) {
      detail::reduce_values_into(monoid, count, values, present, scalar);
    } else {
      auto sum = detail::device_array<Z>(1);
      detail::reduce_values_into(monoid, count, values, present, sum.data());
      detail::cast_one<<<1, 1, 0, detail::current_stream()>>>(sum.data(), scalar);
      GRB_CUDA_CHECK_LAUNCH();
    }
  }
}

template <class Monoid, class A>
typename Monoid::value_type reduce(const Monoid& monoid, const Matrix<A>& a) {
  return detail::reduce_values(monoid, a.nvals(), a.csr().values.data(), nullptr);
}

template <class W, class Mask, class Accum, class Monoid, class A>
void reduce(Vector<W>& w, const Mask& mask, const Accum& accum, const Monoid& monoid,
            const Matrix<A>& a, const Descriptor& desc) {
  using Z = typename Monoid::value_type;
  const Csr<A>& input = detail::rows_of(a, desc.transpose_first);
  if (w.size() != input.nrows)
    detail::dimension_mismatch("reduce", "w (size " + std::to_string(w.size()) + ") for A (" +
                                             detail::shape(input.nrows, input.ncols) +
                                             (desc.transpose_first ? ", transposed" : "") + ")");
  const auto mask_view = detail::vector_mask(mask, desc, w.size(), "reduce");
  detail::DenseResult<Z> t(input.nrows);
  if (input.nrows > 0) {
    const Z identity = monoid.identity();
    auto terms = detail::device_array<Z>(input.nvals());
    if (input.nvals() > 0) {
      detail::reduction_terms<<<detail::blocks_for(input.nvals()), detail::block_threads, 0,
                                detail::current_stream()>>>(input.nvals(), input.values.data(),
                                                    static_cast<const std::uint8_t*>(nullptr),
                                                    identity, terms.data());
      GRB_CUDA_CHECK_LAUNCH();
    }
    auto sums = detail::device_array<Z>(input.nrows);
    const std::int64_t segments = input.nrows;
    detail::cub_run([&](void* temporary, std::size_t& bytes) {
      return cub::DeviceSegmentedReduce::Reduce(
          temporary, bytes, terms.data(), sums.data(), segments, input.row_offsets.data(),
          input.row_offsets.data() + 1, monoid, identity, detail::current_stream());
    });
    detail::reduce_rows_kernel<<<detail::blocks_for(input.nrows), detail::block_threads, 0,
                                 detail::current_stream()>>>(detail::view_of(input), sums.data(), mask_view,
                                                     t.values.data(), t.present.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  detail::write_back(w, mask_view, accum, std::move(t), desc);
}

}  // namespace grb::cuda
