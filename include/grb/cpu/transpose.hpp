// transpose on the cpu: C<M> = accum(C, A'); with transpose_first the input is transposed twice,
// so T = A.
#pragma once

#include <string>

#include "grb/cpu/entries.hpp"
#include "grb/cpu/mask.hpp"
#include "grb/cpu/write_back.hpp"

namespace grb::cpu {

template <class C, class Mask, class Accum, class A>
void transpose(Matrix<C>& c, const Mask& mask, const Accum& accum, const Matrix<A>& a,
               const Descriptor& desc) {
  const Csr<A>& source = detail::rows_of(a, !desc.transpose_first);
  if (c.nrows() != source.nrows || c.ncols() != source.ncols)
    detail::dimension_mismatch("transpose", "C (" + detail::shape(c.nrows(), c.ncols()) +
                                                ") for a result of " +
                                                detail::shape(source.nrows, source.ncols));
  detail::MatrixMask view(mask, desc, c.nrows(), c.ncols(), "transpose");
  detail::write_back(c, view, accum, detail::copy_csr(source), desc);
}

}  // namespace grb::cpu
