// grb::Matrix<T>: a sparse matrix owning its storage on one backend, stored as CSR
// (64-bit row offsets, 32-bit column ids, columns sorted within each row, no duplicates).
// The transpose, also in CSR form (i.e. the CSC of the matrix), is built on first use and cached:
// pull-direction mxv and vxm need it.
#pragma once

#include <algorithm>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "grb/array.hpp"
#include "grb/deferred.hpp"
#include "grb/error.hpp"
#include "grb/operators.hpp"
#include "grb/types.hpp"

namespace grb {
namespace detail {
struct Storage;  // the backends' way into a Matrix's or a Vector's storage (grb/vector.hpp)

/// A host Array copy of a std::vector (std::vector<bool> has no span).
template <class T>
Array<T> host_array(const std::vector<T>& values) {
  Array<T> result(values.size(), Backend::cpu);
  std::copy(values.begin(), values.end(), result.begin());
  return result;
}
}  // namespace detail

/// Duplicate policy for build(): duplicates are an error (GraphBLAS 2.0 with a NULL dup).
struct NoDuplicates {};
inline constexpr NoDuplicates no_duplicates{};

/// Compressed sparse rows on one backend.
template <class T>
struct Csr {
  Index nrows = 0;
  Index ncols = 0;
  detail::Array<Offset> row_offsets;  // nrows + 1 entries
  detail::Array<Index> col_indices;   // nvals entries, sorted within each row
  detail::Array<T> values;            // nvals entries

  Offset nvals() const { return col_indices.size(); }
  Backend backend() const { return row_offsets.backend(); }
  Csr to(Backend backend) const {
    return Csr{nrows, ncols, row_offsets.to(backend), col_indices.to(backend), values.to(backend)};
  }
  /// An empty nrows x ncols matrix.
  static Csr empty(Index nrows, Index ncols, Backend backend) {
    detail::Array<Offset> offsets(std::size_t(nrows) + 1, Backend::cpu);
    std::fill(offsets.begin(), offsets.end(), Offset{0});
    return Csr{nrows, ncols, offsets.to(backend), detail::Array<Index>(0, backend),
               detail::Array<T>(0, backend)};
  }
};

namespace detail {
/// The transpose of a host CSR (counting sort by column; stable, so rows stay sorted).
template <class T>
Csr<T> transpose_host(const Csr<T>& a) {
  Csr<T> t{a.ncols, a.nrows, Array<Offset>(std::size_t(a.ncols) + 1, Backend::cpu),
           Array<Index>(a.nvals(), Backend::cpu), Array<T>(a.nvals(), Backend::cpu)};
  std::fill(t.row_offsets.begin(), t.row_offsets.end(), 0);
  for (Offset e = 0; e < a.nvals(); ++e) ++t.row_offsets[a.col_indices[e] + 1];
  std::partial_sum(t.row_offsets.begin(), t.row_offsets.end(), t.row_offsets.begin());
  std::vector<Offset> next(t.row_offsets.begin(), t.row_offsets.end() - 1);
  for (Index i = 0; i < a.nrows; ++i) {
    for (Offset e = a.row_offsets[i]; e < a.row_offsets[i + 1]; ++e) {
      Offset slot = next[a.col_indices[e]]++;
      t.col_indices[slot] = i;
      t.values[slot] = a.values[e];
    }
  }
  return t;
}

// The transpose on the GPU (CUB), for any value size; defined in src/cuda.
void transpose_csr_cuda(std::size_t value_bytes, Index nrows, Index ncols, Offset nvals,
                        const Offset* row_offsets, const Index* col_indices, const void* values,
                        Offset* t_row_offsets, Index* t_col_indices, void* t_values);

template <class T>
Csr<T> transpose_cuda(const Csr<T>& a) {
  Csr<T> t{a.ncols, a.nrows, Array<Offset>(std::size_t(a.ncols) + 1, Backend::cuda),
           Array<Index>(a.nvals(), Backend::cuda), Array<T>(a.nvals(), Backend::cuda)};
  transpose_csr_cuda(sizeof(T), a.nrows, a.ncols, a.nvals(), a.row_offsets.data(),
                     a.col_indices.data(), a.values.data(), t.row_offsets.data(),
                     t.col_indices.data(), t.values.data());
  return t;
}
}  // namespace detail

template <class T>
class Matrix {
 public:
  using value_type = T;

