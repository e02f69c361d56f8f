// Reading and building host vectors and matrices: what every cpu operation shares.
// Vectors are read in either format (sparse or dense); matrix results are built row by row.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "grb/array.hpp"
#include "grb/descriptor.hpp"
#include "grb/error.hpp"
#include "grb/matrix.hpp"
#include "grb/vector.hpp"

namespace grb::cpu::detail {

using grb::detail::Array;

/// std::vector<bool> is not contiguous, so growable host storage keeps bools as bytes.
template <class T>
using Stored = std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>;

template <class T>
Array<T> to_array(const std::vector<Stored<T>>& values) {
  Array<T> result(values.size(), Backend::cpu);
  for (std::size_t e = 0; e < values.size(); ++e) result[e] = static_cast<T>(values[e]);
  return result;
}

// The type an operator produces: its result_type when it names one, else what calling it gives.
template <class Op, class... Args>
auto result_of() {
  if constexpr (requires { typename Op::result_type; })
    return std::type_identity<typename Op::result_type>{};
  else
    return std::type_identity<std::decay_t<std::invoke_result_t<const Op&, Args...>>>{};
}
template <class Op, class... Args>
using result_t = typename decltype(result_of<Op, Args...>())::type;

/// Calls f(i, value) for every entry of a host vector, by increasing index.
template <class T, class F>
void for_each_entry(const Vector<T>& v, F&& f) {
  if (v.format() == VectorFormat::sparse) {
    const auto& indices = v.indices();
    const auto& values = v.values();
    for (Index e = 0; e < v.nvals(); ++e) f(indices[e], values[e]);
  } else {
    const auto& present = v.present();
    const auto& values = v.values();
    for (Index i = 0; i < v.size(); ++i)
      if (present[i]) f(i, values[i]);
  }
}

/// Random access to a host vector: borrows a dense vector's arrays, densifies a sparse one.
template <class T>
class DenseView {
 public:
  explicit DenseView(const Vector<T>& v) {
    if (v.format() == VectorFormat::dense) {
      values_ = v.values().data();
      present_ = v.present().data();
      return;
    }
    owned_values_ = Array<T>(v.size(), Backend::cpu);
    owned_present_ = Array<std::uint8_t>(v.size(), Backend::cpu);
    std::fill(owned_present_.begin(), owned_present_.end(), std::uint8_t{0});
    for_each_entry(v, [&](Index i, const T& value) {
      owned_values_[i] = value;
      owned_present_[i] = 1;
    });
    values_ = owned_values_.data();
    present_ = owned_present_.data();
  }
  bool has(Index i) const { return present_[i] != 0; }
  const T& operator[](Index i) const { return values_[i]; }

 private:
  const T* values_ = nullptr;
  const std::uint8_t* present_ = nullptr;
  Array<T> owned_values_;
  Array<std::uint8_t> owned_present_;
};

/// A dense host accumulator of `size` slots that ends as a Vector in the format its count suits.
template <class T>
class DenseResult {
 public:
  explicit DenseResult(Index size)
      : size_(size), values_(size, Backend::cpu), present_(size, Backend::cpu) {
    std::fill(present_.begin(), present_.end(), std::uint8_t{0});
  }
  bool has(Index i) const { return present_[i] != 0; }
  T& operator[](Index i) { return values_[i]; }
  void set(Index i, T value) {
    if (!present_[i]) ++nvals_;
    present_[i] = 1;
    values_[i] = value;
  }
  Vector<T> finish() && {
    Vector<T> result(size_, Backend::cpu);
    grb::detail::Storage::adopt_dense(result, std::move(values_), std::move(present_), nvals_);
    return result;
  }

 private:
  Index size_;
  Index nvals_ = 0;
  Array<T> values_;
  Array<std::uint8_t> present_;
};

/// Entries appended by increasing index, ending as a sparse Vector.
template <class T>
class SparseResult {
 public:
  explicit SparseResult(Index size) : size_(size) {}
  void push(Index i, T value) {
    indices_.push_back(i);
    values_.push_back(static_cast<Stored<T>>(value));
  }
  Vector<T> finish() && {
    Vector<T> result(size_, Backend::cpu);
    grb::detail::Storage::adopt_sparse(
        result, Array<Index>::from(std::span<const Index>(indices_), Backend::cpu),
        to_array<T>(values_));
    return result;
  }

