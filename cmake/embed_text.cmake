# zs_embed_text(OUTPUT <file.cc> HEADER <first lines> NAMESPACE <ns>
#               ENTRIES <function>;<path>;<delimiter>;<lead> ...)
#
# Writes <file.cc>: after HEADER, one `std::string_view <function>()` per
# entry inside namespace <ns>, returning the text of <path> as a raw string
# literal with <delimiter> (after a line feed when <lead> is NL, as it is
# when <lead> is NONE). A text file that holds `)<delimiter>"` is refused.
# The file is rewritten only when its content changes, and the project is
# configured anew whenever one of the paths changes, so a text's edit
# rebuilds just the one generated source.
function(zs_embed_text)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "OUTPUT;HEADER;NAMESPACE" "ENTRIES")
  set(functions "")
  foreach(entry IN LISTS ARG_ENTRIES)
    string(REPLACE "|" ";" entry "${entry}")
    list(GET entry 0 function)
    list(GET entry 1 path)
    list(GET entry 2 delimiter)
    list(GET entry 3 lead)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${path})
    file(READ ${path} text)
    string(FIND "${text}" ")${delimiter}\"" delimiter_used)
    if(NOT delimiter_used EQUAL -1)
      get_filename_component(name ${path} NAME)
      message(FATAL_ERROR "${name} holds the raw string delimiter")
    endif()
    if(lead STREQUAL "NL")
      set(text "\n${text}")
    endif()
    string(APPEND functions
      "std::string_view ${function}() {\n"
      "  static constexpr std::string_view kText = R\"${delimiter}(${text})${delimiter}\";\n"
      "  return kText;\n}\n\n")
  endforeach()
  set(ZS_EMBED_HEADER "${ARG_HEADER}")
  set(ZS_EMBED_NAMESPACE "${ARG_NAMESPACE}")
  set(ZS_EMBED_FUNCTIONS "${functions}")
  file(CONFIGURE OUTPUT ${ARG_OUTPUT} CONTENT [=[
@ZS_EMBED_HEADER@
namespace @ZS_EMBED_NAMESPACE@ {

@ZS_EMBED_FUNCTIONS@}  // namespace @ZS_EMBED_NAMESPACE@
]=] @ONLY)
endfunction()