  Matrix() : Matrix(0, 0, Backend::cpu) {}
  Matrix(Index nrows, Index ncols, Backend backend = default_backend())
      : csr_(Csr<T>::empty(nrows, ncols, backend)) {}
  /// Takes ownership of a CSR; checks its sizes (cheap checks only).
  explicit Matrix(Csr<T>&& csr) : csr_(std::move(csr)) {
    if (csr_.row_offsets.size() != std::size_t(csr_.nrows) + 1 ||
        csr_.values.size() != csr_.col_indices.size())
      throw InvalidValue("Matrix: CSR arrays have inconsistent sizes");
  }

  /// A copy in the current context (grb/context.hpp), made once the source's context has
  /// finished with it.
  Matrix(const Matrix& other)
      : csr_((detail::complete_for_copy(*other.context_, other.backend() == Backend::cuda), other.csr_.to(other.backend()))),
        symmetric_(other.symmetric_) {}
  // Replacing or freeing the entries first completes deferred work, which may read them
  // (grb/deferred.hpp); a move construction keeps the same storage alive.
  Matrix& operator=(const Matrix& other) {
    if (this != &other) {
      detail::complete_deferred(*context_);
      detail::complete_for_copy(*other.context_, other.backend() == Backend::cuda);
      context_ = detail::ObjectContext();
      csr_ = other.csr_.to(other.backend());
      transpose_.reset();
      longest_row_[0] = longest_row_[1] = std::nullopt;
      narrow_offsets_[0].reset();
      narrow_offsets_[1].reset();
      symmetric_ = other.symmetric_;
    }
    return *this;
  }
  Matrix(Matrix&&) noexcept = default;
  Matrix& operator=(Matrix&& other) noexcept {
    detail::complete_deferred_quietly(*context_);
    detail::complete_deferred_quietly(*other.context_);
    context_ = other.context_;
    csr_ = std::move(other.csr_);
    transpose_ = std::move(other.transpose_);
    longest_row_[0] = other.longest_row_[0];
    longest_row_[1] = other.longest_row_[1];
    narrow_offsets_[0] = std::move(other.narrow_offsets_[0]);
    narrow_offsets_[1] = std::move(other.narrow_offsets_[1]);
    symmetric_ = other.symmetric_;
    return *this;
  }
  ~Matrix() { detail::complete_deferred_quietly(*context_); }

  Index nrows() const { return csr_.nrows; }
  Index ncols() const { return csr_.ncols; }
  Offset nvals() const { return csr_.nvals(); }
  Backend backend() const { return csr_.backend(); }
  /// The context the matrix was made in (grb/context.hpp).
  Context context() const { return Context(context_.ref()); }

  /// A copy of this matrix on another backend, in the same context.
  Matrix to(Backend backend) const {
    const detail::ObjectScope scope(*context_);
    Matrix copy(csr_.to(backend));
    copy.symmetric_ = symmetric_;
    return copy;
  }

  /// The stored entries (read-only: use adopt() to replace them).
  const Csr<T>& csr() const { return csr_; }
  /// The transpose in CSR form, i.e. this matrix in CSC; built on first use and cached. For a
  /// matrix marked symmetric it is csr() itself: nothing is built or stored.
  const Csr<T>& csc() const {
    if (symmetric_) return csr_;
    if (!transpose_) {
      const detail::ContextSwitch use(*context_);
      const detail::OutsideRecording now;
      transpose_ = std::make_shared<Csr<T>>(backend() == Backend::cpu ? detail::transpose_host(csr_)
                                                                      : detail::transpose_cuda(csr_));
    }
    return *transpose_;
  }
  /// The caller's promise that A == A' (structure and values), as for an undirected graph built
  /// by symmetrizing: csc() then returns csr(), so pull-based operations and engines need no
  /// transpose (on a scale-26 Kronecker graph that is 25 GB of device memory). Not checked —
  /// checking costs the transpose it saves; the generators and readers set it where their
  /// construction guarantees it. Any change of the entries clears it.
  void mark_symmetric() {
    if (nrows() != ncols())
      throw DimensionMismatch("mark_symmetric: a " + std::to_string(nrows()) + " x " +
                              std::to_string(ncols()) + " matrix cannot be symmetric");
    const detail::ObjectScope scope(*context_);  // deferred work may read the transpose it frees
    symmetric_ = true;
    transpose_.reset();
    narrow_offsets_[1].reset();
  }
  bool symmetric() const { return symmetric_; }
  /// GrB_Matrix_build: the matrix must be empty; `dup` combines duplicate (i, j) entries.
  template <class Dup = NoDuplicates>
  void build(std::span<const Index> rows, std::span<const Index> cols, std::span<const T> values,
             Dup dup = {});
  template <class Dup = NoDuplicates>
  void build(const std::vector<Index>& rows, const std::vector<Index>& cols,
             const std::vector<T>& values, Dup dup = {}) {
    auto host_values = detail::host_array(values);
    build(std::span<const Index>(rows), std::span<const Index>(cols), std::span<const T>(host_values.data(), host_values.size()), dup);
  }

