// The primitives tier of the cuda backend: the pieces that the GraphBLAS operations
// (include/grb/cuda) and the hand-written engines (algorithms/*/cuda) share, each written once.
//   check.cuh         status checks: a failed call is a grb::CudaError naming it, file and line
//   launch.cuh        launch geometry: blocks_for, resident_blocks, the grid-stride loop
//   search.cuh        the owner of a work item in a scan (a thread's and a warp's search)
//   warp.cuh          lane numbering, warp scans and reductions, warp-aggregated appends
//   block.cuh         a block's staged append (StagedList), block-wide slot taking
//   bitmap.cuh        one bit a position
//   claim_stamps.cuh  first-writer claims without clearing, and the published output count
//   csr_view.cuh      the one device view of a CSR matrix or graph
//   host_sync.cuh     events and page-locked values
#pragma once

#include "grb/cuda/primitives/bitmap.cuh"
#include "grb/cuda/primitives/block.cuh"
#include "grb/cuda/primitives/check.cuh"
#include "grb/cuda/primitives/claim_stamps.cuh"
#include "grb/cuda/primitives/csr_view.cuh"
#include "grb/cuda/primitives/host_sync.cuh"
#include "grb/cuda/primitives/launch.cuh"
#include "grb/cuda/primitives/search.cuh"
#include "grb/cuda/primitives/warp.cuh"
