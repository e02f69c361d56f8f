// What the io tests share: a temporary folder for small files, and the stored entries of a
// matrix as plain tuples.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
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

}  // namespace grb::test
