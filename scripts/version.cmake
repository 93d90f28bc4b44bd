# Writes the version header with the current git hash ("unknown" outside a
# git checkout); configure_file leaves the file untouched when nothing
# changed, so nothing is rebuilt needlessly.
execute_process(COMMAND git -C "${SRC}" describe --always --dirty --abbrev=12
                OUTPUT_VARIABLE GIT_HASH ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT GIT_HASH)
  set(GIT_HASH "unknown")
endif()
configure_file("${IN}" "${OUT}" @ONLY)
