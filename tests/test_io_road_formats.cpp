// The formats real road and partitioning graphs come in: 9th DIMACS shortest-path .gr,
// METIS / DIMACS10 .graph and TransportationNetworks _net.tntp. Real files from tests/data,
// cross-checked against the same graphs in Matrix Market; malformed and hostile inputs as small
// temporary files, each expected to fail at its exact line.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>

#include <grb/grb.hpp>

#include "io_files.hpp"
#include "support.hpp"

using grb::test::entries;
using grb::test::Entry;
using Entries = std::vector<Entry>;

namespace {

using grb::test::expect_parse_error;

/// The entries of a text file of `FROM TO WEIGHT` lines (after `skip` header lines, and after
/// the leading `a` of DIMACS arcs when `letter`), 1-based ids made 0-based, repeated pairs
/// keeping the smallest weight: an independent reading to compare the readers with.
std::map<std::pair<grb::Index, grb::Index>, double> smallest_weights(
    const std::filesystem::path& path, bool letter, const std::string& comment) {
  std::ifstream in(path);
  std::map<std::pair<grb::Index, grb::Index>, double> result;
  std::string line;
  bool size_line_seen = false;
  while (std::getline(in, line)) {
    if (line.empty() || line.rfind(comment, 0) == 0) continue;
    std::istringstream fields(line);
    if (letter) {
      std::string kind;
      fields >> kind;
      if (kind != "a") continue;
    } else if (!size_line_seen) {
      size_line_seen = true;  // Matrix Market's size line
      continue;
    }
    unsigned long long u = 0, v = 0;
    double w = 0;
    fields >> u >> v >> w;
    const std::pair<grb::Index, grb::Index> key{static_cast<grb::Index>(u - 1),
                                                static_cast<grb::Index>(v - 1)};
    auto [it, inserted] = result.emplace(key, w);
    if (!inserted) it->second = std::min(it->second, w);
  }
  return result;
}

Entries as_entries(const std::map<std::pair<grb::Index, grb::Index>, double>& map) {
  Entries result;
  for (const auto& [key, value] : map) result.emplace_back(key.first, key.second, value);
  return result;
}

}  // namespace

TEST_CASE("format names, choices and detection by extension and by first line") {
  using grb::io::Format;
  for (Format format : {Format::automatic, Format::matrix_market, Format::edge_list, Format::ldbc,
                        Format::binary, Format::dimacs, Format::metis, Format::tntp})
    CHECK(grb::io::parse_format(grb::io::to_string(format)) == format);
  CHECK(grb::io::parse_format("gr") == Format::dimacs);
  CHECK(grb::io::parse_format("graph") == Format::metis);
  CHECK(grb::io::format_choices() == "mtx|edges|ldbc|binary|dimacs|metis|tntp");
  try {
    grb::io::parse_format("snap");
    FAIL("no error");
  } catch (const grb::InvalidValue& error) {
    CHECK(std::string(error.what()).find("dimacs, metis or tntp") != std::string::npos);
  }
  CHECK(grb::io::parse_tntp_weight("length") == grb::io::TntpWeight::length);
  CHECK(grb::io::parse_tntp_weight("time") == grb::io::TntpWeight::free_flow_time);
  CHECK_THROWS_AS(grb::io::parse_tntp_weight("capacity"), grb::InvalidValue);

  CHECK(grb::io::detect_format("road.gr") == Format::dimacs);
  CHECK(grb::io::detect_format("USA-road-d.NY.gr.gz") == Format::dimacs);
  CHECK(grb::io::detect_format("karate.graph") == Format::metis);
  CHECK(grb::io::detect_format("x/y/delaunay_n10.GRAPH.gz") == Format::metis);
  CHECK(grb::io::detect_format("SiouxFalls_net.tntp") == Format::tntp);
  CHECK(grb::io::detect_format("berlin_net.tntp.gz") == Format::tntp);

  grb::test::TempDir temp;
  CHECK(grb::io::detect_format(temp.write("a.txt", "\n  %%MatrixMarket matrix coordinate pattern "
                                                   "general\n1 1 0\n")) == Format::matrix_market);
  CHECK(grb::io::detect_format(temp.write("b.txt", "c from somewhere\np sp 2 1\na 1 2 3\n")) ==
        Format::dimacs);
  CHECK(grb::io::detect_format(temp.write("c.dat", "\r\np sp 2 1\na 1 2 3\n")) == Format::dimacs);
  CHECK(grb::io::detect_format(temp.write("d", "<NUMBER OF NODES> 2\n")) == Format::tntp);
  CHECK(grb::io::detect_format(temp.write("e.txt", "# comment\n1 2\n")) == Format::edge_list);
  CHECK(grb::io::detect_format(temp.write("f.txt", "p 1 2\n")) == Format::edge_list);
  CHECK(grb::io::detect_format(temp.write("g.txt", "")) == Format::edge_list);
  CHECK(grb::io::detect_format(temp.path() / "absent.txt") == Format::edge_list);
  // And the sniffed file reads as what it is.
  const auto sniffed = grb::io::read_graph(temp.path() / "b.txt");
  CHECK(entries(sniffed.matrix) == Entries{{0, 1, 3.0}});
}

