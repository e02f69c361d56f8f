// A random relabelling of a graph's vertices, for balance: a file's ids often follow its
// structure (hubs first, or a road network's geography), which a block partition would turn
// into ranks of very different work. Computed pointwise (a Feistel permutation, as the
// generators permute their vertices), so every rank applies it without a table, and maps a label
// back to the file's id.
#pragma once

#include <cstdint>
#include <memory>

#include "grb/types.hpp"

namespace grb::generate::detail {
class Permutation;
}

namespace grb::dist {

class Relabelling {
 public:
  /// A bijection of [0, n) drawn from `seed` (the same on every rank for the same seed).
  Relabelling(Index n, std::uint64_t seed);
  /// The label of the file's vertex v (v < n).
  Index label(Index v) const;
  /// The file's vertex with label l (l < n).
  Index original(Index l) const;

 private:
  std::shared_ptr<const generate::detail::Permutation> permutation_;
};

}  // namespace grb::dist
