// mxv (w = A u) and vxm (w = u' A) on the GPU, the driver: which strategy runs, and the
// write-back of its result. The strategies live beside this file. Both are one product
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
//             (output, value) pairs and a reduce-by-key with the monoid. An `any` push whose old
//             output does not survive (replace, or no mask) claims its outputs with claim stamps
//             and emits them as a sparse list: a BFS level costs in proportion to its frontier.
//             Rows of at most 16 entries skip the scan (a group of lanes per input entry); a
//             small such push is deferred so that the assigns masked by its result join its
//             launch (deferred.cuh), and its kernel writes its output count into host memory.
//   cusparse: cusparseSpMV, for plus_times on float/double (same value type everywhere).
//   automatic: direction optimization (below).
// Values read back per call: the output's entry count; plus the push's edge count where the
// generic push needs it, or where skewed degrees leave the direction to the exact count and the
// input does not carry it. An `any` push or a stopping pull on skewed rows sums its outputs'
// edges in the push matrix and reads them back with its count (Vector::row_edges), so a BFS
#pragma once

#include <optional>
#include <type_traits>

#include "grb/cuda/deferred.cuh"
#include "grb/cuda/mxv/cusparse.cuh"
#include "grb/cuda/mxv/direction.cuh"
#include "grb/cuda/mxv/pull.cuh"
#include "grb/cuda/mxv/push.cuh"
#include "grb/cuda/mxv/push_any.cuh"
#include "grb/cuda/write_back.cuh"

