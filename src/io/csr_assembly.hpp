// Turning parsed (row, column, value) tuples into a CSR by counting sort, and making a CSR
// symmetric. Shared by every text reader.
#pragma once

#include <vector>

#include "grb/matrix.hpp"
#include "grb/types.hpp"

namespace grb::io::detail {

/// What happens to repeated (row, column) tuples.
enum class Duplicates {
  sum,   // add the values, in file order (Matrix Market, as SuiteSparse does)
  last,  // keep the value that came last in the file (edge lists, LDBC)
  min,   // keep the smallest value, a NaN only alone (parallel roads: DIMACS, METIS, TNTP)
};

/// True while read_graph runs with ReadOptions::progress: assemble_csr then says on stderr when
/// it builds a large CSR (the reading itself is reported by LineReader).
inline thread_local bool report_progress = false;

/// A host CSR (rows sorted by column, no duplicates) from tuples that the caller has checked
/// to lie inside nrows x ncols. `values` empty means every value is 1.0, and duplicates then
/// stay 1.0. The tuple vectors are consumed to keep peak memory low.
Csr<double> assemble_csr(Index nrows, Index ncols, std::vector<Index>&& rows,
                         std::vector<Index>&& cols, std::vector<double>&& values,
                         Duplicates duplicates);

/// A ∪ A' of a square host CSR: every entry in both directions; where A(i,j) and A(j,i) are
/// both stored, both become the smaller value.
Csr<double> symmetrize_min(const Csr<double>& a);

}  // namespace grb::io::detail