TEST_CASE("DIMACS .gr: GAP's test graph, duplicates keep the smallest weight, self loops stay") {
  const auto path = grb::test::data_file("dimacs/gap-4.gr");
  const auto graph = grb::io::read_graph(path);
  CHECK(graph.directed);
  CHECK(graph.weighted);
  CHECK(graph.vertex_ids.empty());
  CHECK(graph.name == "gap-4");
  CHECK(graph.matrix.nrows() == 14);
  const auto expected = smallest_weights(path, true, "c");
  CHECK(expected.size() < 256);  // the file repeats arcs
  CHECK(entries(graph.matrix) == as_entries(expected));
  CHECK(graph.matrix.extract_element(0, 0).has_value());  // "a 1 1 110": a self loop

  grb::io::ReadOptions symmetrize;
  symmetrize.symmetrize = true;
  const auto undirected = grb::io::read_dimacs(path, symmetrize);
  CHECK_FALSE(undirected.directed);
  CHECK(grb::test::is_symmetric(undirected.matrix));
}

TEST_CASE("DIMACS .gr: written and read back, weighted and unweighted; real weights refused") {
  grb::test::TempDir temp;
  const auto original = grb::io::read_graph(grb::test::data_file("dimacs/gap-4.gr"));
  grb::io::write_dimacs(temp.path() / "copy.gr", original);
  const auto copy = grb::io::read_graph(temp.path() / "copy.gr");
  CHECK(copy.matrix.nrows() == original.matrix.nrows());
  CHECK(entries(copy.matrix) == entries(original.matrix));

  // An unweighted graph: every arc of weight 1.
  const auto karate = grb::io::read_graph(grb::test::data_file("lagraph/karate.mtx"));
  REQUIRE_FALSE(karate.weighted);
  grb::io::write_dimacs(temp.path() / "karate.gr", karate);
  const auto karate_copy = grb::io::read_graph(temp.path() / "karate.gr");
  CHECK(karate_copy.matrix.nrows() == 34);
  CHECK(karate_copy.matrix.nvals() == 156);
  CHECK(entries(karate_copy.matrix) == entries(karate.matrix));

  // Integer-valued reals are integers; 0.5 is not, nor is infinity: refused, no file written.
  grb::io::Graph whole;
  whole.matrix = grb::io::read_matrix_market(temp.write(
      "w.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 -3.0\n2 1 1e15\n"));
  whole.weighted = true;
  grb::io::write_dimacs(temp.path() / "w.gr", whole);
  CHECK(entries(grb::io::read_graph(temp.path() / "w.gr").matrix) ==
        Entries{{0, 1, -3.0}, {1, 0, 1e15}});
  for (const char* value : {"0.5", "inf", "1e300"}) {
    CAPTURE(value);
    grb::io::Graph real;
    real.matrix = grb::io::read_matrix_market(temp.write(
        "r.mtx", std::string("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 4\n2 1 ") +
                     value + "\n"));
    real.weighted = true;
    try {
      grb::io::write_dimacs(temp.path() / "r.gr", real);
      FAIL("no error for a weight that is not an integer");
    } catch (const grb::InvalidValue& error) {
      CHECK(std::string(error.what()).find("arc 2 -> 1") != std::string::npos);
      CHECK(std::string(error.what()).find("integers") != std::string::npos);
    }
    CHECK_FALSE(std::filesystem::exists(temp.path() / "r.gr"));
  }
}

