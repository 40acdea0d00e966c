// Running one example of examples.def: its directives, a fresh folder to run in, and what the
// stages report. explain.cc words the result as a section of docs/diagnostics.md.
#ifndef FLOWC_EXPLAIN_EXAMPLE_RUN_H_
#define FLOWC_EXPLAIN_EXAMPLE_RUN_H_

#include <string>
#include <string_view>

#include "compiler/explain/explain.h"

namespace flowc::explain {

struct ExampleRun {
  std::string target;  // from a first line `# target: NAME`; "" for `flowc check`
  // From a first line `# flowc validate`: a YAML document `flowc validate` checks, which the
  // page shows as a ```yaml block (tests/py/test_docs.py checks those too).
  bool validate = false;
  std::string shown;  // the example as the page shows it (valid UTF-8)
  // It is a flow as written (with the files it asks for beside it), so the page shows it as a
  // ```flow block, which tests/py/test_docs.py checks; else as text.
  bool whole_flow = true;
  std::string why_text;  // when it is not: a sentence that says why
  std::string reported;  // the diagnostics, rendered as `flowc check` prints them
};

// The file name the example runs as, and so the one its diagnostics print.
inline constexpr std::string_view kExampleFile = "example.flow";
inline constexpr std::string_view kExampleYamlFile = "example.yaml";

// Runs `example`, with each `<x repeated N times>` replaced by as many x, as the file
// example.flow (example.yaml for `# flowc validate`) of a new folder (made and removed here) that
// holds the files its
// `# beside the flow: NAME, N bytes` lines ask for, N zero bytes each, and nothing else: what
// `@code` finds is independent of where flowc runs (tests/py/test_docs.py does the same).
ExampleRun RunExample(std::string_view example, const Runner& run);

}  // namespace flowc::explain

#endif  // FLOWC_EXPLAIN_EXAMPLE_RUN_H_
