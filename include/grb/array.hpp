// Array<T>: an owning, move-only buffer of T on one backend (host memory or device memory).
// Matrices and vectors are built from these, so the same object layout serves both backends;
// host code never dereferences a cuda Array.
#pragma once

#include <cstddef>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "grb/error.hpp"
#include "grb/types.hpp"

namespace grb::detail {

// Implemented in src/memory.cpp (host) and src/cuda/memory.cu (device; throws
// BackendUnavailable when grb was built without CUDA).
void* allocate_bytes(std::size_t bytes, Backend backend);
void free_bytes(void* pointer, Backend backend) noexcept;
/// Where a host allocation of `bytes` starts: on a 2 MiB huge page from 2 MiB on (its whole huge
/// pages advised MADV_HUGEPAGE), else on a 64-byte cache line.
std::size_t host_alignment_for(std::size_t bytes) noexcept;
/// Host memory grb may still take: $GRB_HOST_MEMORY_LIMIT (bytes; a K, M or G suffix scales it)
/// when set, else the kernel's MemAvailable, else unlimited.
std::size_t host_memory_available();
/// Throws grb::OutOfMemory, naming `what`, the bytes it needs and the bytes available, when
/// `bytes` exceed host_memory_available(): an error with the sizes before the work starts,
/// rather than a process the kernel kills part way.
void check_host_memory(std::size_t bytes, const std::string& what);
/// Advises the whole 2 MiB pages inside [pointer, pointer + bytes) of host memory onto transparent
/// huge pages before they are first written; for large host storage grb does not allocate itself,
/// such as an EdgeList's vectors.
void advise_huge_pages(void* pointer, std::size_t bytes) noexcept;
/// vector.resize(count), its new storage advised onto huge pages before resize writes it.
template <class T>
void resize_on_huge_pages(std::vector<T>& vector, std::size_t count) {
  vector.reserve(count);
  advise_huge_pages(vector.data(), vector.capacity() * sizeof(T));
  vector.resize(count);
}
void copy_bytes(void* destination, Backend destination_backend, const void* source,
                Backend source_backend, std::size_t bytes);
/// Sets `bytes` bytes at `destination` to `value`, where they live (on the device: queued on the
/// current stream, as every kernel is).
void fill_bytes(void* destination, Backend backend, unsigned char value, std::size_t bytes);
/// Freed device blocks that src/cuda/memory.cu keeps for the next allocation of their size: their
/// bytes, and their return to the pool (0 and nothing without CUDA).
std::size_t kept_device_bytes();
void release_kept_device_blocks();

template <class T>
class Array {
  static_assert(std::is_trivially_copyable_v<T>, "grb arrays hold trivially copyable values");

 public:
  Array() = default;
  Array(std::size_t size, Backend backend) : size_(size), backend_(backend) {
    if (size_ > 0) data_ = static_cast<T*>(allocate_bytes(size_ * sizeof(T), backend_));
  }
  /// A host array holding a copy of `values`.
  static Array from(std::span<const T> values, Backend backend) {
    Array result(values.size(), backend);
    if (!values.empty())
      copy_bytes(result.data_, backend, values.data(), Backend::cpu, values.size_bytes());
    return result;
  }
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;
  Array(Array&& other) noexcept { swap(other); }
  Array& operator=(Array&& other) noexcept {
    Array moved(std::move(other));
    swap(moved);
    return *this;
  }
  ~Array() {
    if (data_) free_bytes(data_, backend_);
  }

  void swap(Array& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(backend_, other.backend_);
  }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  Backend backend() const noexcept { return backend_; }
  /// Keeps the first `count` elements (count <= size()): the storage stays allocated, only the
  /// size shrinks. For results written into an array sized by an upper bound.
  void truncate(std::size_t count) noexcept {
    if (count < size_) size_ = count;
  }

  /// Element access: host arrays only.
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }
  std::span<T> span() noexcept { return {data_, size_}; }
  std::span<const T> span() const noexcept { return {data_, size_}; }

  /// A copy of this array on `backend` (same backend: a plain copy).
  Array to(Backend backend) const {
    Array result(size_, backend);
    if (size_ > 0) copy_bytes(result.data_, backend, data_, backend_, size_ * sizeof(T));
    return result;
  }
  Array clone() const { return to(backend_); }

  /// The contents as a host vector (copied from the device if needed).
  /// (std::vector<bool> has no contiguous storage, so bool arrays copy element by element.)
  std::vector<T> to_vector() const {
    if constexpr (std::is_same_v<T, bool>) {
      Array host = to(Backend::cpu);
      return std::vector<bool>(host.begin(), host.end());
    } else {
      std::vector<T> result(size_);
      if (size_ > 0) copy_bytes(result.data(), Backend::cpu, data_, backend_, size_ * sizeof(T));
      return result;
    }
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
  Backend backend_ = Backend::cpu;
};

}  // namespace grb::detail