TEST_CASE("DIMACS .gr: comments and blank lines anywhere, CRLF, isolated vertices") {
  grb::test::TempDir temp;
  const auto graph = grb::io::read_graph(temp.write(
      "small.gr", "c 9th DIMACS\r\n\r\nc\r\ncomment\r\np sp 5 3\r\nc arcs\r\na 1 2 7\r\n\r\na\t5\t1\t0\r\n"
                  "a 2 1 -2"));
  CHECK(graph.matrix.nrows() == 5);
  CHECK(entries(graph.matrix) == Entries{{0, 1, 7.0}, {1, 0, -2.0}, {4, 0, 0.0}});
  // No arcs at all is a graph too.
  CHECK(grb::io::read_graph(temp.write("empty.gr", "p sp 3 0\n")).matrix.nvals() == 0);
}

TEST_CASE("DIMACS .gr: malformed files fail at their line") {
  grb::test::TempDir temp;
  expect_parse_error(temp, "range.gr", "p sp 3 2\na 1 2 5\na 1 4 5\n", 3,
                     "head vertex 4 is out of range 1..3");
  expect_parse_error(temp, "zero.gr", "p sp 3 1\na 0 2 5\n", 2, "tail vertex 0 is out of range");
  expect_parse_error(temp, "early.gr", "c x\na 1 2 3\np sp 3 1\n", 2, "before the problem line");
  expect_parse_error(temp, "more.gr", "p sp 3 1\na 1 2 3\nc\na 2 3 4\n", 4,
                     "more arc lines than the 1 declared");
  expect_parse_error(temp, "fewer.gr", "p sp 3 3\na 1 2 3\na 2 3 4\n", 3,
                     "declares 3 arcs but the file ends after 2");
  expect_parse_error(temp, "twice.gr", "p sp 3 1\np sp 3 1\na 1 2 3\n", 2, "second problem line");
  expect_parse_error(temp, "maxflow.gr", "p max 3 1\n", 1, "not a shortest-path graph");
  expect_parse_error(temp, "short.gr", "p sp 3\n", 1, "must be 'p sp VERTICES ARCS'");
  expect_parse_error(temp, "arc.gr", "p sp 3 1\na 1 2\n", 2, "must be 'a FROM TO WEIGHT'");
  expect_parse_error(temp, "extra.gr", "p sp 3 1\na 1 2 3 4\n", 2, "unexpected '4'");
  expect_parse_error(temp, "weight.gr", "p sp 3 1\na 1 2 x\n", 2, "weight 'x' is not a number");
  expect_parse_error(temp, "letter.gr", "p sp 3 1\ne 1 2\n", 2, "none of the DIMACS .gr lines");
  expect_parse_error(temp, "coords.gr", "p aux sp co 3\nv 1 2 3\n", 1, "not a shortest-path");
  expect_parse_error(temp, "none.gr", "c only comments\n", 1, "no problem line");
  expect_parse_error(temp, "negative.gr", "p sp -3 1\n", 1, "vertex count '-3' is negative");
}

TEST_CASE("DIMACS .gr: declared sizes are checked against the file before allocating") {
  grb::test::TempDir temp;
  // 10^9 arcs in a 30-byte file; 10^9 vertices for 1 arc; more vertices than 32-bit ids.
  expect_parse_error(temp, "arcs.gr", "p sp 10 1000000000\na 1 2 3\n", 1,
                     "declares 1000000000 arcs, but a file of");
  expect_parse_error(temp, "vertices.gr", "p sp 1000000000 1\na 1 2 3\n", 1,
                     "declares 1000000000 vertices for 1 arcs");
  expect_parse_error(temp, "wide.gr", "p sp 5000000000 1\na 1 2 3\n", 1,
                     "exceeds grb's 32-bit vertex ids");
  expect_parse_error(temp, "huge.gr", "p sp 10 99999999999999999999\n", 1, "too large");
}

