// Masks as the cpu operations read them: which output positions may be written.
// Each view copies what it needs from the mask object, so the output may be the mask itself.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "grb/cpu/entries.hpp"

namespace grb::cpu::detail {

/// Whether a mask entry counts: its presence (structural) or its value cast to bool (valued).
template <class T>
bool mask_entry_allows(const T& value, bool structural) {
  return structural || static_cast<bool>(value);
}

/// A vector mask over `size` positions: allows(i) after the complement.
class VectorMask {
 public:
  template <class Mask>
  VectorMask(const Mask& mask, const Descriptor& desc, Index size, const char* operation)
      : size_(size), complement_(desc.complement_mask) {
    if constexpr (std::is_same_v<Mask, NoMask>) {
      (void)operation;
      everything_ = true;
    } else {
      if (mask.size() != size)
        dimension_mismatch(operation, "mask of size " + std::to_string(mask.size()) +
                                          " for an output of size " + std::to_string(size));
      in_mask_ = Array<std::uint8_t>(size, Backend::cpu);
      std::fill(in_mask_.begin(), in_mask_.end(), std::uint8_t{0});
      for_each_entry(mask, [&](Index i, const auto& value) {
        if (mask_entry_allows(value, desc.structural_mask)) {
          in_mask_[i] = 1;
          ++in_mask_count_;
        }
      });
    }
  }

  bool allows(Index i) const { return everything_ ? !complement_ : (in_mask_[i] != 0) != complement_; }
  /// True when every position may be written (no mask, not complemented).
  bool allows_everything() const { return everything_ && !complement_; }
  /// How many positions may be written.
  Index allowed_count() const {
    if (everything_) return complement_ ? 0 : size_;
    return complement_ ? size_ - in_mask_count_ : in_mask_count_;
  }

 private:
  Index size_;
  bool complement_;
  bool everything_ = false;
  Array<std::uint8_t> in_mask_;
  Index in_mask_count_ = 0;
};

/// A matrix mask: select_row(i), then allows(j). Keeps the pattern of the entries that count.
class MatrixMask {
 public:
  template <class Mask>
  MatrixMask(const Mask& mask, const Descriptor& desc, Index nrows, Index ncols,
             const char* operation)
      : complement_(desc.complement_mask) {
    if constexpr (std::is_same_v<Mask, NoMask>) {
      (void)nrows, (void)ncols, (void)operation;
      everything_ = true;
    } else {
      if (mask.nrows() != nrows || mask.ncols() != ncols)
        dimension_mismatch(operation, "mask of " + shape(mask.nrows(), mask.ncols()) +
                                          " for an output of " + shape(nrows, ncols));
      const auto& csr = mask.csr();
      offsets_ = Array<Offset>(std::size_t(nrows) + 1, Backend::cpu);
      offsets_[0] = 0;
      for (Index i = 0; i < nrows; ++i) {
        for (Offset e = csr.row_offsets[i]; e < csr.row_offsets[i + 1]; ++e)
          if (mask_entry_allows(csr.values[e], desc.structural_mask))
            columns_.push_back(csr.col_indices[e]);
        offsets_[std::size_t(i) + 1] = columns_.size();
      }
      stamp_ = Array<Index>(ncols, Backend::cpu);
      std::fill(stamp_.begin(), stamp_.end(), no_index);
    }
  }

  void select_row(Index i) {
    row_ = i;
    if (everything_) return;
    for (Offset e = offsets_[i]; e < offsets_[std::size_t(i) + 1]; ++e) stamp_[columns_[e]] = i;
  }
  bool allows(Index j) const { return everything_ ? !complement_ : (stamp_[j] == row_) != complement_; }
  bool allows_everything() const { return everything_ && !complement_; }
  /// True when no position may be written (complemented no_mask).
  bool allows_nothing() const { return everything_ && complement_; }
  /// A mask that lists the positions it allows (given, not complemented): row i's columns.
  bool lists_allowed() const { return !everything_ && !complement_; }
  std::span<const Index> allowed_columns(Index i) const {
    return {columns_.data() + offsets_[i], columns_.data() + offsets_[std::size_t(i) + 1]};
  }
  Offset listed_count() const { return columns_.size(); }

 private:
  bool complement_;
  bool everything_ = false;
  Array<Offset> offsets_;
  std::vector<Index> columns_;
  Array<Index> stamp_;
  Index row_ = no_index;
};

}  // namespace grb::cpu::detail
