// The diagnostics engine.
//
// Stages report diagnostics as values to one Diagnostics object and never
// print; the driver renders them once, as clang-style text or as JSON/SARIF
// for CI tools. Every code lives in codes.def.
#ifndef FLOWC_DIAG_DIAGNOSTICS_H_
#define FLOWC_DIAG_DIAGNOSTICS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "compiler/diag/source.h"

namespace flowc::diag {

enum class Severity { kError, kWarning };

enum class Code {
#define X(name, code, severity, ...) name,
#include "compiler/diag/codes.def"
#undef X
};

std::string_view CodeString(Code code);
Severity DefaultSeverity(Code code);

// What codes.def and examples.def say of a code, for people: `flowc explain`, docs/ and the
// language server read it from here.
struct CodeText {
  std::string_view title;    // "unknown step"
  std::string_view meaning;  // Markdown: what went wrong
  std::string_view fix;      // Markdown: how to fix it
  std::string_view example;  // a minimal flow that reports the code (examples.def), or ""
};
const CodeText& Text(Code code);
// Every code, in the table's order.
const std::vector<Code>& AllCodes();
// The code written `code` ("E014", or "e014"), if there is one.
std::optional<Code> FindCode(std::string_view code);
// The code's section of docs/diagnostics.md, as an absolute URL: SARIF's helpUri and the
// language server's codeDescription.href must be absolute URIs. The base is the build's
// FLOWC_DOCS_URL (CMakeLists.txt); the anchor is the lowercase code ("#e014"), which the page
// gives each section's heading and which never changes, as a code never does.
std::string HelpUri(Code code);

struct Note {
  SourceRange range;  // may be invalid: a note without a location
  std::string message;
};

struct Diagnostic {
  Code code;
  Severity severity;
  const SourceFile* file = nullptr;
  SourceRange range;
  std::string message;
  std::vector<Note> notes;
  std::string help;

  Diagnostic& AddNote(SourceRange at, std::string text) {
    notes.push_back(Note{at, std::move(text)});
    return *this;
  }
  Diagnostic& AddNote(std::string text) { return AddNote(SourceRange{}, std::move(text)); }
  Diagnostic& SetHelp(std::string text) {
    help = std::move(text);
    return *this;
  }
};

class Diagnostics {
 public:
  // Reports `message` at `range` of `file`; add notes and help on the result.
  Diagnostic& Report(Code code, const SourceFile* file, SourceRange range, std::string message);

  bool HasErrors() const { return error_count_ > 0; }
  size_t error_count() const { return error_count_; }
  size_t warning_count() const { return warning_count_; }
  const std::vector<Diagnostic>& all() const { return diagnostics_; }

  // Orders diagnostics by where they point (stages find them in their own
  // order; a reader wants them top to bottom). Stable for equal positions.
  void SortBySource();

  // Turns every warning into an error (--werror).
  void PromoteWarnings();

 private:
  std::vector<Diagnostic> diagnostics_;
  size_t error_count_ = 0;
  size_t warning_count_ = 0;
};

// Binds a Diagnostics to the file being compiled, so stages say only where.
class Reporter {
 public:
  Reporter(Diagnostics& diagnostics, const SourceFile& file) : diags_(diagnostics), file_(file) {}

  Diagnostic& operator()(Code code, SourceRange range, std::string message) {
    return diags_.Report(code, &file_, range, std::move(message));
  }
  const SourceFile& file() const { return file_; }
  Diagnostics& diagnostics() { return diags_; }

 private:
  Diagnostics& diags_;
  const SourceFile& file_;
};

// `line` with every byte that is not UTF-8 written as <XX>, as the text renderer does.
std::string Printable(std::string_view line);

// clang-style text: "FILE:LINE:COL: error: MESSAGE [E0xx]", the source line, a
// caret (with ~ under the rest of the range), then note: and help: lines.
std::string RenderText(const Diagnostic& diagnostic);
std::string RenderText(const std::vector<Diagnostic>& diagnostics);
// One JSON object per diagnostic, for CI tools.
nlohmann::json RenderJson(const std::vector<Diagnostic>& diagnostics);
// A SARIF 2.1.0 log with one run of the tool `flowc`.
nlohmann::json RenderSarif(const std::vector<Diagnostic>& diagnostics, std::string_view version);

}  // namespace flowc::diag

#endif  // FLOWC_DIAG_DIAGNOSTICS_H_