TEST_CASE("METIS .graph: karate is LAGraph's karate") {
  const auto metis = grb::io::read_graph(grb::test::data_file("metis/karate.graph"));
  const auto mtx = grb::io::read_graph(grb::test::data_file("lagraph/karate.mtx"));
  CHECK_FALSE(metis.directed);
  CHECK_FALSE(metis.weighted);
  CHECK(metis.vertex_ids.empty());
  CHECK(metis.name == "karate");
  CHECK(metis.matrix.nrows() == 34);
  CHECK(metis.matrix.nvals() == 156);
  CHECK(metis.matrix.symmetric());
  CHECK(entries(metis.matrix) == entries(mtx.matrix));
}

TEST_CASE("METIS .graph: NetworKit's files, sizes from their headers") {
  struct Expected {
    const char* name;
    grb::Index n;
    grb::Offset stored;  // 2m: every edge both ways
    bool weighted;
  };
  for (const Expected& file :
       {Expected{"jazz", 198, 2 * 2742, false}, Expected{"celegans_metabolic", 453, 2 * 2025, false},
        Expected{"PGPgiantcompo", 10680, 2 * 24316, false},
        Expected{"airfoil1", 4253, 2 * 12289, false}, Expected{"lesmis", 77, 2 * 254, true},
        Expected{"tiny_01", 7, 22, false}, Expected{"example", 4, 4, false},
        Expected{"jazz2double", 5, 12, true}}) {
    CAPTURE(file.name);
    const auto graph =
        grb::io::read_graph(grb::test::data_file(std::string("metis/") + file.name + ".graph"));
    CHECK(graph.matrix.nrows() == file.n);
    CHECK(graph.matrix.nvals() == file.stored);
    CHECK(graph.weighted == file.weighted);
    CHECK_FALSE(graph.directed);
    CHECK(grb::test::is_symmetric(graph.matrix));
  }
  // example.graph: vertex 3's line is empty, an isolated vertex.
  const auto example = grb::io::read_graph(grb::test::data_file("metis/example.graph"));
  CHECK(entries(example.matrix) == Entries{{0, 1, 1.0}, {0, 3, 1.0}, {1, 0, 1.0}, {3, 0, 1.0}});
  // lesmis: "2 1 3 8 ..." on vertex 1's line is neighbour 2 of weight 1, neighbour 3 of weight 8.
  const auto lesmis = grb::io::read_graph(grb::test::data_file("metis/lesmis.graph"));
  CHECK(lesmis.matrix.extract_element(0, 1) == 1.0);
  CHECK(lesmis.matrix.extract_element(0, 2) == 8.0);
  // jazz2double: real weights; vertices 3 and 5 give their edge 5.21231 and 2.21231: the
  // smaller wins, both ways.
  const auto jazz = grb::io::read_graph(grb::test::data_file("metis/jazz2double.graph"));
  CHECK(jazz.matrix.extract_element(0, 1) == 0.1);
  CHECK(jazz.matrix.extract_element(0, 4) == 1.19789);
  CHECK(jazz.matrix.extract_element(2, 4) == 2.21231);
  CHECK(jazz.matrix.extract_element(4, 2) == 2.21231);
}

