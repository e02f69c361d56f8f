// Graph files read by every rank at once: each rank parses its own part of the file (its byte
// range, cut at line ends) and sends each entry, both ways, to the owners of its rows, as the
// distributed generator does; no rank reads or holds the whole graph. Over a Communicator (MPI)
// or a DeviceCommunicator (NCCL, through host memory). Matrix Market for now.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "grb/distributed/assemble.hpp"
#include "grb/distributed/partition.hpp"
#include "grb/distributed/relabelling.hpp"
#include "grb/error.hpp"
#include "grb/io.hpp"

namespace grb::dist {

/// The undirected graph of a square Matrix Market file (each entry stored in both rows; parallel
/// entries keep the smallest value, where the single-process reader sums a file's duplicates)
/// with values of T: bool for its pattern, double for its weights (1 in a pattern file). Ids
/// are 0-based (the file's minus one). Collective.
///
/// With `relabel_seed`, vertex v of the file is vertex Relabelling(n, seed).label(v) of the
/// graph.
///
/// A banner or size-line problem throws the same ParseError on every rank. When a part holds a
/// line the parallel parse does not take (a malformed entry, a value out of double's range) or
/// the entry count differs from the size line's, or the file is compressed, rank 0 reads the
/// file whole: it reports the problem at its line (every other rank throws a CommunicationError
/// that says rank 0 failed), or, for a well-formed file, sends each rank its entries.
template <class T, class Comm>
Graph<T> read_matrix_market(const Comm& comm, const std::filesystem::path& path,
                            std::optional<std::uint64_t> relabel_seed = std::nullopt) {
  const io::MatrixMarketPart part =
      io::read_matrix_market_part(path, std::size_t(comm.rank()), std::size_t(comm.size()));
  if (part.nrows != part.ncols)
    throw InvalidValue(path.string() + ": a " + std::to_string(part.nrows) + " x " +
                       std::to_string(part.ncols) + " matrix is not a graph (not square)");
  const BlockPartition partition(part.nrows, comm.size());
  const std::optional<Relabelling> relabelling =
      relabel_seed ? std::optional<Relabelling>(Relabelling(part.nrows, *relabel_seed))
                   : std::nullopt;
  std::vector<std::vector<Entry<T>>> send(comm.size());
  const auto add = [&](Index i, Index j, double value) {
    if (relabelling) i = relabelling->label(i), j = relabelling->label(j);
    const T stored = std::is_same_v<T, bool> ? T(true) : T(value);
    send[partition.owner(i)].push_back({i, j, stored});
    if (i != j) send[partition.owner(j)].push_back({j, i, stored});
  };
  const bool parsed = comm.all(part.parsed) && comm.sum(part.lines) == part.declared_entries;
  if (parsed) {
    for (std::size_t k = 0; k < part.rows.size(); ++k)
      add(part.rows[k], part.cols[k], part.values.empty() ? 1.0 : part.values[k]);
    return assemble_rows(comm, partition, send);
  }
  // Rank 0 reads the file whole, for its exact error or its entries.
  io::Graph whole;
  bool read = true;
  if (comm.rank() == 0) {
    try {
      whole = io::read_matrix_market_graph(path, {.symmetrize = true});
    } catch (...) {
      comm.all(false);
      throw;
    }
  }
  if (!comm.all(read))
    throw CommunicationError(path.string() + ": rank 0 found a problem reading the file");
  if (comm.rank() == 0) {
    const Csr<double>& csr = whole.matrix.csr();
    for (Index i = 0; i < csr.nrows; ++i)
      for (Offset e = csr.row_offsets[i]; e < csr.row_offsets[i + 1]; ++e)
        add(i, csr.col_indices[e], csr.values[e]);
  }
  return assemble_rows(comm, partition, send);
}

}  // namespace grb::dist
