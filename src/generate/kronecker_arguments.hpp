// The Kronecker generator's argument checks, shared by the host and GPU generators so that both
// refuse the same inputs with the same message.
#pragma once

#include <string>

#include "grb/error.hpp"

namespace grb::generate::detail {

inline void check_kronecker_arguments(int scale, int edge_factor) {
  if (scale < 1 || scale > 31)
    throw InvalidValue("kronecker: scale " + std::to_string(scale) +
                       " outside [1, 31] (vertex ids are 32-bit)");
  if (edge_factor < 1)
    throw InvalidValue("kronecker: edge factor " + std::to_string(edge_factor) + " is below 1");
}

}  // namespace grb::generate::detail
