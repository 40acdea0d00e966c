// libFuzzer target: arbitrary bytes through `flowc validate`'s reader and checks.
//
// Every input is read as a YAML stream (compiler/validate/yaml_reader.h); every position the
// reader kept must lie inside the input, and every document is then checked against the bundled
// schemas, the CEL rules and the semantic checks, rendering each diagnostic, as the command
// does. A crash, a hang, or a position outside the text is a bug. Run by tests/fuzz/run_fuzz.sh.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include "compiler/diag/diagnostics.h"
#include "compiler/validate/validate.h"
#include "compiler/validate/yaml_reader.h"

namespace {

void CheckRange(const flowc::diag::SourceFile& file, flowc::diag::SourceRange range) {
  if (range.valid() && (range.offset > file.text().size() || range.line > file.LineCount())) {
    std::cerr << "position outside the input: offset " << range.offset << " line " << range.line
              << "\n";
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  flowc::diag::SourceFile file("fuzz.yaml", std::string(reinterpret_cast<const char*>(data), size));
  flowc::validate::YamlStream stream = flowc::validate::ReadYamlStream(file);
  if (stream.error) CheckRange(file, stream.error->first);
  for (const flowc::validate::YamlDocument& doc : stream.documents) {
    for (const flowc::validate::NodePosition& p : doc.positions) {
      CheckRange(file, p.node);
      CheckRange(file, p.key);
    }
    for (const flowc::validate::YamlProblem& p : doc.problems) CheckRange(file, doc.Locate(p.path));
  }
  static auto* store = new flowc::validate::SchemaStore("4.1");
  flowc::diag::Diagnostics diagnostics;
  flowc::validate::Counts counts;
  flowc::validate::ValidateFile(file, *store, flowc::validate::Options{}, diagnostics, counts);
  for (const flowc::diag::Diagnostic& d : diagnostics.all()) {
    CheckRange(file, d.range);
    (void)flowc::diag::RenderText(d);
  }
  return 0;
}
