// The sparse push for `any` monoids whose old output does not survive (replace, or no mask): it
// claims its outputs with claim stamps and emits them as a list, so a BFS level costs in
// proportion to its frontier. Rows of at most lane_row_entries skip the scan (a group of lanes
// per input entry); a small such push is deferred (PendingPush, deferred.cuh), so that the
// assigns masked by its result join its launch, and its kernel publishes its output count
// into host memory.
#pragma once

#include <cooperative_groups.h>

#include <mutex>

#include "grb/cuda/policy.hpp"
#include "grb/cuda/deferred.cuh"
#include "grb/cuda/mxv/pull.cuh"
#include "grb/cuda/mxv/push.cuh"
#include "grb/cuda/primitives.cuh"

namespace grb::cuda::detail {

/// A push block's running totals, kept by every thread of the block: the new entries of each
/// fused target (in shared memory) and the claimed outputs' edges (FoundEdges). finish() adds
/// them to the grid's and publishes the output count (publish_count).
template <unsigned Threads>
struct PushBlockTally {
  FusedCounts fused_added;
  FoundEdges edges;
  __device__ void finish(const FusedAssigns& fused, const ClaimStamps& stamps) {
    fused_added.flush(fused);
    edges.flush<Threads>();
    publish_count(stamps);
  }
};

/// The tally of this block (Threads threads), started: called once by every thread of a push
/// kernel before its first claim.
template <unsigned Threads>
__device__ PushBlockTally<Threads> start_push_tally(const ClaimStamps& stamps) {
  __shared__ unsigned fused_added[max_fused_assigns];
  const FusedCounts counts{fused_added};
  counts.start();
  return {counts, FoundEdges{stamps.edge_rows, stamps.edges, stamps.longest}};
}

/// An output the push visits: entry `position` of the push matrix, output o; `won`: this thread
/// claimed o and the mask allows it (the fused targets' presence at o is then in `had`).
struct Visit {
  Offset position = 0;
  Index o = 0;
  bool won = false;
  FusedPresence had{};
};

/// The push's claim of the output at entry `position` of the push matrix: claimed once (claim
/// stamps), and its row length added to the block's edges (when the stamps sum them).
template <unsigned Threads, class A, class M>
__device__ Visit claim_visit(Offset position, const CsrView<A>& rows,
                             const VectorMaskView<M>& mask, const ClaimStamps& stamps,
                             const FusedAssigns& fused, PushBlockTally<Threads>& tally) {
  const Index o = rows.col_indices[position];
  // The mask read, the claim and the fused targets' presence reads overlap (one wait, not
  // several): claiming a position the mask refuses changes nothing, as this push never emits it;
  // a target's presence at o changes only by the thread that claims o. On skewed rows
  // (after_mask) the claim waits for the mask: a Kronecker BFS's tail frontier meets visited hubs
  // on most edges, and their exchanges queued on a few words (kron22 root 206848's fifth level:
  // 62 -> 45 us); a grid's levels keep the shorter chain. o's row bounds are read by
  // the winners only: most edges of a frontier of hubs lose, and their reads were a random
  // sector each.
  const FusedPresence had = fused_presence(fused, o);
  const bool allowed = mask.allows(o);
  const bool claimed = (!stamps.after_mask || allowed) && claim(stamps, o);
  const bool won = allowed && claimed;
  if (won) tally.edges.found(o);
  return {position, o, won, had};
}

/// A won visit's output, in input entry f's row (index k, value u_value), into `slot` of the
/// output list and into the assigns fused into the push (deferred.cuh). Called by the winners
/// only.
template <unsigned Threads, class W, class A, class U, class Prod>
__device__ void emit_visit(const Visit& visit, unsigned long long slot, Index k, const U& u_value,
                           const CsrView<A>& rows, const Prod& product, const FusedAssigns& fused,
                           PushBlockTally<Threads>& tally, Index* out_indices, W* out_values) {
  const W value = static_cast<W>(product(rows.values[visit.position], u_value, visit.o, k));
  out_indices[slot] = visit.o;
  out_values[slot] = value;
  write_fused(fused, tally.fused_added, visit.had, visit.o, value,
              cooperative_groups::coalesced_threads());
}

/// The push's visit of entry `position` of the push matrix, in the row of input entry f (index
/// k, value u_value), with its slot taken by the group of lanes that won together.
template <unsigned Threads, class W, class A, class U, class M, class Prod>
__device__ void claim_output(Offset position, Index k, const U& u_value, const CsrView<A>& rows,
                             const VectorMaskView<M>& mask, const Prod& product,
                             const ClaimStamps& stamps, const FusedAssigns& fused,
                             PushBlockTally<Threads>& tally, Index* out_indices,
                             W* out_values) {
  const Visit visit = claim_visit(position, rows, mask, stamps, fused, tally);
  if (!visit.won) return;
  // One atomic per group of lanes that claimed together: a level that discovers 10^5 vertices
  // would otherwise serialize on the one counter.
  const auto claimers = cooperative_groups::coalesced_threads();
  unsigned long long first = 0;
  if (claimers.thread_rank() == 0) first = take_slots(stamps, claimers.size());
  emit_visit(visit, claimers.shfl(first, 0) + claimers.thread_rank(), k, u_value, rows, product,
             fused, tally, out_indices, out_values);
}

/// Edge e of the expansion, its input entry found in the scanned row starts.
template <unsigned Threads, class W, class A, class U, class M, class Prod>
__device__ void claim_edge(Offset e, const Offset* starts, Index count, const Index* indices,
                           const U* u_values, const CsrView<A>& rows,
                           const VectorMaskView<M>& mask, const Prod& product,
                           const ClaimStamps& stamps, const FusedAssigns& fused,
                           PushBlockTally<Threads>& tally, Index* out_indices, W* out_values) {
  const PushEdge edge = push_edge(e, starts, count, indices, rows);
  claim_output(edge.position, indices[edge.f], u_values[edge.f], rows, mask, product, stamps,
               fused, tally, out_indices, out_values);
}

/// `warp_scan`: the input's row starts are not given (count <= warp_scan_inputs): each block
/// scans them for itself (warp_row_starts).
template <bool warp_scan, class W, class A, class U, class M, class Prod>
__global__ void push_claim_any(const Offset* starts, Index count, const Index* indices,
                               const U* u_values, CsrView<A> rows, VectorMaskView<M> mask,
                               Prod product, ClaimStamps stamps,
                               __grid_constant__ const FusedAssigns fused, Index* out_indices,
                               W* out_values) {
  auto tally = start_push_tally<block_threads>(stamps);
  if constexpr (warp_scan) {
    __shared__ Offset scanned[warp_scan_inputs + 1];
    if (threadIdx.x < 32) warp_row_starts(count, indices, rows.row_offsets, scanned);
    __syncthreads();
    starts = scanned;
  }
  const Offset edges = starts[count];  // read here, so the host never waits for the scan
  // Whole-block steps, each taking its slots with one atomic (block_take_slot), not one per
  // warp: kron22's frontiers of hub vertices (10^6-10^7 edges, their outputs claimed a few per
  // warp and step) queued on the one counter. A root whose third level pushes 2 258 hubs' 7.9 M
  // edges: 965 -> 373 us of pushes; 32 roots' mean search 645 -> 550 us
  // (`grb bench --graphs kron22 --algorithms bfs --engines linalg`, against one atomic per warp).
  const std::uint64_t stride = std::uint64_t(gridDim.x) * block_threads;
  for (std::uint64_t base = std::uint64_t(blockIdx.x) * block_threads; base < edges;
       base += stride) {
    const Offset e = base + threadIdx.x;
    PushEdge edge{};
    Visit visit{};
    if (e < edges) {
      edge = push_edge(e, starts, count, indices, rows);
      visit = claim_visit(edge.position, rows, mask, stamps, fused, tally);
    }
    const unsigned long long slot = block_take_slot(stamps, visit.won ? 1u : 0u);
    if (visit.won)
      emit_visit(visit, slot, indices[edge.f], u_values[edge.f], rows, product, fused, tally,
                 out_indices, out_values);
  }
  tally.finish(fused, stamps);
}

/// push_claim_any for an input of at most block_scan_inputs entries, with the scan done by
/// every block for itself in shared memory: one launch per push instead of two, and no scan
/// array (a high-diameter graph's BFS level is a few thousand edges; its launches are its cost).
template <class W, class A, class U, class M, class Prod>
__global__ void __launch_bounds__(block_scan_threads)
    push_claim_any_small(Index count, const Index* indices, const U* u_values, CsrView<A> rows,
                         VectorMaskView<M> mask, Prod product, ClaimStamps stamps,
                         __grid_constant__ const FusedAssigns fused, Index* out_indices,
                         W* out_values) {
  auto tally = start_push_tally<block_scan_threads>(stamps);
  __shared__ Offset starts[block_scan_inputs + 1];
  block_row_starts(count, indices, rows.row_offsets, starts);
  __syncthreads();
  const Offset edges = starts[count];
  GRB_GRID_STRIDE_LOOP(e, edges) {
    claim_edge(e, starts, count, indices, u_values, rows, mask, product, stamps, fused, tally,
               out_indices, out_values);
  }
  tally.finish(fused, stamps);
}

/// push_claim_any for short rows: a group of Lanes threads per input entry, each thread taking
/// every Lanes-th entry of the row, with no scan and no search (a grid's BFS level, rows of at
/// most 4 entries and 4 lanes: the chain of dependent reads is what a level costs there, and each
/// thread's chain is one edge long; a Kronecker BFS's tail, rows of up to 16 entries and about
/// 1.4 on average, 2 lanes).
/// `count_on_device`: where the input's count is still only on the device (a push queued behind
/// the one that makes its input: chained_push), its low 32 bits are the count; else null.
template <unsigned Lanes, class W, class A, class U, class M, class Prod>
__global__ void push_claim_any_by_row(Index count, const unsigned long long* count_on_device,
                                      const Index* indices, const U* u_values, CsrView<A> rows,
                                      VectorMaskView<M> mask, Prod product, ClaimStamps stamps,
                                      __grid_constant__ const FusedAssigns fused,
                                      Index* out_indices, W* out_values) {
  auto tally = start_push_tally<block_threads>(stamps);
  if (count_on_device) count = static_cast<Index>(*count_on_device & 0xffffffffull);
  GRB_GRID_STRIDE_LOOP(t, std::uint64_t(count) * Lanes) {
    const Index f = static_cast<Index>(t / Lanes);
    const Index k = indices[f];
    // A row longer than Lanes (the bound came from the input's own rows, which a product
    // reported: Vector::longest_row) is walked Lanes entries a step, never cut short.
    const Offset end = rows.row_offsets[k + 1];
    for (Offset position = rows.row_offsets[k] + t % Lanes; position < end; position += Lanes)
      claim_output(position, k, u_values[f], rows, mask, product, stamps, fused, tally,
                   out_indices, out_values);
  }
  tally.finish(fused, stamps);
}

/// Installs a deferred product's result in w once its kernel has published the count: dense
/// (made by `make_dense(count)`) above `list_most` entries, else the output list, truncated to
/// the count. Returns what was published.
template <class W, class MakeDense>
Published install_result(Vector<W>& w, const ClaimStamps& stamps, DeviceArray<Index>& indices,
                         DeviceArray<W>& values, Index list_most, MakeDense make_dense) {
  const Published published = await_count(stamps);  // no copy, no stream synchronization
  const Index n = w.size();
  const Index nvals = published.count;
  if (nvals > list_most) {
    w = make_dense(nvals);
  } else {
    indices.truncate(nvals);
    values.truncate(nvals);
    Vector<W> result(n, Backend::cuda);
    grb::detail::Storage::adopt_unsorted(result, std::move(indices), std::move(values));
    w = std::move(result);
  }
  if (stamps.edge_rows)
    grb::detail::Storage::set_row_edges(w, stamps.edge_rows, published.edges, published.longest);
  return published;
}

/// The lanes per input entry for rows of at most `longest` entries (a power of two).
inline unsigned row_lanes(Offset longest) {
  unsigned lanes = 1;
  while (lanes < longest) lanes *= 2;
  return lanes;
}

/// w = T for a push whose monoid is `any`, when nothing of the old w survives (no accumulator;
/// replace, or no mask): the outputs come straight out as a list, deduplicated by claim stamps
/// and left in the order found (Vector::adopt_unsorted; scattered into a dense w when that many
/// are found): work in proportion to the input's edges, not to w's size, and one value read
/// back (the output count). This is a BFS level on a high-diameter graph.
///
/// In non-blocking mode the push is queued (grb/deferred.hpp) until its result is read, so that
/// the assigns masked by it can join its launch (deferred.cuh): everything is set up here;
/// launch() launches, finish() waits for the count and installs the result in w.
template <class W, class A, class U, class M, class Prod>
class PushAnySparse final : public PendingPush {
 public:
  /// A push over u's entries, which `plan` holds.
  /// `longest_row`: a bound on the rows of u's entries; `matrix_longest`: the push matrix's
  /// longest row.
  PushAnySparse(Vector<W>& w, const Vector<U>& u, const Csr<A>& rows, PushPlan<U>&& plan,
                Offset longest_row, Offset matrix_longest, const VectorMaskView<M>& mask,
                const Prod& product)
      : PushAnySparse(w, u, rows, longest_row, mask, product) {
    const PushPlan<U>& input = plan_.emplace(std::move(plan));
    count_ = input.count();
    indices_in_ = input.input().indices();
    values_in_ = input.input().values();
    // The grid is sized by the edges when known, else by their bound from the longest row: an
    // estimate from the average degree gave a level of a few hub vertices (10^6 edges) 4 blocks.
    const Offset edges =
        input.edges_at_most(std::min<Offset>(Offset(count_) * longest_row, rows.nvals()));
    take_output(edges);
    blocks_ = blocks_for_bound(edges);
    small_ = !input.scanned() && count_ <= block_scan_inputs && edges <= small_push_edges;
    // Lanes for the input's average row where its edges are known (a Kronecker BFS's tail: ~1.4
    // edges a vertex, its longest rows 10-20), so that a group of 16 lanes per entry does not
    // leave 15 idle; longer rows are walked in steps (push_claim_any_by_row). kron22 root
    // 206848's fifth level (323 815 inputs, 446 827 edges): 131 us with 16 lanes, 45 with 2.
    if (const auto known = input.known_edges(); by_row_ && known && count_ > 0)
      lanes_ = std::min(lanes_, row_lanes((*known + count_ - 1) / count_));
    if (by_row_) {
      blocks_ = blocks_for(std::uint64_t(count_) * lanes_);
    } else if (!small_) {
      warp_scan_ = !input.scanned() && count_ <= warp_scan_inputs;
      if (!warp_scan_) input.starts();  // the scan (its launches) now; no read-back
    }
    // Skewed rows of a square matrix: the outputs' edges are summed for the next push/pull
    // choice (Vector::row_edges; an output is a row of the next push only when the matrix is
    // square). Rows of at most lane_row_entries never need them: the bound decides there.
    if (matrix_longest > lane_row_entries && rows.nrows == rows.ncols)
      stamps_.edge_rows = rows.row_offsets.data();
    // Skewed rows: a claim waits for the mask (claim_visit).
    stamps_.after_mask = matrix_longest > lane_row_entries;
  }

