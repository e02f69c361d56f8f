// The GPU halves of the generators (src/cuda/kronecker.cu, src/cuda/edge_list_to_csr.cu), called
// by src/generate/device_edges.cpp once it has checked the arguments.
#pragma once

#include <cstdint>

#include "grb/generate.hpp"

namespace grb::generate::detail {

/// Fills edges.source/target/weight (already sized to nedges, on the device) with
/// KroneckerSampler(scale, nedges, seed)(k) for every k.
void fill_kronecker_cuda(int scale, std::uint64_t seed, DeviceEdgeList& edges);

/// The adjacency matrix of a device edge list whose arrays have equal lengths. `consumed` is
/// the list itself or null: when given, its endpoint arrays are freed once the sort keys hold them.
Csr<double> edge_list_to_csr_cuda(const DeviceEdgeList& edges, const Options& options,
                                  DeviceEdgeList* consumed);

}  // namespace grb::generate::detail
