# cmake -DBUILD_DIR=<main build> -DEXAMPLE_DIR=<examples/embedding> -DWORK_DIR=<scratch>
#       [-DCXX_COMPILER=<c++>] -P embedding_test.cmake
#
# What a runtime's repository does with the package: install seqconf to a prefix, configure
# and build examples/embedding against it with find_package(seqconf) and nothing else on
# CMAKE_PREFIX_PATH, then run the example's own ctest. Any step failing fails the test.
foreach(var BUILD_DIR EXAMPLE_DIR WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "embedding_test.cmake: -D${var}=... is required")
  endif()
endforeach()

set(prefix ${WORK_DIR}/prefix)
set(example_build ${WORK_DIR}/example-build)
file(REMOVE_RECURSE ${WORK_DIR})

function(step name)
  string(TIMESTAMP start "%s")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  string(TIMESTAMP end "%s")
  math(EXPR seconds "${end} - ${start}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "embedding: ${name} failed (${rc}) after ${seconds} s: ${ARGN}")
  endif()
  message(STATUS "embedding: ${name} ok (${seconds} s)")
endfunction()

step(install ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
set(compiler)
if(CXX_COMPILER)
  set(compiler -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
endif()
step(configure ${CMAKE_COMMAND} -S ${EXAMPLE_DIR} -B ${example_build}
     -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_PREFIX_PATH=${prefix} ${compiler})
step(build ${CMAKE_COMMAND} --build ${example_build} -j2)
step(ctest ${CMAKE_CTEST_COMMAND} --test-dir ${example_build} --output-on-failure)

# The installed library read the corpus it was installed with, not the source tree's.
file(READ ${example_build}/seqconf-report.json report)
string(JSON corpus GET "${report}" options corpus)
string(JSON total GET "${report}" summary total)
if(NOT corpus STREQUAL "${prefix}/share/seqconf/corpus")
  message(FATAL_ERROR "embedding: the example read the corpus ${corpus}, "
                      "not ${prefix}/share/seqconf/corpus")
endif()
message(STATUS "embedding: ${total} cases from ${corpus}")

# The installed command line, too: its default corpus is the installed one.
step(installed-cli ${prefix}/bin/seqconf run --runtime reference --source corpus
     --filter "corpus/SequenceAt/*" --report ${WORK_DIR}/cli-report.json)
file(READ ${WORK_DIR}/cli-report.json report)
string(JSON corpus GET "${report}" options corpus)
if(NOT corpus STREQUAL "${prefix}/share/seqconf/corpus")
  message(FATAL_ERROR "embedding: the installed seqconf read the corpus ${corpus}, "
                      "not ${prefix}/share/seqconf/corpus")
endif()
