# cmake -DKERNEL=... -DVARIABLE=... -DOUTPUT=... -DSOURCE_ROOT=... -P embed_kernel_source.cmake
cmake_minimum_required(VERSION 3.25)
# Writes a .cpp defining `const char* const exactvq::opencl::VARIABLE`, the OpenCL
# source as one raw string: the kernel file with each `#include "path"` line
# replaced by the text of SOURCE_ROOT/path (recursively; a file already pasted is
# pasted again only as an empty line, its include guard would drop it anyway).
function(inline_includes text out_var)
  set(result "${text}")
  set(seen "${ARGN}")
  while(TRUE)
    string(REGEX MATCH "#include \"([^\"]+)\"" directive "${result}")
    if(NOT directive)
      break()
    endif()
    set(path "${CMAKE_MATCH_1}")
    if(NOT EXISTS "${SOURCE_ROOT}/${path}")
      message(FATAL_ERROR "${KERNEL}: cannot inline ${path} (not under ${SOURCE_ROOT})")
    endif()
    list(FIND seen "${path}" index)
    if(index EQUAL -1)
      list(APPEND seen "${path}")
      file(READ "${SOURCE_ROOT}/${path}" body)
    else()
      set(body "")
    endif()
    string(REPLACE "${directive}" "${body}" result "${result}")
  endwhile()
  set(${out_var} "${result}" PARENT_SCOPE)
endfunction()

file(READ "${KERNEL}" source)
inline_includes("${source}" source)
string(FIND "${source}" ")exactvq_cl\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${KERNEL} contains the raw-string delimiter")
endif()
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${KERNEL} by embed_kernel_source.cmake.\n"
  "namespace ${NAMESPACE} {\n\n"
  "extern const char* const ${VARIABLE};\n"
  "const char* const ${VARIABLE} = R\"exactvq_cl(${source})exactvq_cl\";\n\n"
  "}  // namespace ${NAMESPACE}\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
