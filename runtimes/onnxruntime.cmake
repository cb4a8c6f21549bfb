# Third-party runtimes: ONNX Runtime (C API, opened with dlopen), external processes, and the
# isolation decorator. Included from runtimes/CMakeLists.txt.
#
# ONNXRUNTIME_ROOT holds include/onnxruntime_c_api.h and lib/libonnxruntime.so.1 (the layout
# tools/setup-runtimes.sh installs). Without the header the suite builds without ORT support.
set(ONNXRUNTIME_ROOT "${PROJECT_SOURCE_DIR}/third_party/onnxruntime"
    CACHE PATH "ONNX Runtime folder with include/ and lib/")

# runtime.cpp (the Runtime interface's own code) is here, below everything that uses it.
add_library(seqconf_external_runtimes STATIC
  ${CMAKE_CURRENT_LIST_DIR}/runtime.cpp
  ${CMAKE_CURRENT_LIST_DIR}/onnxruntime.cpp
  ${CMAKE_CURRENT_LIST_DIR}/onnxruntime_errors.cpp
  ${CMAKE_CURRENT_LIST_DIR}/isolated.cpp
  ${CMAKE_CURRENT_LIST_DIR}/worker_protocol.cpp
  ${CMAKE_CURRENT_LIST_DIR}/worker_process.cpp
  ${CMAKE_CURRENT_LIST_DIR}/memcheck.cpp
  ${CMAKE_CURRENT_LIST_DIR}/memory_error.cpp
  ${CMAKE_CURRENT_LIST_DIR}/process.cpp
)
# The installed package adds include/seqconf (package/CMakeLists.txt).
target_include_directories(seqconf_external_runtimes PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>)
# Where the onnxruntime-web adapter and third_party/ are found.
target_compile_definitions(seqconf_external_runtimes PRIVATE
  SEQCONF_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
target_link_libraries(seqconf_external_runtimes PUBLIC seqconf_reference ${CMAKE_DL_LIBS}
                                                PRIVATE nlohmann_json::nlohmann_json
                                                PRIVATE seqconf_warnings)
if(EXISTS "${ONNXRUNTIME_ROOT}/include/onnxruntime_c_api.h")
  message(STATUS "ONNX Runtime C API header: ${ONNXRUNTIME_ROOT}/include")
  # The header only: the library is opened at run time from a path.
  target_include_directories(seqconf_external_runtimes SYSTEM PRIVATE "${ONNXRUNTIME_ROOT}/include")
  target_compile_definitions(seqconf_external_runtimes PRIVATE SEQCONF_HAVE_ORT=1
    SEQCONF_ORT_DEFAULT_LIB="${ONNXRUNTIME_ROOT}/lib/libonnxruntime.so.1")
else()
  message(STATUS "ONNX Runtime C API header not found in ${ONNXRUNTIME_ROOT}/include: "
                 "building without the onnxruntime runtime (run tools/setup-runtimes.sh)")
  target_compile_definitions(seqconf_external_runtimes PRIVATE SEQCONF_HAVE_ORT=0)
endif()

# The suppressions of valgrind memcheck for isolated workers (runtimes/memcheck.supp), compiled
# into the program, which writes them where valgrind reads them (runtimes/memcheck.h).
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${CMAKE_CURRENT_LIST_DIR}/memcheck.supp)
file(READ ${CMAKE_CURRENT_LIST_DIR}/memcheck.supp SEQCONF_MEMCHECK_SUPP)
configure_file(${CMAKE_CURRENT_LIST_DIR}/memcheck_supp.h.in
               ${CMAKE_CURRENT_BINARY_DIR}/generated/runtimes/memcheck_supp.h @ONLY)
target_include_directories(seqconf_external_runtimes PRIVATE
                           ${CMAKE_CURRENT_BINARY_DIR}/generated)

# How ONNX Runtime's errors are read (runtimes/onnxruntime_errors.json), and the JavaScript that
# applies the same table (runtimes/onnxruntime_errors.js), compiled in: the C API binding reads
# the table, and a bundle folder carries both files beside its repro.js.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${CMAKE_CURRENT_LIST_DIR}/onnxruntime_errors.json
             ${CMAKE_CURRENT_LIST_DIR}/onnxruntime_errors.js)
file(READ ${CMAKE_CURRENT_LIST_DIR}/onnxruntime_errors.json SEQCONF_ORT_ERRORS_JSON)
file(READ ${CMAKE_CURRENT_LIST_DIR}/onnxruntime_errors.js SEQCONF_ORT_ERRORS_JS)
configure_file(${CMAKE_CURRENT_LIST_DIR}/onnxruntime_errors.h.in
               ${CMAKE_CURRENT_BINARY_DIR}/generated/runtimes/onnxruntime_errors_data.h @ONLY)

# valgrind's header (Debian package valgrind, which also installs the valgrind program): a worker
# under memcheck counts memcheck's errors with its client request VALGRIND_COUNT_ERRORS. Without
# it the build goes on and --memcheck refuses with the reason (runtimes/memcheck.h,
# memcheck_unavailable): valgrind is a tool to run the suite under, not one to build it, and a
# machine without the header has, on Debian, no valgrind to run either.
include(CheckIncludeFileCXX)
check_include_file_cxx(valgrind/memcheck.h SEQCONF_HAVE_VALGRIND_H)
if(SEQCONF_HAVE_VALGRIND_H)
  target_compile_definitions(seqconf_external_runtimes PRIVATE SEQCONF_HAVE_VALGRIND=1)
else()
  message(WARNING "valgrind/memcheck.h not found (apt-get install valgrind): building without "
                  "seqconf run --memcheck, which will say so when asked for")
  target_compile_definitions(seqconf_external_runtimes PRIVATE SEQCONF_HAVE_VALGRIND=0)
endif()
