// The cuda backend (compiled by nvcc): every grb operation with the same signatures and the same
// semantics as grb/cpu, on device-resident objects. grb/operations.hpp includes this header when
// nvcc compiles it and dispatches objects on Backend::cuda here.
//
//   views.cuh       device views of vectors, matrices, masks and index lists
//   write_back.cuh  output<mask, replace> = accum(output, T), shared by every operation
//   mxv.cuh         mxv / vxm: push (SpMSpV), pull, cuSPARSE, direction optimization
//   mxm.cuh         masked SpGEMM for any semiring
//   vector_ops.cuh  ewise, apply, select, assign, extract, reduce on vectors
//   matrix_ops.cuh  ewise, apply, select, assign, extract, transpose on matrices
#pragma once

#include "grb/cuda/check.cuh"
#include "grb/cuda/launch.cuh"
#include "grb/cuda/matrix_ops.cuh"
#include "grb/cuda/mxm.cuh"
#include "grb/cuda/mxv.cuh"
#include "grb/cuda/vector_ops.cuh"
#include "grb/cuda/views.cuh"
#include "grb/cuda/write_back.cuh"