  /// A push over the result of the deferred push `source` (u), read on the device before its
  /// count reaches the host (chained_push); rows of at most lane_row_entries only.
  PushAnySparse(Vector<W>& w, const Vector<U>& u, PendingPush& source, const Csr<A>& rows,
                Offset longest_row, const VectorMaskView<M>& mask, const Prod& product)
      : PushAnySparse(w, u, rows, longest_row, mask, product) {
    leader = &source;
    source.follower = this;
    count_ = source.device_output.capacity;  // a bound: the kernel reads the count
    count_on_device_ = source.device_output.count;
    indices_in_ = source.device_output.indices;
    values_in_ = static_cast<const U*>(source.device_output.values);
    take_output(std::min<Offset>(Offset(count_) * longest_row, rows.nvals()));
    // Sized by the bound, so capped: the grid-stride loop covers the rest, and every block costs
    // its tally and an atomic at the end even when the real count leaves it idle.
    blocks_ = blocks_for_bound(std::uint64_t(count_) * lanes_);
  }

  /// At most small_push_edges edges (by the bound): a few microseconds of work.
  bool launch_bound() const { return edges_ <= small_push_edges; }

  void launch() override {
    if (by_row_) {
      const auto by_row = [&](auto lanes_constant) {
        push_claim_any_by_row<decltype(lanes_constant)::value, W>
            <<<blocks_, block_threads, 0, current_stream()>>>(
                count_, count_on_device_, indices_in_, values_in_, rows_, mask_, product_, stamps_,
                fused, indices_.data(), values_.data());
      };
      switch (lanes_) {
        case 1: by_row(std::integral_constant<unsigned, 1>{}); break;
        case 2: by_row(std::integral_constant<unsigned, 2>{}); break;
        case 4: by_row(std::integral_constant<unsigned, 4>{}); break;
        case 8: by_row(std::integral_constant<unsigned, 8>{}); break;
        default: by_row(std::integral_constant<unsigned, 16>{}); break;
      }
    } else if (small_) {
      push_claim_any_small<W><<<blocks_, block_scan_threads, 0, current_stream()>>>(
          count_, indices_in_, values_in_, rows_, mask_, product_, stamps_, fused, indices_.data(),
          values_.data());
    } else if (warp_scan_) {
      push_claim_any<true, W><<<blocks_, block_threads, 0, current_stream()>>>(
          nullptr, count_, indices_in_, values_in_, rows_, mask_, product_, stamps_, fused,
          indices_.data(), values_.data());
    } else {
      push_claim_any<false, W><<<blocks_, block_threads, 0, current_stream()>>>(
          plan_->starts(), count_, indices_in_, values_in_, rows_, mask_, product_, stamps_, fused,
          indices_.data(), values_.data());
    }
    GRB_CUDA_CHECK_LAUNCH();
  }