  /// All entries, in row-major order.
  void extract_tuples(std::vector<Index>& rows, std::vector<Index>& cols,
                      std::vector<T>& values) const;

  void set_element(Index i, Index j, T value);
  std::optional<T> extract_element(Index i, Index j) const;
  void remove_element(Index i, Index j);
  /// Removes every entry; keeps the dimensions.
  void clear() { adopt(Csr<T>::empty(nrows(), ncols(), backend())); }
  /// New dimensions; entries outside them are dropped.
  void resize(Index nrows, Index ncols);

 private:
  friend struct detail::Storage;

  // The backends' side of the storage, reached through detail::Storage (not the API).
  /// Replaces the contents (dimensions included) with `csr`, on its own backend.
  void adopt(Csr<T>&& csr) {
    const detail::ObjectScope scope(*context_);
    csr_ = std::move(csr);
    transpose_.reset();
    longest_row_[0] = longest_row_[1] = std::nullopt;
    narrow_offsets_[0].reset();
    narrow_offsets_[1].reset();
    symmetric_ = false;
  }
  /// The length of the longest row of csr() (of csc() when `transposed`): computed on first
  /// use by `compute(rows)` and cached with the matrix, for heuristics that need a bound on the
  /// degrees (the cuda push/pull choice).
  template <class Compute>
  Offset longest_row(bool transposed, Compute&& compute) const {
    std::optional<Offset>& cached = longest_row_[transposed ? 1 : 0];
    if (!cached) {
      const detail::OutsideRecording now;
      cached = compute(transposed ? csc() : csr_);
    }
    return *cached;
  }
  /// The row offsets of csr() (of csc() when `transposed`) as 32-bit values, for a matrix of fewer
  /// than 2^32 entries: made on first use by `narrow(rows)` and cached with the matrix, for
  /// kernels that read every row's bounds (the cuda pull reads half the bytes).
  template <class Narrow>
  const detail::Array<std::uint32_t>& narrow_offsets(bool transposed, Narrow&& narrow) const {
    auto& cached = narrow_offsets_[transposed ? 1 : 0];
    if (!cached) {
      const detail::OutsideRecording now;
      cached = std::make_shared<detail::Array<std::uint32_t>>(narrow(transposed ? csc() : csr_));
    }
    return *cached;
  }

  detail::ObjectContext context_;  // first: the arrays below are freed while it is alive
  Csr<T> csr_;
  mutable std::shared_ptr<Csr<T>> transpose_;
  mutable std::optional<Offset> longest_row_[2];  // of csr_ and of the transpose; see longest_row
  mutable std::shared_ptr<detail::Array<std::uint32_t>> narrow_offsets_[2];  // see narrow_offsets
  bool symmetric_ = false;                         // see mark_symmetric

