# The CMake package: `cmake --install BUILD --prefix PREFIX` puts the library headers under
# PREFIX/include/spmesh (included as in the source tree: "linalg/...", "meshops/...", ...), the
# static libraries and the spmesh command line, and PREFIX/lib/cmake/spmesh/ with
# spmeshConfig.cmake, its version file and the exported targets. A downstream project:
#
#   find_package(spmesh 0.1 REQUIRED)                 # or COMPONENTS cuda / python
#   target_link_libraries(app PRIVATE spmesh::schemes)  # spmesh::linalg, meshops, schemes, solids
#
# tests/downstream is such a project; ctest's cmake_package installs this build into a scratch
# prefix and builds and runs it there.
include(CMakePackageConfigHelpers)

foreach(layer linalg meshops schemes solids)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${layer} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/spmesh
          FILES_MATCHING PATTERN "*.hpp" PATTERN "*.cuh")
  set_target_properties(spmesh_${layer} PROPERTIES EXPORT_NAME ${layer})
endforeach()
set_target_properties(spmesh_eigen PROPERTIES EXPORT_NAME eigen)
install(TARGETS spmesh_linalg spmesh_eigen spmesh_meshops spmesh_schemes spmesh_solids EXPORT spmeshTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/spmesh)
install(TARGETS spmesh RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(spmesh_package_dir ${CMAKE_INSTALL_LIBDIR}/cmake/spmesh)
install(EXPORT spmeshTargets NAMESPACE spmesh:: DESTINATION ${spmesh_package_dir})
# What the installed build has: the components a find_package may ask for.
set(SPMESH_PACKAGE_HAS_CUDA ${SPMESH_HAVE_CUDA})
set(SPMESH_PACKAGE_HAS_PYTHON OFF)
if(TARGET spmesh_python)
  set(SPMESH_PACKAGE_HAS_PYTHON ON)
endif()
set(SPMESH_PACKAGE_HAS_ZLIB ${ZLIB_FOUND})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/spmeshConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/spmeshConfig.cmake INSTALL_DESTINATION ${spmesh_package_dir})
# 0.x: a minor version may change the interface, so only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/spmeshConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/spmeshConfig.cmake ${PROJECT_BINARY_DIR}/spmeshConfigVersion.cmake
        DESTINATION ${spmesh_package_dir})
