# Turns text templates into a C++ header of string constants, at build time:
#   cmake -DOUT=header.h -DNAMESPACE=ns -DFILES="a.py|b.py" -P embed.cmake
# Each file `some_name.py` becomes `inline constexpr const char kSomeName[]`,
# holding a newline and then the file's text, byte for byte.
set(header "// Generated from templates/ by templates/embed.cmake. Do not edit.\n#pragma once\n\nnamespace ${NAMESPACE} {\n")
string(REPLACE "|" ";" FILES "${FILES}")
foreach(file ${FILES})
  get_filename_component(stem ${file} NAME_WE)
  string(REPLACE "_" ";" words ${stem})
  set(name "k")
  foreach(word ${words})
    string(SUBSTRING ${word} 0 1 first)
    string(TOUPPER ${first} first)
    string(SUBSTRING ${word} 1 -1 rest)
    string(APPEND name "${first}${rest}")
  endforeach()
  file(READ ${file} text)
  string(APPEND header "\ninline constexpr const char ${name}[] = R\"flowc_template(\n${text})flowc_template\";\n")
endforeach()
string(APPEND header "\n}  // namespace ${NAMESPACE}\n")
file(WRITE ${OUT} "${header}")
