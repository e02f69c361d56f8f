// The features of each text format, on small files whose graphs are written out by hand here.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include <grb/grb.hpp>

#include "io_files.hpp"
#include "support.hpp"

using grb::test::entries;
using grb::test::Entry;
using Entries = std::vector<Entry>;

TEST_CASE("Matrix Market: symmetric and skew-symmetric files expand to both triangles") {
  grb::test::TempDir temp;
  const auto symmetric = grb::io::read_matrix_market_graph(temp.write(
      "s.mtx", "%%MatrixMarket matrix coordinate real symmetric\n% lower triangle\n3 3 3\n"
               "1 1 4.0\n2 1 -1.5\n3 2 0\n"));
  CHECK_FALSE(symmetric.directed);
  CHECK(symmetric.matrix.symmetric());
  CHECK(entries(symmetric.matrix) ==
        Entries{{0, 0, 4.0}, {0, 1, -1.5}, {1, 0, -1.5}, {1, 2, 0.0}, {2, 1, 0.0}});

  const auto skew = grb::io::read_matrix_market(temp.write(
      "k.mtx", "%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 2\n2 1 5\n3 1 -2\n"));
  CHECK(entries(skew) == Entries{{0, 1, -5}, {0, 2, 2}, {1, 0, 5}, {2, 0, -2}});
  // Mirrored structure, negated values: not a symmetric matrix.
  CHECK_FALSE(skew.symmetric());

  const auto pattern = grb::io::read_matrix_market_graph(temp.write(
      "p.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n2 1\n2 2\n"));
  CHECK_FALSE(pattern.weighted);
  CHECK(entries(pattern.matrix) == Entries{{0, 1, 1.0}, {1, 0, 1.0}, {1, 1, 1.0}});
}

TEST_CASE("Matrix Market: duplicates summed, zeros kept, blanks, CRLF, case and number forms") {
  grb::test::TempDir temp;
  const auto matrix = grb::io::read_matrix_market(temp.write(
      "d.mtx",
      "%%matrixmarket MATRIX Coordinate Real General\r\n%comment\r\n\r\n  2 3 6  \r\n"
      "1 1 1.5\r\n1\t1\t2.5\r\n\r\n% comment among entries\r\n2 3 0.0\r\n2 2 +1e3\r\n"
      "1 3 -0\r\n2 1 inf"));
  CHECK(matrix.nrows() == 2);
  CHECK(matrix.ncols() == 3);
  const auto stored = entries(matrix);
  REQUIRE(stored.size() == 5);
  CHECK(stored[0] == Entry{0, 0, 4.0});
  CHECK(stored[1] == Entry{0, 2, 0.0});
  CHECK(std::signbit(std::get<2>(stored[1])));  // -0 stays -0
  CHECK(stored[2] == Entry{1, 0, std::numeric_limits<double>::infinity()});
  CHECK(stored[3] == Entry{1, 1, 1000.0});
  CHECK(stored[4] == Entry{1, 2, 0.0});

  // Pattern duplicates are one edge, still 1.0.
  const auto pattern = grb::io::read_matrix_market(temp.write(
      "pd.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 3\n1 2\n1 2\n2 1\n"));
  CHECK(entries(pattern) == Entries{{0, 1, 1.0}, {1, 0, 1.0}});

  // Numbers beyond double range are still numbers (as strtod reads them).
  const auto extreme = grb::io::read_matrix_market(temp.write(
      "e.mtx", "%%MatrixMarket matrix coordinate real general\n1 2 2\n1 1 1e999\n1 2 -1e-999\n"));
  CHECK(entries(extreme) == Entries{{0, 0, std::numeric_limits<double>::infinity()}, {0, 1, -0.0}});

  // Empty matrices and non-square ones are read as they are; squareness is the caller's check.
  CHECK(grb::io::read_matrix_market(temp.write("z.mtx", "%%MatrixMarket matrix coordinate real general\n0 0 0\n")).nrows() == 0);
  const auto wide = grb::io::read_matrix_market_graph(temp.write(
      "w.mtx", "%%MatrixMarket matrix coordinate real general\n2 5 1\n2 5 7\n"));
  CHECK(wide.matrix.nrows() == 2);
  CHECK(wide.matrix.ncols() == 5);
  grb::io::ReadOptions symmetrize;
  symmetrize.symmetrize = true;
  CHECK_THROWS_AS(grb::io::read_graph(temp.path() / "w.mtx", symmetrize), grb::DimensionMismatch);
}

