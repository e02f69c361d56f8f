// Large text files, which the readers parse on several threads (more than a megabyte after the
// header): the same matrix as the entries written, in every shape the one-thread parse takes
// (comments and blank lines anywhere, CRLF, symmetric mirrors, duplicates summed in file
// order, '+' signs); and a malformed line anywhere still reported at its exact line.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "io_files.hpp"

namespace {

using grb::Index;
using grb::test::Entry;

// Enough lines that the text is several megabytes: over the threshold, and more than one piece.
constexpr std::size_t large = 200'000;
constexpr Index vertices = 5'000;

struct Generated {
  std::string text;
  std::vector<Entry> expected;  // row-major, duplicates combined
  std::vector<std::size_t> entry_lines;  // the 1-based file line of each entry line
};

/// A Matrix Market body of `count` random entries with comments, blank lines and CRLF line
/// ends sprinkled in; duplicates are summed as the reader does.
Generated matrix_market(const std::string& banner, std::size_t count, bool symmetric) {
  std::mt19937_64 random(7);
  Generated file;
  file.text = banner + "\n% a comment\n" + std::to_string(vertices) + " " +
              std::to_string(vertices) + " " + std::to_string(count) + "\n";
  std::size_t line = 3;
  std::map<std::pair<Index, Index>, double> sums;
  for (std::size_t e = 0; e < count; ++e) {
    if (random() % 1000 == 0) file.text += "% between entries\n", ++line;
    if (random() % 1000 == 0) file.text += "  \t \n", ++line;
    Index i = static_cast<Index>(random() % vertices), j = static_cast<Index>(random() % vertices);
    if (symmetric && i < j) std::swap(i, j);
    const double value = static_cast<double>(random() % 100000) / 64;
    file.text += std::to_string(i + 1) + " " + std::to_string(j + 1) + " " +
                 (e % 97 == 0 ? "+" : "") + std::to_string(value) +
                 (e % 5 == 0 ? "\r\n" : "\n");
    file.entry_lines.push_back(++line);
    sums[{i, j}] += value;
    if (symmetric && i != j) sums[{j, i}] += value;
  }
  for (const auto& [at, value] : sums) file.expected.emplace_back(at.first, at.second, value);
  return file;
}

/// The text with entry line `k` replaced by `replacement`.
std::string with_line(const Generated& file, std::size_t k, const std::string& replacement) {
  std::size_t begin = 0;
  for (std::size_t line = 1; line < file.entry_lines[k]; ++line) begin = file.text.find('\n', begin) + 1;
  const std::size_t end = file.text.find('\n', begin);
  return file.text.substr(0, begin) + replacement + file.text.substr(end);
}

void expect_parse_error(const std::filesystem::path& path, std::size_t line,
                        const std::string& words) {
  try {
    grb::io::read_graph(path);
    FAIL("no error for a malformed line ", line);
  } catch (const grb::ParseError& error) {
    CHECK(error.line() == line);
    CHECK(std::string(error.what()).find(words) != std::string::npos);
    CHECK(error.file() == path.string());
  }
}

}  // namespace

TEST_CASE("a large Matrix Market file reads as the entries written") {
  grb::test::TempDir temp;
  SUBCASE("general, real, with duplicates") {
    const Generated file =
        matrix_market("%%MatrixMarket matrix coordinate real general", large, false);
    REQUIRE(file.text.size() > (std::size_t{2} << 20));
    const grb::io::Graph graph = grb::io::read_graph(temp.write("general.mtx", file.text));
    CHECK(graph.directed);
    CHECK(grb::test::entries(graph.matrix) == file.expected);
  }
  SUBCASE("symmetric: every off-diagonal entry mirrored") {
    const Generated file =
        matrix_market("%%MatrixMarket matrix coordinate real symmetric", large, true);
    const grb::io::Graph graph = grb::io::read_graph(temp.write("symmetric.mtx", file.text));
    CHECK_FALSE(graph.directed);
    CHECK(grb::test::entries(graph.matrix) == file.expected);
  }
}

TEST_CASE("a malformed line of a large Matrix Market file is reported at its line") {
  grb::test::TempDir temp;
  const Generated file =
      matrix_market("%%MatrixMarket matrix coordinate real general", large, false);
  for (std::size_t k : {std::size_t{0}, large / 2, large - 1}) {
    CAPTURE(k);
    expect_parse_error(temp.write("bad-index.mtx", with_line(file, k, "3 x 4")),
                       file.entry_lines[k], "'x'");
    expect_parse_error(temp.write("out-of-range.mtx", with_line(file, k, "5001 1 1")),
                       file.entry_lines[k], "out of range");
    expect_parse_error(temp.write("no-value.mtx", with_line(file, k, "1 2")),
                       file.entry_lines[k], "no value");
  }
  // One entry more than the size line declares: the error is at the extra entry.
  expect_parse_error(temp.write("extra.mtx", file.text + "1 1 1\n"), file.entry_lines.back() + 1,
                     "more entries");
  // One fewer: the file ends early.
  const std::string truncated = file.text.substr(0, file.text.rfind('\n', file.text.size() - 2) + 1);
  expect_parse_error(temp.write("truncated.mtx", truncated), file.entry_lines.back() - 1,
                     "truncated");
}

TEST_CASE("a large edge list reads as the edges written; a bad line is reported at its line") {
  grb::test::TempDir temp;
  std::mt19937_64 random(11);
  std::string text = "# source destination weight\n";
  std::map<std::pair<Index, Index>, double> last;
  std::vector<std::size_t> lines;
  for (std::size_t e = 0; e < large; ++e) {
    const Index i = static_cast<Index>(random() % vertices), j = static_cast<Index>(random() % vertices);
    const double weight = static_cast<double>(random() % 1000) / 8;
    text += std::to_string(i) + (e % 3 ? "\t" : ",") + std::to_string(j) + " " +
            std::to_string(weight) + "\n";
    lines.push_back(e + 2);
    last[{i, j}] = weight;
  }
  std::vector<Entry> expected;
  for (const auto& [at, weight] : last) expected.emplace_back(at.first, at.second, weight);
  const grb::io::Graph graph = grb::io::read_graph(temp.write("edges.txt", text));
  CHECK(graph.weighted);
  CHECK(graph.vertex_ids.empty());
  CHECK(grb::test::entries(graph.matrix) == expected);

  // The last line lacks its weight: the first edge (line 2) had one.
  const std::string unweighted_tail = text + "1 2\n";
  expect_parse_error(temp.write("mixed.txt", unweighted_tail), lines.back() + 1,
                     "on the first edge (line 2)");
  expect_parse_error(temp.write("negative.txt", text + "-1 2 3\n"), lines.back() + 1, "negative");
}
