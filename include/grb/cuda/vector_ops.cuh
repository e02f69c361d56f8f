// The element-wise vector operations on the GPU: ewise_add/ewise_mult, apply, select, assign,
// extract, and reductions. Each computes T densely (one thread per position: vectors are at most
// 2^32 entries, and a dense pass is a few microseconds even at millions of entries) and ends in
// the shared write-back. Semantics are the cpu backend's (grb/cpu/*.hpp).
#pragma once

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>

#include <optional>
#include <string>
#include <type_traits>

#include "grb/cuda/mxv.cuh"
#include "grb/cuda/views.cuh"
#include "grb/cuda/write_back.cuh"

namespace grb::cuda::detail {

template <bool is_union, class Z, class U, class V, class Op>
__global__ void ewise_vector_kernel(Index size, const U* u_values, const std::uint8_t* u_present,
                                    const V* v_values, const std::uint8_t* v_present, Op op,
                                    Z* t_values, std::uint8_t* t_present) {
  GRB_GRID_STRIDE_LOOP(i, size) {
    const bool has_u = u_present[i] != 0, has_v = v_present[i] != 0;
    bool has = false;
    Z value{};
    if (has_u && has_v) has = true, value = static_cast<Z>(op(u_values[i], v_values[i]));
    else if constexpr (is_union) {
      if (has_u) has = true, value = static_cast<Z>(u_values[i]);
      else if (has_v) has = true, value = static_cast<Z>(v_values[i]);
    }
    t_present[i] = has ? 1 : 0;
    t_values[i] = value;
  }
}

template <bool is_union, class W, class Mask, class Accum, class Op, class U, class V>
void ewise(const char* operation, Vector<W>& w, const Mask& mask, const Accum& accum,
           const Op& op, const Vector<U>& u, const Vector<V>& v, const Descriptor& desc) {
  using Z = result_t<Op, U, V>;
  if (u.size() != v.size() || w.size() != u.size())
    dimension_mismatch(operation, "w (size " + std::to_string(w.size()) + "), u (size " +
                                      std::to_string(u.size()) + ") and v (size " +
                                      std::to_string(v.size()) + ") differ");
  const auto mask_view = vector_mask(mask, desc, w.size(), operation);
  const Index n = w.size();
  DenseResult<Z> t(n);
  if (n > 0) {
    const DenseInput<U> left(u);
    const DenseInput<V> right(v);
    ewise_vector_kernel<is_union, Z><<<blocks_for(n), block_threads>>>(
        n, left.values(), left.present(), right.values(), right.present(), op, t.values.data(),
        t.present.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  write_back(w, mask_view, accum, std::move(t), desc);
}

template <class Z, class U, class Op>
__global__ void apply_vector_kernel(Index size, const U* u_values, const std::uint8_t* u_present,
                                    Op op, Z* t_values, std::uint8_t* t_present) {
  GRB_GRID_STRIDE_LOOP(i, size) {
    const bool has = u_present[i] != 0;
    t_present[i] = has ? 1 : 0;
    t_values[i] = has ? static_cast<Z>(apply_one(op, u_values[i], static_cast<Index>(i), Index{0}))
                      : Z{};
  }
}

template <class U, class Predicate>
__global__ void select_vector_kernel(Index size, const U* u_values, const std::uint8_t* u_present,
                                     Predicate predicate, U* t_values, std::uint8_t* t_present) {
  GRB_GRID_STRIDE_LOOP(i, size) {
    const bool has =
        u_present[i] != 0 && predicate(u_values[i], static_cast<Index>(i), Index{0});
    t_present[i] = has ? 1 : 0;
    t_values[i] = has ? u_values[i] : U{};
  }
}

/// listed[i] = 1 for every index the list names (every index for `all`).
__global__ inline void mark_listed(Index count, IndexListView list, std::uint8_t* listed) {
  GRB_GRID_STRIDE_LOOP(p, count) listed[list(static_cast<Index>(p))] = 1;
}

inline DeviceArray<std::uint8_t> listed_flags(const IndexList& indices, const IndexListView& list,
                                              Index dimension) {
  auto listed = device_array<std::uint8_t>(dimension);
  if (dimension == 0) return listed;
  if (indices.is_all()) {
    GRB_CUDA_CHECK(cudaMemsetAsync(listed.data(), 1, dimension, 0));
    return listed;
  }
  fill_zero(listed.data(), dimension);
  const Index count = static_cast<Index>(indices.ids().size());
  if (count > 0) {
    mark_listed<<<blocks_for(count), block_threads>>>(count, list, listed.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  return listed;
}

/// The source entries of a vector assign as (target index, value), in source order.
template <class S>
__global__ void assign_targets(Index count, const Index* positions, const S* values,
                               bool scalar, S scalar_value, IndexListView list, Index* targets,
                               S* target_values) {
  GRB_GRID_STRIDE_LOOP(e, count) {
    const Index p = scalar ? static_cast<Index>(e) : positions[e];
    targets[e] = list(p);
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

/// Positions per thread and step of assign_in_place_kernel's list path (block_threads apart):
/// their loads go out together, so a thread's positions cost one chain of dependent loads, not
/// one each.
inline constexpr unsigned assign_items_per_thread = 4;

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
  const auto update = w.update_dense();
  const auto mask_view = entries_of(mask);
  const std::uint64_t items = mask_view.dense ? mask.size() : mask_view.nvals;
  if (items == 0) return;
  bool source_is_mask = false;
  if constexpr (std::is_same_v<Mask, Vector<S>>) source_is_mask = source == &mask;
  VectorView<S> source_view;
  // The mask's own entries need no search (nor a sort); another source is searched.
  if (source) source_view = source_is_mask ? entries_of(*source) : view_of(*source);
  assign_in_place_kernel<W><<<assign_blocks(items), block_threads>>>(
      mask_view, source_view, source == nullptr, source_is_mask, scalar_value, update.values,
      update.present, update.nvals_change);
  GRB_CUDA_CHECK_LAUNCH();
}

// ------------------------------------------------------------------ assigns behind a product
// A BFS level's assigns, parent<q> = q and level<q> = depth, come after its product q has been
// launched, before q's count reaches the host. They are queued on the device behind the product,
// reading its result there (a push's output list, a pull's dense result and its list), and the
// two of them run as one kernel: one pass over the mask for both targets, one launch (~4 us of
// host time each on the H100) instead of two.

/// An unsigned type of `bytes` bytes: the targets' values are stored as bits.
template <std::uint32_t bytes>
using Bits = std::conditional_t<
    bytes == 1, std::uint8_t,
    std::conditional_t<bytes == 2, std::uint16_t,
                       std::conditional_t<bytes == 4, std::uint32_t, std::uint64_t>>>;

/// What target t (values stored as V) takes at a mask position whose mask value is `from`: its
/// scalar, or that value (the target's type is then the mask's: assign_follows_push).
template <class V, class M>
__device__ V behind_value(const FusedAssign& target, const M& from) {
  if (target.scalar) return static_cast<V>(target.scalar_words[0]);
  V bits{};
  if constexpr (sizeof(V) == sizeof(M)) memcpy(&bits, &from, sizeof(V));
  return bits;
}

/// Four consecutive positions of target t, where `in` holds the mask's four presence bytes:
/// whole quads are stored back, the positions outside the mask unchanged (see assign_position).
template <class V, class M>
__device__ void behind_quad(const FusedAssign& target, Index first, std::uint32_t in,
                            const Quad<M>& from, long long& change) {
  V* values = static_cast<V*>(target.values);
  const auto had = *reinterpret_cast<const std::uint32_t*>(target.present + first);
  const Quad<V> old = *reinterpret_cast<const Quad<V>*>(values + first);
  Quad<V> now;
  std::uint32_t has_now = 0;
#pragma unroll
  for (unsigned r = 0; r < 4; ++r) {
    const bool is_in = ((in >> (8 * r)) & 0xffu) != 0, had_it = ((had >> (8 * r)) & 0xffu) != 0;
    now.at[r] = is_in ? behind_value<V>(target, from.at[r]) : had_it ? old.at[r] : V{};
    has_now |= std::uint32_t(is_in || had_it) << (8 * r);
    change += is_in && !had_it;
  }
  *reinterpret_cast<Quad<V>*>(values + first) = now;
  *reinterpret_cast<std::uint32_t*>(target.present + first) = has_now;
}

/// Position i of target t, in the mask with value `from`; `had`: the target's presence there.
template <class V, class M>
__device__ void behind_position(const FusedAssign& target, Index i, bool had, const M& from,
                                long long& change) {
  static_cast<V*>(target.values)[i] = behind_value<V>(target, from);
  target.present[i] = 1;
  change += !had;
}

/// target<mask>(all) = the mask's values or a scalar, for one target (V1 void) or two, in place:
/// see assign_in_place_kernel, whose dense and list passes this follows. The mask is a launched
/// product's result: `count` its entry count on the device (low 32 bits); a dense result that
/// is also listed (`mask.indices`, list values `list_values`) is walked as its list when the
/// list holds every entry (count <= mask.nvals, the list's capacity), and a list's length is
/// mask.nvals, a bound on the count.
template <class M, class V0, class V1>
__global__ void assign_behind_kernel(VectorView<M> mask, const M* list_values,
                                     const unsigned long long* count, FusedAssign t0,
                                     FusedAssign t1) {
  constexpr bool two = !std::is_void_v<V1>;
  using V1_ = std::conditional_t<two, V1, V0>;  // never used where there is one target
  const std::uint64_t entries = *count & 0xffffffffull;
  bool dense = mask.dense;
  if (dense && mask.indices && entries <= mask.nvals) dense = false;
  const std::uint64_t items = dense ? mask.size : std::min<std::uint64_t>(mask.nvals, entries);
  const bool reads_values = !t0.scalar || (two && !t1.scalar);
  long long change0 = 0, change1 = 0;
  if (dense && quad_aligned(mask.present) && quad_aligned(t0.present) &&
      quad_aligned(static_cast<const V0*>(t0.values)) &&
      (!reads_values || quad_aligned(mask.values)) &&
      (!two || (quad_aligned(t1.present) && quad_aligned(static_cast<const V1_*>(t1.values))))) {
    const std::uint64_t quads = items / 4;
    for (std::uint64_t q = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; q < quads;
         q += std::uint64_t(gridDim.x) * blockDim.x) {
      const Index first = static_cast<Index>(q * 4);
      const auto in = *reinterpret_cast<const std::uint32_t*>(mask.present + first);
      Quad<M> from{};
      if (reads_values && in != 0) from = *reinterpret_cast<const Quad<M>*>(mask.values + first);
      behind_quad<V0>(t0, first, in, from, change0);
      if constexpr (two) behind_quad<V1_>(t1, first, in, from, change1);
    }
    // The last size % 4 positions, by block 0.
    const std::uint64_t tail = quads * 4 + threadIdx.x;
    if (blockIdx.x == 0 && tail < items && mask.present[tail]) {
      const Index i = static_cast<Index>(tail);
      const M from = reads_values ? mask.values[i] : M{};
      behind_position<V0>(t0, i, t0.present[i] != 0, from, change0);
      if constexpr (two) behind_position<V1_>(t1, i, t1.present[i] != 0, from, change1);
    }
  } else {
    // A list (its values in list order), or a dense mask position by position.
    constexpr unsigned Items = assign_items_per_thread;
    for (std::uint64_t base = std::uint64_t(blockIdx.x) * blockDim.x * Items; base < items;
         base += std::uint64_t(gridDim.x) * blockDim.x * Items) {
      Index at[Items];
      bool in[Items], had0[Items], had1[Items];
      M from[Items];
#pragma unroll
      for (unsigned r = 0; r < Items; ++r) {
        const std::uint64_t position = base + std::uint64_t(r) * blockDim.x + threadIdx.x;
        in[r] = position < items;
        at[r] = !in[r] ? 0 : dense ? static_cast<Index>(position) : mask.indices[position];
        if (in[r] && dense) in[r] = mask.present[at[r]] != 0;
        from[r] = in[r] && reads_values ? dense ? mask.values[at[r]] : list_values[position]
                                        : M{};
      }
      // Both targets' presence loaded before either is written: two targets are two vectors.
#pragma unroll
      for (unsigned r = 0; r < Items; ++r) {
        had0[r] = in[r] && t0.present[at[r]] != 0;
        had1[r] = two && in[r] && t1.present[at[r]] != 0;
      }
#pragma unroll
      for (unsigned r = 0; r < Items; ++r) {
        if (!in[r]) continue;
        behind_position<V0>(t0, at[r], had0[r], from[r], change0);
        if constexpr (two) behind_position<V1_>(t1, at[r], had1[r], from[r], change1);
      }
    }
  }
  using Reduce = cub::BlockReduce<long long, block_threads>;
  __shared__ typename Reduce::TempStorage storage;
  const long long block_change0 = Reduce(storage).Sum(change0);
  if (threadIdx.x == 0 && block_change0 != 0)
    atomicAdd(reinterpret_cast<unsigned long long*>(t0.nvals_change),
              static_cast<unsigned long long>(static_cast<std::int64_t>(block_change0)));
  if constexpr (two) {
    __syncthreads();  // the reduction's storage is reused
    const long long block_change1 = Reduce(storage).Sum(change1);
    if (threadIdx.x == 0 && block_change1 != 0)
      atomicAdd(reinterpret_cast<unsigned long long*>(t1.nvals_change),
                static_cast<unsigned long long>(static_cast<std::int64_t>(block_change1)));
  }
}

/// Calls f(Bits<bytes>{}) for a target's value size (1, 2, 4 or 8 bytes).
template <class F>
void with_bits(std::uint32_t bytes, F&& f) {
  switch (bytes) {
    case 1: f(Bits<1>{}); break;
    case 2: f(Bits<2>{}); break;
    case 4: f(Bits<4>{}); break;
    default: f(Bits<8>{}); break;
  }
}

/// One or two in-place assigns masked by a launched product's result (M its value type), queued
/// until the second joins or anything else is called, then launched as one kernel. Nothing is
/// left to finish: the targets keep their arrays and their counts change on the device.
template <class M>
class AssignsBehind final : public grb::detail::Deferred {
 public:
  AssignsBehind(const PendingPush& product, const FusedAssign& target, const void* object)
      : product_(&product) {
    const auto& output = product.device_output;
    // A push's list (its count on the device), or a pull's result: dense, and listed.
    mask_.size = product.size;
    mask_.nvals = output.capacity;  // a bound: the kernel reads the count
    mask_.indices = output.indices;
    mask_.values = static_cast<const M*>(output.values);
    list_values_ = mask_.values;
    if (output.present) {
      mask_.nvals = output.listed;
      mask_.dense = true;
      mask_.present = output.present;
      mask_.values = static_cast<const M*>(output.dense_values);
    }
    count_ = output.count;
    blocks_ = mask_.dense ? assign_blocks(mask_.size) : blocks_for_bound(output.capacity);
    add(target, object);
  }

  /// Whether another assign behind `product` can join (a second target, another vector).
  bool takes(const PendingPush& product, const void* object) const {
    return &product == product_ && targets_ == 1 && objects_[0] != object;
  }
  void add(const FusedAssign& target, const void* object) {
    target_[targets_] = target;
    objects_[targets_++] = object;
  }
  bool full() const { return targets_ == 2; }

  void launch() override {
    with_bits(target_[0].bytes, [&](auto first) {
      using V0 = decltype(first);
      if (targets_ == 1) {
        assign_behind_kernel<M, V0, void><<<blocks_, block_threads>>>(mask_, list_values_, count_,
                                                                      target_[0], target_[0]);
        return;
      }
      with_bits(target_[1].bytes, [&](auto second) {
        assign_behind_kernel<M, V0, decltype(second)><<<blocks_, block_threads>>>(
            mask_, list_values_, count_, target_[0], target_[1]);
      });
    });
    GRB_CUDA_CHECK_LAUNCH();
  }
  void finish() override {}
  bool has_results() const override { return false; }
  bool writes(const void* object) const override {
    return object == objects_[0] || (targets_ == 2 && object == objects_[1]);
  }
  bool replaces(const void*) const override { return false; }

 private:
  const PendingPush* product_;
  VectorView<M> mask_;
  const M* list_values_ = nullptr;
  const unsigned long long* count_ = nullptr;
  unsigned blocks_ = 0;
  FusedAssign target_[2] = {};
  const void* objects_[2] = {};
  int targets_ = 0;
};

/// w<mask>(all) = source (the mask itself) or a scalar, in place, queued behind the launched
/// product whose result is the mask (see AssignsBehind): a BFS level's parents and levels,
/// before its product's count reaches the host. Targets of 1, 2, 4 or 8 bytes. True: queued;
/// false: nothing was done.
template <class W, class M, class S>
bool assign_behind_push(Vector<W>& w, const Vector<M>& mask, const Vector<S>* source,
                        S scalar_value) {
  if constexpr (sizeof(W) != 1 && sizeof(W) != 2 && sizeof(W) != 4 && sizeof(W) != 8) {
    return false;
  } else {
    if (grb::mode() == Mode::blocking) return false;
    auto* push = dynamic_cast<PendingPush*>(grb::detail::newest_work());
    if (!push || grb::detail::pending_work() == push) return false;
    if (!push->device_output.indices) return false;
    if (!assign_follows_push(*push, w, mask, source)) return false;
    if (typeid(M) != *push->value_type) return false;
    const grb::detail::DeferredHold hold;  // w is not written by the push: reading it is safe
    // A sparse target (a BFS's levels on its first level) is made dense behind the push: the
    // push may read the old arrays (as its mask), but its kernels are already queued, and the
    // arrays are freed in stream order after them.
    w.make_dense();
    const FusedAssign target = in_place_target(w, source == nullptr, scalar_value);
    if (push->device_output.capacity == 0) return true;
    auto* queued = dynamic_cast<AssignsBehind<M>*>(grb::detail::pending_work());
    if (queued && queued->takes(*push, &w)) {
      queued->add(target, &w);
    } else {
      // Whatever else was pending is launched first.
      grb::detail::defer_behind(std::make_unique<AssignsBehind<M>>(*push, target, &w));
      queued = static_cast<AssignsBehind<M>*>(grb::detail::pending_work());
    }
    if (queued->full()) grb::detail::launch_pending();
    return true;
  }
}

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
    const DeviceIndexList list(indices);
    const auto listed = listed_flags(indices, list.view(), n);
    // The source's entries, stably sorted by target: entries sent to one index stay in order.
    std::optional<SparseInput<S>> input;
    if (source) input.emplace(*source, EntryOrder::by_index);
    const Index entries = source ? input->nvals() : count;
    auto targets = device_array<Index>(entries);
    auto values = device_array<S>(entries);
    auto sorted_targets = device_array<Index>(entries);
    auto sorted_values = device_array<S>(entries);
    if (entries > 0) {
      assign_targets<<<blocks_for(entries), block_threads>>>(
          entries, source ? input->indices() : nullptr, source ? input->values() : nullptr,
          source == nullptr, scalar_value, list.view(), targets.data(), values.data());
      GRB_CUDA_CHECK_LAUNCH();
      const std::int64_t items = entries;
      cub_run([&](void* temporary, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(temporary, bytes, targets.data(),
                                               sorted_targets.data(), values.data(),
                                               sorted_values.data(), items, 0,
                                               key_bits(n - 1));
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
          return cub::DeviceReduce::ReduceByKey(temporary, bytes, sorted_targets.data(),
                                                run_targets.data(), sorted_values.data(),
                                                run_values.data(), run_count.data(), accum,
                                                items);
        });
        sorted_targets = std::move(run_targets);
        sorted_values = std::move(run_values);
      }
    }
    assign_vector_kernel<<<blocks_for(n), block_threads>>>(
        n, view_of(w), listed.data(), entries, run_count.empty() ? nullptr : run_count.data(),
        sorted_targets.data(), sorted_values.data(), accum, z.values.data(), z.present.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  write_back(w, mask_view, no_accum, std::move(z), desc);
}

template <class T>
__global__ void gather_kernel(Index count, IndexListView list, const T* values,
                              const std::uint8_t* present, T* t_values,
                              std::uint8_t* t_present) {
  GRB_GRID_STRIDE_LOOP(p, count) {
    const Index i = list(static_cast<Index>(p));
    const bool has = present[i] != 0;
    t_present[p] = has ? 1 : 0;
    t_values[p] = has ? values[i] : T{};
  }
}

/// T(p) = source(list(p)) for a dense source.
template <class T>
DenseResult<T> gather(const T* values, const std::uint8_t* present, const IndexList& indices,
                      Index count) {
  DenseResult<T> t(count);
  if (count > 0) {
    const DeviceIndexList list(indices);
    gather_kernel<<<blocks_for(count), block_threads>>>(count, list.view(), values, present,
                                                        t.values.data(), t.present.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  return t;
}

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
      GRB_CUDA_CHECK(cudaMemsetAsync(first.data(), 0xff, sizeof(unsigned long long), 0));
      first_present_kernel<<<blocks_for(count), block_threads>>>(count, present, first.data());
      GRB_CUDA_CHECK_LAUNCH();
      at = read_scalar(first.data());
      if (at >= count) return identity;
    }
    return static_cast<Z>(read_scalar(values + at));
  }
  auto terms = device_array<Z>(count);
  reduction_terms<<<blocks_for(count), block_threads>>>(count, values, present, identity,
                                                        terms.data());
  GRB_CUDA_CHECK_LAUNCH();
  auto sum = device_array<Z>(1);
  const std::int64_t items = static_cast<std::int64_t>(count);
  cub_run([&](void* temporary, std::size_t& bytes) {
    return cub::DeviceReduce::Reduce(temporary, bytes, terms.data(), sum.data(), items, monoid,
                                     identity);
  });
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

template <class W, class Mask, class Accum, class Op, class U, class V>
void ewise_add(Vector<W>& w, const Mask& mask, const Accum& accum, const Op& op,
               const Vector<U>& u, const Vector<V>& v, const Descriptor& desc) {
  detail::ewise<true>("ewise_add", w, mask, accum, op, u, v, desc);
}

template <class W, class Mask, class Accum, class Op, class U, class V>
void ewise_mult(Vector<W>& w, const Mask& mask, const Accum& accum, const Op& op,
                const Vector<U>& u, const Vector<V>& v, const Descriptor& desc) {
  detail::ewise<false>("ewise_mult", w, mask, accum, op, u, v, desc);
}

template <class W, class Mask, class Accum, class Op, class U>
void apply(Vector<W>& w, const Mask& mask, const Accum& accum, const Op& op, const Vector<U>& u,
           const Descriptor& desc) {
  using Z = detail::apply_result_t<Op, U>;
  if (w.size() != u.size())
    detail::dimension_mismatch("apply", "w (size " + std::to_string(w.size()) + ") and u (size " +
                                            std::to_string(u.size()) + ") differ");
  const auto mask_view = detail::vector_mask(mask, desc, w.size(), "apply");
  detail::DenseResult<Z> t(u.size());
  if (u.size() > 0) {
    const detail::DenseInput<U> input(u);
    detail::apply_vector_kernel<Z><<<detail::blocks_for(u.size()), detail::block_threads>>>(
        u.size(), input.values(), input.present(), op, t.values.data(), t.present.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  detail::write_back(w, mask_view, accum, std::move(t), desc);
}

template <class W, class Mask, class Accum, class Predicate, class U>
void select(Vector<W>& w, const Mask& mask, const Accum& accum, const Predicate& predicate,
            const Vector<U>& u, const Descriptor& desc) {
  if (w.size() != u.size())
    detail::dimension_mismatch("select", "w (size " + std::to_string(w.size()) + ") and u (size " +
                                             std::to_string(u.size()) + ") differ");
  const auto mask_view = detail::vector_mask(mask, desc, w.size(), "select");
  detail::DenseResult<U> t(u.size());
  if (u.size() > 0) {
    const detail::DenseInput<U> input(u);
    detail::select_vector_kernel<<<detail::blocks_for(u.size()), detail::block_threads>>>(
        u.size(), input.values(), input.present(), predicate, t.values.data(), t.present.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  detail::write_back(w, mask_view, accum, std::move(t), desc);
}

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

template <class W, class Mask, class Accum, class U>
void extract(Vector<W>& w, const Mask& mask, const Accum& accum, const Vector<U>& u,
             const IndexList& indices, const Descriptor& desc) {
  grb::cuda::detail::check_indices(indices, u.size(), "extract", "index");
  const Index count = indices.size(u.size());
  if (w.size() != count)
    detail::dimension_mismatch("extract", "w of size " + std::to_string(w.size()) + " for " +
                                              std::to_string(count) + " indices");
  const auto mask_view = detail::vector_mask(mask, desc, w.size(), "extract");
  const detail::DenseInput<U> input(u);
  detail::write_back(w, mask_view, accum, detail::gather(input.values(), input.present(), indices,
                                                         count),
                     desc);
}

template <class W, class Mask, class Accum, class A>
void extract(Vector<W>& w, const Mask& mask, const Accum& accum, const Matrix<A>& a,
             const IndexList& rows, Index column, const Descriptor& desc) {
  const Index nrows = desc.transpose_first ? a.ncols() : a.nrows();
  const Index ncols = desc.transpose_first ? a.nrows() : a.ncols();
  if (column >= ncols)
    throw IndexOutOfBounds("extract: column " + std::to_string(column) + " outside a " +
                           detail::shape(nrows, ncols) + " matrix");
  grb::cuda::detail::check_indices(rows, nrows, "extract", "row index");
  const Index count = rows.size(nrows);
  if (w.size() != count)
    detail::dimension_mismatch("extract", "w of size " + std::to_string(w.size()) + " for " +
                                              std::to_string(count) + " indices");
  const auto mask_view = detail::vector_mask(mask, desc, w.size(), "extract");
  // The column is a row of the effective matrix's transpose: densify it, then gather.
  const Csr<A>& columns = detail::rows_of(a, !desc.transpose_first);
  const Offset begin = detail::read_scalar(columns.row_offsets.data() + column);
  const Offset end = detail::read_scalar(columns.row_offsets.data() + column + 1);
  auto values = detail::device_array<A>(nrows);
  auto present = detail::device_array<std::uint8_t>(nrows);
  grb::detail::sparse_to_dense_cuda(sizeof(A), nrows, static_cast<Index>(end - begin),
                                    columns.col_indices.data() + begin,
                                    columns.values.data() + begin, values.data(), present.data());
  detail::write_back(w, mask_view, accum, detail::gather(values.data(), present.data(), rows, count),
                     desc);
}

template <class Monoid, class U>
typename Monoid::value_type reduce(const Monoid& monoid, const Vector<U>& u) {
  if (u.format() == VectorFormat::sparse)
    return detail::reduce_values(monoid, u.nvals(), u.values().data(), nullptr);
  return detail::reduce_values(monoid, u.size(), u.values().data(), u.present().data());
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
      detail::reduction_terms<<<detail::blocks_for(input.nvals()), detail::block_threads>>>(
          input.nvals(), input.values.data(), static_cast<const std::uint8_t*>(nullptr), identity,
          terms.data());
      GRB_CUDA_CHECK_LAUNCH();
    }
    auto sums = detail::device_array<Z>(input.nrows);
    const std::int64_t segments = input.nrows;
    detail::cub_run([&](void* temporary, std::size_t& bytes) {
      return cub::DeviceSegmentedReduce::Reduce(temporary, bytes, terms.data(), sums.data(),
                                                segments, input.row_offsets.data(),
                                                input.row_offsets.data() + 1, monoid, identity);
    });
    detail::reduce_rows_kernel<<<detail::blocks_for(input.nrows), detail::block_threads>>>(
        detail::view_of(input), sums.data(), mask_view, t.values.data(), t.present.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  detail::write_back(w, mask_view, accum, std::move(t), desc);
}

}  // namespace grb::cuda