TEST_CASE("METIS .graph: fmt and ncon, vertex sizes and weights, self loops, comments") {
  grb::test::TempDir temp;
  // fmt 011, ncon 2: two vertex weights, then (neighbour, edge weight) pairs.
  const auto weighted = grb::io::read_graph(
      temp.write("w.graph", "% vertex and edge weights\n3 2 011 2\n5 6 2 7\n1 1 1 7 3 4\n"
                            "0 0 2 4\n"));
  CHECK(weighted.weighted);
  CHECK(entries(weighted.matrix) ==
        Entries{{0, 1, 7.0}, {1, 0, 7.0}, {1, 2, 4.0}, {2, 1, 4.0}});
  // fmt 100: a vertex size first; fmt 10 without ncon: one vertex weight.
  CHECK(entries(grb::io::read_graph(temp.write("s.graph", "2 1 100\n3 2\n4 1\n")).matrix) ==
        Entries{{0, 1, 1.0}, {1, 0, 1.0}});
  CHECK(entries(grb::io::read_graph(temp.write("v.graph", "2 1 10\n3 2\n4 1\n")).matrix) ==
        Entries{{0, 1, 1.0}, {1, 0, 1.0}});
  // A self loop is listed once and counts as both ends of its edge.
  CHECK(entries(grb::io::read_graph(temp.write("loop.graph", "2 2\n1 2\n1\n")).matrix) ==
        Entries{{0, 0, 1.0}, {0, 1, 1.0}, {1, 0, 1.0}});
  // Only self loops: two bytes an edge, within the size bound.
  CHECK(entries(grb::io::read_graph(temp.write("loops.graph", "3 3\n1\n2\n3\n")).matrix) ==
        Entries{{0, 0, 1.0}, {1, 1, 1.0}, {2, 2, 1.0}});
  // Comment lines between vertex lines are not vertices; blank lines are; CRLF line ends.
  CHECK(entries(grb::io::read_graph(
                    temp.write("c.graph", "%a\r\n3 1\r\n%b\r\n3\r\n% c\r\n\r\n1\r\n\r\n\r\n"))
                    .matrix) == Entries{{0, 2, 1.0}, {2, 0, 1.0}});
  // No edges; and no vertices.
  CHECK(grb::io::read_graph(temp.write("iso.graph", "3 0\n\n\n\n")).matrix.nrows() == 3);
  CHECK(grb::io::read_graph(temp.write("none.graph", "0 0\n")).matrix.nrows() == 0);
}

TEST_CASE("METIS .graph: malformed files fail at their line") {
  grb::test::TempDir temp;
  expect_parse_error(temp, "more.graph", "3 2\n2\n1 3\n2 1\n", 4,
                     "more neighbour entries than the 4 that the header's 2 edges make");
  expect_parse_error(temp, "once.graph", "3 2\n2\n3\n\n", 1,
                     "is each edge listed only once?");
  expect_parse_error(temp, "fewer.graph", "3 2\n2\n1 3\n\n", 1,
                     "declares 2 edges, so 4 neighbour entries");
  expect_parse_error(temp, "range.graph", "2 1\n3\n1\n", 2, "neighbour 3 is out of range 1..2");
  expect_parse_error(temp, "zero.graph", "2 1\n0\n1\n", 2, "neighbour 0 is out of range");
  expect_parse_error(temp, "lines.graph", "3 1\n2\n1", 3,
                     "declares 3 vertices, but the file has lines for only 2");
  expect_parse_error(temp, "extra.graph", "2 1\n2\n1\n\n1\n", 5, "after the last vertex's");
  expect_parse_error(temp, "weight.graph", "2 1 1\n2\n1 3\n", 2,
                     "neighbour '2' has no edge weight");
  expect_parse_error(temp, "badweight.graph", "2 1 1\n2 x\n1 3\n", 2,
                     "edge weight 'x' is not a number");
  expect_parse_error(temp, "fmt.graph", "2 1 2\n2\n1\n", 1, "fmt '2' must be up to three digits");
  expect_parse_error(temp, "header.graph", "% only\n7\n", 2, "must be 'VERTICES EDGES");
  expect_parse_error(temp, "header5.graph", "2 1 0 1 9\n", 1, "unexpected '9'");
  expect_parse_error(temp, "size.graph", "2 1 100\n\n1\n", 2, "has no vertex size");
  expect_parse_error(temp, "vweights.graph", "2 1 10 3\n1 1\n1 1 1\n", 2,
                     "vertex 1 has 2 vertex weights, but the header asks for 3");
  expect_parse_error(temp, "empty.graph", "% nothing\n\n", 2, "no header");
  // Both ends must list an edge: vertex 1 (line 4) lists 2, vertex 2 (line 6) lists 3.
  expect_parse_error(temp, "oneway.graph", "%c\n3 1\n%x\n2\n%y\n3\n\n", 4,
                     "vertex 1 lists 2 as a neighbour, but vertex 2 (line 6) does not list 1");
}

