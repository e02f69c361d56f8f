// grb::Vector's entries read and written one by one or all at once: build, extract_tuples,
// extract_dense, set_element, extract_element, remove_element and resize (included by
// grb/vector.hpp, after the class).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "grb/vector.hpp"

namespace grb {

template <class T>
template <class Dup>
void Vector<T>::build(std::span<const Index> indices, std::span<const T> values, Dup dup) {
  const detail::ContextSwitch use(*context_);
  if (nvals() != 0)
    throw InvalidValue("build: the vector already has entries (GrB_OUTPUT_NOT_EMPTY)");
  if (indices.size() != values.size())
    throw DimensionMismatch("build: " + std::to_string(indices.size()) + " indices and " +
                            std::to_string(values.size()) + " values");
  // A one-row matrix build does the sorting and the duplicate handling.
  std::vector<Index> rows(indices.size(), 0);
  Csr<T> row =
      detail::build_host_csr(Index{1}, size_, std::span<const Index>(rows), indices, values, dup);
  Vector host(size_, Backend::cpu);
  host.adopt_sparse(std::move(row.col_indices), std::move(row.values));
  host.settle_format();
  *this = backend() == Backend::cpu ? std::move(host) : host.to(backend());
}

template <class T>
void Vector<T>::extract_tuples(std::vector<Index>& indices, std::vector<T>& values) const {
  const detail::ContextSwitch use(*context_);
  Vector host = backend() == Backend::cpu ? Vector(0, Backend::cpu) : to(Backend::cpu);
  const Vector& v = backend() == Backend::cpu ? *this : host;
  indices.clear();
  values.clear();
  indices.reserve(v.nvals_);
  values.reserve(v.nvals_);
  if (v.format_ == VectorFormat::sparse) {
    indices.assign(v.indices_.begin(), v.indices_.end());
    values.assign(v.values_.begin(), v.values_.end());
  } else {
    for (Index i = 0; i < v.size_; ++i)
      if (v.present_[i]) indices.push_back(i), values.push_back(v.values_[i]);
  }
}

template <class T>
void Vector<T>::extract_dense(std::vector<T>& values, T absent) const {
  const detail::ObjectScope scope(*context_);
  const bool dense = format_ == VectorFormat::dense;
  if (backend() == Backend::cpu) {
    values.assign(size_, absent);
    if (dense) {
      for (Index i = 0; i < size_; ++i)
        if (present_[i]) values[i] = values_[i];
    } else {
      for (std::size_t e = 0; e < indices_.size(); ++e) values[indices_[e]] = values_[e];
    }
    return;
  }
  // Sparse entries in any order: the fill scatters them (no sort).
  const Index entries = dense ? 0 : static_cast<Index>(indices_.size());
  detail::Array<T> filled(size_, Backend::cuda);
  detail::fill_absent_cuda(sizeof(T), size_, entries, dense ? nullptr : indices_.data(),
                           values_.data(), dense ? present_.data() : nullptr, &absent,
                           filled.data());
  if constexpr (std::is_same_v<T, bool>) {  // std::vector<bool> has no contiguous storage
    const detail::Array<T> host = filled.to(Backend::cpu);
    values.assign(host.begin(), host.end());
  } else {
    values.resize(size_);
    if (size_ > 0)
      detail::copy_bytes(values.data(), Backend::cpu, filled.data(), Backend::cuda,
                         std::size_t(size_) * sizeof(T));
  }
}

template <class T>
void Vector<T>::set_element(Index i, T value) {
  check_index(i, "set_element");
  const detail::ContextSwitch use(*context_);
  if (backend() != Backend::cpu) {
    // Written on the device, nothing copied and nothing waited for where the vector is dense or
    // empty: queued with the writes called just before (clear_dense, set_element), to run as one
    // launch. A dense vector's count changes in place (update_dense). A sparse vector's entries
    // are copied on the device into arrays one longer, with the entry overwritten or inserted,
    // and one word read back (whether it was inserted).
    complete_but_element_writes();
    if (format_ == VectorFormat::dense) {
      edges_rows_ = nullptr;
      const bool fresh = nvals_change_.empty();
      if (fresh) nvals_change_ = detail::Array<std::int64_t>(1, backend());
      detail::queue_dense_element(this, sizeof(T), values_.data(), present_.data(), i, &value,
                                  nvals_change_.data(), fresh);
      return;
    }
    if (nvals_ == 0 && nvals_change_.empty() && sizeof(T) <= 16 && size_ >= dense_ratio) {
      detail::Array<Index> indices(1, backend());
      detail::Array<T> values(1, backend());
      detail::queue_store(this, indices.data(), sizeof(Index), &i);
      detail::queue_store(this, values.data(), sizeof(T), &value);
      install_sparse(std::move(indices), std::move(values));  // sparse: 1 * dense_ratio <= size
      return;
    }
    const detail::ObjectScope scope(*context_);
    settle_nvals();
    detail::Array<Index> indices(std::size_t(nvals_) + 1, backend());
    detail::Array<T> values(std::size_t(nvals_) + 1, backend());
    const bool inserted =
        detail::set_sparse_element_cuda(sizeof(T), indices_.data(), values_.data(), nvals_,
                                        jumbled_, i, &value, indices.data(), values.data());
    if (!inserted) {
      indices.truncate(nvals_);
      values.truncate(nvals_);
    }
    if (jumbled_)
      adopt_unsorted(std::move(indices), std::move(values));
    else
      adopt_sparse(std::move(indices), std::move(values));
    settle_format();
    return;
  }
  if (format_ == VectorFormat::dense) {
    if (!present_[i]) ++nvals_;
    present_[i] = 1;
    values_[i] = value;
    return;
  }
  auto it = std::lower_bound(indices_.begin(), indices_.end(), i);
  const std::size_t at = static_cast<std::size_t>(it - indices_.begin());
  if (it != indices_.end() && *it == i) {
    values_[at] = value;
    return;
  }
  detail::Array<Index> indices(nvals_ + 1, Backend::cpu);
  detail::Array<T> values(nvals_ + 1, Backend::cpu);
  std::copy_n(indices_.begin(), at, indices.begin());
  std::copy_n(values_.begin(), at, values.begin());
  indices[at] = i;
  values[at] = value;
  std::copy(indices_.begin() + at, indices_.end(), indices.begin() + at + 1);
  std::copy(values_.begin() + at, values_.end(), values.begin() + at + 1);
  adopt_sparse(std::move(indices), std::move(values));
  settle_format();
}

template <class T>
std::optional<T> Vector<T>::extract_element(Index i) const {
  check_index(i, "extract_element");
  const detail::ContextSwitch use(*context_);
  if (backend() != Backend::cpu) return to(Backend::cpu).extract_element(i);
  if (format_ == VectorFormat::dense) {
    if (!present_[i]) return std::nullopt;
    return values_[i];
  }
  auto it = std::lower_bound(indices_.begin(), indices_.end(), i);
  if (it == indices_.end() || *it != i) return std::nullopt;
  return values_[static_cast<std::size_t>(it - indices_.begin())];
}

template <class T>
void Vector<T>::remove_element(Index i) {
  const detail::ContextSwitch use(*context_);
  check_index(i, "remove_element");
  if (!extract_element(i)) return;
  std::vector<Index> indices;
  std::vector<T> values;
  extract_tuples(indices, values);
  auto it = std::lower_bound(indices.begin(), indices.end(), i);
  values.erase(values.begin() + (it - indices.begin()));
  indices.erase(it);
  Vector result(size_, backend());
  result.build(indices, values);
  *this = std::move(result);
}

template <class T>
void Vector<T>::resize(Index size) {
  const detail::ContextSwitch use(*context_);
  std::vector<Index> indices;
  std::vector<T> values;
  extract_tuples(indices, values);
  const auto keep = std::lower_bound(indices.begin(), indices.end(), size) - indices.begin();
  indices.resize(static_cast<std::size_t>(keep));
  values.resize(static_cast<std::size_t>(keep));
  Vector result(size, backend());
  result.build(indices, values);
  *this = std::move(result);
}

}  // namespace grb
