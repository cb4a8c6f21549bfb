# Writes OUTPUT, a C++ file defining seqconf::bundle::NAME, the text of INPUT.
file(READ ${INPUT} text)
string(FIND "${text}" ")embedded\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw string's delimiter")
endif()
get_filename_component(source ${INPUT} NAME)
file(WRITE ${OUTPUT}.tmp "// Generated from bundle/${source}.\n#include \"bundle/repro_js.h\"\n\n"
     "namespace seqconf::bundle {\nconst char* const ${NAME} = R\"embedded(${text})embedded\";\n}\n")
file(RENAME ${OUTPUT}.tmp ${OUTPUT})
