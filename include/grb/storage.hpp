// grb::detail::Storage: how the backends reach into a Vector's or a Matrix's storage (adopting
// new arrays, updating a dense vector in place, the caches that the cuda push/pull choice reads).
// Not part of the API: Vector and Matrix show the GraphBLAS operations and read-only views of
// their storage. Included at the end of grb/vector.hpp, where both classes are complete.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "grb/matrix.hpp"
#include "grb/vector.hpp"

namespace grb {

namespace detail {

/// The backends' way into a Vector's or a Matrix's storage: adopting new arrays, updating a dense
/// vector in place, and the caches that the cuda push/pull choice reads. Not part of the API:
/// Vector and Matrix show the GraphBLAS operations, and read-only views of their storage
/// (indices(), values(), present(), csr(), csc()).
struct Storage {
  template <class T>
  static void adopt_sparse(Vector<T>& v, Array<Index>&& indices, Array<T>&& values) {
    v.adopt_sparse(std::move(indices), std::move(values));
  }
  template <class T>
  static void adopt_unsorted(Vector<T>& v, Array<Index>&& indices, Array<T>&& values) {
    v.adopt_unsorted(std::move(indices), std::move(values));
  }
  template <class T>
  static void adopt_dense(Vector<T>& v, Array<T>&& values, Array<std::uint8_t>&& present,
                          Index nvals) {
    v.adopt_dense(std::move(values), std::move(present), nvals);
  }
  template <class T>
  static auto update_dense(Vector<T>& v) {
    return v.update_dense();
  }
  template <class T>
  static auto count_on_device(const Vector<T>& v) {
    return v.count_on_device();
  }
  template <class T>
  static std::optional<Offset> row_edges(const Vector<T>& v, const void* row_offsets) {
    return v.row_edges(row_offsets);
  }
  template <class T>
  static std::optional<Offset> longest_row(const Vector<T>& v, const void* row_offsets) {
    return v.longest_row(row_offsets);
  }
  template <class T>
  static void set_row_edges(Vector<T>& v, const void* row_offsets, Offset edges,
                            std::optional<Offset> longest = std::nullopt) {
    v.set_row_edges(row_offsets, edges, longest);
  }
  template <class T>
  static void settle_format(Vector<T>& v) {
    v.settle_format();
  }
  template <class T>
  static Index nvals_estimate(const Vector<T>& v) {
    return v.nvals_estimate();
  }

  /// The context the object was made in.
  template <class Object>
  static ContextState& context(const Object& object) {
    return *object.context_;
  }

  template <class T>
  static void adopt(Matrix<T>& a, Csr<T>&& csr) {
    a.adopt(std::move(csr));
  }
  template <class T, class Compute>
  static Offset longest_row(const Matrix<T>& a, bool transposed, Compute&& compute) {
    return a.longest_row(transposed, std::forward<Compute>(compute));
  }
  template <class T, class Narrow>
  static const Array<std::uint32_t>& narrow_offsets(const Matrix<T>& a, bool transposed,
                                                    Narrow&& narrow) {
    return a.narrow_offsets(transposed, std::forward<Narrow>(narrow));
  }
};

}  // namespace detail

}  // namespace grb