TEST_CASE("METIS .graph: declared sizes are checked against the file before allocating") {
  grb::test::TempDir temp;
  expect_parse_error(temp, "n.graph", "1000000000 1\n2\n1\n", 1,
                     "declares 1000000000 vertices, but a METIS file has a line for each");
  expect_parse_error(temp, "m.graph", "2 1000000000\n2\n1\n", 1,
                     "declares 1000000000 edges");
  expect_parse_error(temp, "wide.graph", "4294967296 1\n", 1, "exceeds grb's 32-bit vertex ids");
}

TEST_CASE("METIS .graph: an edge list reader's error on it says what it was read as") {
  grb::io::ReadOptions as_edges;
  as_edges.format = grb::io::Format::edge_list;
  const auto path = grb::test::data_file("metis/karate.graph");
  try {
    grb::io::read_graph(path, as_edges);
    FAIL("karate.graph read as an edge list");
  } catch (const grb::ParseError& error) {
    const std::string message = error.what();
    CAPTURE(message);
    CHECK(error.file() == path.string());
    CHECK(error.line() == 2);
    CHECK(message.rfind(path.string() + ":2: unexpected", 0) == 0);
    CHECK(message.find("(read as an edge list; if it is another format, pass --format "
                       "mtx|edges|ldbc|binary|dimacs|metis|tntp)") != std::string::npos);
  }
}

TEST_CASE("TNTP: berlin-center is road/berlin-center.mtx (length), parallel links the shorter") {
  const auto tntp = grb::io::read_graph(grb::test::data_file("tntp/berlin-center_net.tntp"));
  CHECK(tntp.directed);
  CHECK(tntp.weighted);
  CHECK(tntp.name == "berlin-center");
  CHECK(tntp.matrix.nrows() == 12981);
  // The .mtx holds every link as an entry (its README): 28,376 lines, 6 of them a second link
  // between the same two nodes, which the Matrix Market reader adds up and TNTP's keeps the
  // shorter of. Read the .mtx's lines independently, keeping the shorter too.
  const auto mtx_path = grb::test::data_file("road/berlin-center.mtx");
  const auto expected = smallest_weights(mtx_path, false, "%");
  CHECK(expected.size() == 28376 - 6);
  CHECK(tntp.matrix.nvals() == 28376 - 6);
  CHECK(entries(tntp.matrix) == as_entries(expected));
  // Against the Matrix Market reader: the same pattern; values equal except the 6 sums.
  const auto mtx = grb::io::read_graph(mtx_path);
  const Entries a = entries(tntp.matrix), b = entries(mtx.matrix);
  REQUIRE(a.size() == b.size());
  int differences = 0;
  for (std::size_t e = 0; e < a.size(); ++e) {
    CHECK(std::get<0>(a[e]) == std::get<0>(b[e]));
    CHECK(std::get<1>(a[e]) == std::get<1>(b[e]));
    if (std::get<2>(a[e]) != std::get<2>(b[e])) ++differences;
  }
  CHECK(differences == 6);
  CHECK(tntp.matrix.extract_element(1245, 1243) == 59.0);  // links of 76 and 59
  CHECK(mtx.matrix.extract_element(1245, 1243) == 135.0);
}

TEST_CASE("TNTP: the other networks, and the free-flow time as weight") {
  struct Expected {
    const char* name;
    grb::Index nodes;
    grb::Offset links;
  };
  for (const Expected& file : {Expected{"SiouxFalls", 24, 76}, Expected{"Anaheim", 416, 914},
                               Expected{"ChicagoSketch", 933, 2950}}) {
    CAPTURE(file.name);
    const auto graph = grb::io::read_graph(
        grb::test::data_file(std::string("tntp/") + file.name + "_net.tntp"));
    CHECK(graph.matrix.nrows() == file.nodes);
    CHECK(graph.matrix.nvals() == file.links);
    CHECK(graph.name == file.name);
  }
  const auto path = grb::test::data_file("tntp/Anaheim_net.tntp");
  grb::io::ReadOptions by_time;
  by_time.tntp_weight = grb::io::TntpWeight::free_flow_time;
  // "1 117 9000 5280 1.090458488 ...": length 5280 ft, free-flow time 1.090458488 min.
  CHECK(grb::io::read_graph(path).matrix.extract_element(0, 116) == 5280.0);
  CHECK(grb::io::read_graph(path, by_time).matrix.extract_element(0, 116) == 1.090458488);
  grb::io::ReadOptions symmetrize;
  symmetrize.symmetrize = true;
  const auto undirected = grb::io::read_tntp(path, symmetrize);
  CHECK_FALSE(undirected.directed);
  CHECK(grb::test::is_symmetric(undirected.matrix));
}

