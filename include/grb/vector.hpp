// grb::Vector<T>: a sparse vector owning its storage on one backend, in one of two formats:
//   sparse: sorted indices + values (nvals entries) — cheap for small frontiers;
//   dense:  values + a presence byte per position (size entries) — cheap for large ones.
// Operations choose the output format by density (settle_format), as GraphBLAST does.
//
// A cuda operation may leave a sparse result in any order ("jumbled", as SuiteSparse:GraphBLAS
// calls it): a BFS frontier is only ever iterated, so sorting it each level is wasted work.
// indices() and values() sort first, so every reader sees sorted entries unless it asks for
// the stored order (unsorted_indices/unsorted_values) because order does not matter to it.
//
// Every accessor but size() and backend() first completes deferred work (grb/deferred.hpp), as
// do destruction and moves: a vector never shows a state that a queued operation will change.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "grb/array.hpp"
#include "grb/deferred.hpp"
#include "grb/error.hpp"
#include "grb/matrix.hpp"
#include "grb/types.hpp"
#include "grb/vector_storage_cuda.hpp"

namespace grb {

enum class VectorFormat { sparse, dense };

/// A vector with more than size / dense_ratio entries is stored dense, except a product's
/// result of at most size / list_ratio entries, which the cuda backend may leave as the list its
/// kernel wrote (a pull's: a Kronecker BFS's tail level, ~3 * 10^5 of kron22's 4 M vertices, is
/// then pushed from that list, and its assigns walk it, where dense it cost passes over every
/// position).
inline constexpr Index dense_ratio = 16;
inline constexpr Index list_ratio = 8;

template <class T>
class Vector {
 public:
  using value_type = T;

  Vector() : Vector(0, Backend::cpu) {}
  explicit Vector(Index size, Backend backend = default_backend())
      : size_(size), indices_(0, backend), values_(0, backend), present_(0, backend) {}

  /// A copy in the current context (grb/context.hpp), made once the source's context has
  /// finished with it.
  Vector(const Vector& other)
      : size_((detail::complete_for_copy(*other.context_, other.backend() == Backend::cuda), other.size_)),
        nvals_(other.nvals()),  // completes deferred work first
        format_(other.format_),
        jumbled_(other.jumbled_),
        indices_(other.indices_.clone()),
        values_(other.values_.clone()),
        present_(other.present_.clone()),
        edges_rows_(other.edges_rows_),
        edges_(other.edges_),
        edges_longest_(other.edges_longest_) {}
  Vector& operator=(const Vector& other) {
    if (this != &other) *this = Vector(other);
    return *this;
  }
  Vector(Vector&& other) noexcept
      : context_(other.context_),
        size_((detail::complete_deferred_quietly(*other.context_), other.size_)),
        nvals_(other.nvals_),
        nvals_change_(std::move(other.nvals_change_)),
        format_(other.format_),
        jumbled_(other.jumbled_),
        indices_(std::move(other.indices_)),
        values_(std::move(other.values_)),
        present_(std::move(other.present_)),
        edges_rows_(other.edges_rows_),
        edges_(other.edges_),
        edges_longest_(other.edges_longest_) {}
  Vector& operator=(Vector&& other) noexcept {
    detail::note_replaced_in_loop(loop_birth_);
    detail::complete_deferred_quietly(*context_);
    detail::complete_deferred_quietly(*other.context_);
    context_ = other.context_;
    size_ = other.size_;
    nvals_ = other.nvals_;
    nvals_change_ = std::move(other.nvals_change_);
    format_ = other.format_;
    jumbled_ = other.jumbled_;
    indices_ = std::move(other.indices_);
    values_ = std::move(other.values_);
    present_ = std::move(other.present_);
    edges_rows_ = other.edges_rows_;
    edges_ = other.edges_;
    edges_longest_ = other.edges_longest_;
    return *this;
  }
  ~Vector() { detail::complete_deferred_quietly(*context_); }

