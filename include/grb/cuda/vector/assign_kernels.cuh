// The kernels of assign on vectors: the listed positions, the dense assign, and the in-place
// assign that a BFS level makes (every index, a structural mask, no accumulator, no replace),
// in time proportional to the mask.
#pragma once

#include <type_traits>

#include "grb/cuda/policy.hpp"
#include "grb/cuda/views.cuh"
#include "grb/cuda/write_back.cuh"

namespace grb::cuda::detail {

/// The source entries of a vector assign as (target index, value), in source order: a sparse
/// source's entries (positions), or every position of a scalar or of a dense source, where a
/// position the dense source lacks gets `absent_target` (past every index: no index finds it).
template <class S>
__global__ void assign_targets(Index count, const Index* positions, const S* values,
                               const std::uint8_t* present, bool scalar, S scalar_value,
                               IndexListView list, Index absent_target, Index* targets,
                               S* target_values) {
  GRB_GRID_STRIDE_LOOP(e, count) {
    const Index p = positions ? positions[e] : static_cast<Index>(e);
    const bool has = present == nullptr || present[p] != 0;
    targets[e] = has ? list(p) : absent_target;
    target_values[e] = scalar ? scalar_value : values[e];
  }
}

/// Z(i): the old entry (unless the region is cleared), then every source entry sent to i, in
/// source order: folded through accum, or (without one) the last one wins.
template <class W, class S, class Accum>
__global__ void assign_vector_kernel(Index size, VectorView<W> old, const std::uint8_t* listed,
                                     Offset entries, const std::int64_t* entries_on_device,
                                     const Index* targets, const S* values, Accum accum,
                                     W* z_values, std::uint8_t* z_present) {
  if (entries_on_device) entries = static_cast<Offset>(*entries_on_device);
  GRB_GRID_STRIDE_LOOP(at, size) {
    const Index i = static_cast<Index>(at);
    W value{};
    bool has = old.find(i, value);
    if (!has_accum<Accum> && listed[i]) has = false;
    Offset low = 0, high = entries;
    while (low < high) {
      const Offset middle = low + (high - low) / 2;
      if (targets[middle] < i) low = middle + 1;
      else high = middle;
    }
    if constexpr (has_accum<Accum>) {
      for (Offset e = low; e < entries && targets[e] == i; ++e) {
        value = has ? static_cast<W>(accum(value, values[e])) : static_cast<W>(values[e]);
        has = true;
      }
    } else if (low < entries && targets[low] == i) {
      // The last entry sent to i wins: the run's end, by a second search.
      Offset end = entries;
      while (low + 1 < end) {
        const Offset middle = low + (end - low) / 2;
        if (targets[middle] == i) low = middle;
        else end = middle;
      }
      value = static_cast<W>(values[low]);
      has = true;
    }
    z_present[i] = has ? 1 : 0;
    z_values[i] = has ? value : W{};
  }
}

/// Blocks of assign_in_place_kernel for `items` positions.
inline unsigned assign_blocks(std::uint64_t items) {
  return blocks_for((items + assign_items_per_thread - 1) / assign_items_per_thread);
}

/// Four consecutive entries of an array of T, loaded and stored as one access where T is 1, 2 or 4
/// bytes (4, 8 or 16 bytes at once) and as 16-byte accesses where it is larger.
template <class T>
constexpr std::size_t quad_alignment() {
  std::size_t bytes = 4 * sizeof(T), alignment = 1;
  while (bytes % (alignment * 2) == 0 && alignment < 16) alignment *= 2;
  return std::max(alignment, alignof(T));
}
template <class T>
struct alignas(quad_alignment<T>()) Quad {
  T at[4];
};

template <class T>
__device__ bool quad_aligned(const T* array) {
  return reinterpret_cast<std::uintptr_t>(array) % alignof(Quad<T>) == 0;
}

/// Position i of an in-place assign (see assign_in_place_kernel): `in` the mask has i, `had` the
/// target had an entry there, `old` its value; `from_mask` the value of the mask's entry where
/// the source is the mask. Sets (value, has) to what the target holds after; returns the change
/// in the target's entry count.
template <class W, class M, class S>
__device__ int assign_position(Index i, bool in, bool had, const W& old, const M& from_mask,
                               const VectorView<S>& source, bool scalar, bool source_is_mask,
                               const S& scalar_value, W& value, bool& has) {
  if (!in) {
    // A dense mask's other positions are stored back (absent values as zero), so that the stores
    // cover whole sectors: with the stores of the masked positions alone, this kernel took 5.6x
    // the time of a full write-back pass on a kron22 level (ncu), though it moves no more bytes.
    has = had;
    value = had ? old : W{};
    return 0;
  }
  S from = scalar_value;
  has = true;
  if constexpr (std::is_same_v<M, S>) {
    if (source_is_mask) from = from_mask;
    else if (!scalar) has = source.find(i, from);
  } else if (!scalar) {
    has = source.find(i, from);
  }
  value = has ? static_cast<W>(from) : W{};
  return int(has && !had) - int(had && !has);
}

/// w<structural mask>(all) = source, in place: only the mask's positions change (each set to
/// the source's entry, or removed where the source has none), and the change in w's entry count
/// is left on the device for nvals() to read when asked. The mask's entries are walked in their
/// stored order; `source_is_mask`: the source is the (sparse) mask itself, so the value of the
/// mask's entry at `position` is the source's there (a BFS's parents from its frontier).
///
/// A dense mask is a pass over every position, four consecutive positions a thread: the mask's
/// and the target's presence are one 4-byte load each, and the values 16-byte loads, so that the
/// pass moves its bytes in few, wide accesses (a BFS's dense level rewrites both of its result
/// vectors whole).
template <class W, class M, class S>
__global__ void assign_in_place_kernel(VectorView<M> mask, VectorView<S> source, bool scalar,
                                       bool source_is_mask, S scalar_value, W* values,
                                       std::uint8_t* present, std::int64_t* nvals_change) {
  constexpr unsigned Items = assign_items_per_thread;
  const bool dense = mask.dense;
  const std::uint64_t items = dense ? mask.size : mask.nvals;
  const bool reads_mask_values = std::is_same_v<M, S> && source_is_mask;
  long long change = 0;
  if (dense && quad_aligned(values) && quad_aligned(present) && quad_aligned(mask.present) &&
      (!reads_mask_values || quad_aligned(mask.values))) {
    const std::uint64_t quads = items / 4;
    for (std::uint64_t q = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; q < quads;
         q += std::uint64_t(gridDim.x) * blockDim.x) {
      const Index first = static_cast<Index>(q * 4);
      const auto in = *reinterpret_cast<const std::uint32_t*>(mask.present + first);
      const auto had = *reinterpret_cast<const std::uint32_t*>(present + first);
      const auto old = *reinterpret_cast<const Quad<W>*>(values + first);
      Quad<M> from{};
      if (reads_mask_values && in != 0) from = *reinterpret_cast<const Quad<M>*>(mask.values + first);
      Quad<W> now;
      std::uint32_t has_now = 0;
#pragma unroll
      for (unsigned r = 0; r < 4; ++r) {
        bool has = false;
        change += assign_position(first + r, ((in >> (8 * r)) & 0xffu) != 0,
                                  ((had >> (8 * r)) & 0xffu) != 0, old.at[r], from.at[r], source,
                                  scalar, source_is_mask, scalar_value, now.at[r], has);
        has_now |= std::uint32_t(has) << (8 * r);
      }
      *reinterpret_cast<Quad<W>*>(values + first) = now;
      *reinterpret_cast<std::uint32_t*>(present + first) = has_now;
    }
    // The last size % 4 positions, by block 0.
    const std::uint64_t tail = quads * 4 + threadIdx.x;
    if (blockIdx.x == 0 && tail < items) {
      const Index i = static_cast<Index>(tail);
      bool has = false;
      const M from = reads_mask_values && mask.present[i] ? mask.values[i] : M{};
      W value;
      change += assign_position(i, mask.present[i] != 0, present[i] != 0, values[i], from, source,
                                scalar, source_is_mask, scalar_value, value, has);
      present[i] = has ? 1 : 0;
      values[i] = value;
    }
  } else {
    for (std::uint64_t base = std::uint64_t(blockIdx.x) * blockDim.x * Items; base < items;
         base += std::uint64_t(gridDim.x) * blockDim.x * Items) {
      std::uint64_t position[Items];
      Index at[Items];
      bool valid[Items], had[Items], in[Items];
      W old[Items];
#pragma unroll
      for (unsigned r = 0; r < Items; ++r) {
        position[r] = base + std::uint64_t(r) * blockDim.x + threadIdx.x;
        valid[r] = position[r] < items;
        at[r] = !valid[r] ? 0 : dense ? static_cast<Index>(position[r]) : mask.indices[position[r]];
      }
#pragma unroll
      for (unsigned r = 0; r < Items; ++r) {
        had[r] = valid[r] && present[at[r]] != 0;
        in[r] = valid[r] && (!dense || mask.present[at[r]]);
        old[r] = valid[r] && dense ? values[at[r]] : W{};  // kept where the mask has no entry
      }
#pragma unroll
      for (unsigned r = 0; r < Items; ++r) {
        if (!valid[r]) continue;
        const Index i = at[r];
        M from{};
        if constexpr (std::is_same_v<M, S>) {
          if (source_is_mask && in[r]) from = dense ? mask.values[i] : source.values[position[r]];
        }
        bool has = false;
        W value;
        change += assign_position(i, in[r], had[r], old[r], from, source, scalar, source_is_mask,
                                  scalar_value, value, has);
        present[i] = has ? 1 : 0;
        values[i] = value;
      }
    }
  }
  using Reduce = cub::BlockReduce<long long, block_threads>;
  __shared__ typename Reduce::TempStorage storage;
  const long long block_change = Reduce(storage).Sum(change);
  if (threadIdx.x == 0 && block_change != 0)
    atomicAdd(reinterpret_cast<unsigned long long*>(nvals_change),
              static_cast<unsigned long long>(static_cast<std::int64_t>(block_change)));
}

/// The assign a BFS level makes (parents and levels of the new frontier): every index, a
/// structural mask, no accumulator, no replace. Only the mask's positions can change, so w is
/// updated in place (dense) in time proportional to the mask, with no host round trip.
template <class Mask, class Accum>
constexpr bool may_assign_in_place = !std::is_same_v<Mask, NoMask> && !has_accum<Accum>;

inline bool assigns_in_place(const IndexList& indices, const Descriptor& desc) {
  return indices.is_all() && !desc.replace && desc.structural_mask && !desc.complement_mask;
}

template <class W, class Mask, class S>
void assign_in_place(Vector<W>& w, const Mask& mask, const Vector<S>* source, S scalar_value) {
  // Dense first (once: later assigns find it dense); the mask and source may be w itself, so
  // their views are taken after.
  w.make_dense();
  const auto update = grb::detail::Storage::update_dense(w);
  const auto mask_view = entries_of(mask);
  const std::uint64_t items = mask_view.dense ? mask.size() : mask_view.nvals;
  if (items == 0) return;
  bool source_is_mask = false;
  if constexpr (std::is_same_v<Mask, Vector<S>>) source_is_mask = source == &mask;
  VectorView<S> source_view;
  // The mask's own entries need no search (nor a sort); another source is searched.
  if (source) source_view = source_is_mask ? entries_of(*source) : view_of(*source);
  assign_in_place_kernel<W><<<assign_blocks(items), block_threads, 0, current_stream()>>>(
      mask_view, source_view, source == nullptr, source_is_mask, scalar_value, update.values,
      update.present, update.nvals_change);
  GRB_CUDA_CHECK_LAUNCH();
}

}  // namespace grb::cuda::detail
