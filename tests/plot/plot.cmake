# benchmarks/plot on the output of `grb bench --quick`: skipped (not failed) where Python 3 has
# no matplotlib (check_plot.py exits 77).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME plot
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_plot.py
            $<TARGET_FILE:grb_command> ${PROJECT_SOURCE_DIR}/benchmarks/plot
            ${CMAKE_CURRENT_BINARY_DIR}/plot)
  set_tests_properties(plot PROPERTIES SKIP_RETURN_CODE 77)
else()
  message(STATUS "grb: no Python 3 interpreter: the plot test is not registered")
endif()
