# benchmarks/plot on the output of `grb bench --quick`: skipped (not failed) where Python 3 has
# no matplotlib (check_plot.py exits 77).
# The first python3 that has matplotlib: the one on PATH may be a user's own build without it,
# while scripts/setup.sh installs Debian's python3-matplotlib for /usr/bin/python3.
find_package(Python3 COMPONENTS Interpreter)
set(grb_plot_python)
foreach(candidate ${Python3_EXECUTABLE} /usr/bin/python3)
  if(NOT grb_plot_python AND EXISTS ${candidate})
    execute_process(COMMAND ${candidate} -c "import matplotlib" RESULT_VARIABLE no_matplotlib
                    OUTPUT_QUIET ERROR_QUIET)
    if(no_matplotlib EQUAL 0)
      set(grb_plot_python ${candidate})
    endif()
  endif()
endforeach()
if(NOT grb_plot_python AND Python3_Interpreter_FOUND)
  set(grb_plot_python ${Python3_EXECUTABLE})
endif()
if(grb_plot_python)
  add_test(NAME plot
    COMMAND ${grb_plot_python} ${CMAKE_CURRENT_LIST_DIR}/check_plot.py
            $<TARGET_FILE:grb_command> ${PROJECT_SOURCE_DIR}/benchmarks/plot
            ${CMAKE_CURRENT_BINARY_DIR}/plot)
  set_tests_properties(plot PROPERTIES SKIP_RETURN_CODE 77)
else()
  message(STATUS "grb: no Python 3 interpreter: the plot test is not registered")
endif()
