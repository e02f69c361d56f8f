// Assigns behind a product: an in-place assign whose mask is a launched product's result is
// queued behind it on the device.
//
// A BFS level's assigns, parent<q> = q and level<q> = depth, come after its product q has been
// launched, before q's count reaches the host. They are queued on the device behind the product,
// reading its result there (a push's output list, a pull's dense result and its list), and the
// two of them run as one kernel: one pass over the mask for both targets, one launch (~4 us of
// host time each on the H100) instead of two.
#pragma once

#include <type_traits>

#include "grb/cuda/deferred.cuh"
#include "grb/cuda/vector/assign_kernels.cuh"

namespace grb::cuda::detail {

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
        assign_behind_kernel<M, V0, void><<<blocks_, block_threads, 0, current_stream()>>>(
            mask_, list_values_, count_, target_[0], target_[0]);
        return;
      }
      with_bits(target_[1].bytes, [&](auto second) {
        assign_behind_kernel<M, V0, decltype(second)>
            <<<blocks_, block_threads, 0, current_stream()>>>(mask_, list_values_, count_,
                                                              target_[0], target_[1]);
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

}  // namespace grb::cuda::detail
