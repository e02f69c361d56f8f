// Device-side views of grb objects: what a kernel reads. Views are small structs of pointers
// passed to kernels by value; they never own storage. Host-side helpers build them from the
// objects (checking dimensions as the cpu backend does) and densify inputs where a kernel needs
// random access.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include <cub/device/device_reduce.cuh>

#include "grb/cpu/entries.hpp"
#include "grb/cuda/primitives/csr_view.cuh"
#include "grb/cuda/runtime.cuh"
#include "grb/descriptor.hpp"
#include "grb/matrix.hpp"
#include "grb/vector.hpp"

namespace grb::cuda::detail {

using grb::cpu::detail::dimension_mismatch;
using grb::cpu::detail::result_t;
using grb::cpu::detail::shape;

using grb::cpu::detail::apply_result_t;
using grb::cpu::detail::is_index_unary;

/// An apply operator on one entry: unary op(x), or index-unary op(x, i, j) (j = 0 for vectors).
template <class Op, class X>
__device__ auto apply_one(const Op& op, const X& x, Index i, Index j) {
  if constexpr (is_index_unary<Op, X>) return op(x, i, j);
  else return op(x);
}

template <class Accum>
constexpr bool has_accum = !std::is_same_v<Accum, NoAccum>;

/// Random access to a vector in either format: dense reads its presence byte, sparse searches
/// its sorted indices.
template <class T>
struct VectorView {
  Index size = 0;
  Index nvals = 0;
  bool dense = false;
  const T* values = nullptr;
  const std::uint8_t* present = nullptr;  // dense only
  const Index* indices = nullptr;         // sparse only

  __device__ bool find(Index i, T& value) const {
    if (dense) {
      if (!present[i]) return false;
      value = values[i];
      return true;
    }
    Index low = 0, high = nvals;
    while (low < high) {
      const Index middle = low + (high - low) / 2;
      if (indices[middle] < i) low = middle + 1;
      else high = middle;
    }
    if (low < nvals && indices[low] == i) {
      value = values[low];
      return true;
    }
    return false;
  }
};

/// The entries of a vector for a kernel that only walks them, never find()s in them: a sparse
/// vector's entries in their stored order (a jumbled one is not sorted first).
template <class T>
VectorView<T> entries_of(const Vector<T>& v) {
  VectorView<T> view;
  view.size = v.size();
  view.dense = v.format() == VectorFormat::dense;
  // A dense vector's count is not needed to read it (and may be an unread in-place change).
  view.nvals = view.dense ? 0 : v.nvals();
  view.values = view.dense ? v.values().data() : v.unsorted_values().data();
  view.present = view.dense ? v.present().data() : nullptr;
  view.indices = view.dense ? nullptr : v.unsorted_indices().data();
  return view;
}

/// The entries of a vector by increasing index, for kernels that find() in them.
template <class T>
VectorView<T> view_of(const Vector<T>& v) {
  if (v.format() == VectorFormat::sparse) (void)v.indices();  // sorts a jumbled vector
  return entries_of(v);
}

/// A dense (values + presence) copy of a vector, or the vector's own arrays when it is dense.
/// Without `values`, a sparse vector's copy has its presence only (values() is null).
template <class T>
class DenseInput {
 public:
  explicit DenseInput(const Vector<T>& v, bool values = true) {
    if (v.format() == VectorFormat::dense) {
      values_ = v.values().data();
      present_ = v.present().data();
      return;
    }
    if (values) owned_values_ = device_array<T>(v.size());
    owned_present_ = device_array<std::uint8_t>(v.size());
    // A scatter: the entries' order does not matter.
    grb::detail::sparse_to_dense_cuda(sizeof(T), v.size(), v.nvals(), v.unsorted_indices().data(),
                                      v.unsorted_values().data(),
                                      values ? owned_values_.data() : nullptr,
                                      owned_present_.data());
    values_ = owned_values_.data();
    present_ = owned_present_.data();
  }
  const T* values() const { return values_; }
  const std::uint8_t* present() const { return present_; }

