# Writes OUTPUT, a C++ file defining seqconf::bundle::kReproJs, the text of INPUT.
file(READ ${INPUT} text)
string(FIND "${text}" ")repro_js\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw string's delimiter")
endif()
file(WRITE ${OUTPUT}.tmp "// Generated from bundle/repro.js.\n#include \"bundle/repro_js.h\"\n\n"
     "namespace seqconf::bundle {\nconst char* const kReproJs = R\"repro_js(${text})repro_js\";\n}\n")
file(RENAME ${OUTPUT}.tmp ${OUTPUT})
