// Malformed input: every case is a grb::ParseError naming the file and the line (or an
// IoError for a file that cannot be read), never a crash, a hang or a silently wrong graph.
#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <string>

#include <grb/grb.hpp>

#include "io_files.hpp"
#include "support.hpp"

namespace {

using grb::test::expect_parse_error;

const std::string banner = "%%MatrixMarket matrix coordinate real general\n";

}  // namespace

TEST_CASE("Matrix Market: bad banners") {
  grb::test::TempDir temp;
  expect_parse_error(temp, "empty.mtx", "", 0, "empty file");
  expect_parse_error(temp, "no-banner.mtx", "2 2 1\n1 1 1.0\n", 1, "missing '%%MatrixMarket'");
  expect_parse_error(temp, "misspelt.mtx", "%%MatrixMarkt matrix coordinate real general\n1 1 0\n",
                     1, "missing '%%MatrixMarket'");
  expect_parse_error(temp, "short.mtx", "%%MatrixMarket matrix coordinate real\n1 1 0\n", 1,
                     "incomplete banner");
  expect_parse_error(temp, "long.mtx", "%%MatrixMarket matrix coordinate real general extra\n", 1,
                     "'extra'");
  expect_parse_error(temp, "vector.mtx", "%%MatrixMarket vector coordinate real general\n", 1,
                     "only 'matrix'");
  expect_parse_error(temp, "dense.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n",
                     1, "dense 'array'");
  expect_parse_error(temp, "format.mtx", "%%MatrixMarket matrix sparse real general\n", 1,
                     "unknown format");
  expect_parse_error(temp, "complex.mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n",
                     1, "complex");
  expect_parse_error(temp, "float.mtx", "%%MatrixMarket matrix coordinate float general\n", 1,
                     "unknown field 'float'");
  expect_parse_error(temp, "hermitian.mtx", "%%MatrixMarket matrix coordinate real hermitian\n", 1,
                     "hermitian");
  expect_parse_error(temp, "symmetry.mtx", "%%MatrixMarket matrix coordinate real upper\n", 1,
                     "unknown symmetry 'upper'");
  // Binary garbage is not a banner either.
  expect_parse_error(temp, "garbage.mtx", std::string("\x00\x01\xff\xfe\n", 5), 1,
                     "missing '%%MatrixMarket'");
}

TEST_CASE("Matrix Market: bad size lines") {
  grb::test::TempDir temp;
  expect_parse_error(temp, "none.mtx", banner + "% only a comment\n", 2, "missing size line");
  expect_parse_error(temp, "letters.mtx", banner + "3 x 3\n", 2, "column count 'x'");
  expect_parse_error(temp, "two.mtx", banner + "3 3\n", 2, "three numbers");
  expect_parse_error(temp, "four.mtx", banner + "3 3 1 1\n", 2, "on the size line");
  expect_parse_error(temp, "negative.mtx", banner + "-3 3 1\n", 2, "is negative");
  expect_parse_error(temp, "fraction.mtx", banner + "3 3 1.5\n", 2, "entry count '1.5'");
  expect_parse_error(temp, "huge.mtx", banner + "5000000000 5000000000 1\n", 2, "32-bit");
  expect_parse_error(temp, "overflow.mtx", banner + "99999999999999999999999 1 1\n", 2,
                     "more than 64 bits");
  expect_parse_error(temp, "skew-rectangle.mtx",
                     "%%MatrixMarket matrix coordinate real skew-symmetric\n2 3 0\n", 2,
                     "must be square");
}