TEST_CASE("TNTP: columns found by name, files without <END OF METADATA> or a '~' line") {
  grb::test::TempDir temp;
  grb::io::ReadOptions by_time;
  by_time.tntp_weight = grb::io::TntpWeight::free_flow_time;
  const std::string reordered =
      "<NUMBER OF NODES> 3\n<END OF METADATA>\n\n~ Free_Flow_Time length term_node init_node ;\n"
      "\t0.5\t10\t2\t1\t;\n~ a comment\n0.25 20 1 3;\n";
  CHECK(entries(grb::io::read_graph(temp.write("r.tntp", reordered)).matrix) ==
        Entries{{0, 1, 10.0}, {2, 0, 20.0}});
  CHECK(entries(grb::io::read_graph(temp.path() / "r.tntp", by_time).matrix) ==
        Entries{{0, 1, 0.5}, {2, 0, 0.25}});
  // No <END OF METADATA>, no '~' line: the standard column order.
  CHECK(entries(grb::io::read_graph(
                    temp.write("s.tntp", "<NUMBER OF NODES> 2\n<NUMBER OF LINKS> 1\n"
                                         "2 1 9000 7 3 0.15 4 0 0 1 ;\n"))
                    .matrix) == Entries{{1, 0, 7.0}});
}

TEST_CASE("TNTP: malformed files fail at their line") {
  grb::test::TempDir temp;
  const std::string metadata = "<NUMBER OF NODES> 3\n<NUMBER OF LINKS> 2\n<END OF METADATA>\n";
  const std::string columns = "~ init_node term_node capacity length free_flow_time ;\n";
  expect_parse_error(temp, "range.tntp", metadata + columns + "1 2 0 5 1 ;\n1 4 0 5 1 ;\n", 6,
                     "term_node 4 is out of range 1..3");
  expect_parse_error(temp, "more.tntp",
                     metadata + columns + "1 2 0 5 1 ;\n2 3 0 5 1 ;\n3 1 0 5 1 ;\n", 7,
                     "more link lines than the 2 of <NUMBER OF LINKS> (line 2)");
  expect_parse_error(temp, "fewer.tntp", metadata + columns + "1 2 0 5 1 ;\n", 5,
                     "declares 2 links but the file ends after 1");
  expect_parse_error(temp, "short.tntp", metadata + columns + "1 2 0 ;\n2 3 0 5 1 ;\n", 5,
                     "has 3 columns, but its 'length' is column 4");
  expect_parse_error(temp, "weight.tntp", metadata + columns + "1 2 0 five 1 ;\n2 3 0 5 1 ;\n", 5,
                     "length 'five' is not a number");
  expect_parse_error(temp, "nolength.tntp",
                     metadata + "~ init_node term_node capacity ;\n1 2 0 ;\n", 4,
                     "no 'length' column (it names: 'init_node term_node capacity')");
  grb::io::ReadOptions by_time;
  by_time.tntp_weight = grb::io::TntpWeight::free_flow_time;
  expect_parse_error(temp, "notime.tntp", metadata + "~ init_node term_node length ;\n1 2 0 ;\n",
                     4, "no 'free_flow_time' column", by_time);
  expect_parse_error(temp, "nonodes.tntp", "<NUMBER OF LINKS> 1\n<END OF METADATA>\n1 2 0 5 1;\n",
                     3, "before any <NUMBER OF NODES>");
  expect_parse_error(temp, "nothing.tntp", "<NUMBER OF ZONES> 1\n", 1, "no <NUMBER OF NODES>");
  expect_parse_error(temp, "open.tntp", "<NUMBER OF NODES 3\n", 1, "has no closing '>'");
  expect_parse_error(temp, "novalue.tntp", "<NUMBER OF NODES>\n", 1, "has no value");
  expect_parse_error(temp, "junk.tntp", "<NUMBER OF NODES> 3\nnodes: 3\n", 2,
                     "expected a '<KEY> value' metadata line");
  expect_parse_error(temp, "late.tntp", metadata + columns + "1 2 0 5 1 ;\n<NUMBER OF ZONES> 1\n",
                     6, "after the metadata ended");
}

