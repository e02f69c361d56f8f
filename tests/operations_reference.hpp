// The dense reference the operation tests check against: small dense arrays with a "present"
// flag, random inputs, and the GraphBLAS write rule  out<mask, replace> = accum(out, T)  spelled
// out position by position. It shares no code with the backends: each test computes T with plain
// loops, and this file applies the mask, accumulator and replace by the letter of the spec.
#pragma once

#include <cstdlib>

#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <grb/grb.hpp>

#include "support.hpp"

namespace grb::test {

template <class T>
struct DenseVector {
  Index size = 0;
  std::vector<T> value;
  std::vector<char> present;

  explicit DenseVector(Index n = 0) : size(n), value(n, T{}), present(n, 0) {}
  bool has(Index i) const { return present[i] != 0; }
  void set(Index i, T x) { value[i] = x, present[i] = 1; }
  void clear(Index i) { value[i] = T{}, present[i] = 0; }
};

template <class T>
struct DenseMatrix {
  Index nrows = 0, ncols = 0;
  std::vector<T> value;
  std::vector<char> present;

  DenseMatrix(Index r = 0, Index c = 0)
      : nrows(r), ncols(c), value(std::size_t(r) * c, T{}), present(std::size_t(r) * c, 0) {}
  std::size_t at(Index i, Index j) const { return std::size_t(i) * ncols + j; }
  bool has(Index i, Index j) const { return present[at(i, j)] != 0; }
  T get(Index i, Index j) const { return value[at(i, j)]; }
  void set(Index i, Index j, T x) { value[at(i, j)] = x, present[at(i, j)] = 1; }
  void clear(Index i, Index j) { value[at(i, j)] = T{}, present[at(i, j)] = 0; }
  DenseMatrix transposed() const {
    DenseMatrix t(ncols, nrows);
    for (Index i = 0; i < nrows; ++i)
      for (Index j = 0; j < ncols; ++j)
        if (has(i, j)) t.set(j, i, get(i, j));
    return t;
  }
};

// ------------------------------------------------------------------ random inputs
/// Small integer values (exact in every arithmetic type), zero included so valued masks differ
/// from structural ones.
template <class T>
T random_value(std::mt19937& rng, int low = 0, int high = 4) {
  if constexpr (std::is_same_v<T, bool>) return std::uniform_int_distribution<int>(0, 1)(rng) != 0;
  else return static_cast<T>(std::uniform_int_distribution<int>(low, high)(rng));
}

inline bool chance(std::mt19937& rng, double p) {
  return std::uniform_real_distribution<double>(0, 1)(rng) < p;
}

template <class T>
DenseVector<T> random_vector(std::mt19937& rng, Index n, double density, int low = 0,
                             int high = 4) {
  DenseVector<T> v(n);
  for (Index i = 0; i < n; ++i)
    if (chance(rng, density)) v.set(i, random_value<T>(rng, low, high));
  return v;
}

template <class T>
DenseMatrix<T> random_matrix(std::mt19937& rng, Index nrows, Index ncols, double density,
                             int low = 0, int high = 4) {
  DenseMatrix<T> a(nrows, ncols);
  for (Index i = 0; i < nrows; ++i)
    for (Index j = 0; j < ncols; ++j)
      if (chance(rng, density)) a.set(i, j, random_value<T>(rng, low, high));
  return a;
}

// ------------------------------------------------------------------ conversions
/// A grb vector holding the entries of `d`; `dense` picks the storage format.
template <class T>
Vector<T> to_grb(const DenseVector<T>& d, Backend backend, bool dense = false) {
  std::vector<Index> indices;
  std::vector<T> values;
  for (Index i = 0; i < d.size; ++i)
    if (d.has(i)) indices.push_back(i), values.push_back(d.value[i]);
  Vector<T> v(d.size, backend);
  v.build(indices, values);
  if (dense) v.make_dense();
  else v.make_sparse();
  return v;
}

template <class T>
Matrix<T> to_grb(const DenseMatrix<T>& d, Backend backend) {
  std::vector<Index> rows, cols;
  std::vector<T> values;
  for (Index i = 0; i < d.nrows; ++i)
    for (Index j = 0; j < d.ncols; ++j)
      if (d.has(i, j)) rows.push_back(i), cols.push_back(j), values.push_back(d.get(i, j));
  Matrix<T> a(d.nrows, d.ncols, backend);
  a.build(rows, cols, values);
  return a;
}

template <class T>
DenseVector<T> to_dense(const Vector<T>& v) {
  std::vector<Index> indices;
  std::vector<T> values;
  v.extract_tuples(indices, values);
  DenseVector<T> d(v.size());
  for (std::size_t e = 0; e < indices.size(); ++e) d.set(indices[e], values[e]);
  return d;
}

template <class T>
DenseMatrix<T> to_dense(const Matrix<T>& a) {
  std::vector<Index> rows, cols;
  std::vector<T> values;
  a.extract_tuples(rows, cols, values);
  DenseMatrix<T> d(a.nrows(), a.ncols());
  for (std::size_t e = 0; e < rows.size(); ++e) d.set(rows[e], cols[e], values[e]);
  return d;
}

template <class T>
std::string show(const T& x) {
  std::ostringstream out;
  if constexpr (std::is_same_v<T, bool> || sizeof(T) == 1) out << int(x);
  else out << x;
  return out.str();
}

/// Empty when equal, else a description of the first difference.
template <class T>
std::string difference(const DenseVector<T>& got, const DenseVector<T>& expected) {
  if (got.size != expected.size)
    return "size " + std::to_string(got.size) + " instead of " + std::to_string(expected.size);
  for (Index i = 0; i < got.size; ++i) {
    if (got.has(i) != expected.has(i))
      return "entry " + std::to_string(i) + (got.has(i) ? " present, should be empty"
                                                        : " empty, should be " + show(expected.value[i]));
    if (got.has(i) && !(got.value[i] == expected.value[i]))
      return "entry " + std::to_string(i) + " is " + show(got.value[i]) + ", should be " +
             show(expected.value[i]);
  }
  return {};
}

template <class T>
std::string difference(const DenseMatrix<T>& got, const DenseMatrix<T>& expected) {
  if (got.nrows != expected.nrows || got.ncols != expected.ncols)
    return "shape " + std::to_string(got.nrows) + "x" + std::to_string(got.ncols) + " instead of " +
           std::to_string(expected.nrows) + "x" + std::to_string(expected.ncols);
  for (Index i = 0; i < got.nrows; ++i)
    for (Index j = 0; j < got.ncols; ++j) {
      const std::string where = "(" + std::to_string(i) + ", " + std::to_string(j) + ")";
      if (got.has(i, j) != expected.has(i, j))
        return where + (got.has(i, j) ? " present, should be empty"
                                      : " empty, should be " + show(expected.get(i, j)));
      if (got.has(i, j) && !(got.get(i, j) == expected.get(i, j)))
        return where + " is " + show(got.get(i, j)) + ", should be " + show(expected.get(i, j));
    }
  return {};
}

// ------------------------------------------------------------------ the write rule
/// One combination of the modifiers every operation takes.
struct WriteCase {
  enum MaskKind { none, valued, structural } mask = none;
  bool complement = false;
  bool replace = false;
  bool accumulate = false;