  void finish() override {
    const Published published = install_result(w_, stamps_, indices_, values_,
                                               size / dense_ratio, [&](Index nvals) {
      indices_.truncate(nvals);
      values_.truncate(nvals);
      Vector<W> dense(size, Backend::cuda);
      grb::detail::Storage::adopt_unsorted(dense, std::move(indices_), std::move(values_));
      dense.make_dense();  // the list scattered (and freed in stream order)
      return dense;
    });
    // The push queued behind this one (chained_push) reads the list on the device; a list freed
    // here goes to later work in stream order only.
    if (follower) follower->input_counted(published.count);
  }

  void run() {
    launch();
    finish();
  }

 private:
  Vector<W>& w_;
  std::optional<PushPlan<U>> plan_;
  Index count_ = 0;  // of the input; its bound where count_on_device_ is set
  const unsigned long long* count_on_device_ = nullptr;
  const Index* indices_in_ = nullptr;
  const U* values_in_ = nullptr;
  CsrView<A> rows_;
  VectorMaskView<M> mask_;
  Prod product_;
  DeviceArray<Index> indices_;
  DeviceArray<W> values_;
  unsigned blocks_ = 0;
  ClaimStamps stamps_{};
  Offset edges_ = 0;     // the edges, or their bound
  bool by_row_ = false;  // push_claim_any_by_row, with lanes_ threads per input entry
  unsigned lanes_ = 1;
  bool small_ = false;   // push_claim_any_small
  bool warp_scan_ = false;  // push_claim_any scanning its input itself

