// grb::Vector's changes of format: make_dense, make_sparse and clear_dense (included by
// grb/vector.hpp, after the class).
#pragma once

#include <algorithm>
#include <cstdint>

#include "grb/vector.hpp"

namespace grb {

template <class T>
void Vector<T>::make_dense() {
  const detail::ObjectScope scope(*context_);
  if (format_ == VectorFormat::dense) return;
  settle_nvals();
  const Backend where = backend();
  detail::Array<T> values(size_, where);
  detail::Array<std::uint8_t> present(size_, where);
  if (where == Backend::cpu) {
    std::fill(present.begin(), present.end(), std::uint8_t{0});
    for (Index e = 0; e < nvals_; ++e) {
      values[indices_[e]] = values_[e];
      present[indices_[e]] = 1;
    }
  } else {
    // The scatter does not care about order: a jumbled vector is not sorted first.
    detail::sparse_to_dense_cuda(sizeof(T), size_, nvals_, indices_.data(), values_.data(),
                                 values.data(), present.data());
  }
  const auto edges_rows = edges_rows_;  // the same entries
  adopt_dense(std::move(values), std::move(present), nvals_);
  edges_rows_ = edges_rows;
}

template <class T>
void Vector<T>::clear_dense() {
  const detail::ContextSwitch use(*context_);
  complete_but_element_writes();
  if (format_ != VectorFormat::dense) {
    clear();
    make_dense();
    return;
  }
  edges_rows_ = nullptr;
  // While a device loop records (grb/loop.hpp), the host's part of the count stays as it is and
  // the recorded clear sets the device counter to minus it: a recorded kernel reads the count as
  // the sum of the two (count_on_device), and that sum has one meaning in every iteration.
  const bool recording = backend() == Backend::cuda && detail::current_context().recording;
  if (!recording) nvals_ = 0;
  // The in-place count is kept, zeroed with the presence (update_dense then finds it ready).
  if (nvals_change_.empty()) nvals_change_ = detail::Array<std::int64_t>(1, backend());
  if (backend() == Backend::cpu) {
    std::fill(present_.begin(), present_.end(), std::uint8_t{0});
    nvals_change_[0] = 0;
  } else {
    detail::queue_clear_dense(this, present_.data(), present_.size(), nvals_change_.data(),
                              recording ? -std::int64_t(nvals_) : 0);
  }
}

template <class T>
void Vector<T>::make_sparse() {
  const detail::ObjectScope scope(*context_);
  if (format_ == VectorFormat::sparse) return;
  settle_nvals();
  const Backend where = backend();
  detail::Array<Index> indices(nvals_, where);
  detail::Array<T> values(nvals_, where);
  if (where == Backend::cpu) {
    Index out = 0;
    for (Index i = 0; i < size_; ++i) {
      if (present_[i]) {
        indices[out] = i;
        values[out] = values_[i];
        ++out;
      }
    }
  } else {
    detail::dense_to_sparse_cuda(sizeof(T), size_, nvals_, values_.data(), present_.data(),
                                 indices.data(), values.data());
  }
  const auto edges_rows = edges_rows_;  // the same entries
  adopt_sparse(std::move(indices), std::move(values));
  edges_rows_ = edges_rows;
}

}  // namespace grb
