# grb_use_cuda_compiler(<sources...>): files that instantiate grb operations are compiled by nvcc
# when the cuda backend is built, so that the cuda templates are visible to them.
function(grb_use_cuda_compiler)
  if(GRB_WITH_CUDA)
    set_source_files_properties(${ARGN} PROPERTIES LANGUAGE CUDA)
  endif()
endfunction()

# Options common to grb's own targets.
function(grb_target_options target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>
    $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr --extended-lambda -Xcompiler=-Wall>)
endfunction()
