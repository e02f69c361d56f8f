// Graph input and output on the real test graphs, checked against facts published with them
// and against a slow istream parser written here; plus Matrix Market and binary round trips.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <thread>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include <grb/grb.hpp>

#include "io_files.hpp"
#include "support.hpp"

namespace {

using grb::test::entries;
using grb::test::Entry;

/// The lines of a text file that are not blank and not comments ('#' or '%').
std::vector<std::string> content_lines(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    if (line[0] == '#' || line[0] == '%') continue;
    lines.push_back(line);
  }
  return lines;
}

/// Edge-list lines as (source, destination) -> weight of the last occurrence.
std::map<std::pair<std::uint64_t, std::uint64_t>, double> naive_edges(
    const std::filesystem::path& path) {
  std::map<std::pair<std::uint64_t, std::uint64_t>, double> edges;
  for (const auto& line : content_lines(path)) {
    std::istringstream fields(line);
    std::uint64_t u = 0, v = 0;
    double w = 1.0;
    fields >> u >> v;
    if (!(fields >> w)) w = 1.0;
    edges[{u, v}] = w;
  }
  return edges;
}

std::map<std::string, std::string> naive_properties(const std::filesystem::path& path) {
  std::map<std::string, std::string> properties;
  for (const auto& line : content_lines(path)) {
    auto equals = line.find('=');
    auto trim = [](std::string text) {
      text.erase(0, text.find_first_not_of(" \t"));
      text.erase(text.find_last_not_of(" \t") + 1);
      return text;
    };
    properties[trim(line.substr(0, equals))] = trim(line.substr(equals + 1));
  }
  return properties;
}

}  // namespace

TEST_CASE("karate.mtx: 34 vertices, 78 undirected edges stored both ways") {
  const auto graph = grb::io::read_graph(grb::test::data_file("lagraph/karate.mtx"));
  CHECK(graph.matrix.nrows() == 34);
  CHECK(graph.matrix.ncols() == 34);
  CHECK(graph.matrix.nvals() == 156);
  CHECK_FALSE(graph.directed);
  CHECK_FALSE(graph.weighted);
  CHECK(graph.vertex_ids.empty());
  CHECK(graph.name == "karate");
  CHECK(grb::test::is_symmetric(graph.matrix));
  // Zachary's club: the instructor (vertex 0) has 16 ties, the administrator (33) has 17.
  const auto& csr = graph.matrix.csr();
  CHECK(csr.row_offsets[1] - csr.row_offsets[0] == 16);
  CHECK(csr.row_offsets[34] - csr.row_offsets[33] == 17);
  for (const auto& [i, j, value] : entries(graph.matrix)) CHECK(value == 1.0);
  CHECK(grb::io::read_matrix_market(grb::test::data_file("lagraph/karate.mtx")).nvals() == 156);
}

TEST_CASE("berlin-center.mtx: a real, general road network whose zero lengths are edges") {
  const auto path = grb::test::data_file("road/berlin-center.mtx");
  const auto graph = grb::io::read_graph(path);
  CHECK(graph.matrix.nrows() == 12981);
  CHECK(graph.matrix.ncols() == 12981);
  CHECK(graph.directed);
  CHECK(graph.weighted);

  // The oracle: every entry line, 1-based, duplicates summed.
  std::map<std::pair<grb::Index, grb::Index>, double> expected;
  const auto lines = content_lines(path);
  REQUIRE(lines.size() == 28376 + 1);  // the size line, then 28,376 links
  for (std::size_t k = 1; k < lines.size(); ++k) {
    std::istringstream fields(lines[k]);
    grb::Index i = 0, j = 0;
    double length = 0;
    fields >> i >> j >> length;
    expected[{i - 1, j - 1}] += length;
  }
  const auto stored = entries(graph.matrix);
  REQUIRE(stored.size() == expected.size());  // 6 pairs of parallel links combine
  std::size_t zeros = 0;
  auto it = expected.begin();
  for (const auto& [i, j, value] : stored) {
    CHECK(i == it->first.first);
    CHECK(j == it->first.second);
    CHECK(value == it->second);
    zeros += value == 0.0;
    ++it;
  }
  CHECK(zeros == 8808);  // the zone connectors (data/README.md)
}

