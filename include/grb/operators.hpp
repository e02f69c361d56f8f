// Operators, monoids and semirings: small functor types usable on host and device.
//
// A binary operator is a type with `result_type` and `operator()(x, y)`. A positional operator
// (firsti, secondi, ...) instead sets `positional = true` and takes the indices (i, k, j) of the
// product A(i,k) * B(k,j); see detail::multiply. A monoid adds `value_type` and `identity()`;
// it may name a `terminal()` value (lor: true, min: -inf) after which a reduction can stop, or
// set `is_any` (any value is terminal). A semiring is `grb::semiring<AddMonoid, MultiplyOp>`.
// User-defined operators are written the same way and work everywhere the built-ins do.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "grb/types.hpp"

namespace grb {

// ---------------------------------------------------------------- unary operators
template <class T>
struct identity {
  using result_type = T;
  GRB_HOST_DEVICE constexpr T operator()(T x) const { return x; }
};
template <class T>
struct ainv {  // additive inverse
  using result_type = T;
  GRB_HOST_DEVICE constexpr T operator()(T x) const { return static_cast<T>(-x); }
};
template <class T>
struct minv {  // multiplicative inverse
  using result_type = T;
  GRB_HOST_DEVICE constexpr T operator()(T x) const { return static_cast<T>(T{1} / x); }
};
template <class T>
struct abs {
  using result_type = T;
  GRB_HOST_DEVICE constexpr T operator()(T x) const {
    if constexpr (std::is_signed_v<T>) return x < T{0} ? static_cast<T>(-x) : x;
    else return x;
  }
};
template <class T>
struct lnot {
  using result_type = T;
  GRB_HOST_DEVICE constexpr T operator()(T x) const { return static_cast<T>(!x); }
};
template <class T>
struct one {
  using result_type = T;
  GRB_HOST_DEVICE constexpr T operator()(T) const { return T{1}; }
};

// ---------------------------------------------------------------- binary operators
#define GRB_BINARY_OP(NAME, RESULT, EXPR)                                   \
  template <class T>                                                        \
  struct NAME {                                                             \
    using result_type = RESULT;                                             \
    GRB_HOST_DEVICE constexpr RESULT operator()(T x, T y) const { return EXPR; } \
  };

GRB_BINARY_OP(plus, T, static_cast<T>(x + y))
GRB_BINARY_OP(minus, T, static_cast<T>(x - y))
GRB_BINARY_OP(times, T, static_cast<T>(x * y))
GRB_BINARY_OP(div, T, static_cast<T>(x / y))
GRB_BINARY_OP(min, T, (y < x ? y : x))
GRB_BINARY_OP(max, T, (x < y ? y : x))
GRB_BINARY_OP(lor, T, static_cast<T>(x || y))
GRB_BINARY_OP(land, T, static_cast<T>(x && y))
GRB_BINARY_OP(lxor, T, static_cast<T>(!x != !y))
GRB_BINARY_OP(eq, bool, x == y)
GRB_BINARY_OP(ne, bool, x != y)
GRB_BINARY_OP(lt, bool, x < y)
GRB_BINARY_OP(le, bool, x <= y)
GRB_BINARY_OP(gt, bool, x > y)
GRB_BINARY_OP(ge, bool, x >= y)
#undef GRB_BINARY_OP

template <class T>
struct first {
  using result_type = T;
  static constexpr bool uses_second = false;
  GRB_HOST_DEVICE constexpr T operator()(T x, T) const { return x; }
};
template <class T>
struct second {
  using result_type = T;
  static constexpr bool uses_first = false;
  GRB_HOST_DEVICE constexpr T operator()(T, T y) const { return y; }
};
/// 1 wherever both entries exist (GxB_PAIR / GrB_ONEB).
template <class T>
struct pair {
  using result_type = T;
  static constexpr bool uses_first = false;
  static constexpr bool uses_second = false;
  GRB_HOST_DEVICE constexpr T operator()(T, T) const { return T{1}; }
};
/// Either operand (GxB_ANY): used where any of the candidates is a valid answer.
template <class T>
struct any {
  using result_type = T;
  GRB_HOST_DEVICE constexpr T operator()(T x, T) const { return x; }
};

// Positional multiply operators for C(i,j) = A(i,k) * B(k,j); for vxm (u' * A) the product is
// u(k) * A(k,j), so secondi gives k: the frontier vertex that reached j, i.e. the BFS parent.
#define GRB_POSITIONAL_OP(NAME, VALUE)                                                     \
  template <class T>                                                                       \
  struct NAME {                                                                            \
    using result_type = T;                                                                 \
    static constexpr bool positional = true;                                               \
    static constexpr bool uses_first = false;                                              \
    static constexpr bool uses_second = false;                                             \
    GRB_HOST_DEVICE constexpr T operator()(Index i, Index k, Index j) const {              \
      (void)i, (void)k, (void)j;                                                           \
      return static_cast<T>(VALUE);                                                        \
    }                                                                                      \
  };
GRB_POSITIONAL_OP(firsti, i)
GRB_POSITIONAL_OP(firstj, k)
GRB_POSITIONAL_OP(secondi, k)
GRB_POSITIONAL_OP(secondj, j)
#undef GRB_POSITIONAL_OP

// ---------------------------------------------------------------- monoids
template <class T>
struct plus_monoid : plus<T> {
  using value_type = T;
  GRB_HOST_DEVICE constexpr T identity() const { return T{0}; }
};
template <class T>
struct times_monoid : times<T> {
  using value_type = T;
  GRB_HOST_DEVICE constexpr T identity() const { return T{1}; }
};
template <class T>
struct min_monoid : min<T> {
  using value_type = T;
  GRB_HOST_DEVICE constexpr T identity() const {
    if constexpr (std::numeric_limits<T>::has_infinity) return std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::max();
  }
  GRB_HOST_DEVICE constexpr T terminal() const {
    if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::lowest();
  }
};
template <class T>
struct max_monoid : max<T> {
  using value_type = T;
  GRB_HOST_DEVICE constexpr T identity() const {
    if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::lowest();
  }
  GRB_HOST_DEVICE constexpr T terminal() const {
    if constexpr (std::numeric_limits<T>::has_infinity) return std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::max();
  }
};
template <class T>
struct lor_monoid : lor<T> {
  using value_type = T;
  GRB_HOST_DEVICE constexpr T identity() const { return T{0}; }
  GRB_HOST_DEVICE constexpr T terminal() const { return T{1}; }
};
template <class T>
struct land_monoid : land<T> {
  using value_type = T;
  GRB_HOST_DEVICE constexpr T identity() const { return T{1}; }
  GRB_HOST_DEVICE constexpr T terminal() const { return T{0}; }
};
template <class T>
struct lxor_monoid : lxor<T> {
  using value_type = T;
  GRB_HOST_DEVICE constexpr T identity() const { return T{0}; }
};
/// Any value will do, so a reduction may stop at the first entry it sees.
template <class T>
struct any_monoid : any<T> {
  using value_type = T;
  static constexpr bool is_any = true;
  GRB_HOST_DEVICE constexpr T identity() const { return T{0}; }
};

/// A monoid from any associative, commutative binary operator and its identity.
template <class Op, class T = typename Op::result_type>
struct monoid : Op {
  using value_type = T;
  T identity_value{};
  constexpr monoid() = default;
  constexpr explicit monoid(T identity, Op op = {}) : Op(op), identity_value(identity) {}
  GRB_HOST_DEVICE constexpr T identity() const { return identity_value; }
};

// ---------------------------------------------------------------- semirings
template <class AddMonoid, class MultiplyOp>
struct semiring {
  using add_type = AddMonoid;
  using multiply_type = MultiplyOp;
  using value_type = typename AddMonoid::value_type;
  AddMonoid add{};
  MultiplyOp multiply{};
};

template <class T> using plus_times = semiring<plus_monoid<T>, times<T>>;
template <class T> using plus_pair = semiring<plus_monoid<T>, pair<T>>;
template <class T> using plus_first = semiring<plus_monoid<T>, first<T>>;
template <class T> using plus_second = semiring<plus_monoid<T>, second<T>>;
template <class T> using min_plus = semiring<min_monoid<T>, plus<T>>;
template <class T> using max_plus = semiring<max_monoid<T>, plus<T>>;
template <class T> using min_times = semiring<min_monoid<T>, times<T>>;
template <class T> using max_times = semiring<max_monoid<T>, times<T>>;
template <class T> using min_first = semiring<min_monoid<T>, first<T>>;
template <class T> using min_second = semiring<min_monoid<T>, second<T>>;
template <class T> using max_second = semiring<max_monoid<T>, second<T>>;
template <class T> using any_second = semiring<any_monoid<T>, second<T>>;
template <class T> using any_pair = semiring<any_monoid<T>, pair<T>>;
template <class T> using lor_land = semiring<lor_monoid<T>, land<T>>;
template <class T> using land_lor = semiring<land_monoid<T>, lor<T>>;
/// BFS parents: any frontier vertex k that reaches j.
template <class T> using any_secondi = semiring<any_monoid<T>, secondi<T>>;
/// BFS parents, deterministic: the smallest frontier vertex that reaches j.
template <class T> using min_secondi = semiring<min_monoid<T>, secondi<T>>;

// ---------------------------------------------------------------- index-unary predicates (select)
// Called as pred(value, i, j); true keeps the entry.
struct tril {  // j <= i + k
  std::int64_t k = 0;
  template <class T>
  GRB_HOST_DEVICE constexpr bool operator()(T, Index i, Index j) const {
    return std::int64_t(j) <= std::int64_t(i) + k;
  }
};
struct triu {  // j >= i + k
  std::int64_t k = 0;
  template <class T>
  GRB_HOST_DEVICE constexpr bool operator()(T, Index i, Index j) const {
    return std::int64_t(j) >= std::int64_t(i) + k;
  }
};
struct diag {  // j == i + k
  std::int64_t k = 0;
  template <class T>
  GRB_HOST_DEVICE constexpr bool operator()(T, Index i, Index j) const {
    return std::int64_t(j) == std::int64_t(i) + k;
  }
};
struct offdiag {  // j != i + k
  std::int64_t k = 0;
  template <class T>
  GRB_HOST_DEVICE constexpr bool operator()(T, Index i, Index j) const {
    return std::int64_t(j) != std::int64_t(i) + k;
  }
};
#define GRB_VALUE_PREDICATE(NAME, EXPR)                                   \
  template <class T>                                                      \
  struct NAME {                                                           \
    T thunk{};                                                            \
    GRB_HOST_DEVICE constexpr bool operator()(T x, Index, Index) const { return EXPR; } \
  };
GRB_VALUE_PREDICATE(value_eq, x == thunk)
GRB_VALUE_PREDICATE(value_ne, x != thunk)
GRB_VALUE_PREDICATE(value_lt, x < thunk)
GRB_VALUE_PREDICATE(value_le, x <= thunk)
GRB_VALUE_PREDICATE(value_gt, x > thunk)
GRB_VALUE_PREDICATE(value_ge, x >= thunk)
#undef GRB_VALUE_PREDICATE

namespace detail {

template <class Op> constexpr bool is_positional() {
  if constexpr (requires { Op::positional; }) return Op::positional;
  else return false;
}
/// Whether a multiply operator reads its first / second operand's value (loads can be skipped).
template <class Op> constexpr bool uses_first() {
  if constexpr (requires { Op::uses_first; }) return Op::uses_first;
  else return true;
}
template <class Op> constexpr bool uses_second() {
  if constexpr (requires { Op::uses_second; }) return Op::uses_second;
  else return true;
}
template <class Monoid> constexpr bool is_any_monoid() {
  if constexpr (requires { Monoid::is_any; }) return Monoid::is_any;
  else return false;
}
template <class Monoid> constexpr bool has_terminal() {
  return requires(const Monoid& m) { m.terminal(); };
}

/// Whether a run of values of type T folds to the same result through `Op` in any order and
/// grouping, exactly (associative and commutative): min, max, plus and times on integers, and the
/// logical operators. Not on floating point: plus and times round differently when regrouped, and
/// min and max return their first operand on a tie or a NaN (min(+0, -0) is +0, min(-0, +0) is
/// -0; min(NaN, 1) is NaN, min(1, NaN) is 1).
template <class Op, class T> struct folds_in_any_order : std::false_type {};
template <class T>
struct folds_in_any_order<min<T>, T> : std::bool_constant<!std::is_floating_point_v<T>> {};
template <class T>
struct folds_in_any_order<max<T>, T> : std::bool_constant<!std::is_floating_point_v<T>> {};
template <class T> struct folds_in_any_order<lor<T>, T> : std::true_type {};
template <class T> struct folds_in_any_order<land<T>, T> : std::true_type {};
template <class T> struct folds_in_any_order<lxor<T>, T> : std::true_type {};
template <class T>
struct folds_in_any_order<plus<T>, T> : std::bool_constant<std::is_integral_v<T>> {};
template <class T>
struct folds_in_any_order<times<T>, T> : std::bool_constant<std::is_integral_v<T>> {};

/// Applies a multiply operator to A(i,k) = x and B(k,j) = y, positional or not.
template <class Op, class X, class Y>
GRB_HOST_DEVICE constexpr auto multiply(const Op& op, const X& x, const Y& y, Index i, Index k,
                                        Index j) {
  if constexpr (is_positional<Op>()) return op(i, k, j);
  else return op(x, y);
}

/// True when a reduction with this monoid may stop: `value` can no longer change.
template <class Monoid, class T>
GRB_HOST_DEVICE constexpr bool is_terminal(const Monoid& monoid, const T& value) {
  if constexpr (is_any_monoid<Monoid>()) return true;
  else if constexpr (has_terminal<Monoid>()) return value == monoid.terminal();
  else return false;
}

}  // namespace detail
}  // namespace grb