  Descriptor descriptor() const {
    Descriptor d;
    d.structural_mask = mask == structural;
    d.complement_mask = complement;
    d.replace = replace;
    return d;
  }
  std::string name() const {
    const char* masks[] = {"no mask", "valued mask", "structural mask"};
    return std::string(masks[mask]) + (complement ? ", complemented" : "") +
           (replace ? ", replace" : "") + (accumulate ? ", accum" : "");
  }
};

/// All 24 combinations of mask kind, complement, replace and accumulator.
inline std::vector<WriteCase> all_write_cases() {
  std::vector<WriteCase> cases;
  for (auto mask : {WriteCase::none, WriteCase::valued, WriteCase::structural})
    for (bool complement : {false, true})
      for (bool replace : {false, true})
        for (bool accumulate : {false, true}) cases.push_back({mask, complement, replace, accumulate});
  return cases;
}

inline bool mask_allows(const WriteCase& c, bool present, bool value) {
  bool allowed = c.mask == WriteCase::none ? true
                 : c.mask == WriteCase::structural ? present
                                                   : present && value;
  return c.complement ? !allowed : allowed;
}

/// out<mask, replace> = accum(out, t), position by position.
template <class W, class M, class Z, class Accum>
DenseVector<W> expected_write(const WriteCase& c, const DenseVector<W>& out,
                              const DenseVector<M>& mask, const Accum& accum,
                              const DenseVector<Z>& t) {
  DenseVector<W> result(out.size);
  for (Index i = 0; i < out.size; ++i) {
    const bool allowed = mask_allows(c, mask.has(i), mask.has(i) && mask.value[i] != M{});
    if (!allowed) {
      if (!c.replace && out.has(i)) result.set(i, out.value[i]);
      continue;
    }
    if (c.accumulate && out.has(i) && t.has(i))
      result.set(i, static_cast<W>(accum(out.value[i], static_cast<W>(t.value[i]))));
    else if (c.accumulate && out.has(i)) result.set(i, out.value[i]);
    else if (t.has(i)) result.set(i, static_cast<W>(t.value[i]));
  }
  return result;
}

template <class W, class M, class Z, class Accum>
DenseMatrix<W> expected_write(const WriteCase& c, const DenseMatrix<W>& out,
                              const DenseMatrix<M>& mask, const Accum& accum,
                              const DenseMatrix<Z>& t) {
  DenseMatrix<W> result(out.nrows, out.ncols);
  for (Index i = 0; i < out.nrows; ++i)
    for (Index j = 0; j < out.ncols; ++j) {
      const bool allowed =
          mask_allows(c, mask.has(i, j), mask.has(i, j) && mask.get(i, j) != M{});
      if (!allowed) {
        if (!c.replace && out.has(i, j)) result.set(i, j, out.get(i, j));
        continue;
      }
      if (c.accumulate && out.has(i, j) && t.has(i, j))
        result.set(i, j, static_cast<W>(accum(out.get(i, j), static_cast<W>(t.get(i, j)))));
      else if (c.accumulate && out.has(i, j)) result.set(i, j, out.get(i, j));
      else if (t.has(i, j)) result.set(i, j, static_cast<W>(t.get(i, j)));
    }
  return result;
}

/// Calls run(mask, accum) with the grb mask and accumulator a case names (no_mask / no_accum
/// where it names none).
template <class MaskObject, class Accum, class Run>
void with_modifiers(const WriteCase& c, const MaskObject& mask, const Accum& accum, Run&& run) {
  if (c.mask == WriteCase::none) {
    if (c.accumulate) run(no_mask, accum);
    else run(no_mask, no_accum);
  } else {
    if (c.accumulate) run(mask, accum);
    else run(mask, no_accum);
  }
}

/// Runs `operation(w, mask, accum, desc)` for every write case, with a random initial output and
/// mask each time, and checks w against expected_write(.., t). `accum` is the accumulator used
/// where a case has one (a non-commutative one, such as minus, checks the operand order); it
/// reaches the backends too, so it must be callable on the device: a grb operator, not std::.
template <class W, class Z, class Accum, class Operation>
void check_vector_cases(Backend backend, std::mt19937& rng, const DenseVector<Z>& t,
                        const Accum& accum, Operation&& operation,
                        const Descriptor& base = {}) {
  for (const WriteCase& c : all_write_cases()) {
    const auto old = random_vector<W>(rng, t.size, 0.5);
    const auto mask = random_vector<int>(rng, t.size, chance(rng, 0.5) ? 0.2 : 0.7, 0, 2);
    Vector<W> w = to_grb(old, backend, chance(rng, 0.5));
    const Vector<int> mask_object = to_grb(mask, backend, chance(rng, 0.5));
    Descriptor desc = c.descriptor();
    desc.transpose_first = base.transpose_first;
    desc.transpose_second = base.transpose_second;
    desc.strategy = base.strategy;
    with_modifiers(c, mask_object, accum,
                   [&](const auto& m, const auto& a) { operation(w, m, a, desc); });
    INFO(c.name());
    const std::string diff = difference(to_dense(w), expected_write(c, old, mask, accum, t));
    CHECK_MESSAGE(diff.empty(), diff);
  }
}

template <class W, class Z, class Accum, class Operation>
void check_matrix_cases(Backend backend, std::mt19937& rng, const DenseMatrix<Z>& t,
                        const Accum& accum, Operation&& operation,
                        const Descriptor& base = {}) {
  for (const WriteCase& c : all_write_cases()) {
    const auto old = random_matrix<W>(rng, t.nrows, t.ncols, 0.4);
    const auto mask = random_matrix<int>(rng, t.nrows, t.ncols, chance(rng, 0.5) ? 0.2 : 0.7, 0, 2);
    Matrix<W> out = to_grb(old, backend);
    const Matrix<int> mask_object = to_grb(mask, backend);
    Descriptor desc = c.descriptor();
    desc.transpose_first = base.transpose_first;
    desc.transpose_second = base.transpose_second;
    with_modifiers(c, mask_object, accum,
                   [&](const auto& m, const auto& a) { operation(out, m, a, desc); });
    INFO(c.name());
    const std::string diff = difference(to_dense(out), expected_write(c, old, mask, accum, t));
    CHECK_MESSAGE(diff.empty(), diff);
  }
}

/// GRB_TEST_QUICK=1 keeps fewer shapes and densities: for sanitizer runs and for short runs on
/// the GPU, where every small operation on the cuda backend costs a few kernel launches.
inline bool quick_tests() {
  const char* quick = std::getenv("GRB_TEST_QUICK");
  return quick != nullptr && quick[0] == '1';
}

/// Shapes from empty and 1x1 to a few hundred, square and not.
inline std::vector<std::pair<Index, Index>> test_shapes() {
  if (quick_tests()) return {{0, 0}, {1, 1}, {3, 0}, {7, 1}, {13, 8}, {90, 70}};
  return {{0, 0}, {1, 1}, {0, 3}, {3, 0}, {1, 7}, {7, 1}, {5, 5}, {13, 8}, {8, 21}, {40, 40}, {90, 70}};
}
inline std::vector<double> test_densities() {
  if (quick_tests()) return {0.0, 0.3, 1.0};
  return {0.0, 0.05, 0.3, 1.0};
}

}  // namespace grb::test