TEST_CASE("Matrix Market: bad entries") {
  grb::test::TempDir temp;
  expect_parse_error(temp, "few.mtx", banner + "3 3 3\n1 1 1\n2 2 2\n", 4, "truncated");
  expect_parse_error(temp, "none.mtx", banner + "3 3 1\n", 2, "ends after 0");
  expect_parse_error(temp, "many.mtx", banner + "3 3 1\n1 1 1\n2 2 2\n", 4, "more entries");
  expect_parse_error(temp, "zero-row.mtx", banner + "3 3 1\n0 1 1\n", 3, "1-based");
  expect_parse_error(temp, "zero-col.mtx", banner + "3 3 1\n1 0 1\n", 3, "1-based");
  expect_parse_error(temp, "big-row.mtx", banner + "3 3 1\n4 1 1\n", 3, "row index 4 is out of range 1..3");
  expect_parse_error(temp, "big-col.mtx", banner + "3 2 1\n1 3 1\n", 3, "column index 3 is out of range 1..2");
  expect_parse_error(temp, "negative.mtx", banner + "3 3 1\n-1 1 1\n", 3, "negative");
  expect_parse_error(temp, "letters.mtx", banner + "3 3 1\na 1 1\n", 3, "row index 'a'");
  expect_parse_error(temp, "fraction-index.mtx", banner + "3 3 1\n1.5 1 1\n", 3, "row index '1.5'");
  expect_parse_error(temp, "one-index.mtx", banner + "3 3 1\n1\n", 3, "no column index");
  expect_parse_error(temp, "no-value.mtx", banner + "3 3 1\n1 1\n", 3, "no value");
  expect_parse_error(temp, "no-integer.mtx",
                     "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1\n", 3, "no value");
  expect_parse_error(temp, "bad-value.mtx", banner + "3 3 1\n1 1 abc\n", 3, "value 'abc' is not a number");
  expect_parse_error(temp, "cut-value.mtx", banner + "3 3 1\n1 1 1.5e", 3, "value '1.5e'");
  expect_parse_error(temp, "real-in-integer.mtx",
                     "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 1.5\n", 3,
                     "not an integer");
  expect_parse_error(temp, "extra.mtx", banner + "3 3 1\n1 1 1 7\n", 3, "'7'");
  expect_parse_error(temp, "pattern-value.mtx",
                     "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 5\n", 3,
                     "pattern file");
  expect_parse_error(temp, "skew-diagonal.mtx",
                     "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n2 2 1\n", 3,
                     "diagonal");
  // A file cut inside its last line is short of entries, or has a broken number.
  expect_parse_error(temp, "cut.mtx", banner + "3 3 2\n1 1 1\n2", 4, "no column index");
}

TEST_CASE("missing and unreadable files are IoErrors") {
  grb::test::TempDir temp;
  for (const char* name : {"absent.mtx", "absent.txt", "absent.grb", "absent.properties"}) {
    CAPTURE(name);
    CHECK_THROWS_AS(grb::io::read_graph(temp.path() / name), grb::IoError);
  }
  std::filesystem::create_directory(temp.path() / "folder.mtx");
  CHECK_THROWS_AS(grb::io::read_graph(temp.path() / "folder.mtx"), grb::IoError);
  CHECK_THROWS_AS(grb::io::read_binary(temp.path() / "folder.mtx"), grb::IoError);
  CHECK_THROWS_AS(grb::io::write_binary(temp.path() / "no" / "such" / "folder.grb", grb::io::Graph{}),
                  grb::IoError);
  CHECK_THROWS_AS(grb::io::write_matrix_market(temp.path() / "no" / "x.mtx", grb::Matrix<double>()),
                  grb::IoError);
}

TEST_CASE("edge lists: bad lines") {
  grb::test::TempDir temp;
  expect_parse_error(temp, "empty.txt", "", 0, "no edges");
  expect_parse_error(temp, "comments.txt", "# nothing\n% here\n\n", 3, "no edges");
  expect_parse_error(temp, "one.txt", "0 1\n2\n", 2, "no destination");
  expect_parse_error(temp, "four.txt", "0 1 2.5 7\n", 1, "'7'");
  expect_parse_error(temp, "negative.txt", "0 1\n-2 1\n", 2, "source id '-2' is negative");
  expect_parse_error(temp, "letters.txt", "0 1\n1 b\n", 2, "destination id 'b'");
  expect_parse_error(temp, "header.csv", "source,target\n0,1\n", 1, "source id 'source'");
  expect_parse_error(temp, "huge.txt", "0 99999999999999999999999\n", 1, "more than 64 bits");
  expect_parse_error(temp, "weight-missing.txt", "0 1 1.5\n1 2\n", 2, "first edge (line 1)");
  expect_parse_error(temp, "weight-extra.txt", "# c\n0 1\n1 2 1.5\n", 3, "first edge (line 2)");
  expect_parse_error(temp, "bad-weight.txt", "0 1 1.5\n1 2 x\n", 2, "weight 'x' is not a number");
  expect_parse_error(temp, "cut-weight.txt", "0 1 1.5\n1 2 2e+", 2, "weight '2e+'");
}