TEST_CASE("email-Eu-core.txt: 1005 vertices, 25,571 directed edges, ids kept") {
  const auto path = grb::test::data_file("snap/email-Eu-core.txt");
  const auto graph = grb::io::read_graph(path);
  CHECK(graph.matrix.nrows() == 1005);
  CHECK(graph.matrix.nvals() == 25571);
  CHECK(graph.directed);
  CHECK_FALSE(graph.weighted);
  CHECK(graph.vertex_ids.empty());
  const auto expected = naive_edges(path);
  REQUIRE(expected.size() == 25571);
  auto it = expected.begin();
  for (const auto& [i, j, value] : entries(graph.matrix)) {
    CHECK(std::uint64_t{i} == it->first.first);
    CHECK(std::uint64_t{j} == it->first.second);
    CHECK(value == 1.0);
    ++it;
  }
  CHECK(grb::io::to_internal(graph, 1004) == 1004);
  CHECK_THROWS_AS(grb::io::to_internal(graph, 1005), grb::InvalidValue);

  SUBCASE("symmetrized: both directions, self loops once") {
    grb::io::ReadOptions options;
    options.symmetrize = true;
    const auto undirected = grb::io::read_graph(path, options);
    CHECK_FALSE(undirected.directed);
    CHECK(grb::test::is_symmetric(undirected.matrix));
    std::set<std::pair<std::uint64_t, std::uint64_t>> both;
    for (const auto& [edge, weight] : expected) {
      both.insert(edge);
      both.insert({edge.second, edge.first});
    }
    CHECK(undirected.matrix.nvals() == both.size());
  }
}

TEST_CASE("ca-GrQc.csv: CRLF lines, ids kept as they are") {
  const auto path = grb::test::data_file("snap/ca-GrQc.csv");
  const auto graph = grb::io::read_graph(path);
  const auto expected = naive_edges(path);
  std::uint64_t max_id = 0;
  for (const auto& [edge, weight] : expected) max_id = std::max({max_id, edge.first, edge.second});
  CHECK(graph.matrix.nrows() == max_id + 1);
  CHECK(graph.matrix.nvals() == expected.size());
  CHECK(graph.vertex_ids.empty());
  for (const auto& [edge, weight] : expected)
    CHECK(graph.matrix.extract_element(static_cast<grb::Index>(edge.first),
                                       static_cast<grb::Index>(edge.second)) == 1.0);
}

TEST_CASE("facebook_combined.txt.gz: 4039 vertices, 88,234 undirected edges") {
  if (!grb::io::gzip_supported()) {
    MESSAGE("SKIPPED: grb was built without zlib");
    return;
  }
  grb::io::ReadOptions options;
  options.symmetrize = true;
  const auto graph = grb::io::read_graph(grb::test::data_file("snap/facebook_combined.txt.gz"), options);
  CHECK(graph.name == "facebook_combined");
  CHECK(graph.matrix.nrows() == 4039);
  CHECK(graph.matrix.nvals() == 2 * 88234);
  CHECK(grb::test::is_symmetric(graph.matrix));
}

