// Factories of the hand-written GPU triangle-counting engines (one .cu file each), for the
// registry. Plain C++: registry.cpp is compiled by the host compiler.
#pragma once

#include <memory>

#include "tc/engine.hpp"

namespace grb::tc::kernels {

std::unique_ptr<Engine> make_merge();

}  // namespace grb::tc::kernels