TEST_CASE("TNTP: declared sizes are checked against the file before allocating") {
  grb::test::TempDir temp;
  expect_parse_error(temp, "nodes.tntp", "<NUMBER OF NODES> 4000000000\n1 2 0 5 1;\n", 1,
                     "holds too few links for that many nodes");
  expect_parse_error(temp, "links.tntp",
                     "<NUMBER OF NODES> 3\n<NUMBER OF LINKS> 1000000000\n1 2 0 5 1;\n", 2,
                     "cannot hold that many link lines");
  // Plausible for the file's size, yet far too many for the links it has.
  std::string padded = "<NUMBER OF NODES> 3000000\n<END OF METADATA>\n1 2 0 5 1;\n";
  padded += std::string(2000000, ' ') + "\n";
  expect_parse_error(temp, "padded.tntp", padded, 1, "for 1 links");
}

TEST_CASE("gzip: sniffed under .gz, and declared sizes bounded by deflate's best ratio") {
  if (!grb::io::gzip_supported()) return;  // built without zlib: nothing to check
  grb::test::TempDir temp;
  // gzip of "c gzip\np sp 3 2\na 1 2 5\na 3 1 7\n" and of "1000000000 1\n2\n1\n".
  const std::string dimacs(
      "\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03\x4b\x56\x48\xaf\xca\x2c\xe0\x2a\x50\x28"
      "\x2e\x50\x30\x56\x30\xe2\x4a\x54\x30\x54\x30\x52\x30\x05\xd2\xc6\x40\x96\x39\x17"
      "\x00\xf9\x8a\xcc\x34\x20\x00\x00\x00",
      49);
  const std::string metis(
      "\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03\x33\x34\x80\x01\x05\x43\x2e\x23\x2e\x43"
      "\x2e\x00\x3a\x1e\xf1\x22\x11\x00\x00\x00",
      30);
  const auto road = temp.write("road.txt.gz", dimacs);
  CHECK(grb::io::detect_format(road) == grb::io::Format::dimacs);
  CHECK(entries(grb::io::read_graph(road).matrix) == Entries{{0, 1, 5.0}, {2, 0, 7.0}});
  expect_parse_error(temp, "big.graph.gz", metis, 1,
                     "declares 1000000000 vertices, but a METIS file has a line for each");
}

TEST_CASE("control characters in the quoted file content are escaped") {
  grb::test::TempDir temp;
  expect_parse_error(temp, "ctl.gr", "p sp 3 1\na 1 2 \x1b[2J\n", 2, "weight '\\x1b[2J'");
  expect_parse_error(temp, "ctl.graph", "2 1\n2\x07\n1\n", 2, "'2\\x07'");
}

TEST_CASE("mutated DIMACS, METIS and TNTP files: read, or a grb::Error") {
  grb::test::TempDir temp;
  grb::test::Damage damage(4242, std::string("09- \n\r%<>~;acp.x\0\x89", 18));
  for (const char* source : {"dimacs/gap-4.gr", "metis/lesmis.graph", "metis/example.graph",
                             "tntp/SiouxFalls_net.tntp"}) {
    CAPTURE(source);
    const std::string original = grb::test::slurp(grb::test::data_file(source));
    const auto path = temp.path() / std::filesystem::path(source).filename();
    int errors = 0;
    for (int trial = 0; trial < 300; ++trial) {
      const std::string damaged = damage(original);
      temp.write(path.filename().string(), damaged);
      try {
        const auto graph = grb::io::read_graph(path);
        CHECK(graph.matrix.nrows() == graph.matrix.ncols());
      } catch (const grb::Error&) {
        ++errors;
      } catch (const std::exception& other) {
        FAIL("not a grb::Error: " << other.what());
      }
    }
    CHECK(errors > 0);
  }
}
