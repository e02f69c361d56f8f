// Triangle counting as linear algebra (Wolf et al., "Fast linear algebra-based triangle
// counting with KokkosKernels", HPEC 2017; LAGraph's Sandia_LL method): with L the strictly
// lower triangle of the undirected graph,
//   C<L> = L plus.pair L      C(i, k) = |{ j : i > j > k, L(i, j), L(j, k) }| where L(i, k)
//   triangles = sum(C)
// Each triangle i > j > k is counted once, at C(i, k), through its middle vertex j. The mask
// keeps only products that close a triangle; plus.pair counts them without reading values.
//
// Needs: any square matrix; lower_triangle() forms L from A + A' (so a directed graph counts the
// triangles of its undirected version) and drops self loops.
#pragma once

#include <cstdint>
#include <string>

#include "grb/grb.hpp"

namespace grb::algorithms {
inline namespace GRB_OPERATIONS_NAMESPACE {  // see grb/operations.hpp

/// L = tril(A + A', -1): each undirected edge once, self loops dropped.
template <class T>
Matrix<bool> lower_triangle(const Matrix<T>& a) {
  const Index n = a.nrows();
  if (a.ncols() != n)
    throw DimensionMismatch("lower_triangle: the adjacency matrix must be square, not " +
                            std::to_string(n) + " x " + std::to_string(a.ncols()));
  const Matrix<bool> structure = pattern(a);
  Matrix<bool> undirected(n, n, a.backend());
  ewise_add(undirected, no_mask, no_accum, lor<bool>{}, structure, structure,
            Descriptor{.transpose_second = true});
  Matrix<bool> lower(n, n, a.backend());
  select(lower, no_mask, no_accum, tril{-1}, undirected);
  return lower;
}

/// The triangles of the undirected graph whose strictly lower triangle is `lower`.
template <class T>
std::uint64_t triangle_count(const Matrix<T>& lower) {
  Matrix<std::uint64_t> closed(lower.nrows(), lower.ncols(), lower.backend());
  mxm(closed, lower, no_accum, plus_pair<std::uint64_t>{}, lower, lower,
      Descriptor{.structural_mask = true});
  return reduce(plus_monoid<std::uint64_t>{}, closed);
}

}  // namespace GRB_OPERATIONS_NAMESPACE
}  // namespace grb::algorithms