  PushAnySparse(Vector<W>& w, const Vector<U>& u, const Csr<A>& rows, Offset longest_row,
                const VectorMaskView<M>& mask, const Prod& product)
      : w_(w), rows_(view_of(rows)), mask_(mask), product_(product) {
    output = &w;
    input = &u;
    value_type = &typeid(W);
    size = w.size();
    stamps_ = claim_stamps(size);
    by_row_ = longest_row <= lane_row_entries;
    lanes_ = row_lanes(longest_row);
    this->longest_row = longest_row;
  }

  /// The output list for at most `edges` edges: at most one output per edge, and n distinct
  /// ones (a grid's level, a few thousand edges, takes a few kilobytes, not n-sized arrays: the
  /// pool's large blocks cost more to hand out). Work queued behind the push may read the list.
  void take_output(Offset edges) {
    edges_ = edges;
    const std::size_t capacity = std::min<Offset>(edges, size);
    indices_ = device_array<Index>(capacity);
    values_ = device_array<W>(capacity);
    device_output = {indices_.data(), values_.data(), stamps_.count, static_cast<Index>(capacity)};
  }
};

/// w = T for a pull whose monoid stops at its first hit (a BFS level's pull), when nothing of the
/// old w survives, in non-blocking mode: launched, and finished when its result is read. Its
/// kernel publishes the count (and the edges) into host memory as a push does, so the assigns
/// masked by the result queue behind it on the device (assign_behind_push), and the GPU goes on
/// to them while the host waits. The kernel also lists its outputs (PullList): a result of few
/// entries is adopted as that list (no conversion from dense), and the assigns behind it walk the
/// list instead of every position (they read the count on the device).
template <class W>
class PendingPull final : public PendingPush {
  Vector<W>& w_;
  DeviceArray<Index> indices_;
  DeviceArray<W> values_;

