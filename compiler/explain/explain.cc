#include "compiler/explain/explain.h"

#include <fmt/format.h>

#include <cctype>

#include "compiler/diag/suggest.h"
#include "compiler/explain/example_run.h"

namespace flowc::explain {
namespace {

std::string Capitalized(std::string_view text) {
  std::string out(text);
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out;
}

// A fenced block of `text`, which ends with a newline, or gets one.
std::string Fenced(std::string_view language, std::string_view text) {
  std::string body(text);
  if (body.empty() || body.back() != '\n') body += '\n';
  return fmt::format("```{}\n{}```\n", language, body);
}

// The first (or last) code that starts with `letter`.
std::string_view Bound(char letter, bool last) {
  std::string_view found;
  for (diag::Code code : diag::AllCodes()) {
    std::string_view text = diag::CodeString(code);
    if (text[0] == letter && (found.empty() || last)) found = text;
  }
  return found;
}

// Why a code has no example (examples.def holds "" for it).
std::string_view NoExample(diag::Code code) {
  switch (code) {
    case diag::Code::kSchemaFile:
      return "No example: this code points into a file of the `--schemas` folder, not into the "
             "YAML being validated, so no document shows it alone.";
    case diag::Code::kUnreadableInput:
      return "No example: whether flowc reports this code depends on the machine it runs on, "
             "not on the YAML alone.";
    default:
      return "No example: whether flowc reports this code depends on the machine it runs on, "
             "not on the flow alone.";
  }
}

// The command an example's output is shown under.
std::string Command(const ExampleRun& example) {
  if (example.validate) return "`flowc validate` prints on stderr:";
  if (example.target.empty()) return "`flowc check` prints:";
  return fmt::format("`flowc compile --target {}` prints:", example.target);
}

}  // namespace

std::string Section(diag::Code code, const Runner& run) {
  const diag::CodeText& text = diag::Text(code);
  std::string out = fmt::format("## {}\n\n**{}.** {}\n\n", diag::CodeString(code),
                                Capitalized(text.title), text.meaning);
  if (text.example.empty()) {
    out += fmt::format("{}\n\n", NoExample(code));
  } else {
    ExampleRun example = RunExample(text.example, run);
    if (example.whole_flow) {
      out += Fenced(example.validate ? "yaml" : "flow", example.shown);
    } else {
      out += example.why_text + "\n\n" + Fenced("text", example.shown);
    }
    out += fmt::format("\n{}\n\n", Command(example));
    out += Fenced("text", example.reported) + "\n";
  }
  out += fmt::format("**To fix it:** {}\n", text.fix);
  return out;
}

std::string DiagnosticsPage(const Runner& run) {
  std::string out =
      "# Diagnostics\n"
      "\n"
      "<!-- Written by `flowc docs -o docs` from compiler/diag/codes.def and examples.def; "
      "edit those, then run it. -->\n"
      "\n"
      "flowc reports each problem it finds with a stable code: `E` for an error, after which "
      "`flowc check` and `flowc compile` exit with status 1 (3 for E065) and write nothing, `W` "
      "for a warning, which does not stop the compile unless `--werror` is given. "
      "`flowc explain CODE` prints a code's section of this page.\n"
      "\n"
      "Each section says what the code means, shows a minimal flow that reports it and what "
      "flowc prints for it, and says how to fix it. In an example, the comment `# error: CODE` "
      "(or `# warning: CODE`) sits on the line flowc points at. An example whose first line is "
      "`# target: NAME` reports its code when compiled for that target "
      "(`flowc compile --target NAME`); the others report it under `flowc check`. The codes of "
      "`flowc validate` (E070 to E077) show a YAML document instead, whose first line is "
      "`# flowc validate`.\n"
      "\n"
      "| Code | What |\n"
      "|------|------|\n";
  for (diag::Code code : diag::AllCodes()) {
    std::string anchor(diag::CodeString(code));
    anchor[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(anchor[0])));
    out +=
        fmt::format("| [{}](#{}) | {} |\n", diag::CodeString(code), anchor, diag::Text(code).title);
  }
  for (diag::Code code : diag::AllCodes()) out += "\n" + Section(code, run);
  return out;
}

std::vector<std::pair<std::string, std::string>> Pages(const Runner& run) {
  return {{"decorators.md", DecoratorsPage()}, {"diagnostics.md", DiagnosticsPage(run)}};
}

int RunExplain(std::string_view code, const Runner& run, std::ostream& out, std::ostream& err) {
  if (std::optional<diag::Code> found = diag::FindCode(code)) {
    out << Section(*found, run);
    return 0;
  }
  std::vector<std::string> upper;
  for (diag::Code c : diag::AllCodes()) upper.emplace_back(diag::CodeString(c));
  std::vector<std::string_view> candidates(upper.begin(), upper.end());
  std::string written(code);
  for (char& c : written) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string suggestion = diag::DidYouMean(written, candidates);
  err << fmt::format("flowc: error: no diagnostic has the code '{}'\n", code);
  if (!suggestion.empty()) err << "help: " << suggestion << "\n";
  err << fmt::format("help: the codes are {} to {} and {} to {}; docs/diagnostics.md lists them\n",
                     Bound('E', false), Bound('E', true), Bound('W', false), Bound('W', true));
  return 2;
}

}  // namespace flowc::explain
