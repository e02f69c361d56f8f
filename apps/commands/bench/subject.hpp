// The runner (runner.hpp) that `grb bench` measures for one entry of its selection. The runner
// also checks every run: the first engine of an algorithm to run on a graph gives each root its
// reference, validated in full (grb::validate: the Graph500 rules for BFS, relaxation and tree
// edges for SSSP, a partition check for CC); every later run must reproduce the reference
// exactly and, for BFS and SSSP, have a valid parent tree (Runner::check). So every run is
// followed by the same host work, whichever engine it is and wherever it stands in the list
// (docs/bfs.md, "Measuring"). Triangle counting has no validator: its counts must agree with
// the first engine's.
#pragma once

#include <memory>

#include "../../runner.hpp"
#include "selection.hpp"

namespace grb::app::bench {

/// The runner of `entry`'s engine; `delta` is the SSSP bucket width to run with (0: the
/// engine's default).
std::unique_ptr<Runner> make_runner(const Entry& entry, double delta);

}  // namespace grb::app::bench