TEST_CASE("LDBC validation graphs: sizes, id mapping, weights and sources against the files") {
  const auto folder = grb::test::data_dir() / "ldbc";
  for (const std::string& name :
       std::initializer_list<std::string>{"example-directed", "example-undirected", "test-bfs-directed", "test-bfs-undirected",
        "test-cdlp-directed", "test-cdlp-undirected", "test-lcc-directed", "test-lcc-undirected",
        "test-pr-directed", "test-pr-undirected", "test-sssp-directed", "test-sssp-undirected",
        "test-wcc-directed", "test-wcc-undirected"}) {
    CAPTURE(name);
    const auto properties_path = grb::test::data_file("ldbc/" + name + ".properties");
    auto properties = naive_properties(properties_path);
    const std::string prefix = "graph." + name + ".";
    const bool directed = properties.at(prefix + "directed") == "true";
    const bool weighted = properties.count(prefix + "edge-properties.names") > 0;

    // Read through every way of naming the graph.
    for (const auto& path : {properties_path, folder / name, folder / (name + ".e")}) {
      CAPTURE(path);
      CHECK(grb::io::detect_format(path) == grb::io::Format::ldbc);
      const auto graph = grb::io::read_graph(path);
      CHECK(graph.name == name);
      CHECK(graph.directed == directed);
      CHECK(graph.weighted == weighted);
      if (!directed) CHECK(grb::test::is_symmetric(graph.matrix));

      // Vertex i is the i-th line of NAME.v.
      std::vector<std::uint64_t> ids;
      for (const auto& line : content_lines(folder / (name + ".v")))
        ids.push_back(std::stoull(line));
      CHECK(graph.vertex_ids == ids);
      CHECK(graph.matrix.nrows() == std::stoull(properties.at(prefix + "meta.vertices")));

      // Every edge of NAME.e (the upstream slip in test-sssp-undirected and test-wcc-directed
      // names the .v file: the edges are in NAME.e), and no other.
      const auto edges = naive_edges(folder / (name + ".e"));
      std::set<std::pair<grb::Index, grb::Index>> expected;
      for (const auto& [edge, weight] : edges) {
        const grb::Index u = grb::io::to_internal(graph, edge.first);
        const grb::Index v = grb::io::to_internal(graph, edge.second);
        CHECK(grb::io::to_external(graph, u) == edge.first);
        CHECK(graph.matrix.extract_element(u, v) == weight);
        if (!directed) CHECK(graph.matrix.extract_element(v, u) == weight);
        expected.insert({u, v});
        if (!directed) expected.insert({v, u});
      }
      CHECK(graph.matrix.nvals() == expected.size());
      const std::uint64_t meta_edges = std::stoull(properties.at(prefix + "meta.edges"));
      CHECK(edges.size() == meta_edges);
      CHECK(graph.matrix.nvals() == (directed ? meta_edges : 2 * meta_edges));

      std::optional<std::uint64_t> source;
      if (properties.count(prefix + "bfs.source-vertex"))
        source = std::stoull(properties.at(prefix + "bfs.source-vertex"));
      else if (properties.count(prefix + "sssp.source-vertex"))
        source = std::stoull(properties.at(prefix + "sssp.source-vertex"));
      CHECK(graph.source == source);
    }
  }
}

TEST_CASE("Matrix Market round trip: real, integer and pattern, zeros kept") {
  grb::test::TempDir temp;
  grb::Matrix<double> a(4, 5, grb::Backend::cpu);
  a.build(std::vector<grb::Index>{0, 0, 1, 3, 3, 2}, std::vector<grb::Index>{0, 4, 2, 1, 3, 0},
          std::vector<double>{0.0, -1.5, 1e-300, 0.1, 6.02214076e23,
                              std::numeric_limits<double>::infinity()});
  const auto real_path = temp.path() / "real.mtx";
  grb::io::write_matrix_market(real_path, a);
  const auto real = grb::io::read_matrix_market_graph(real_path);
  CHECK(real.matrix.nrows() == 4);
  CHECK(real.matrix.ncols() == 5);
  CHECK(entries(real.matrix) == entries(a));  // exact: shortest round-trip text
  CHECK(real.weighted);
  CHECK(real.directed);

  grb::Matrix<int> b(3, 3, grb::Backend::cpu);
  b.build(std::vector<grb::Index>{0, 1, 2}, std::vector<grb::Index>{2, 1, 0},
          std::vector<int>{-7, 0, 2147483647});
  grb::io::write_matrix_market(temp.path() / "integer.mtx", b);
  CHECK(content_lines(temp.path() / "integer.mtx").size() == 1 + 3);
  std::ifstream banner(temp.path() / "integer.mtx");
  std::string first_line;
  std::getline(banner, first_line);
  CHECK(first_line == "%%MatrixMarket matrix coordinate integer general");
  CHECK(entries(grb::io::read_matrix_market(temp.path() / "integer.mtx")) == entries(b));

  grb::Matrix<bool> c(2, 2, grb::Backend::cpu);
  c.build(std::vector<grb::Index>{0, 1}, std::vector<grb::Index>{1, 0}, std::vector<bool>{true, true});
  grb::io::write_matrix_market(temp.path() / "pattern.mtx", c);
  const auto pattern = grb::io::read_matrix_market_graph(temp.path() / "pattern.mtx");
  CHECK_FALSE(pattern.weighted);
  CHECK(entries(pattern.matrix) == entries(c));

  GRB_FOR_EACH_BACKEND(backend) {
    // A matrix on any backend writes the same file.
    const auto road = grb::io::read_matrix_market(grb::test::data_file("road/berlin-center.mtx"));
    grb::io::write_matrix_market(temp.path() / "road.mtx", road.to(backend));
    CHECK(entries(grb::io::read_matrix_market(temp.path() / "road.mtx")) == entries(road));
  }
}

