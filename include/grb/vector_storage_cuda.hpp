// The cuda side of a Vector's storage: format conversions, sorting and the small queued writes,
// defined in src/cuda for every element size (src/no_cuda.cpp without CUDA). Used by
// grb/vector.hpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "grb/types.hpp"

namespace grb {
namespace detail {
// Format conversions on the GPU; defined in src/cuda for every element size.
/// dense_values null: the presence only.
void sparse_to_dense_cuda(std::size_t element_bytes, Index size, Index nvals, const Index* indices,
                          const void* values, void* dense_values, std::uint8_t* present);
/// out[i] = the entry at i, or the element_bytes of `absent` where there is none: from a dense
/// vector's values and presence (indices null), or a sparse vector's nvals entries in any order
/// (present null).
void fill_absent_cuda(std::size_t element_bytes, Index size, Index nvals, const Index* indices,
                      const void* values, const std::uint8_t* present, const void* absent,
                      void* out);
/// nvals = the number of present positions (known to the caller; nothing is read back).
void dense_to_sparse_cuda(std::size_t element_bytes, Index size, Index nvals,
                          const void* dense_values, const std::uint8_t* present, Index* indices,
                          void* values);
/// (indices, values): nvals entries with distinct indices below size, in any order -> the
/// same entries sorted by index, in sorted_indices and sorted_values.
void sort_entries_cuda(std::size_t element_bytes, Index size, Index nvals, const Index* indices,
                       const void* values, Index* sorted_indices, void* sorted_values);
// Small writes to cuda vectors' device arrays (Vector::clear_dense, set_element), queued as
// deferred work without results: those called one after another run as one launch when anything
// else is called (src/cuda/element_writes.cu). `object`: the Vector written (its readers launch
// the writes first).
/// Zeroes `size` presence bytes and sets the in-place count to `count_base` (0, or minus the
/// host's part of the count while a device loop records: Vector::clear_dense).
void queue_clear_dense(const void* object, std::uint8_t* present, std::size_t size,
                       std::int64_t* nvals_change, std::int64_t count_base);
/// values[i] = value (element_bytes of it) and present[i] = 1, adding 1 to *nvals_change where i
/// was absent (`fresh_count`: setting it to that 1 or 0).
void queue_dense_element(const void* object, std::size_t element_bytes, void* values,
                         std::uint8_t* present, Index i, const void* value,
                         std::int64_t* nvals_change, bool fresh_count);
/// Stores `bytes` bytes of `value` at `address` (an empty sparse vector's first index or value).
void queue_store(const void* object, void* address, std::size_t bytes, const void* value);
/// Whether the pending deferred work is such writes: a vector's own writes then join them, where
/// completing the deferred work first would launch each on its own.
bool element_writes_pending();
/// A sparse vector's nvals entries (indices, values; in index order unless `jumbled`) with
/// entry i set to `value`, into out_indices and out_values (room for nvals + 1 entries): an
/// entry present is overwritten, else i is inserted in index order (after the others when
/// jumbled). True: i was inserted (nvals + 1 entries out). Reads back one word, unless the
/// vector is empty.
bool set_sparse_element_cuda(std::size_t element_bytes, const Index* indices, const void* values,
                             Index nvals, bool jumbled, Index i, const void* value,
                             Index* out_indices, void* out_values);
/// Zeroes a new device counter (`bytes` bytes), which then counts from here on: in stream order,
/// except while a device loop is recorded: then at once, on the loop's stream, rather than
/// recorded (so that it counts across the loop's iterations instead of being zeroed by each).
void zero_new_counter(void* pointer, std::size_t bytes);
}  // namespace detail
}  // namespace grb