TEST_CASE("symmetrize: A ∪ A', the smaller value where both directions are stored") {
  grb::test::TempDir temp;
  grb::io::ReadOptions options;
  options.symmetrize = true;
  const auto graph = grb::io::read_graph(
      temp.write("g.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 4\n"
                          "1 2 5\n2 1 3\n2 3 0\n3 3 9\n"),
      options);
  CHECK_FALSE(graph.directed);
  CHECK(graph.matrix.symmetric());
  CHECK(entries(graph.matrix) ==
        Entries{{0, 1, 3.0}, {1, 0, 3.0}, {1, 2, 0.0}, {2, 1, 0.0}, {2, 2, 9.0}});
  // A symmetric file is already undirected: symmetrize leaves it alone.
  const auto once = grb::io::read_graph(grb::test::data_file("lagraph/karate.mtx"), options);
  CHECK(once.matrix.nvals() == 156);
}

TEST_CASE("edge lists: separators, comments, CRLF, weights, duplicates, self loops") {
  grb::test::TempDir temp;
  const auto graph = grb::io::read_graph(temp.write(
      "g.csv", "# SNAP-style header\r\n% another comment\r\n\r\n0,1,0.5\r\n1\t2\t0\r\n  3 ,  0 , -2.5  \r\n"
               "0 1 7\r\n2 2 1e-3\r\n4 0 1"));
  CHECK(graph.directed);
  CHECK(graph.weighted);
  CHECK(graph.name == "g");
  CHECK(graph.vertex_ids.empty());
  CHECK(graph.matrix.nrows() == 5);
  // (0,1) twice: the last weight wins.
  CHECK(entries(graph.matrix) ==
        Entries{{0, 1, 7.0}, {1, 2, 0.0}, {2, 2, 1e-3}, {3, 0, -2.5}, {4, 0, 1.0}});

  const auto unweighted = grb::io::read_graph(temp.write("u.el", "5 1\n1 5\n5 1\n"));
  CHECK_FALSE(unweighted.weighted);
  CHECK(unweighted.matrix.nrows() == 6);  // ids 0, 2, 3, 4 exist, without edges
  CHECK(entries(unweighted.matrix) == Entries{{1, 5, 1.0}, {5, 1, 1.0}});

  grb::io::ReadOptions options;
  options.symmetrize = true;
  const auto undirected = grb::io::read_graph(temp.write("s.tsv", "0\t1\t4\n1\t0\t2\n1\t2\t1\n2\t2\t8\n"), options);
  CHECK_FALSE(undirected.directed);
  CHECK(entries(undirected.matrix) ==
        Entries{{0, 1, 2.0}, {1, 0, 2.0}, {1, 2, 1.0}, {2, 1, 1.0}, {2, 2, 8.0}});
}

TEST_CASE("edge lists: ids beyond 32 bits or spread thin are numbered in ascending order") {
  grb::test::TempDir temp;
  const auto wide = grb::io::read_graph(
      temp.write("wide.txt", "10000000000 7\n7 18446744073709551615\n3 10000000000\n"));
  CHECK(wide.vertex_ids == std::vector<std::uint64_t>{3, 7, 10000000000ull, 18446744073709551615ull});
  CHECK(entries(wide.matrix) == Entries{{0, 2, 1.0}, {1, 3, 1.0}, {2, 1, 1.0}});
  CHECK(grb::io::to_internal(wide, 10000000000ull) == 2);
  CHECK(grb::io::to_external(wide, 3) == 18446744073709551615ull);
  CHECK_THROWS_AS(grb::io::to_internal(wide, 8), grb::InvalidValue);
  CHECK_THROWS_AS(grb::io::to_external(wide, 4), grb::IndexOutOfBounds);

  // Ids that fit 32 bits, but three edges do not justify four billion vertices.
  const auto sparse = grb::io::read_graph(temp.write("sparse.txt", "4000000000 1\n1 2\n"));
  CHECK(sparse.matrix.nrows() == 3);
  CHECK(sparse.vertex_ids == std::vector<std::uint64_t>{1, 2, 4000000000ull});
  // A large id with enough edges to go with it is kept as it is.
  std::string many;
  for (int k = 0; k < 1000; ++k) many += std::to_string(k) + " " + std::to_string(k + 1) + "\n";
  many += "0 1008000\n";
  const auto dense = grb::io::read_graph(temp.write("dense.txt", many));
  CHECK(dense.vertex_ids.empty());
  CHECK(dense.matrix.nrows() == 1008001);
}