 public:
  DenseResult<W> t;
  ClaimStamps stamps;

  PendingPull(Vector<W>& w, const void* input_vector, const Offset* edge_rows)
      : w_(w),
        indices_(device_array<Index>(list_capacity(w.size()))),
        values_(device_array<W>(list_capacity(w.size()))),
        t(w.size()),
        stamps(claim_stamps(w.size())) {
    output = &w;
    input = input_vector;
    value_type = &typeid(W);
    size = w.size();
    stamps.edge_rows = edge_rows;
    device_output = {indices_.data(), values_.data(), stamps.count, size, t.present.data()};
    device_output.dense_values = t.values.data();
    device_output.listed = static_cast<Index>(indices_.size());
  }

  PullList<W> list() { return {indices_.data(), values_.data(), stamps, indices_.size()}; }

  /// Room for every result left sparse (count * list_ratio <= size); at least one entry, so
  /// that the list exists.
  static Index list_capacity(Index size) { return std::max<Index>(size / list_ratio, 1); }

  void finish() override {
    install_result(w_, stamps, indices_, values_, Index(indices_.size()), [&](Index nvals) {
      Vector<W> dense(size, Backend::cuda);
      grb::detail::Storage::adopt_dense(dense, std::move(t.values), std::move(t.present), nvals);
      return dense;
    });
  }
};

template <class W, class A, class U, class M, class Prod>
void push_any_sparse(Vector<W>& w, const Vector<U>& u, const Csr<A>& rows, PushPlan<U>&& plan,
                     Offset longest_row, Offset matrix_longest, const VectorMaskView<M>& mask,
                     const Prod& product) {
  auto push = std::make_unique<PushAnySparse<W, A, U, M, Prod>>(
      w, u, rows, std::move(plan), longest_row, matrix_longest, mask, product);
  // Only a push whose launches are its cost waits to be fused: in a push of 10^5 outputs (a
  // Kronecker graph's second level) the fused writes lengthen every claimer's chain of reads,
  // and separate assigns were as fast or faster (kron22, 16 roots, 2 runs each: medians 0.90
  // either way, means 1.03 and 1.17 ms fused against 0.91 and 0.95 ms).
  if (grb::mode() == Mode::blocking) push->run();
  else if (push->launch_bound()) grb::detail::defer(std::move(push));
  // Launched at once, and finished when its result is read: the assigns masked by the result
  // queue behind it on the device (assign_behind_push) before the host waits for its count.
  else grb::detail::launch_deferred(std::move(push));
}

}  // namespace grb::cuda::detail
