// Matrix Market files read by every rank in parallel parts (grb/distributed/read_graph.hpp):
// each rank's rows against the same rows of the single-process reader's undirected graph, on
// the repository's graphs; a malformed entry reported at its line by rank 0, and refused on
// every rank; searches on a file graph checked by the distributed validators.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <grb/distributed/bfs.hpp>
#include <grb/distributed/read_graph.hpp>
#include <grb/distributed/relabelling.hpp>
#include <grb/distributed/validate.hpp>
#include <string>
#include <vector>

#include "distributed/linear_algebra.hpp"
#include "support.hpp"

namespace {

using grb::Index;
using grb::dist::Communicator;

/// Whether this rank's rows equal the same rows of `whole` (columns, and values for double).
template <class T>
bool same_rows(const grb::dist::Graph<T>& graph, const grb::Matrix<double>& whole) {
  const grb::Csr<T>& local = graph.local.csr();
  const grb::Csr<double>& all = whole.csr();
  if (local.nrows != graph.partition.count(graph.rank) || local.ncols != all.ncols) return false;
  for (Index i = 0; i < local.nrows; ++i) {
    const Index v = graph.first() + i;
    if (local.row_offsets[i + 1] - local.row_offsets[i] !=
        all.row_offsets[v + 1] - all.row_offsets[v])
      return false;
    for (grb::Offset k = 0; k < local.row_offsets[i + 1] - local.row_offsets[i]; ++k) {
      const grb::Offset a = local.row_offsets[i] + k, b = all.row_offsets[v] + k;
      if (local.col_indices[a] != all.col_indices[b]) return false;
      if constexpr (std::is_same_v<T, double>)
        if (local.values[a] != all.values[b]) return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("distributed Matrix Market: every rank's rows are the single-process graph's rows") {
  const Communicator comm = Communicator::world();
  // Berlin repeats some roads (summed, as the single-process reader sums them); west0067 holds
  // entries both ways with other values (the smaller kept); bcsstk13 is symmetric.
  for (const char* file : {"lagraph/karate.mtx", "lagraph/jagmesh7.mtx", "lagraph/west0067.mtx",
                           "lagraph/bcsstk13.mtx", "road/berlin-center.mtx"}) {
    INFO(std::string(file));
    const std::filesystem::path path = grb::test::data_file(file);
    const grb::io::Graph whole = grb::io::read_matrix_market_graph(path, {.symmetrize = true});
    const auto pattern = grb::dist::read_matrix_market<bool>(comm, path);
    const auto weighted = grb::dist::read_matrix_market<double>(comm, path);
    CHECK(pattern.global_entries == whole.matrix.nvals());
    CHECK(comm.all(same_rows(pattern, whole.matrix)));
    CHECK(comm.all(same_rows(weighted, whole.matrix)));
  }
}

TEST_CASE("distributed Matrix Market: a malformed entry is reported at its line, on every rank") {
  const Communicator comm = Communicator::world();
  // Each rank its own copy (the reader needs the same text, not the same path).
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("grb-distributed-read-" + std::to_string(::getpid()) + ".mtx");
  {
    std::ofstream out(path);
    out << "%%MatrixMarket matrix coordinate pattern general\n4 4 4\n1 2\n2 3\n3 x\n4 1\n";
  }
  bool threw = false;
  std::string message;
  try {
    grb::dist::read_matrix_market<bool>(comm, path);
  } catch (const grb::Error& error) {
    threw = true;
    message = error.what();
  }
  std::filesystem::remove(path);
  CHECK(threw);
  INFO(message);
  if (comm.rank() == 0)
    CHECK(message.find(":5:") != std::string::npos);
  else
    CHECK(message.find("rank 0") != std::string::npos);

  // A banner problem is the same error on every rank, without rank 0's help.
  {
    std::ofstream out(path);
    out << "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1 0\n";
  }
  CHECK_THROWS_AS(grb::dist::read_matrix_market<bool>(comm, path), grb::ParseError);
  std::filesystem::remove(path);
}

TEST_CASE("distributed searches on a road graph from a file, validated where the data lives") {
  const Communicator comm = Communicator::world();
  const std::filesystem::path path = grb::test::data_file("road/berlin-center.mtx");
  const auto pattern = grb::dist::read_matrix_market<bool>(comm, path);
  const auto weighted = grb::dist::read_matrix_market<double>(comm, path);
  const grb::dist::BfsResult bfs = grb::dist::bfs(comm, pattern, 0);
  grb::dist::Verdict verdict = grb::dist::validate_bfs(comm, pattern, 0, bfs);
  INFO(verdict.message);
  CHECK(verdict.ok);
  std::vector<double> distance;
  grb::dist::sssp_bellman_ford(comm, weighted, 0)
      .extract_dense(distance, std::numeric_limits<double>::infinity());
  verdict = grb::dist::validate_sssp(comm, weighted, 0, distance);
  INFO(verdict.message);
  CHECK(verdict.ok);
  std::vector<Index> label;
  grb::dist::components_label_propagation(comm, pattern).extract_dense(label, grb::no_index);
  verdict = grb::dist::validate_components(comm, pattern, label);
  INFO(verdict.message);
  CHECK(verdict.ok);
}

TEST_CASE("relabelling: a bijection of the vertices, and its inverse") {
  for (Index n : {Index{1}, Index{2}, Index{7}, Index{1000}, Index{4096}}) {
    const grb::dist::Relabelling relabelling(n, 42);
    std::vector<char> seen(n, 0);
    bool ok = true;
    for (Index v = 0; v < n && ok; ++v) {
      const Index l = relabelling.label(v);
      ok = l < n && !seen[l] && relabelling.original(l) == v;
      if (ok) seen[l] = 1;
    }
    INFO("n " << n);
    CHECK(ok);
  }
  // Another seed, another labelling.
  const grb::dist::Relabelling a(1000, 1), b(1000, 2);
  int same = 0;
  for (Index v = 0; v < 1000; ++v) same += a.label(v) == b.label(v);
  CHECK(same < 100);
}

TEST_CASE("a relabelled file graph: the same graph under new names, searched alike") {
  const Communicator comm = Communicator::world();
  const std::filesystem::path path = grb::test::data_file("road/berlin-center.mtx");
  const auto plain = grb::dist::read_matrix_market<bool>(comm, path);
  const grb::dist::Relabelling relabelling(plain.partition.vertices(), 7);
  const auto relabelled = grb::dist::read_matrix_market<bool>(comm, path, 7);
  CHECK(relabelled.global_entries == plain.global_entries);
  const Index source = 100;
  const grb::dist::BfsResult a = grb::dist::bfs(comm, plain, source);
  const grb::dist::BfsResult b = grb::dist::bfs(comm, relabelled, relabelling.label(source));
  const grb::dist::Verdict verdict =
      grb::dist::validate_bfs(comm, relabelled, relabelling.label(source), b);
  INFO(verdict.message);
  CHECK(verdict.ok);
  const std::vector<std::int32_t> levels = comm.gather(a.level);
  const std::vector<std::int32_t> relabelled_levels = comm.gather(b.level);
  if (comm.rank() == 0) {
    bool same = levels.size() == relabelled_levels.size();
    for (Index v = 0; same && v < levels.size(); ++v)
      same = relabelled_levels[relabelling.label(v)] == levels[v];
    CHECK(same);
  }
}
