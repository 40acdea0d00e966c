// Helpers for the unit tests: run the front end on flow text held in memory.
#ifndef FLOWC_TESTS_UNIT_TEST_UTIL_H_
#define FLOWC_TESTS_UNIT_TEST_UTIL_H_

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "compiler/diag/diagnostics.h"
#include "compiler/driver/driver.h"
#include "compiler/ir/ir.h"

namespace flowc::testing {

// A flow compiled in memory, with its diagnostics rendered as text.
struct Compiled {
  std::unique_ptr<diag::SourceFile> file;
  diag::Diagnostics diagnostics;
  std::optional<ir::Flow> flow;

  std::string errors() const { return diag::RenderText(diagnostics.all()); }
  const ir::Step& step(const std::string& name) const {
    for (const ir::Step& s : flow->steps) {
      if (s.name == name) return s;
    }
    throw std::runtime_error("no step " + name);
  }
};

inline std::unique_ptr<Compiled> Analyze(std::string text) {
  auto out = std::make_unique<Compiled>();
  out->file = std::make_unique<diag::SourceFile>("t.flow", std::move(text));
  out->flow = driver::Analyze(*out->file, out->diagnostics);
  return out;
}

// A flow of `body` between the standard start and end steps:
// start -> <first step of body> ... -> end. `body` must route to `end`.
inline std::string Linear(const std::string& decorators, const std::string& step_decorators,
                          const std::string& run = "run \"echo hi\"") {
  return decorators + "\nflow f {\n  step start { run \"s\" next work }\n" + step_decorators +
         "\n  step work { " + run + " next end }\n  step end { run \"e\" }\n}\n";
}

}  // namespace flowc::testing

#endif  // FLOWC_TESTS_UNIT_TEST_UTIL_H_