  /// A dense vector with every entry present and equal to `value`.
  static Vector full(Index size, T value, Backend backend = default_backend()) {
    // Filled where it lives: a cuda vector costs two fills on the device, not a host array and
    // its upload (FastSV's first parents on kron22: 36 MB).
    detail::Array<T> values(size, backend);
    detail::Array<std::uint8_t> present(size, backend);
    if (backend == Backend::cpu) {
      std::fill(values.begin(), values.end(), value);
    } else {
      detail::fill_absent_cuda(sizeof(T), size, 0, nullptr, nullptr, nullptr, &value,
                               values.data());
    }
    detail::fill_bytes(present.data(), backend, 1, size);
    Vector v(size, backend);
    v.adopt_dense(std::move(values), std::move(present), size);
    return v;
  }

  Index size() const { return size_; }
  Index nvals() const {
    detail::check_not_recording("Vector::nvals");
    const detail::ContextSwitch use(*context_);
    detail::complete_deferred_writing(this);  // work that leaves this vector alone may still run
    settle_nvals();
    return nvals_;
  }
  Backend backend() const { return values_.backend(); }
  /// The context the vector was made in (grb/context.hpp).
  Context context() const { return Context(context_.ref()); }
  VectorFormat format() const {
    const detail::ObjectScope scope(*context_);
    return format_;
  }

  Vector to(Backend backend) const {
    const detail::ObjectScope scope(*context_);
    sort_entries();
    Vector result(size_, backend);
    result.nvals_ = nvals();
    result.format_ = format_;
    result.indices_ = indices_.to(backend);
    result.values_ = values_.to(backend);
    result.present_ = present_.to(backend);
    return result;
  }

  // Storage. Sparse: indices() and values() hold nvals entries, sorted by index. Dense:
  // values() and present() hold size entries (values where present == 0 are unspecified).
  const detail::Array<Index>& indices() const {
    sort_entries();
    return indices_;
  }
  const detail::Array<T>& values() const {
    sort_entries();
    return values_;
  }
  const detail::Array<std::uint8_t>& present() const {
    const detail::ObjectScope scope(*context_);
    return present_;
  }
  /// A sparse vector's entries in their stored order, for readers to whom order is nothing (a
  /// push over a frontier, a scatter): no sort.
  const detail::Array<Index>& unsorted_indices() const {
    const detail::ObjectScope scope(*context_);
    return indices_;
  }
  const detail::Array<T>& unsorted_values() const {
    const detail::ObjectScope scope(*context_);
    return values_;
  }

  void make_dense();
  void make_sparse();

  /// GrB_Vector_build: the vector must be empty; `dup` combines duplicate indices.
  template <class Dup = NoDuplicates>
  void build(std::span<const Index> indices, std::span<const T> values, Dup dup = {});
  template <class Dup = NoDuplicates>
  void build(const std::vector<Index>& indices, const std::vector<T>& values, Dup dup = {}) {
    auto host_values = detail::host_array(values);
    build(std::span<const Index>(indices),
          std::span<const T>(host_values.data(), host_values.size()), dup);
  }
  /// All entries, by increasing index.
  void extract_tuples(std::vector<Index>& indices, std::vector<T>& values) const;
  /// values[i] = the entry at i, or `absent` where there is none (size() values): on cuda the
  /// absent positions are filled on the device and one array is copied back, where
  /// extract_tuples copies indices, values and presence and walks them on the host.
  void extract_dense(std::vector<T>& values, T absent) const;

  void set_element(Index i, T value);
  std::optional<T> extract_element(Index i) const;
  void remove_element(Index i);
  void clear() { adopt_sparse(detail::Array<Index>(0, backend()), detail::Array<T>(0, backend())); }
  /// clear(), stored dense: a dense vector keeps its arrays (its presence zeroed, its values
  /// left as they are: unspecified where absent), others get new ones. A result reused from call
  /// to call (a BFS's levels and parents, searched from many roots) then costs one pass over its
  /// presence, not two allocations, two zeroing passes and two frees per call.
  void clear_dense();
  void resize(Index size);