 private:
  const T* values_ = nullptr;
  const std::uint8_t* present_ = nullptr;
  DeviceArray<T> owned_values_;
  DeviceArray<std::uint8_t> owned_present_;
};

/// The matrix an operation reads, transposed when the descriptor asks: its rows in CSR form.
template <class T>
const Csr<T>& rows_of(const Matrix<T>& a, bool transposed) {
  return transposed ? a.csc() : a.csr();
}

/// Whether a mask entry counts: its presence (structural) or its value cast to bool.
template <class T>
__device__ bool mask_entry_allows(const T& value, bool structural) {
  return structural || static_cast<bool>(value);
}

/// A vector mask on the device: allows(i) after the complement. M is the mask's value type.
template <class M>
struct VectorMaskView {
  using value_type = M;
  bool everything = true;  // no mask
  bool complement = false;
  bool structural = false;
  VectorView<M> mask;

  __device__ bool allows(Index i) const {
    if (everything) return !complement;
    M value{};
    const bool in = mask.find(i, value) && mask_entry_allows(value, structural);
    return in != complement;
  }

  /// A dense mask's entry at i, loaded (not yet tested) so that a kernel can load it a step
  /// before it needs allows(i): allows(entry) then reads no memory. Other masks load nothing
  /// here, and allows(entry) tests i as allows(i) does.
  struct Entry {
    Index i = 0;
    std::uint8_t present = 0;
    M value{};
  };
  __device__ Entry load(Index i) const {
    Entry entry{i};
    if (everything || !mask.dense) return entry;
    entry.present = mask.present[i];
    if (!structural) entry.value = mask.values[i];
    return entry;
  }
  __device__ bool allows(const Entry& entry) const {
    if (everything || !mask.dense) return allows(entry.i);
    return (entry.present != 0 && mask_entry_allows(entry.value, structural)) != complement;
  }
};

/// A vector mask must have the output's size (nothing to check without one).
template <class Mask>
void check_vector_mask(const Mask& mask, Index size, const char* operation) {
  if constexpr (!std::is_same_v<Mask, NoMask>) {
    if (mask.size() != size)
      dimension_mismatch(operation, "mask of size " + std::to_string(mask.size()) +
                                        " for an output of size " + std::to_string(size));
  }
}

/// The device view of an operation's mask, checked against the output's size; plus an estimate
/// of how many positions it allows, for the push/pull choice: no device pass and no read-back
/// (an in-place change to the mask's count may still be pending: Vector::nvals_estimate), so it
/// must not decide anything but speed.
template <class Mask>
auto vector_mask(const Mask& mask, const Descriptor& desc, Index size, const char* operation,
                 Index* allowed_bound = nullptr) {
  if constexpr (std::is_same_v<Mask, NoMask>) {
    VectorMaskView<bool> view;
    view.complement = desc.complement_mask;
    if (allowed_bound) *allowed_bound = desc.complement_mask ? 0 : size;
    return view;
  } else {
    using M = typename Mask::value_type;
    check_vector_mask(mask, size, operation);
    VectorMaskView<M> view;
    view.everything = false;
    view.complement = desc.complement_mask;
    view.structural = desc.structural_mask;
    view.mask = view_of(mask);
    // Valued masks may allow fewer than their entries; the bound is what the heuristic needs.
    const Index entries = std::min(grb::detail::Storage::nvals_estimate(mask), size);
    if (allowed_bound) *allowed_bound = desc.complement_mask ? size - entries : entries;
    if (allowed_bound && desc.complement_mask && !desc.structural_mask) *allowed_bound = size;
    return view;
  }
}

/// A matrix mask on the device.
template <class M>
struct MatrixMaskView {
  bool everything = true;
  bool complement = false;
  bool structural = false;
  CsrView<M> mask;

