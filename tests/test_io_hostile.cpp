// Hostile input: files that declare far more than they hold, lines that never end, control bytes
// in fields. Each is a grb::Error with a clear message before any large allocation, never a
// crash, a hang, or a process the kernel kills for its memory.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include <grb/grb.hpp>

#include "io_files.hpp"
#include "support.hpp"

namespace {

/// Sets an environment variable for one scope, restoring it after.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    setenv(name, value, 1);
  }
  ~ScopedEnvironment() {
    if (had_) setenv(name_, old_.c_str(), 1);
    else unsetenv(name_);
  }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

std::string message_of(const std::filesystem::path& path) {
  try {
    grb::io::read_graph(path);
  } catch (const grb::Error& error) {
    return error.what();
  }
  FAIL("no error for " << path);
  return {};
}

}  // namespace

TEST_CASE("a declared size beyond the memory available is an OutOfMemory with the sizes") {
  grb::test::TempDir temp;
  // 2^31 + 5 rows and three entries: the CSR's row offsets alone take 16 GiB.
  const auto path = temp.write("huge.mtx",
                               "%%MatrixMarket matrix coordinate pattern general\n"
                               "2147483653 2147483653 3\n1 1\n2 2\n2147483653 1\n");
  ScopedEnvironment limit("GRB_HOST_MEMORY_LIMIT", "1G");
  try {
    grb::io::read_graph(path);
    FAIL("no error");
  } catch (const grb::OutOfMemory& error) {
    const std::string message = error.what();
    CAPTURE(message);
    CHECK(message.find("2147483653 x 2147483653") != std::string::npos);
    CHECK(message.find("GiB of host memory") != std::string::npos);
    CHECK(error.requested_bytes() > (std::size_t{16} << 30));
    CHECK(error.free_bytes() == (std::size_t{1} << 30));
  }
}

TEST_CASE("many rows and few entries assemble without a slot per row per block") {
  // 2^24 + 3 rows, three entries: the row blocks are bounded in rows, so the assembly takes the
  // CSR's offsets and little more.
  grb::test::TempDir temp;
  const auto path = temp.write("tall.mtx",
                               "%%MatrixMarket matrix coordinate real general\n"
                               "16777219 4 3\n16777219 1 2.5\n1 4 1\n8388608 2 -1\n");
  const grb::io::Graph graph = grb::io::read_graph(path);
  const grb::Csr<double>& csr = graph.matrix.csr();
  REQUIRE(csr.nrows == 16777219u);
  REQUIRE(csr.nvals() == 3u);
  CHECK(csr.row_offsets[1] == 1);
  CHECK(csr.col_indices[0] == 3u);
  CHECK(csr.col_indices[1] == 1u);
  CHECK(csr.values[1] == -1.0);
  CHECK(csr.col_indices[2] == 0u);
  CHECK(csr.values[2] == 2.5);
  CHECK(csr.row_offsets[16777219] == 3);
}

TEST_CASE("more entries declared than the file can hold is refused at the size line") {
  grb::test::TempDir temp;
  const auto path = temp.write("liar.mtx",
                               "%%MatrixMarket matrix coordinate real general\n"
                               "10 10 3000000000\n1 1 1\n");
  try {
    grb::io::read_graph(path);
    FAIL("no error");
  } catch (const grb::ParseError& error) {
    CHECK(error.line() == 2);
    CHECK(std::string(error.what()).find("declares 3000000000 entries") != std::string::npos);
  }
}

TEST_CASE("a line that never ends is an error, not all the memory") {
  // A sparse file of 300 MiB of NUL bytes: no disk used, no line end anywhere.
  grb::test::TempDir temp;
  for (const char* name : {"zeros.mtx", "zeros.txt", "zeros.graph"}) {
    CAPTURE(name);
    const auto path = temp.path() / name;
    const int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
    REQUIRE(fd >= 0);
    REQUIRE(::ftruncate(fd, off_t{300} << 20) == 0);
    ::close(fd);
    const std::string message = message_of(path);
    CAPTURE(message);
    CHECK(message.find(path.string()) != std::string::npos);
  }
}

TEST_CASE("control bytes from a file are escaped in messages") {
  grb::test::TempDir temp;
  const auto path = temp.write("escape.txt", "1 2\n3 \x1b[31mred\x07\n");
  const std::string message = message_of(path);
  CAPTURE(message);
  CHECK(message.find('\x1b') == std::string::npos);
  CHECK(message.find('\x07') == std::string::npos);
  CHECK(message.find("\\x1b[31mred\\x07") != std::string::npos);
}

TEST_CASE("a binary graph's flags must fit its matrix") {
  grb::test::TempDir temp;
  grb::io::Graph graph;
  graph.matrix = grb::Matrix<double>(3, 4);
  graph.matrix.build(std::vector<grb::Index>{0, 2}, std::vector<grb::Index>{3, 1},
                     std::vector<double>{1.0, 2.0});
  graph.directed = false;  // but not square
  grb::io::write_binary(temp.path() / "rectangular.grb", graph);
  CHECK_THROWS_WITH_AS(grb::io::read_binary(temp.path() / "rectangular.grb"),
                       doctest::Contains("flagged undirected, but the matrix is 3 x 4"),
                       grb::ParseError);
  graph.matrix = grb::Matrix<double>(3, 3);
  graph.directed = true;
  graph.source = 7;  // not a vertex
  grb::io::write_binary(temp.path() / "source.grb", graph);
  CHECK_THROWS_WITH_AS(grb::io::read_binary(temp.path() / "source.grb"),
                       doctest::Contains("source vertex 7 is not a vertex"), grb::ParseError);
  graph.source = 2;
  grb::io::write_binary(temp.path() / "fine.grb", graph);
  CHECK(grb::io::read_binary(temp.path() / "fine.grb").source == std::optional<std::uint64_t>{2});
}

TEST_CASE("an LDBC properties file naming a device is refused, not read") {
  grb::test::TempDir temp;
  temp.write("g.properties",
             "graph.g.vertex-file = /dev/zero\ngraph.g.edge-file = g.e\ngraph.g.directed = true\n");
  temp.write("g.e", "1 2\n");
  CHECK_THROWS_WITH_AS(grb::io::read_graph(temp.path() / "g.properties"),
                       doctest::Contains("/dev/zero is not a regular file"), grb::IoError);
}

TEST_CASE("an LDBC properties file naming a file whose name is too long is an IoError") {
  grb::test::TempDir temp;
  const std::string long_name(5000, 'v');  // past PATH_MAX: the file system refuses to look
  temp.write("g.properties", "graph.g.vertex-file = " + long_name +
                                 "\ngraph.g.edge-file = " + long_name + "\ngraph.g.directed = true\n");
  temp.write("g.e", "1 2\n");
  CHECK_THROWS_WITH_AS(grb::io::read_graph(temp.path() / "g.properties"),
                       doctest::Contains("is not a regular file"), grb::IoError);
}
