# Tests of the third-party runtimes (included from tests/CMakeLists.txt).
#   label runtimes:     isolation and the process protocol (with a scripted adapter), lifting,
#                       and the onnxruntime-web adapter on the backend fixtures
#   label onnxruntime:  ONNX Runtime through the C API (skipped when ORT is not installed)
add_executable(runtime_tests runtime_isolated_test.cpp runtime_process_test.cpp
                             runtime_registry_test.cpp)
target_compile_definitions(runtime_tests PRIVATE SEQCONF_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
target_link_libraries(runtime_tests PRIVATE seqconf_runtimes seqconf_external_runtimes GTest::gtest_main
                                            seqconf_warnings)
gtest_discover_tests(runtime_tests PROPERTIES LABELS runtimes DISCOVERY_TIMEOUT 60)

add_executable(onnxruntime_tests runtime_onnxruntime_test.cpp runtime_bind_test.cpp)
target_link_libraries(onnxruntime_tests PRIVATE seqconf_runtimes seqconf_external_runtimes GTest::gtest_main
                                                seqconf_warnings)
gtest_discover_tests(onnxruntime_tests PROPERTIES LABELS onnxruntime DISCOVERY_TIMEOUT 60)

# ONNX Runtime 1.30 through the runner against expectations/onnxruntime.json.
add_executable(onnxruntime_expectations_tests runtime_onnxruntime_expectations_test.cpp)
target_compile_definitions(onnxruntime_expectations_tests PRIVATE
  SEQCONF_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
target_link_libraries(onnxruntime_expectations_tests PRIVATE seqconf_suite
  seqconf_external_runtimes GTest::gtest_main seqconf_warnings)
gtest_discover_tests(onnxruntime_expectations_tests
  PROPERTIES LABELS onnxruntime TIMEOUT 600 DISCOVERY_TIMEOUT 60)
