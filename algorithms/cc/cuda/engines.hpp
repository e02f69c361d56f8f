// Factories of the hand-written GPU connected-components engines (one .cu file each), for the
// registry. Plain C++: registry.cpp is compiled by the host compiler.
#pragma once

#include <memory>

#include "cc/engine.hpp"

namespace grb::cc::kernels {

std::unique_ptr<Engine> make_label_propagation();
std::unique_ptr<Engine> make_hook_jump();

}  // namespace grb::cc::kernels