TEST_CASE("LDBC: bad properties, vertex and edge files") {
  grb::test::TempDir temp;
  auto write_graph = [&](const std::string& name, const std::string& properties, const std::string& v,
                         const std::string& e) {
    temp.write(name + ".properties", properties);
    temp.write(name + ".v", v);
    if (!e.empty()) temp.write(name + ".e", e);
    return temp.path() / (name + ".properties");
  };
  auto expect = [&](const std::filesystem::path& path, const std::string& file, std::size_t line,
                    const std::string& words) {
    CAPTURE(path);
    try {
      grb::io::read_graph(path);
      FAIL("no error for a malformed graph");
    } catch (const grb::ParseError& error) {
      CAPTURE(std::string(error.what()));
      CHECK(error.file() == (temp.path() / file).string());
      CHECK(error.line() == line);
      CHECK(std::string(error.what()).find(words) != std::string::npos);
    }
  };
  const std::string header = "graph.g.vertex-file = g.v\ngraph.g.edge-file = g.e\n";
  expect(write_graph("g", header, "1\n2\n", "1 2\n"), "g.properties", 2, "missing key graph.g.directed");
  expect(write_graph("g", header + "graph.g.directed = maybe\n", "1\n2\n", "1 2\n"), "g.properties", 3,
         "expected true or false");
  const std::string directed = header + "graph.g.directed = true\n";
  expect(write_graph("g", directed, "1\n2\n1\n", "1 2\n"), "g.v", 3, "vertex id 1 is listed twice");
  expect(write_graph("g", directed, "1\n-2\n", "1 2\n"), "g.v", 2, "negative");
  expect(write_graph("g", directed, "1\nx\n", "1 2\n"), "g.v", 2, "vertex id 'x'");
  expect(write_graph("g", directed, "# no vertices\n", "1 2\n"), "g.v", 1, "no vertices");
  expect(write_graph("g", directed, "1\n2\n", "1 2\n2 3\n"), "g.e", 2,
         "destination id 3 is not in the vertex file");
  expect(write_graph("g", directed, "1\n2\n", "1 2\n2 a\n"), "g.e", 2, "destination id 'a'");
  expect(write_graph("g", directed + "graph.g.bfs.source-vertex = one\n", "1\n2\n", "1 2\n"),
         "g.properties", 4, "not a vertex id");
  expect(write_graph("g", directed + "graph.g.bfs.source-vertex = 9\n", "1\n2\n", "1 2\n"),
         "g.properties", 4, "source vertex 9 is not in");
  const std::string weighted = directed + "graph.g.edge-properties.names = weight\n";
  expect(write_graph("g", weighted, "1\n2\n", "1 2 0.5\n2 1\n"), "g.e", 2, "has no weight");
  expect(write_graph("g", weighted, "1\n2\n", "1 2 w\n"), "g.e", 1, "weight 'w'");

  // The properties file names a missing edge file: the file cannot be read.
  std::filesystem::remove(temp.path() / "g.e");
  CHECK_THROWS_AS(grb::io::read_graph(write_graph("g", directed, "1\n2\n", "")), grb::IoError);
  // The upstream slip without NAME.e to fall back on: the "edges" have one column.
  expect(write_graph("g", "graph.g.vertex-file = g.v\ngraph.g.edge-file = g.v\ngraph.g.directed = true\n",
                     "1\n2\n", ""),
         "g.v", 1, "no destination");
  // NAME alone, with neither NAME.v nor NAME.e beside it.
  grb::io::ReadOptions as_ldbc;
  as_ldbc.format = grb::io::Format::ldbc;
  CHECK_THROWS_AS(grb::io::read_graph(temp.path() / "absent", as_ldbc), grb::IoError);
}