TEST_CASE("binary round trip keeps matrix, ids, flags, source and name") {
  grb::test::TempDir temp;
  for (std::string name : {"lagraph/karate.mtx", "road/berlin-center.mtx", "snap/email-Eu-core.txt",
                           "ldbc/example-undirected.properties", "ldbc/test-pr-directed"}) {
    CAPTURE(name);
    const auto graph = grb::io::read_graph(grb::test::data_dir() / name);
    const auto path = temp.path() / "graph.grb";
    grb::io::write_binary(path, graph);
    CHECK(grb::io::detect_format(path) == grb::io::Format::binary);
    const auto copy = grb::io::read_graph(path);
    CHECK(copy.matrix.nrows() == graph.matrix.nrows());
    CHECK(copy.matrix.ncols() == graph.matrix.ncols());
    CHECK(entries(copy.matrix) == entries(graph.matrix));
    CHECK(copy.vertex_ids == graph.vertex_ids);
    CHECK(copy.directed == graph.directed);
    CHECK(copy.weighted == graph.weighted);
    CHECK(copy.source == graph.source);
    CHECK(copy.name == graph.name);
  }
  GRB_FOR_EACH_BACKEND(backend) {
    auto graph = grb::io::read_graph(grb::test::data_file("ldbc/example-directed.properties"));
    const auto expected = entries(graph.matrix);
    graph.matrix = graph.matrix.to(backend);
    grb::io::write_binary(temp.path() / "device.grb", graph);
    CHECK(entries(grb::io::read_binary(temp.path() / "device.grb").matrix) == expected);
  }
}

TEST_CASE("format names and detection") {
  grb::test::TempDir temp;
  using grb::io::Format;
  CHECK(grb::io::detect_format("a/b.mtx") == Format::matrix_market);
  CHECK(grb::io::detect_format("a/b.MTX") == Format::matrix_market);
  CHECK(grb::io::detect_format("a/b.mtx.gz") == Format::matrix_market);
  CHECK(grb::io::detect_format("b.grb") == Format::binary);
  CHECK(grb::io::detect_format("b.properties") == Format::ldbc);
  CHECK(grb::io::detect_format("b.txt") == Format::edge_list);
  CHECK(grb::io::detect_format("b.txt.gz") == Format::edge_list);
  CHECK(grb::io::detect_format("b.csv") == Format::edge_list);
  CHECK(grb::io::detect_format(temp.path() / "g") == Format::edge_list);
  temp.write("g.v", "1\n");
  temp.write("g.e", "");
  CHECK(grb::io::detect_format(temp.path() / "g") == Format::ldbc);
  for (Format format : {Format::automatic, Format::matrix_market, Format::edge_list, Format::ldbc,
                        Format::binary})
    CHECK(grb::io::parse_format(grb::io::to_string(format)) == format);
  CHECK_THROWS_AS(grb::io::parse_format("xml"), grb::InvalidValue);

  // The override wins over the name.
  grb::io::ReadOptions options;
  options.format = Format::edge_list;
  const auto path = temp.write("edges.mtx", "0 1\n1 2\n");
  CHECK(grb::io::read_graph(path, options).matrix.nvals() == 2);
  CHECK_THROWS_AS(grb::io::read_graph(path), grb::ParseError);
}

TEST_CASE("a pipe is read as a stream: no seeking back, no size to check against") {
  grb::test::TempDir temp;
  const auto fifo = temp.path() / "edges.fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  for (const grb::io::Format format : {grb::io::Format::edge_list, grb::io::Format::matrix_market}) {
    CAPTURE(grb::io::to_string(format));
    const std::string text = format == grb::io::Format::edge_list
                                 ? "0 1\n1 2\n2 0 \n"
                                 : "%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n2 3\n3 1\n";
    std::thread writer([&] {
      std::FILE* out = std::fopen(fifo.c_str(), "w");
      if (!out) return;
      std::fputs(text.c_str(), out);
      std::fclose(out);
    });
    grb::io::ReadOptions options;
    options.format = format;
    const grb::io::Graph graph = grb::io::read_graph(fifo, options);
    writer.join();
    CHECK(entries(graph.matrix) == std::vector<Entry>{{0, 1, 1.0}, {1, 2, 1.0}, {2, 0, 1.0}});
  }
}