  void check_position(Index i, Index j, const char* what) const {
    if (i >= nrows() || j >= ncols())
      throw IndexOutOfBounds(std::string(what) + ": (" + std::to_string(i) + ", " +
                             std::to_string(j) + ") outside a " + std::to_string(nrows()) + " x " +
                             std::to_string(ncols()) + " matrix");
  }
  /// Edits go through a host copy (cheap on cpu; for cuda the matrix round-trips).
  template <class Edit>
  void edit_on_host(Edit edit);
};

namespace detail {

/// build() for a matrix on the cuda backend; defined in grb/cuda/build.hpp (included below).
template <class T, class Dup>
Csr<T> build_cuda_csr(Index nrows, Index ncols, std::span<const Index> rows,
                      std::span<const Index> cols, std::span<const T> values, Dup dup);

/// Sorts (row, col, value) tuples into a host CSR, combining duplicates with `dup`.
template <class T, class Dup>
Csr<T> build_host_csr(Index nrows, Index ncols, std::span<const Index> rows,
                      std::span<const Index> cols, std::span<const T> values, Dup dup) {
  if (rows.size() != cols.size() || rows.size() != values.size())
    throw DimensionMismatch("build: " + std::to_string(rows.size()) + " rows, " +
                            std::to_string(cols.size()) + " columns and " +
                            std::to_string(values.size()) + " values");
  const std::size_t n = rows.size();
  Array<Offset> offsets(std::size_t(nrows) + 1, Backend::cpu);
  std::fill(offsets.begin(), offsets.end(), 0);
  for (std::size_t e = 0; e < n; ++e) {
    if (rows[e] >= nrows || cols[e] >= ncols)
      throw IndexOutOfBounds("build: entry " + std::to_string(e) + " at (" +
                             std::to_string(rows[e]) + ", " + std::to_string(cols[e]) +
                             ") outside a " + std::to_string(nrows) + " x " +
                             std::to_string(ncols) + " matrix");
    ++offsets[rows[e] + 1];
  }
  std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
  // Scatter by row, then sort each row by column and combine duplicates in place.
  struct Entry {
    Index column;
    T value;
  };
  std::vector<Entry> entries(n);
  {
    std::vector<Offset> next(offsets.begin(), offsets.end() - 1);
    for (std::size_t e = 0; e < n; ++e) entries[next[rows[e]]++] = {cols[e], values[e]};
  }
  Array<Index> col_indices(n, Backend::cpu);
  Array<T> vals(n, Backend::cpu);
  Offset out = 0;
  for (Index i = 0; i < nrows; ++i) {
    auto row_begin = entries.begin() + static_cast<std::ptrdiff_t>(offsets[i]);
    auto row_end = entries.begin() + static_cast<std::ptrdiff_t>(offsets[i + 1]);
    // Stable: duplicates combine in input order, as GrB_Matrix_build specifies.
    std::stable_sort(row_begin, row_end,
                     [](const Entry& a, const Entry& b) { return a.column < b.column; });
    offsets[i] = out;
    for (auto it = row_begin; it != row_end; ++it) {
      if (out > offsets[i] && col_indices[out - 1] == it->column) {
        if constexpr (std::is_same_v<Dup, NoDuplicates>) {
          throw InvalidValue("build: duplicate entry at (" + std::to_string(i) + ", " +
                             std::to_string(it->column) + ") and no duplicate operator");
        } else {
          vals[out - 1] = static_cast<T>(dup(vals[out - 1], it->value));
        }
      } else {
        col_indices[out] = it->column;
        vals[out] = it->value;
        ++out;
      }
    }
  }
  offsets[nrows] = out;
  Csr<T> csr{nrows, ncols, std::move(offsets), Array<Index>(out, Backend::cpu),
             Array<T>(out, Backend::cpu)};
  std::copy_n(col_indices.begin(), out, csr.col_indices.begin());
  std::copy_n(vals.begin(), out, csr.values.begin());
  return csr;
}

}  // namespace detail

template <class T>
template <class Dup>
void Matrix<T>::build(std::span<const Index> rows, std::span<const Index> cols,
                      std::span<const T> values, Dup dup) {
  const detail::ContextSwitch use(*context_);
  if (nvals() != 0) throw InvalidValue("build: the matrix already has entries (GrB_OUTPUT_NOT_EMPTY)");
  if (backend() == Backend::cuda)  // sorted on the GPU: grb/cuda/build.hpp
    adopt(detail::build_cuda_csr(nrows(), ncols(), rows, cols, values, dup));
  else
    adopt(detail::build_host_csr(nrows(), ncols(), rows, cols, values, dup));
}

template <class T>
void Matrix<T>::extract_tuples(std::vector<Index>& rows, std::vector<Index>& cols,
                               std::vector<T>& values) const {
  const detail::ContextSwitch use(*context_);
  const Csr<T> local = backend() == Backend::cpu ? Csr<T>{} : csr_.to(Backend::cpu);
  const Csr<T>& host = backend() == Backend::cpu ? csr_ : local;
  rows.resize(host.nvals());
  cols.assign(host.col_indices.begin(), host.col_indices.end());
  values.assign(host.values.begin(), host.values.end());
  for (Index i = 0; i < host.nrows; ++i)
    std::fill(rows.begin() + static_cast<std::ptrdiff_t>(host.row_offsets[i]),
              rows.begin() + static_cast<std::ptrdiff_t>(host.row_offsets[i + 1]), i);
}

template <class T>
template <class Edit>
void Matrix<T>::edit_on_host(Edit edit) {
  const detail::ContextSwitch use(*context_);
  std::vector<Index> rows, cols;
  std::vector<T> values;
  extract_tuples(rows, cols, values);
  edit(rows, cols, values);
  auto host_values = detail::host_array(values);
  Csr<T> host = detail::build_host_csr(nrows(), ncols(), std::span<const Index>(rows),
                                       std::span<const Index>(cols), std::span<const T>(host_values.data(), host_values.size()),
                                       second<T>{});
  adopt(backend() == Backend::cpu ? std::move(host) : host.to(backend()));
}

template <class T>
void Matrix<T>::set_element(Index i, Index j, T value) {
  const detail::ContextSwitch use(*context_);
  check_position(i, j, "set_element");
  if (backend() == Backend::cpu) {
    const Index* begin = csr_.col_indices.data() + csr_.row_offsets[i];
    const Index* end = csr_.col_indices.data() + csr_.row_offsets[i + 1];
    const Index* it = std::lower_bound(begin, end, j);
    if (it != end && *it == j) {
      csr_.values[static_cast<std::size_t>(it - csr_.col_indices.data())] = value;
      transpose_.reset();
      symmetric_ = false;
      return;
    }
  }
  edit_on_host([&](auto& rows, auto& cols, auto& values) {
    rows.push_back(i);
    cols.push_back(j);
    values.push_back(value);
  });
}

template <class T>
std::optional<T> Matrix<T>::extract_element(Index i, Index j) const {
  const detail::ContextSwitch use(*context_);
  check_position(i, j, "extract_element");
  if (backend() != Backend::cpu) return to(Backend::cpu).extract_element(i, j);
  const Index* begin = csr_.col_indices.data() + csr_.row_offsets[i];
  const Index* end = csr_.col_indices.data() + csr_.row_offsets[i + 1];
  const Index* it = std::lower_bound(begin, end, j);
  if (it == end || *it != j) return std::nullopt;
  return csr_.values[static_cast<std::size_t>(it - csr_.col_indices.data())];
}

template <class T>
void Matrix<T>::remove_element(Index i, Index j) {
  const detail::ContextSwitch use(*context_);
  check_position(i, j, "remove_element");
  if (!extract_element(i, j)) return;
  edit_on_host([&](auto& rows, auto& cols, auto& values) {
    std::size_t out = 0;
    for (std::size_t e = 0; e < rows.size(); ++e) {
      if (rows[e] == i && cols[e] == j) continue;
      rows[out] = rows[e], cols[out] = cols[e], values[out] = values[e], ++out;
    }
    rows.resize(out), cols.resize(out), values.resize(out);
  });
}

template <class T>
void Matrix<T>::resize(Index new_nrows, Index new_ncols) {
  const detail::ContextSwitch use(*context_);
  std::vector<Index> rows, cols;
  std::vector<T> values;
  extract_tuples(rows, cols, values);
  std::size_t out = 0;
  for (std::size_t e = 0; e < rows.size(); ++e) {
    if (rows[e] >= new_nrows || cols[e] >= new_ncols) continue;
    rows[out] = rows[e], cols[out] = cols[e], values[out] = values[e], ++out;
  }
  rows.resize(out), cols.resize(out), values.resize(out);
  const Backend where = backend();
  auto host_values = detail::host_array(values);
  Csr<T> host = detail::build_host_csr(new_nrows, new_ncols, std::span<const Index>(rows),
                                       std::span<const Index>(cols), std::span<const T>(host_values.data(), host_values.size()),
                                       no_duplicates);
  adopt(where == Backend::cpu ? std::move(host) : host.to(where));
}

/// The structure of A with every stored value true (an unweighted graph's adjacency matrix).
template <class T>
Matrix<bool> pattern(const Matrix<T>& a) {
  const Csr<T>& csr = a.csr();
  // Filled where the matrix lives: no host copy of a device matrix's values.
  detail::Array<bool> values(csr.nvals(), a.backend());
  detail::fill_bytes(values.data(), a.backend(), 1, csr.nvals());  // true is the byte 1
  Matrix<bool> result(Csr<bool>{csr.nrows, csr.ncols, csr.row_offsets.clone(),
                                csr.col_indices.clone(), std::move(values)});
  if (a.symmetric()) result.mark_symmetric();
  return result;
}

}  // namespace grb

#include "grb/cuda/build.hpp"
