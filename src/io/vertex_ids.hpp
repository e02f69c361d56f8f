// Columns of file vertex ids that stay 32-bit until an id needs more, and the choice between
// keeping a file's ids as they are and numbering them compactly.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "grb/types.hpp"

namespace grb::io::detail {

/// File ids in parse order: 4 bytes each while every id fits in an Index (below no_index),
/// 8 bytes each from the first id that does not.
class IdColumn {
 public:
  void push_back(std::uint64_t id) {
    if (wide_.empty() && id < no_index) [[likely]] {
      narrow_.push_back(static_cast<Index>(id));
    } else {
      push_back_wide(id);
    }
  }
  void reserve(std::size_t count) { narrow_.reserve(count); }
  /// Takes ids that all fit in an Index (parsed elsewhere), replacing any held.
  void assign_narrow(std::vector<Index>&& ids) {
    std::vector<std::uint64_t>().swap(wide_);
    narrow_ = std::move(ids);
  }
  std::size_t size() const { return wide_.empty() ? narrow_.size() : wide_.size(); }
  bool is_wide() const { return !wide_.empty(); }
  std::uint64_t operator[](std::size_t i) const { return wide_.empty() ? narrow_[i] : wide_[i]; }
  /// The ids as Index values: only when !is_wide().
  std::vector<Index>&& take_narrow() { return std::move(narrow_); }
  void clear() {
    std::vector<Index>().swap(narrow_);
    std::vector<std::uint64_t>().swap(wide_);
  }

 private:
  [[gnu::noinline]] void push_back_wide(std::uint64_t id) {
    if (wide_.empty()) {
      wide_.assign(narrow_.begin(), narrow_.end());
      std::vector<Index>().swap(narrow_);
    }
    wide_.push_back(id);
  }
  std::vector<Index> narrow_;
  std::vector<std::uint64_t> wide_;
};

}  // namespace grb::io::detail