TEST_CASE("LDBC: ids in vertex-file order, with and without a properties file") {
  grb::test::TempDir temp;
  temp.write("g.v", "900\n5\n1000000000000\n77\n");
  temp.write("g.e", "5 900 1.5\n1000000000000 5 2\n77 77 0\n5 900 3\n");
  // No properties file: directed, weighted from the third column.
  const auto plain = grb::io::read_graph(temp.path() / "g");
  CHECK(plain.directed);
  CHECK(plain.weighted);
  CHECK_FALSE(plain.source.has_value());
  CHECK(plain.vertex_ids == std::vector<std::uint64_t>{900, 5, 1000000000000ull, 77});
  CHECK(entries(plain.matrix) == Entries{{1, 0, 3.0}, {2, 1, 2.0}, {3, 3, 0.0}});

  temp.write("g.properties",
             "! a Java-style comment\ngraph.g.vertex-file = g.v\ngraph.g.edge-file: g.e\n"
             "graph.g.directed = false\ngraph.g.edge-properties.names = weight\n"
             "graph.g.sssp.source-vertex = 77\n");
  const auto undirected = grb::io::read_graph(temp.path() / "g.properties");
  CHECK_FALSE(undirected.directed);
  CHECK(undirected.source == 77u);
  CHECK(grb::io::to_internal(undirected, 77) == 3);
  CHECK(entries(undirected.matrix) ==
        Entries{{0, 1, 3.0}, {1, 0, 3.0}, {1, 2, 2.0}, {2, 1, 2.0}, {3, 3, 0.0}});

  // Properties that name other columns: the weight is the column called "weight".
  temp.write("h.v", "1\n2\n");
  temp.write("h.e", "1 2 42 0.25\n");
  temp.write("h.properties",
             "graph.h.directed = true\ngraph.h.edge-properties.names = time, weight\n");
  CHECK(entries(grb::io::read_graph(temp.path() / "h.properties").matrix) == Entries{{0, 1, 0.25}});
  // No edge-properties: unweighted, further columns ignored.
  temp.write("h.properties", "graph.h.directed = true\n");
  const auto unweighted = grb::io::read_graph(temp.path() / "h.properties");
  CHECK_FALSE(unweighted.weighted);
  CHECK(entries(unweighted.matrix) == Entries{{0, 1, 1.0}});
}

TEST_CASE("LDBC upstream slip: an edge file that is the vertex file falls back to NAME.e") {
  grb::test::TempDir temp;
  temp.write("s.v", "1\n2\n3\n");
  temp.write("s.e", "1 2 0.5\n2 3 1.5\n");
  temp.write("other.v", "1\n2\n3\n");
  // Named as the vertex file itself, as in test-sssp-undirected.properties.
  temp.write("s.properties", "graph.s.vertex-file = s.v\ngraph.s.edge-file = s.v\n"
                             "graph.s.directed = true\ngraph.s.edge-properties.names = weight\n");
  CHECK(entries(grb::io::read_graph(temp.path() / "s.properties").matrix) ==
        Entries{{0, 1, 0.5}, {1, 2, 1.5}});
  // Named as another one-column file.
  temp.write("s.properties", "graph.s.vertex-file = s.v\ngraph.s.edge-file = other.v\n"
                             "graph.s.directed = true\ngraph.s.edge-properties.names = weight\n");
  CHECK(grb::io::read_graph(temp.path() / "s.properties").matrix.nvals() == 2);
  // A real, different edge file is read as named.
  temp.write("t.e", "3 1 9\n");
  temp.write("s.properties", "graph.s.vertex-file = s.v\ngraph.s.edge-file = t.e\n"
                             "graph.s.directed = true\ngraph.s.edge-properties.names = weight\n");
  CHECK(entries(grb::io::read_graph(temp.path() / "s.properties").matrix) == Entries{{2, 0, 9.0}});
}

TEST_CASE("long lines and files larger than one read chunk") {
  grb::test::TempDir temp;
  // A comment longer than the reader's buffer, then 2^21 edges (~20 MB, over one 16 MB chunk).
  std::string text = "#" + std::string((std::size_t{1} << 24) + 100, 'x') + "\n";
  const grb::Index n = 1 << 20;
  for (grb::Index k = 0; k < 2 * n; ++k) {
    text += std::to_string(k % n) + " " + std::to_string((k * 7 + 1) % n) + " " +
            std::to_string(k) + "\n";
  }
  const auto graph = grb::io::read_graph(temp.write("big.txt", text));
  CHECK(graph.matrix.nrows() == n);
  // Each (k mod n, 7k+1 mod n) pair occurs for k and k + n: the later weight wins.
  CHECK(graph.matrix.nvals() == n);
  for (grb::Index k : {grb::Index{0}, grb::Index{12345}, n - 1})
    CHECK(graph.matrix.extract_element(k, (k * 7 + 1) % n) == double(k + n));
}
