// Factories of the hand-written GPU engines (one .cu file each), for the registry. Plain C++:
// registry.cpp is compiled by the host compiler, and only when grb is built with CUDA does it
// reference these.
#pragma once

#include <memory>

#include "bfs/engine.hpp"

namespace grb::bfs::kernels {

std::unique_ptr<Engine> make_vertex_push();
std::unique_ptr<Engine> make_vertex_pull();
std::unique_ptr<Engine> make_edge_centric();
std::unique_ptr<Engine> make_frontier_queue();
std::unique_ptr<Engine> make_frontier_privatized();
std::unique_ptr<Engine> make_warp_cooperative();
std::unique_ptr<Engine> make_bucketed();
std::unique_ptr<Engine> make_load_balanced();
std::unique_ptr<Engine> make_single_block();
std::unique_ptr<Engine> make_direction_optimized();
std::unique_ptr<Engine> make_persistent();
std::unique_ptr<Engine> make_cub_select();
std::unique_ptr<Engine> make_auto();

}  // namespace grb::bfs::kernels
