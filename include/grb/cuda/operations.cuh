// The cuda backend (compiled by nvcc): every grb operation with the same signatures and the same
// semantics as grb/cpu, on device-resident objects. grb/operations.hpp includes this header when
// nvcc compiles it and dispatches objects on Backend::cuda here.
//
//   primitives/     what the operations and the engines share (primitives.cuh lists it)
//   runtime.cuh     device temporaries, CUB runs, scalar copies
//   deferred.cuh    pushes queued with the assigns that fuse into them
//   views.cuh       device views of vectors, matrices, masks and index lists
//   write_back.cuh  output<mask, replace> = accum(output, T), shared by every operation
//   mxv/            mxv / vxm: direction choice, pull, push, the `any` push, cuSPARSE, driver
//   mxm.cuh         masked SpGEMM for any semiring
//   vector/         ewise, apply, select, assign (in place, fused behind a product), extract,
//                   reduce on vectors
//   matrix_ops.cuh  ewise, apply, select, assign, extract, transpose on matrices
#pragma once

#include "grb/cuda/primitives.cuh"
#include "grb/cuda/runtime.cuh"
#include "grb/cuda/matrix_ops.cuh"
#include "grb/cuda/mxm.cuh"
#include "grb/cuda/mxv/mxv.cuh"
#include "grb/cuda/vector/assign.cuh"
#include "grb/cuda/vector/ewise.cuh"
#include "grb/cuda/vector/extract.cuh"
#include "grb/cuda/vector/reduce.cuh"
#include "grb/cuda/views.cuh"
#include "grb/cuda/write_back.cuh"
