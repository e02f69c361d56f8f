// The grb error hierarchy: every failure is a grb::Error carrying a code the caller can act on.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace grb {

enum class ErrorCode {
  dimension_mismatch,
  index_out_of_bounds,
  invalid_value,
  out_of_memory,
  parse_error,
  io_error,
  backend_mismatch,
  backend_unavailable,
  cuda_error,
  validation_failed,
  context_mismatch,
  communication_error,
  not_in_loop,
};

std::string_view to_string(ErrorCode code);

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const noexcept { return code_; }

 private:
  ErrorCode code_;
};

class DimensionMismatch : public Error {
 public:
  explicit DimensionMismatch(const std::string& m) : Error(ErrorCode::dimension_mismatch, m) {}
};

class IndexOutOfBounds : public Error {
 public:
  explicit IndexOutOfBounds(const std::string& m) : Error(ErrorCode::index_out_of_bounds, m) {}
};

class InvalidValue : public Error {
 public:
  explicit InvalidValue(const std::string& m) : Error(ErrorCode::invalid_value, m) {}
};

/// Allocation failure on a backend; says how much was asked for and how much was free.
class OutOfMemory : public Error {
 public:
  OutOfMemory(const std::string& m, std::size_t requested, std::size_t free)
      : Error(ErrorCode::out_of_memory, m), requested_(requested), free_(free) {}
  std::size_t requested_bytes() const noexcept { return requested_; }
  std::size_t free_bytes() const noexcept { return free_; }

 private:
  std::size_t requested_;
  std::size_t free_;
};

/// Malformed input. what() reads "FILE:LINE: message".
class ParseError : public Error {
 public:
  ParseError(const std::string& file, std::size_t line, const std::string& message)
      : Error(ErrorCode::parse_error, file + ":" + std::to_string(line) + ": " + message),
        file_(file),
        line_(line) {}
  const std::string& file() const noexcept { return file_; }
  std::size_t line() const noexcept { return line_; }

 private:
  std::string file_;
  std::size_t line_;
};

/// A file that cannot be opened, read or written.
class IoError : public Error {
 public:
  explicit IoError(const std::string& m) : Error(ErrorCode::io_error, m) {}
};

class BackendMismatch : public Error {
 public:
  explicit BackendMismatch(const std::string& m) : Error(ErrorCode::backend_mismatch, m) {}
};

class BackendUnavailable : public Error {
 public:
  explicit BackendUnavailable(const std::string& m) : Error(ErrorCode::backend_unavailable, m) {}
};

class CudaError : public Error {
 public:
  explicit CudaError(const std::string& m) : Error(ErrorCode::cuda_error, m) {}
};

/// A cuda operation on objects of a context other than the current one (grb/context.hpp).
class ContextMismatch : public Error {
 public:
  explicit ContextMismatch(const std::string& m) : Error(ErrorCode::context_mismatch, m) {}
};

/// A failed exchange between ranks (an MPI or NCCL call).
class CommunicationError : public Error {
 public:
  explicit CommunicationError(const std::string& m) : Error(ErrorCode::communication_error, m) {}
};

/// A result that fails its validator (BFS tree, SSSP distances, CC labels).
/// An operation inside grb::repeat_while's body that a loop on the device cannot record: one that
/// reads a value back to the host (Vector::nvals, a Scalar's value) or replaces storage that the
/// recorded work would go on using. The message names the operation.
class NotInLoop : public Error {
 public:
  explicit NotInLoop(const std::string& m) : Error(ErrorCode::not_in_loop, m) {}
};

class ValidationFailed : public Error {
 public:
  explicit ValidationFailed(const std::string& m) : Error(ErrorCode::validation_failed, m) {}
};

/// `text` safe to show on a terminal: control bytes (escape sequences, NUL, line ends) become
/// \xNN, except that a line end becomes `newline` when one is given (e.g. "; " for one line).
inline std::string printable(std::string_view text, std::string_view newline = {}) {
  constexpr char hex[] = "0123456789abcdef";
  std::string result;
  result.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n' && !newline.empty()) {
      result += newline;
    } else if (byte < 0x20 || byte == 0x7f) {
      result += "\\x";
      result += hex[byte >> 4];
      result += hex[byte & 15];
    } else {
      result += c;
    }
  }
  return result;
}

}  // namespace grb