  __device__ bool allows(Index i, Index j) const {
    if (everything) return !complement;
    const Offset at = mask.find(i, j);
    const bool in = at != ~Offset{0} && mask_entry_allows(mask.values[at], structural);
    return in != complement;
  }
};

template <class Mask>
auto matrix_mask(const Mask& mask, const Descriptor& desc, Index nrows, Index ncols,
                 const char* operation) {
  if constexpr (std::is_same_v<Mask, NoMask>) {
    MatrixMaskView<bool> view;
    view.complement = desc.complement_mask;
    return view;
  } else {
    using M = typename Mask::value_type;
    if (mask.nrows() != nrows || mask.ncols() != ncols)
      dimension_mismatch(operation, "mask of " + shape(mask.nrows(), mask.ncols()) +
                                        " for an output of " + shape(nrows, ncols));
    MatrixMaskView<M> view;
    view.everything = false;
    view.complement = desc.complement_mask;
    view.structural = desc.structural_mask;
    view.mask = view_of(mask.csr());
    return view;
  }
}

/// Every index in `list` must be below `dimension`. Host lists are checked on the host; device
/// lists (FastSV's f(f)) by a maximum on the device, one value read back.
inline void check_indices(const IndexList& list, Index dimension, const char* operation,
                          const char* what) {
  if (list.is_all() || list.backend() == Backend::cpu) {
    grb::cpu::detail::check_indices(list, dimension, operation, what);
    return;
  }
  const std::int64_t count = static_cast<std::int64_t>(list.ids().size());
  if (count == 0) return;
  // A recorded loop checks each iteration's ids on the device, in DeviceIndexList, and reports
  // a bad one when the loop ends.
  if (grb::detail::current_context().recording) return;
  auto largest = device_array<Index>(1);
  cub_run([&](void* temporary, std::size_t& bytes) {
    return cub::DeviceReduce::Max(temporary, bytes, list.ids().data(), largest.data(), count,
                                  current_stream());
  });
  const Index found = read_scalar(largest.data());
  if (found >= dimension)
    throw IndexOutOfBounds(std::string(operation) + ": " + what + " " + std::to_string(found) +
                           " in a device index list is outside [0, " +
                           std::to_string(dimension) + ")");
}

/// An index list on the device: identity for `all`, the ids themselves when they already live
/// on the device (FastSV's f(f)), else a copy of the host ids.
struct IndexListView {
  bool all = true;
  const Index* ids = nullptr;
  __device__ Index operator()(Index position) const { return all ? position : ids[position]; }
};

/// out[k] = ids[k] where it is below `dimension`, else 0, with 1 + the bad id noted in *error.
__global__ inline void checked_ids(std::uint64_t count, const Index* ids, Index dimension,
                                   Index* out, unsigned long long* error) {
  GRB_GRID_STRIDE_LOOP(k, count) {
    const Index id = ids[k];
    if (id < dimension) {
      out[k] = id;
    } else {
      out[k] = 0;
      atomicMax(error, static_cast<unsigned long long>(id) + 1);
    }
  }
}

class DeviceIndexList {
 public:
  /// `dimension`: the size the ids index into. A recorded loop's ids (grb/loop.hpp) are checked
  /// on the device against it, into a copy (a bad id reads or writes position 0 and fails the
  /// loop when it ends): the host check of check_indices would need a read-back.
  explicit DeviceIndexList(const IndexList& list, Index dimension = 0) {
    if (list.is_all()) return;
    view_.all = false;
    grb::detail::ContextState& context = grb::detail::current_context();
    if (list.backend() == Backend::cuda) {
      view_.ids = list.ids().data();
      if (context.recording && dimension > 0 && !list.ids().empty()) {
        ids_ = device_array<Index>(list.ids().size());
        checked_ids<<<blocks_for(list.ids().size()), block_threads, 0, current_stream()>>>(
            list.ids().size(), list.ids().data(), dimension, ids_.data(),
            static_cast<unsigned long long*>(context.loop_error));
        GRB_CUDA_CHECK_LAUNCH();
        view_.ids = ids_.data();
      }
      return;
    }
    // Host ids (checked on the host by check_indices): copied once, also when recorded.
    const grb::detail::OutsideRecording now;
    ids_ = DeviceArray<Index>::from(list.ids(), Backend::cuda);
    view_.ids = ids_.data();
  }
  IndexListView view() const { return view_; }

 private:
  DeviceArray<Index> ids_;
  IndexListView view_;
};

/// listed[i] = 1 for every index the list names (every index for `all`).
__global__ inline void mark_listed(Index count, IndexListView list, std::uint8_t* listed) {
  GRB_GRID_STRIDE_LOOP(p, count) listed[list(static_cast<Index>(p))] = 1;
}

inline DeviceArray<std::uint8_t> listed_flags(const IndexList& indices, const IndexListView& list,
                                              Index dimension) {
  auto listed = device_array<std::uint8_t>(dimension);
  if (dimension == 0) return listed;
  if (indices.is_all()) {
    GRB_CUDA_CHECK(cudaMemsetAsync(listed.data(), 1, dimension, current_stream()));
    return listed;
  }
  fill_zero(listed.data(), dimension);
  const Index count = static_cast<Index>(indices.ids().size());
  if (count > 0) {
    mark_listed<<<blocks_for(count), block_threads, 0, current_stream()>>>(count, list,
                                                                           listed.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  return listed;
}

}  // namespace grb::cuda::detail