TEST_CASE("binary: wrong magic, version, sizes, checksum, truncation") {
  grb::test::TempDir temp;
  const auto graph = grb::io::read_graph(grb::test::data_file("ldbc/example-directed.properties"));
  const auto good = temp.path() / "good.grb";
  grb::io::write_binary(good, graph);
  std::string bytes;
  {
    std::ifstream in(good, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  REQUIRE(bytes.size() > 100);
  auto expect = [&](const std::string& name, const std::string& content, const std::string& words) {
    CAPTURE(name);
    const auto path = temp.write(name, content);
    try {
      grb::io::read_binary(path);
      FAIL("no error for a damaged binary file");
    } catch (const grb::ParseError& error) {
      CAPTURE(std::string(error.what()));
      CHECK(error.file() == path.string());
      CHECK(std::string(error.what()).find(words) != std::string::npos);
    }
  };
  auto patched = [&](std::size_t offset, char value) {
    std::string copy = bytes;
    copy[offset] = value;
    return copy;
  };
  expect("empty.grb", "", "less than a header");
  expect("text.grb", std::string(200, 'x'), "bad magic");
  expect("version.grb", patched(8, 2), "version 2 is not supported");
  expect("flags.grb", patched(12, 64), "unknown flags");
  expect("truncated.grb", bytes.substr(0, bytes.size() - 1), "(truncated)");
  expect("header-only.grb", bytes.substr(0, 70), "too short for its 17 entries (truncated)");
  expect("longer.grb", bytes + "x", "header describes");
  expect("nvals.grb", patched(32, '\x7f'), "too short for its 127 entries");
  expect("rows.grb", patched(20, 1), "32-bit");
  // One changed bit in a value, a column id, a vertex id, the checksum itself.
  for (std::size_t offset : {bytes.size() - 9, bytes.size() - 200, std::size_t{56 + 20}, bytes.size() - 1}) {
    CAPTURE(offset);
    expect("flipped.grb", patched(offset, static_cast<char>(bytes[offset] ^ 4)), "checksum mismatch");
  }
  CHECK(grb::io::read_binary(good).matrix.nvals() == graph.matrix.nvals());

  // A correct checksum over an inconsistent CSR (a column id past ncols) is still refused.
  // The checksum, written again here from the format's description: FNV-1a over 8-byte words.
  auto checksum = [](const std::string& data) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (std::size_t at = 0; at < data.size(); at += 8) {
      std::uint64_t word = 0;
      std::memcpy(&word, data.data() + at, std::min<std::size_t>(8, data.size() - at));
      hash = (hash ^ word) * 0x100000001b3ull;
    }
    return hash;
  };
  std::string body = bytes.substr(0, bytes.size() - 8);
  REQUIRE(checksum(body) == [&] {
    std::uint64_t stored;
    std::memcpy(&stored, bytes.data() + bytes.size() - 8, 8);
    return stored;
  }());
  const std::size_t first_column = 56 + graph.name.size() + (graph.matrix.nrows() + 1) * 8;
  body[first_column] = 100;  // vertex 100 in a 10-vertex graph
  const std::uint64_t sum = checksum(body);
  expect("inconsistent.grb", body + std::string(reinterpret_cast<const char*>(&sum), 8),
         "out of range, out of order or repeated");
}

TEST_CASE("mutated files: every reader either reads them or throws a grb::Error") {
  // Deterministic damage (byte changes, cuts, inserted separators) to one file of each format;
  // anything but success or a grb::Error (another exception, a crash under the sanitizers) fails.
  grb::test::TempDir temp;
  const auto ldbc = grb::test::data_dir() / "ldbc";
  for (const char* name : {"example-directed.properties", "example-directed.v", "example-directed.e"})
    std::filesystem::copy_file(ldbc / name, temp.path() / name);
  grb::io::write_binary(temp.path() / "graph.grb", grb::io::read_graph(ldbc / "example-directed.properties"));
  std::filesystem::copy_file(grb::test::data_file("lagraph/west0067.mtx"), temp.path() / "west.mtx");
  temp.write("edges.txt", "# weighted\n0 1 0.5\n1 2 1.5\n2 0 -3\n7,3,1e5\n3\t4\t0\n");

  grb::test::Damage damage(12345, std::string("09- \n\r,%#e.x\0\x89", 14));
  for (const char* target : {"west.mtx", "edges.txt", "example-directed.v", "example-directed.e",
                             "example-directed.properties", "graph.grb"}) {
    CAPTURE(target);
    const auto path = temp.path() / target;
    const std::string original = grb::test::slurp(path);
    const auto read_path = std::string(target).rfind("example-directed", 0) == 0
                               ? temp.path() / "example-directed.properties"
                               : path;
    int errors = 0;
    for (int trial = 0; trial < 300; ++trial) {
      const std::string damaged = damage(original);
      temp.write(target, damaged);
      try {
        grb::io::read_graph(read_path);
      } catch (const grb::Error&) {
        ++errors;
      } catch (const std::exception& other) {
        FAIL("not a grb::Error: " << other.what());
      }
    }
    CHECK(errors > 0);  // the damage was noticed at least some of the time
    temp.write(target, original);
  }
}