 private:
  Index size_;
  std::vector<Index> indices_;
  std::vector<Stored<T>> values_;
};

/// A CSR built row by row: push() a row's entries by increasing column, then end_row().
template <class T>
class CsrBuilder {
 public:
  CsrBuilder(Index nrows, Index ncols)
      : nrows_(nrows), ncols_(ncols), offsets_(std::size_t(nrows) + 1, Backend::cpu) {
    offsets_[0] = 0;
  }
  void push(Index column, T value) {
    columns_.push_back(column);
    values_.push_back(static_cast<Stored<T>>(value));
  }
  void end_row(Index i) { offsets_[std::size_t(i) + 1] = columns_.size(); }
  Csr<T> finish() && {
    return Csr<T>{nrows_, ncols_, std::move(offsets_),
                  Array<Index>::from(std::span<const Index>(columns_), Backend::cpu),
                  to_array<T>(values_)};
  }

 private:
  Index nrows_, ncols_;
  Array<Offset> offsets_;
  std::vector<Index> columns_;
  std::vector<Stored<T>> values_;
};

/// The values of a vector, converted to another type (moved when the type is the same).
template <class Target, class Source>
Vector<Target> cast_vector(Vector<Source>&& v) {
  if constexpr (std::is_same_v<Target, Source>) {
    return std::move(v);
  } else {
    Array<Target> values(v.values().size(), Backend::cpu);
    for (std::size_t e = 0; e < values.size(); ++e) values[e] = static_cast<Target>(v.values()[e]);
    Vector<Target> result(v.size(), Backend::cpu);
    if (v.format() == VectorFormat::sparse)
      grb::detail::Storage::adopt_sparse(result, v.indices().clone(), std::move(values));
    else
      grb::detail::Storage::adopt_dense(result, std::move(values), v.present().clone(), v.nvals());
    return result;
  }
}

template <class Target, class Source>
Csr<Target> cast_csr(Csr<Source>&& a) {
  if constexpr (std::is_same_v<Target, Source>) {
    return std::move(a);
  } else {
    Array<Target> values(a.values.size(), Backend::cpu);
    for (std::size_t e = 0; e < values.size(); ++e) values[e] = static_cast<Target>(a.values[e]);
    return Csr<Target>{a.nrows, a.ncols, std::move(a.row_offsets), std::move(a.col_indices),
                       std::move(values)};
  }
}

/// A host copy of a CSR (the cpu operations' inputs are already host CSRs; copies are for
/// results that start as an input, such as transpose).
template <class T>
Csr<T> copy_csr(const Csr<T>& a) {
  return a.to(Backend::cpu);
}

/// The matrix an operation reads, transposed when the descriptor asks: its rows in CSR form.
template <class T>
const Csr<T>& rows_of(const Matrix<T>& a, bool transposed) {
  return transposed ? a.csc() : a.csr();
}

inline std::string shape(Index nrows, Index ncols) {
  return std::to_string(nrows) + " x " + std::to_string(ncols);
}

[[noreturn]] inline void dimension_mismatch(const char* operation, const std::string& detail) {
  throw DimensionMismatch(std::string(operation) + ": " + detail);
}

/// Every index in `list` must be below `dimension` (and on the host).
inline void check_indices(const IndexList& list, Index dimension, const char* operation,
                          const char* what) {
  if (list.is_all()) return;
  if (list.backend() != Backend::cpu)
    throw BackendMismatch(std::string(operation) + ": " + what +
                          " list on the cuda backend for a cpu operation");
  for (std::size_t p = 0; p < list.ids().size(); ++p) {
    if (list.ids()[p] >= dimension)
      throw IndexOutOfBounds(std::string(operation) + ": " + what + " " +
                             std::to_string(list.ids()[p]) + " (position " + std::to_string(p) +
                             ") outside dimension " + std::to_string(dimension));
  }
}

}  // namespace grb::cpu::detail