 private:
  friend struct detail::Storage;

  // The backends' side of the storage, reached through detail::Storage (not the API).
  /// nvals() without reading back a pending in-place change (see update_dense): exact unless
  /// such a change is pending. For heuristics that must not wait for the device.
  Index nvals_estimate() const {
    const detail::ObjectScope scope(*context_);
    return nvals_;
  }
  void adopt_sparse(detail::Array<Index>&& indices, detail::Array<T>&& values) {
    const detail::ObjectScope scope(*context_);
    install_sparse(std::move(indices), std::move(values));
  }
  /// adopt_sparse for entries in any order (distinct indices; cuda only): sorted when first
  /// read in order.
  void adopt_unsorted(detail::Array<Index>&& indices, detail::Array<T>&& values) {
    adopt_sparse(std::move(indices), std::move(values));
    jumbled_ = nvals_ > 1;
  }
  void adopt_dense(detail::Array<T>&& values, detail::Array<std::uint8_t>&& present, Index nvals) {
    const detail::ObjectScope scope(*context_);
    detail::note_replaced_in_loop(loop_birth_);
    edges_rows_ = nullptr;
    nvals_change_ = {};
    nvals_ = nvals;
    format_ = VectorFormat::dense;
    jumbled_ = false;
    values_ = std::move(values);
    present_ = std::move(present);
    indices_ = detail::Array<Index>(0, values_.backend());
  }

  /// In-place updates of a dense vector, for a backend's kernels: they write values and
  /// presence through these pointers and add the change in the entry count to *nvals_change (a
  /// device counter, zero when first handed out). nvals() reads the counter back only when it is
  /// next asked, so a chain of in-place updates (a BFS level's assigns) costs no host round
  /// trip. The vector must be dense.
  struct DenseUpdate {
    T* values;
    std::uint8_t* present;
    std::int64_t* nvals_change;
  };
  DenseUpdate update_dense() {
    const detail::ObjectScope scope(*context_);
    if (format_ != VectorFormat::dense)
      throw InvalidValue("update_dense: the vector is not stored dense");
    edges_rows_ = nullptr;
    return {values_.data(), present_.data(), change_counter()};
  }

  /// The entry count as a recorded loop's kernels read it (grb/loop.hpp): `settled`, the host's
  /// part, plus *change, the device counter of in-place changes.
  struct CountOnDevice {
    Index settled;
    const std::int64_t* change;
  };
  CountOnDevice count_on_device() const {
    const detail::ObjectScope scope(*context_);
    return {nvals_, change_counter()};
  }

  /// The sum, over this vector's entries, of the lengths of those rows in a CSR named by its row
  /// offsets (a frontier's edges), when the product that made the vector left it: the next
  /// product's push/pull choice then needs no scan and no read-back of its own. Any change to
  /// the entries drops it (a stale one could only make that choice slower, never a result
  /// wrong); a change of format keeps it.
  std::optional<Offset> row_edges(const void* row_offsets) const {
    const detail::ObjectScope scope(*context_);
    if (row_offsets == nullptr || row_offsets != edges_rows_) return std::nullopt;
    return edges_;
  }
  /// The longest of those rows, where the product that made the vector left it too (a push
  /// over short rows needs no scan of them).
  std::optional<Offset> longest_row(const void* row_offsets) const {
    const detail::ObjectScope scope(*context_);
    if (row_offsets == nullptr || row_offsets != edges_rows_) return std::nullopt;
    return edges_longest_;
  }
  void set_row_edges(const void* row_offsets, Offset edges,
                     std::optional<Offset> longest = std::nullopt) {
    const detail::ObjectScope scope(*context_);
    edges_rows_ = row_offsets;
    edges_ = edges;
    edges_longest_ = longest;
  }
  /// Picks the format by density: dense above size / dense_ratio entries.
  void settle_format() {
    if (std::uint64_t(nvals()) * dense_ratio > size_) make_dense();
    else make_sparse();
  }