namespace grb::cuda::detail {

/// Queues a push by rows behind the deferred push whose result is its input u, before that result
/// reaches the host: the kernel reads the input's count on the device, so the GPU can run this
/// product while the host waits for the count of the one before (a BFS that tests the frontier a
/// level late: bfs/linear_algebra.hpp). Rows of at most lane_row_entries only, where a push by
/// rows needs neither the count nor a scan, and the output list is sized by a bound. True: queued
/// (the assigns masked by its result may fuse into it); false: nothing was done.
template <bool is_vxm, class W, class Mask, class Semiring, class A, class U>
bool chained_push(Vector<W>& w, const Mask& mask, const Semiring& semiring, const Matrix<A>& a,
                  const Vector<U>& u, bool transposed, const Descriptor& desc) {
  if (grb::mode() == Mode::blocking) return false;
  if (desc.strategy != MxvStrategy::automatic && desc.strategy != MxvStrategy::push) return false;
  // Nothing of the old w survives (push_any_sparse's case), and the mask allows something.
  if constexpr (std::is_same_v<Mask, NoMask>) {
    if (desc.complement_mask) return false;
  } else if (!desc.replace) {
    return false;
  }
  auto* source = dynamic_cast<PendingPush*>(grb::detail::newest_work());
  // Not behind a pull: its list holds its outputs only when they are few (PullList).
  if (!source || source->output != static_cast<const void*>(&u) ||
      !source->device_output.indices || source->device_output.present ||
      *source->value_type != typeid(U))
    return false;
  // u, the source's result, is stale on the host: it is read only through device_output. w and
  // the mask must not be replaced by deferred work (targets it updates in place are fine: their
  // arrays stay where they are).
  const grb::detail::DeferredHold hold;
  if (a.nrows() != a.ncols() || u.size() != a.nrows() || w.size() != a.ncols()) return false;
  if (grb::detail::deferred_work_replaces(&w)) return false;
  if constexpr (!std::is_same_v<Mask, NoMask>) {
    if (grb::detail::deferred_work_replaces(&mask)) return false;
  }
  const bool pull_is_csc = is_vxm != transposed;
  const Offset longest = longest_row_of(a, !pull_is_csc);
  if (longest > lane_row_entries) return false;
  if (std::min<Offset>(Offset(source->device_output.capacity) * longest, a.nvals()) >
      chained_push_edges)
    return false;
  const auto mask_view = vector_mask(mask, desc, w.size(), is_vxm ? "vxm" : "mxv");
  const Product<is_vxm, typename Semiring::multiply_type> product{semiring.multiply};
  using Push = PushAnySparse<W, A, U, typename decltype(mask_view)::value_type, decltype(product)>;
  grb::detail::defer_behind(std::make_unique<Push>(w, u, *source, pull_is_csc ? a.csr() : a.csc(),
                                                   longest, mask_view, product));
  return true;
}

template <bool is_vxm, class W, class Mask, class Accum, class Semiring, class A, class U>
void semiring_product(const char* operation, Vector<W>& w, const Mask& mask, const Accum& accum,
                      const Semiring& semiring, const Matrix<A>& a, const Vector<U>& u,
                      bool transposed, const Descriptor& desc) {
  using Z = typename Semiring::value_type;
  if constexpr (grb::detail::is_any_monoid<typename Semiring::add_type>() && !has_accum<Accum>) {
    if (chained_push<is_vxm>(w, mask, semiring, a, u, transposed, desc)) return;
  }
  grb::detail::complete_deferred();  // before claim stamps or anything else is taken
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
  // A recorded loop (grb/loop.hpp) cannot read u's count: it pulls, which is right whatever u
  // holds (and what a dense u, a loop's usual input, wants).
  const bool recording = grb::detail::current_context().recording;
  const bool products = !nothing_allowed && a.nvals() > 0 && (recording || u.nvals() > 0);
  if (!products && !has_accum<Accum> &&
      (desc.replace || (mask_view.everything && !mask_view.complement))) {
    w.clear();  // nothing found, and nothing of w survives (a BFS's level past the last)
    return;
  }
  // pull() reads whole rows, and splits the long ones, unless the monoid stops at a row's first
  // hit: the same test decides here which longest row it needs.
  constexpr bool early_exit = stops_at_first_hit<typename Semiring::add_type, Z>();
  // The push matrix is the transpose of the pull matrix: csr when pull reads csc.
  const Csr<A>& push_rows = pull_is_csc ? a.csr() : a.csc();
  std::optional<PushPlan<U>> plan;
  bool pushes = false;
  // u's longest row where the product that made it reported one (Vector::longest_row): a
  // tighter bound than the matrix's, so that a tail frontier of short rows is pushed by rows.
  const Offset matrix_longest = longest_row_of(a, !pull_is_csc);
  Offset input_longest = matrix_longest;
  if (const auto longest = grb::detail::Storage::longest_row(u, push_rows.row_offsets.data()))
    input_longest = std::min(input_longest, *longest);
  // u's exact edges, where the product that made it left them (Vector::row_edges).
  const auto known_edges = grb::detail::Storage::row_edges(u, push_rows.row_offsets.data());
  if (recording && desc.strategy == MxvStrategy::push)
    throw NotInLoop("mxv/vxm with the push strategy inside grb::repeat_while: a push is sized by "
                    "its input's count, read back; use the pull or automatic strategy");
  if (products && desc.strategy == MxvStrategy::push) {
    pushes = true;
  } else if (products && desc.strategy == MxvStrategy::automatic && !recording) {
    // Decided without a read-back where the degrees settle it: push when even u's longest
    // rows are few enough, pull when even its average rows are too many; else (skewed
    // degrees) by the exact edge count of u's rows, from the scan the push needs anyway.
    // Exact edges that u already carries decide first only where u is a list, which the push
    // reads as it is: a dense u is compacted first, and pull_work counts every allowed output,
    // a Kronecker graph's isolated vertices too, so on a dense tail level the exact edges chose
    // a push that cost twice the pull it replaced (kron22: ~3 * 10^5 low-degree
    // vertices, 92 us of compaction, scan and push against a 48 us pull). A pull now leaves
    // such a level a list (list_ratio), which is pushed by rows (~30-45 us against ~40-65).
    const double alpha = early_exit ? pull_advantage_early_exit : pull_advantage;
    const double pull_work = double(allowed) * double(a.nvals()) / std::max<Index>(output_size, 1);
    const double average_push = double(u.nvals()) * double(a.nvals()) / std::max<Index>(input_size, 1);
    if (double(u.nvals()) * double(input_longest) * alpha < pull_work) {
      pushes = true;
    } else if (known_edges && u.format() == VectorFormat::sparse) {
      pushes = double(*known_edges) * alpha < pull_work;
    } else if (average_push * alpha < pull_work) {
      // The exact edges: left on u by the product that made it, else scanned and read back.
      plan.emplace(push_rows, u);
      if (known_edges) plan->know_edges(*known_edges);
      pushes = double(plan->edges()) * alpha < pull_work;
    }
  }
  if (pushes && !plan) {
    // The exact edges, where u carries them, size the push's grid (a tail level of a few hundred
    // hubs' neighbours is otherwise sized by its bound from the longest row).
    plan.emplace(push_rows, u);
    if (known_edges) plan->know_edges(*known_edges);
  }
  if constexpr (any_monoid && !has_accum<Accum>) {
    if (pushes && (desc.replace || mask_view.everything)) {
      push_any_sparse(w, u, push_rows, std::move(*plan), input_longest, matrix_longest,
                      mask_view, product);
      return;
    }
  }
  // write_back adopts T itself when nothing of w survives (a BFS level's pull).
  const bool adopted =
      !has_accum<Accum> && ((mask_view.everything && !mask_view.complement) || desc.replace);
  // On skewed rows of a square matrix the result's edges in the push matrix are summed for the
  // next product's push/pull choice (Vector::row_edges); short rows never need them.
  // The pull matrix's 32-bit offsets, made (once per matrix) only for a pull that reads them.
  const auto narrow = [&] { return narrow_offsets_of(a, pull_is_csc); };
  const Offset* edge_rows = adopted && early_exit && a.nrows() == a.ncols() &&
                                    longest_row_of(a, !pull_is_csc) > lane_row_entries
                                ? push_rows.row_offsets.data()
                                : nullptr;
  if constexpr (early_exit && std::is_same_v<W, Z>) {
    if (products && !pushes && adopted && desc.strategy != MxvStrategy::cusparse &&
        grb::mode() == Mode::nonblocking) {
      auto pending = std::make_unique<PendingPull<W>>(w, &u, edge_rows);
      pull(pending->t, pull_is_csc ? a.csc() : a.csr(), u, mask_view, semiring.add, product,
           Offset{0}, true, edge_rows, &pending->stamps, pending->list(), narrow);
      grb::detail::launch_deferred(std::move(pending));
      return;
    }
  }
  DenseResult<Z> t(output_size);
  // Pull and cuSPARSE write every output position (absent ones too); a push writes only the
  // outputs it reaches.
  if (!products || pushes) t.clear();
  if (products) {
    if (desc.strategy == MxvStrategy::cusparse) {
      if constexpr (cusparse_supports<Semiring, W, A, U>())
        cusparse_spmv(t, pull_is_csc ? a.csc() : a.csr(), u, mask_view);
    } else if (pushes) {
      push(t, push_rows, *plan, mask_view, semiring.add, product);
    } else {
      // The longest row decides whether long rows are split (only for monoids that read whole
      // rows; cached in the matrix after the first call).
      const Offset longest = early_exit ? 0 : longest_row_of(a, pull_is_csc);
      pull(t, pull_is_csc ? a.csc() : a.csr(), u, mask_view, semiring.add, product, longest,
           adopted, edge_rows, nullptr, {}, narrow);
    }
  }
  write_back(w, mask_view, accum, std::move(t), desc, /*t_within_mask=*/true);
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
