// Factories of the hand-written GPU SSSP engines (one .cu file each), for the registry. Plain
// C++: registry.cpp is compiled by the host compiler, and only a CUDA build references these.
#pragma once

#include <memory>

#include "sssp/engine.hpp"

namespace grb::sssp::kernels {

std::unique_ptr<Engine> make_frontier_bellman_ford();
std::unique_ptr<Engine> make_near_far();
std::unique_ptr<Engine> make_near_far_persistent();
std::unique_ptr<Engine> make_light_heavy();

}  // namespace grb::sssp::kernels
