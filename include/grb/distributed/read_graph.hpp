// Graph files read by every rank at once: each rank parses its own part of the file (its byte
// range, cut at line ends) and sends each entry, both ways, to the owners of its rows, as the
// distributed generator does; no rank reads or holds the whole graph. Over a Communicator (MPI)
// or a DeviceCommunicator (NCCL, through host memory). Matrix Market for now.
#pragma once

#include <cstdint>
#include <exception>
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

/// The undirected graph of a square Matrix Market file, with values of T: bool for its pattern,
/// double for its weights (1 in a pattern file). Rank r's rows are exactly rows
/// [first(r), first(r + 1)) of io::read_matrix_market_graph(path, {.symmetrize = true}), values
/// included (a file's duplicate entries summed, an entry and its mirror the smaller). Ids are
/// 0-based (the file's minus one). Collective.
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
  // A problem that only some ranks meet (the file missing on one host, memory) is agreed
  // before any rank goes on, so that no rank waits for another that has stopped.
  io::MatrixMarketPart part;
  std::exception_ptr problem;
  try {
    part = io::read_matrix_market_part(path, std::size_t(comm.rank()), std::size_t(comm.size()));
  } catch (...) {
    problem = std::current_exception();
  }
  if (!comm.all(problem == nullptr)) {
    if (problem) std::rethrow_exception(problem);
    throw CommunicationError(path.string() + ": another rank could not read its part");
  }
  if (part.nrows != part.ncols)
    throw InvalidValue(path.string() + ": a " + std::to_string(part.nrows) + " x " +
                       std::to_string(part.ncols) + " matrix is not a graph (not square)");
  const BlockPartition partition(part.nrows, comm.size());
  const std::optional<Relabelling> relabelling =
      relabel_seed ? std::optional<Relabelling>(Relabelling(part.nrows, *relabel_seed))
                   : std::nullopt;
  std::vector<std::vector<Entry<T>>> send(comm.size());
  // An entry to its row's owner, and (mirrored) its mirror to the column's.
  const auto add = [&](Index i, Index j, double value, bool mirrored) {
    if (relabelling) i = relabelling->label(i), j = relabelling->label(j);
    const T stored = std::is_same_v<T, bool> ? T(true) : T(value);
    send[partition.owner(i)].push_back({i, j, stored, false});
    if (mirrored && i != j) send[partition.owner(j)].push_back({j, i, stored, true});
  };
  const bool parsed = comm.all(part.parsed) && comm.sum(part.lines) == part.declared_entries;
  if (parsed) {
    // A (skew-)symmetric file's part holds each entry's mirror already, as the file means it.
    for (std::size_t k = 0; k < part.rows.size(); ++k)
      add(part.rows[k], part.cols[k], part.values.empty() ? 1.0 : part.values[k], !part.symmetric);
    part = {};
    return assemble_rows(comm, partition, send, Combine::file_sums);
  }
  // Rank 0 reads the file whole, for its exact error or its (undirected) entries.
  io::Graph whole;
  if (comm.rank() == 0) {
    try {
      whole = io::read_matrix_market_graph(path, {.symmetrize = true});
      const Csr<double>& csr = whole.matrix.csr();
      for (Index i = 0; i < csr.nrows; ++i)
        for (Offset e = csr.row_offsets[i]; e < csr.row_offsets[i + 1]; ++e)
          add(i, csr.col_indices[e], csr.values[e], false);
    } catch (...) {
      comm.all(false);
      throw;
    }
  }
  if (!comm.all(true))
    throw CommunicationError(path.string() + ": rank 0 found a problem reading the file");
  whole = {};
  return assemble_rows(comm, partition, send, Combine::file_sums);
}

}  // namespace grb::dist
