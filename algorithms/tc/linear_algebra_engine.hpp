// The linear-algebra triangle count (linear_algebra.hpp) behind the engine interface, on either
// backend. Instantiated by nvcc in cuda/linear_algebra.cu when grb has CUDA, else in
// linear_algebra_engine.cpp (cpu only), as the BFS and CC linear-algebra engines are.
#pragma once

#include <memory>
#include <string>

#include "tc/engine.hpp"
#include "tc/linear_algebra.hpp"

namespace grb::tc {

/// The linear-algebra engine for `backend` (cuda: only in a CUDA build).
std::unique_ptr<Engine> make_linear_algebra(Backend backend);

template <Backend backend>
class LinearAlgebraEngine final : public Engine {
 public:
  void prepare(const Matrix<bool>& graph) override {
    if (graph.nrows() != graph.ncols())
      throw DimensionMismatch("tc engine linalg: the adjacency matrix must be square, not " +
                              std::to_string(graph.nrows()) + " x " +
                              std::to_string(graph.ncols()));
    lower_ = algorithms::lower_triangle(graph.to(backend));
    lower_.csc();  // the mxm may read L by columns: build the transpose outside the timed run
    ran_ = false;
    prepared_ = true;
  }

  // Synchronous on cuda too: the final reduce returns the sum to the host.
  void run() override {
    if (!prepared_) throw InvalidValue("tc engine linalg: run() before prepare()");
    triangles_ = algorithms::triangle_count(lower_);
    ran_ = true;
  }

  Result result() const override {
    if (!ran_) throw InvalidValue("tc engine linalg: result() before run()");
    return Result{triangles_, lower_.nvals()};
  }

  std::size_t device_bytes() const override {
    if constexpr (backend == Backend::cpu) return 0;
    else
      return 2 * (lower_.csr().row_offsets.size() * sizeof(Offset) +
                  lower_.csr().col_indices.size() * (sizeof(Index) + sizeof(bool)));
  }

 private:
  Matrix<bool> lower_;
  std::uint64_t triangles_ = 0;
  bool prepared_ = false;
  bool ran_ = false;
};

}  // namespace grb::tc
