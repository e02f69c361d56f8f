// grb::dist::Relabelling (grb/distributed/relabelling.hpp): the generators' pointwise
// permutation, on a stream of the seed of its own. In the core library, so that the CPU ranks
// and the GPU ranks share it.
#include "grb/distributed/relabelling.hpp"

#include "counter_random.hpp"

namespace grb::dist {

Relabelling::Relabelling(Index n, std::uint64_t seed)
    : permutation_(std::make_shared<const generate::detail::Permutation>(
          n, generate::detail::stream_key(seed, generate::detail::Stream::relabelling))) {}

Index Relabelling::label(Index v) const { return static_cast<Index>((*permutation_)(v)); }

Index Relabelling::original(Index l) const { return static_cast<Index>(permutation_->inverse(l)); }

}  // namespace grb::dist
