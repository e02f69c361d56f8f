// What the io tests share: a temporary folder for small files, and the stored entries of a
// matrix as plain tuples.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <grb/grb.hpp>

namespace grb::test {

/// A fresh folder under the system temp folder, removed with everything in it at scope exit.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "grb-io-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temp folder");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  /// Writes `content` byte for byte to `name` in this folder.
  std::filesystem::path write(const std::string& name, const std::string& content) const {
    const auto file = path_ / name;
    std::ofstream out(file, std::ios::binary);
    out << content;
    if (!out) throw std::runtime_error("cannot write " + file.string());
    return file;
  }

 private:
  std::filesystem::path path_;
};

using Entry = std::tuple<Index, Index, double>;

/// The stored entries in row-major order.
template <class T>
std::vector<Entry> entries(const Matrix<T>& matrix) {
  std::vector<Index> rows, cols;
  std::vector<T> values;
  matrix.extract_tuples(rows, cols, values);
  std::vector<Entry> result;
  for (std::size_t e = 0; e < rows.size(); ++e)
    result.emplace_back(rows[e], cols[e], static_cast<double>(values[e]));
  return result;
}

/// True when A(i,j) and A(j,i) are both stored with equal values, for every entry.
inline bool is_symmetric(const Matrix<double>& matrix) {
  for (const auto& [i, j, value] : entries(matrix)) {
    auto mirror = matrix.extract_element(j, i);
    if (!mirror || *mirror != value) return false;
  }
  return true;
}

/// A file's bytes.
inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Deterministic damage to a file's text: one to three edits, each a byte replaced by one of
/// `replacements`, a cut, or one of them inserted. Seeded, so that a failure repeats.
class Damage {
 public:
  Damage(std::uint64_t seed, std::string replacements)
      : state_(seed), replacements_(std::move(replacements)) {}
  std::string operator()(std::string text) {
    const int edits = 1 + static_cast<int>(random(3));
    for (int k = 0; k < edits && !text.empty(); ++k) {
      const std::size_t at = random(text.size());
      switch (random(3)) {
        case 0: text[at] = replacements_[random(replacements_.size())]; break;
        case 1: text.resize(at); break;
        default: text.insert(at, 1, replacements_[random(replacements_.size())]); break;
      }
    }
    return text;
  }

 private:
  std::uint64_t random(std::uint64_t bound) {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return (state_ >> 33) % bound;
  }
  std::uint64_t state_;
  std::string replacements_;
};

/// Reads `content` as file `name` in `temp` (the format from its name, or options.format) and
/// expects a ParseError at `line` naming the file, whose message contains `words` and says how
/// to ask for another format.
inline void expect_parse_error(const TempDir& temp, const std::string& name,
                               const std::string& content, std::size_t line,
                               const std::string& words, io::ReadOptions options = {}) {
  CAPTURE(name);
  CAPTURE(content);
  const auto path = temp.write(name, content);
  try {
    io::read_graph(path, options);
    FAIL("no error for a malformed file");
  } catch (const ParseError& error) {
    CAPTURE(std::string(error.what()));
    CHECK(error.file() == path.string());
    CHECK(error.line() == line);
    CHECK(std::string(error.what()).find(words) != std::string::npos);
    CHECK(error.code() == ErrorCode::parse_error);
    CHECK(std::string(error.what()).find(
              "; if it is another format, pass --format mtx|edges|ldbc|binary|dimacs|metis|tntp)") !=
          std::string::npos);
  }
}

}  // namespace grb::test
