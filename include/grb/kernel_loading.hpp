// How the CUDA runtime loads kernels, for programs that time repeated runs.
#pragma once

#include <cstdlib>

namespace grb {

/// Asks the CUDA runtime to load every kernel of the program when it starts
/// (CUDA_MODULE_LOADING=EAGER), unless the environment already says how. Call it first in main(),
/// before anything touches the GPU; it changes nothing once the runtime has started.
///
/// Since CUDA 12 a kernel is loaded at its first launch (lazy loading), at a cost of tens of
/// microseconds of host time. A timed run after a warm-up still pays it for each kernel the
/// warm-up did not launch, and which kernels a linear-algebra BFS launches depends on its root
/// (a push with a scan or by rows, and with how many lanes per row): on kron22 the first root
/// whose fifth level pushed with a scan spent ~130 us (under CUPTI) in its first launches there.
inline void load_kernels_eagerly() { setenv("CUDA_MODULE_LOADING", "EAGER", /*overwrite=*/0); }

}  // namespace grb
