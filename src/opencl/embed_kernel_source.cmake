# cmake -DKERNEL=... -DVARIABLE=... -DOUTPUT=... [-DHEADER=...] -P embed_kernel_source.cmake
# Writes a .cpp defining `const char* const VARIABLE`, the OpenCL source as one
# raw string: the kernel file with its `#include "softfp/softfp.h"` replaced by
# the header's text, so the program compiles at run time with no include path.
file(READ "${KERNEL}" source)
if(HEADER)
  file(READ "${HEADER}" header)
  string(REPLACE "#include \"softfp/softfp.h\"" "${header}" source "${source}")
endif()
string(FIND "${source}" ")exactvq_cl\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${KERNEL} contains the raw-string delimiter")
endif()
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${KERNEL} by embed_kernel_source.cmake.\n"
  "#include \"opencl/kernel_source.h\"\n\n"
  "namespace exactvq::opencl {\n\n"
  "const char* const ${VARIABLE} = R\"exactvq_cl(${source})exactvq_cl\";\n\n"
  "}  // namespace exactvq::opencl\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