  detail::ObjectContext context_;  // first: the arrays below are freed while it is alive
  std::uint64_t loop_birth_ = detail::loop_serial();  // see detail::note_replaced_in_loop
  Index size_ = 0;
  // The entry count, plus a device counter of in-place changes not yet added to it (empty when
  // none are pending); both mutable so that a const nvals() can settle them.
  mutable Index nvals_ = 0;
  mutable detail::Array<std::int64_t> nvals_change_;
  VectorFormat format_ = VectorFormat::sparse;
  // Sparse entries not in index order (adopt_unsorted); the arrays are mutable so that a const
  // reader can have them sorted.
  mutable bool jumbled_ = false;
  mutable detail::Array<Index> indices_;
  mutable detail::Array<T> values_;
  detail::Array<std::uint8_t> present_;
  const void* edges_rows_ = nullptr;  // see row_edges
  Offset edges_ = 0;
  std::optional<Offset> edges_longest_;  // see longest_row

  void sort_entries() const {
    const detail::ObjectScope scope(*context_);
    if (!jumbled_) return;
    detail::Array<Index> indices(nvals_, backend());
    detail::Array<T> values(nvals_, backend());
    detail::sort_entries_cuda(sizeof(T), size_, nvals_, indices_.data(), values_.data(),
                              indices.data(), values.data());
    indices_ = std::move(indices);
    values_ = std::move(values);
    jumbled_ = false;
  }

  /// adopt_sparse's installation, for set_element's first entry of an empty vector, which
  /// completes nothing first: nothing deferred can hold an empty vector's arrays.
  void install_sparse(detail::Array<Index>&& indices, detail::Array<T>&& values) {
    detail::note_replaced_in_loop(loop_birth_);
    edges_rows_ = nullptr;
    nvals_change_ = {};
    nvals_ = static_cast<Index>(indices.size());
    format_ = VectorFormat::sparse;
    jumbled_ = false;
    indices_ = std::move(indices);
    values_ = std::move(values);
    present_ = detail::Array<std::uint8_t>(0, values_.backend());
  }

  /// complete_deferred(), except where the pending work is element writes (see
  /// detail::queue_store): this vector's own small writes then join them. No work is launched
  /// while such writes are pending (whatever launches work launches them first).
  void complete_but_element_writes() const {
    if (backend() == Backend::cpu || !detail::element_writes_pending())
      detail::complete_deferred(*context_);
  }

  /// The counter of in-place changes to the entry count, made (zeroed) if there is none.
  std::int64_t* change_counter() const {
    if (nvals_change_.empty()) {
      detail::Array<std::int64_t> counter(1, backend());
      if (backend() == Backend::cpu)
        counter[0] = 0;
      else
        detail::zero_new_counter(counter.data(), sizeof(std::int64_t));
      nvals_change_ = std::move(counter);
    }
    return nvals_change_.data();
  }

  void settle_nvals() const {
    if (nvals_change_.empty()) return;
    std::int64_t change = 0;
    detail::copy_bytes(&change, Backend::cpu, nvals_change_.data(), nvals_change_.backend(),
                       sizeof change);
    nvals_ = static_cast<Index>(std::int64_t(nvals_) + change);
    nvals_change_ = {};
  }

  void check_index(Index i, const char* what) const {
    if (i >= size_)
      throw IndexOutOfBounds(std::string(what) + ": index " + std::to_string(i) +
                             " outside a vector of size " + std::to_string(size_));
  }
};

}  // namespace grb

#include "grb/storage.hpp"
#include "grb/vector_elements.hpp"
#include "grb/vector_formats.hpp"
