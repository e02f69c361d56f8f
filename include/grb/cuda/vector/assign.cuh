// assign on vectors, w<mask>(indices) = accum(w, u or a scalar): in place behind a launched
// product (fused_assign.cuh), in place (assign_kernels.cuh), or densely through the write-back.
#pragma once

#include <type_traits>

#include "grb/cuda/vector/assign_kernels.cuh"
#include "grb/cuda/vector/fused_assign.cuh"
#include "grb/cuda/write_back.cuh"

namespace grb::cuda::detail {

template <class W, class Mask, class Accum, class S>
void assign_vector(Vector<W>& w, const Mask& mask, const Accum& accum, Index source_size,
                   const Vector<S>* source, S scalar_value, const IndexList& indices,
                   const Descriptor& desc) {
  grb::cuda::detail::check_indices(indices, w.size(), "assign", "index");
  const Index count = indices.size(w.size());
  if (source_size != count)
    dimension_mismatch("assign", "source of size " + std::to_string(source_size) + " for " +
                                     std::to_string(count) + " indices");
  check_vector_mask(mask, w.size(), "assign");
  if constexpr (may_assign_in_place<Mask, Accum>) {
    if (assigns_in_place(indices, desc)) {
      // Masked by a queued push's result: joins the push's launch (deferred.cuh).
      if (fuse_assign_into_push(w, mask, source, scalar_value)) return;
      // Masked by a launched push's result: queued behind it on the device.
      if (assign_behind_push(w, mask, source, scalar_value)) return;
      assign_in_place(w, mask, source, scalar_value);  // walks the mask: no sorted view of it
      return;
    }
  }
  const auto mask_view = vector_mask(mask, desc, w.size(), "assign");
  const Index n = w.size();
  DenseResult<W> z(n);
  if (n > 0) {
    const DeviceIndexList list(indices, n);
    const auto listed = listed_flags(indices, list.view(), n);
    // The source's entries, stably sorted by target: entries sent to one index stay in order.
    // Inside a recorded loop (grb/loop.hpp) a dense source is read as it is, every position
    // (its count would be read back): the absent ones are sent past the end.
    const bool dense_source = source && grb::detail::current_context().recording;
    if (dense_source && source->format() != VectorFormat::dense)
      throw NotInLoop("assign inside grb::repeat_while: the source vector is stored sparse, and "
                      "its entry count would be read back; store it dense before the loop");
    std::optional<SparseInput<S>> input;
    if (source && !dense_source) input.emplace(*source, EntryOrder::by_index);
    const Index entries = !source ? count : dense_source ? source->size() : input->nvals();
    auto targets = device_array<Index>(entries);
    auto values = device_array<S>(entries);
    auto sorted_targets = device_array<Index>(entries);
    auto sorted_values = device_array<S>(entries);
    if (entries > 0) {
      const S* source_values =
          !source ? nullptr : dense_source ? source->values().data() : input->values();
      assign_targets<<<blocks_for(entries), block_threads, 0, current_stream()>>>(
          entries, input ? input->indices() : nullptr, source_values,
          dense_source ? source->present().data() : nullptr, source == nullptr, scalar_value,
          list.view(), n, targets.data(), values.data());
      GRB_CUDA_CHECK_LAUNCH();
      const std::int64_t items = entries;
      cub_run([&](void* temporary, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(
            temporary, bytes, targets.data(), sorted_targets.data(), values.data(),
            sorted_values.data(), items, 0, key_bits(dense_source ? n : n - 1),
            current_stream());
      });
    }
    // The runs' count stays on the device: the kernel below reads it (no read-back).
    DeviceArray<std::int64_t> run_count;
    if constexpr (has_accum<Accum> && std::is_same_v<S, W> &&
                  grb::detail::folds_in_any_order<Accum, W>::value) {
      // Entries sent to one index, folded first, one run per index: the kernel below folds a
      // run with one thread, and FastSV sends most of a component's vertices to one index.
      if (entries > 1) {
        auto run_targets = device_array<Index>(entries);
        auto run_values = device_array<S>(entries);
        run_count = device_array<std::int64_t>(1);
        const std::int64_t items = entries;
        cub_run([&](void* temporary, std::size_t& bytes) {
          return cub::DeviceReduce::ReduceByKey(
              temporary, bytes, sorted_targets.data(), run_targets.data(), sorted_values.data(),
              run_values.data(), run_count.data(), accum, items, current_stream());
        });
        sorted_targets = std::move(run_targets);
        sorted_values = std::move(run_values);
      }
    }
    assign_vector_kernel<<<blocks_for(n), block_threads, 0, current_stream()>>>(
        n, view_of(w), listed.data(), entries, run_count.empty() ? nullptr : run_count.data(),
        sorted_targets.data(), sorted_values.data(), accum, z.values.data(), z.present.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  write_back(w, mask_view, no_accum, std::move(z), desc);
}

}  // namespace grb::cuda::detail

namespace grb::cuda {

template <class W, class Mask, class Accum, class U>
void assign(Vector<W>& w, const Mask& mask, const Accum& accum, const Vector<U>& u,
            const IndexList& indices, const Descriptor& desc) {
  detail::assign_vector(w, mask, accum, u.size(), &u, U{}, indices, desc);
}

template <class W, class Mask, class Accum, class Scalar>
  requires std::is_arithmetic_v<Scalar>
void assign(Vector<W>& w, const Mask& mask, const Accum& accum, Scalar value,
            const IndexList& indices, const Descriptor& desc) {
  detail::assign_vector<W, Mask, Accum, Scalar>(w, mask, accum, indices.size(w.size()), nullptr,
                                                value, indices, desc);
}

}  // namespace grb::cuda
