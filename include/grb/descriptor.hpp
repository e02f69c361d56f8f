// Descriptors, mask and accumulator placeholders, index lists: the modifiers of every operation,
// with the meaning the GraphBLAS C API 2.x gives them:  w<mask, replace> = accum(w, op(...)).
#pragma once

#include <span>
#include <vector>

#include "grb/types.hpp"

namespace grb {

/// How mxv/vxm (and mxm) traverse the matrix (a hint; the cpu backend and `automatic` choose
/// themselves).
enum class MxvStrategy {
  automatic,  // direction optimization from the input's nvals and the mask's density
  push,       // expand the sparse input vector over the matrix rows it selects (SpMSpV); mxm:
              // expand every product, sort, reduce
  pull,       // a masked dot product per output entry, stopping early for lor/any monoids; mxm:
              // one per entry of a mask that is not complemented
  cusparse,   // cusparseSpMV (plus_times on float/double only; cuda backend)
};

struct Descriptor {
  bool replace = false;           // GrB_REPLACE: entries outside the mask are deleted
  bool structural_mask = false;   // GrB_STRUCTURE: the mask's pattern counts, not its values
  bool complement_mask = false;   // GrB_COMP
  bool transpose_first = false;   // GrB_TRAN on the first matrix input
  bool transpose_second = false;  // GrB_TRAN on the second matrix input
  MxvStrategy strategy = MxvStrategy::automatic;
};

/// No mask: every position may be written (with complement_mask: none may).
struct NoMask {};
inline constexpr NoMask no_mask{};

/// No accumulator: the result replaces the output's entries (within the mask).
struct NoAccum {};
inline constexpr NoAccum no_accum{};

/// GrB_ALL: every index, in order.
struct AllIndices {};
inline constexpr AllIndices all{};

/// A list of indices for extract and assign: explicit ids, or all of them. The ids may live on
/// the device (e.g. the values of a cuda Vector<Index>, as FastSV's gather f(f) uses them);
/// they must then be on the backend of the operation's objects.
/// An assign whose list repeats an index combines the repeated entries with the accumulator
/// (as SuiteSparse:GraphBLAS does); without an accumulator any one of them wins.
class IndexList {
 public:
  IndexList(AllIndices) : all_(true) {}
  IndexList(std::span<const Index> ids, Backend backend = Backend::cpu)
      : ids_(ids), backend_(backend) {}
  IndexList(const std::vector<Index>& ids) : ids_(ids) {}
  bool is_all() const { return all_; }
  Backend backend() const { return backend_; }
  /// Number of indices, given the dimension they select from.
  Index size(Index dimension) const { return all_ ? dimension : static_cast<Index>(ids_.size()); }
  Index operator()(Index position) const { return all_ ? position : ids_[position]; }
  std::span<const Index> ids() const { return ids_; }

 private:
  bool all_ = false;
  std::span<const Index> ids_;
  Backend backend_ = Backend::cpu;
};

}  // namespace grb
