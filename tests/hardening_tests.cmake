# Hardening tests (label hardening): malformed input never crashes or hangs the suite and is
# reported naming the file; size limits; regressions of robustness fixes.
# Included from tests/CMakeLists.txt. The fuzz replays are registered in fuzz/CMakeLists.txt.

add_executable(hardening_tests hardening_test.cpp)
target_link_libraries(hardening_tests PRIVATE seqconf_harness seqconf_runtimes seqconf_interpreter
                                              GTest::gtest_main seqconf_warnings)
target_compile_definitions(hardening_tests
                           PRIVATE SEQCONF_MALFORMED="${PROJECT_SOURCE_DIR}/fixtures/malformed")
gtest_discover_tests(hardening_tests TEST_PREFIX hardening. PROPERTIES LABELS hardening
                     DISCOVERY_TIMEOUT 60)

# One CLI run per malformed item: hardening_cli(NAME EXIT_CODES [--expect T | --forbid T]...
#   -- seqconf arguments). The check fails on a signal, a hang, another exit code, or output
# missing an --expect text.
set(malformed ${PROJECT_SOURCE_DIR}/fixtures/malformed)
function(hardening_cli name codes)
  add_test(NAME hardening.cli.${name}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/hardening_cli_check.sh ${codes} ${ARGN})
  set_tests_properties(hardening.cli.${name} PROPERTIES LABELS hardening TIMEOUT 180)
endfunction()

set(run $<TARGET_FILE:seqconf> run --runtime reference)
# A corpus item whose case must end as an error naming FILE (relative to the item) and
# holding TEXT, the run itself finishing with exit code 1.
function(malformed_case item file text)
  set(dir ${malformed}/corpus/${item})
  hardening_cli(corpus.${item} 1 --expect "${dir}/${file}" --expect "${text}"
                --expect "1 cases: 0 pass, 0 fail, 1 error" --forbid "PASS "
                -- ${run} --source corpus --corpus ${dir})
endfunction()

hardening_cli(corpus.00_control_valid 0 --expect "1 cases: 1 pass"
              -- ${run} --source corpus --corpus ${malformed}/corpus/00_control_valid)
malformed_case(pb_truncated test_data_set_0/input_0.pb "not a valid onnx.SequenceProto message")
malformed_case(pb_wrong_message test_data_set_0/input_0.pb "SequenceProto")
malformed_case(raw_data_wrong_length test_data_set_0/input_0.pb "raw_data has 3 bytes")
malformed_case(negative_dim test_data_set_0/input_1.pb "negative dimension -1")
malformed_case(dims_overflow test_data_set_0/input_1.pb "overflows")
malformed_case(tensor_1e12_elements test_data_set_0/input_0.pb "exceeds the limit")
malformed_case(unknown_elem_type test_data_set_0/input_1.pb "type 99 is not one of the 15")
malformed_case(string_raw_data test_data_set_0/input_1.pb "a string tensor cannot use raw_data")
malformed_case(typed_field_count test_data_set_0/input_0.pb "float_data holds 3 values")
malformed_case(model_missing model.onnx "cannot be opened")
malformed_case(model_truncated model.onnx "not a valid ModelProto")
malformed_case(model_not_a_model model.onnx "not a valid ModelProto")
malformed_case(graph_cycle model.onnx "the nodes form a cycle")
malformed_case(dangling_name model.onnx "reads 'Q'")
malformed_case(op_not_in_opset model.onnx "SequenceMap does not exist in opset 11")
malformed_case(sequence_map_no_body model.onnx "graph attribute 'body' is missing")
malformed_case(output_missing test_data_set_0 "no output_K.pb")
malformed_case(output_unreadable test_data_set_0/output_0.pb "cannot be opened")
malformed_case(output_garbage test_data_set_0/output_0.pb "not a valid onnx.TensorProto message")

# The whole malformed corpus in one run: every broken case is an error and the run goes on to
# the control case, which passes.
hardening_cli(corpus.all_in_one_run 1 --expect "20 cases: 1 pass, 0 fail, 19 error"
              -- ${run} --source corpus --corpus ${malformed}/corpus)

# ONNX backend layout: a model that cannot be read under a data root is reported, not skipped.
function(malformed_backend item text)
  set(dir ${malformed}/backend/${item})
  hardening_cli(backend.${item} 1 --expect "${dir}/test_${item}/model.onnx" --expect "${text}"
                --expect "1 cases: 0 pass, 0 fail, 1 error"
                -- ${run} --source onnx-backend --onnx-testdata ${dir})
endfunction()
hardening_cli(backend.00_control_valid 0 --expect "1 cases: 1 pass"
              -- ${run} --source onnx-backend --onnx-testdata ${malformed}/backend/00_control_valid)
malformed_backend(model_unreadable "cannot be opened")
malformed_backend(model_missing "model.onnx is missing")
malformed_backend(model_not_a_model "not a valid ModelProto")
malformed_backend(model_truncated "not a valid ModelProto")

# A run that finds no case exits 2 (usage/input error), for each source.
hardening_cli(no_case.onnx_backend 2 --expect "no case found"
              -- ${run} --source onnx-backend --onnx-testdata ${malformed}/empty)
hardening_cli(no_case.corpus 2 --expect "no case found"
              -- ${run} --source corpus --corpus ${malformed}/empty)
hardening_cli(no_case.missing_root 2 --expect "${malformed}/no-such-dir"
              -- ${run} --source corpus --corpus ${malformed}/no-such-dir)

# --max-tensor-bytes: the control case's tensors hold 8 bytes at most ([1, 2] as float).
hardening_cli(max_tensor_bytes.below 1 --expect "exceeds the limit of 7 bytes"
              --expect "${malformed}/corpus/00_control_valid/test_data_set_0/input_0.pb"
              -- ${run} --source corpus --corpus ${malformed}/corpus/00_control_valid
                 --max-tensor-bytes 7)
hardening_cli(max_tensor_bytes.at 0 --expect "1 cases: 1 pass"
              -- ${run} --source corpus --corpus ${malformed}/corpus/00_control_valid
                 --max-tensor-bytes 8)
