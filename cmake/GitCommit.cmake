# Writes OUT with the commit the build is made from, at build time (not at
# configure time, which would go stale as commits land without a reconfigure).
# The file is rewritten only when the commit changes, so nothing recompiles
# needlessly.
execute_process(COMMAND git describe --always --dirty --abbrev=10
                WORKING_DIRECTORY "${SRC}"
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT commit)
  set(commit "unknown")
endif()
set(text "// Generated at build time by cmake/GitCommit.cmake.\n#pragma once\nnamespace movebench::build {\ninline constexpr const char* git_commit = \"${commit}\";\n}\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE "${OUT}" "${text}")
endif()
