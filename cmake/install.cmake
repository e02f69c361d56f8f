# Installation and the exported package: after `cmake --install`, a project uses grb with
#   find_package(grb 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE grb::grb)          # core: Matrix, Vector, operations, io
#   target_link_libraries(app PRIVATE grb::algorithms)   # BFS, SSSP, CC, validators, engines
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(GRB_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/grb)

install(TARGETS grb grb_algorithms EXPORT grbTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/grb DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The algorithms' headers include each other as "bfs/engine.hpp" etc., so they keep their layout
# under one directory that grb::algorithms puts on the include path.
# sssp/graph_checks.hpp holds definitions that the library compiles once: not a header to use.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/algorithms/
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/grb/algorithms
  FILES_MATCHING PATTERN "*.hpp" PATTERN "*.cuh" PATTERN "graph_checks.hpp" EXCLUDE)
if(TARGET grb_command)
  install(TARGETS grb_command RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

install(EXPORT grbTargets NAMESPACE grb:: DESTINATION ${GRB_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/grbConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/grbConfig.cmake
  INSTALL_DESTINATION ${GRB_INSTALL_CMAKEDIR})
# 0.x: a minor version may break the API.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/grbConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/grbConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/grbConfigVersion.cmake
  DESTINATION ${GRB_INSTALL_CMAKEDIR})
