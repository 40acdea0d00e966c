// What formatting must keep: the meaning of a flow. Shared by the formatter's unit tests
// (format_test.cc) and the fuzz target (tests/fuzz/fuzz_compile.cc).
#ifndef FLOWC_TESTS_UNIT_FORMAT_ORACLE_H_
#define FLOWC_TESTS_UNIT_FORMAT_ORACLE_H_

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "compiler/diag/diagnostics.h"
#include "compiler/driver/driver.h"

namespace flowc::testing {

inline void DropLines(nlohmann::json& json) {
  if (json.is_object()) {
    json.erase("line");
    for (auto& [key, value] : json.items()) DropLines(value);
  } else if (json.is_array()) {
    for (nlohmann::json& value : json) DropLines(value);
  }
}

// The IR (`--target ir`) of `text` without the steps' source lines, read from a file at
// `path` (@code reads beside it); for a flow that does not compile, the codes of its
// diagnostics (their messages and columns may name lines).
inline std::string MeaningOf(const std::string& path, const std::string& text) {
  diag::SourceFile file(path, text);
  diag::Diagnostics diagnostics;
  std::optional<std::string> ir = driver::Compile(file, "ir", diagnostics);
  if (!ir) {
    std::string codes = "does not compile:";
    for (const diag::Diagnostic& d : diagnostics.all()) codes += " " + std::string(diag::CodeString(d.code));
    return codes;
  }
  nlohmann::json json = nlohmann::json::parse(*ir);
  DropLines(json);
  return json.dump(1);
}

}  // namespace flowc::testing

#endif  // FLOWC_TESTS_UNIT_FORMAT_ORACLE_H_
