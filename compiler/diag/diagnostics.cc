#include "compiler/diag/diagnostics.h"

#include <algorithm>
#include <cctype>
#include <iterator>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace flowc::diag {
namespace {

struct CodeInfo {
  std::string_view code;
  Severity severity;
  CodeText text;
};

constexpr Severity Error = Severity::kError;
constexpr Severity Warning = Severity::kWarning;

constexpr CodeInfo kCodes[] = {
#define X(name, code, severity, title, meaning, fix) {code, severity, {title, meaning, fix, {}}},
#include "compiler/diag/codes.def"
#undef X
};

struct CodeExample {
  std::string_view code;
  std::string_view text;
};

// sizeof - 1: E005's example holds a byte that is not UTF-8, never a NUL, but a
// string_view of the whole literal keeps what follows it.
constexpr CodeExample kExamples[] = {
#define EXAMPLE(code, text) {code, std::string_view(text, sizeof(text) - 1)},
#include "compiler/diag/examples.def"
#undef EXAMPLE
};
constexpr bool ExamplesFollowCodes() {
  if (std::size(kExamples) != std::size(kCodes)) return false;
  for (size_t i = 0; i < std::size(kCodes); ++i) {
    if (kExamples[i].code != kCodes[i].code) return false;
  }
  return true;
}
static_assert(ExamplesFollowCodes(), "examples.def: one example per code of codes.def, in order");

#ifndef FLOWC_DOCS_URL
#define FLOWC_DOCS_URL "docs/diagnostics.md"
#endif

std::string_view SeverityName(Severity severity) {
  return severity == Severity::kError ? "error" : "warning";
}

// Length of the valid UTF-8 sequence at text[i], or 0 if it is not one.
size_t Utf8Length(std::string_view text, size_t i) {
  unsigned char c = static_cast<unsigned char>(text[i]);
  size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
  if (n == 0 || i + n > text.size() || (n == 2 && c < 0xC2)) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 0;
  }
  return n;
}

}  // namespace

// The line with every byte that is not UTF-8 written as <XX>, as clang does,
// so that the diagnostic itself is valid text.
std::string Printable(std::string_view line) {
  std::string out;
  for (size_t i = 0; i < line.size();) {
    size_t n = Utf8Length(line, i);
    if (n == 0) {
      out += fmt::format("<{:02X}>", static_cast<unsigned char>(line[i]));
      ++i;
    } else {
      out.append(line.substr(i, n));
      i += n;
    }
  }
  return out;
}

namespace {

// The source line and a caret line under `range`; tabs are kept so the caret
// lines up in any terminal.
void RenderSnippet(const SourceFile& file, SourceRange range, std::string& out) {
  std::string_view line = file.Line(range.line);
  std::string caret;
  uint32_t column = 1;
  size_t i = 0;
  for (; i < line.size() && column < range.column; ++i) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if ((c & 0xC0) == 0x80) continue;
    caret += c == '\t' ? '\t' : ' ';
    ++column;
  }
  caret += '^';
  // Underline the rest of the range, up to the end of its first line.
  size_t end = std::min<size_t>(line.size(), i + (range.length > 0 ? range.length : 1));
  uint32_t extra = 0;
  for (size_t j = i + 1; j < end; ++j) {
    if ((static_cast<unsigned char>(line[j]) & 0xC0) != 0x80) ++extra;
  }
  caret.append(extra, '~');
  fmt::format_to(std::back_inserter(out), "{}\n{}\n", Printable(line), caret);
}

}  // namespace

std::string_view CodeString(Code code) { return kCodes[static_cast<size_t>(code)].code; }
Severity DefaultSeverity(Code code) { return kCodes[static_cast<size_t>(code)].severity; }

const CodeText& Text(Code code) {
  static const std::vector<CodeText> texts = [] {
    std::vector<CodeText> out;
    for (size_t i = 0; i < std::size(kCodes); ++i) {
      out.push_back(kCodes[i].text);
      out.back().example = kExamples[i].text;
    }
    return out;
  }();
  return texts[static_cast<size_t>(code)];
}

const std::vector<Code>& AllCodes() {
  static const std::vector<Code> codes = [] {
    std::vector<Code> out;
    for (size_t i = 0; i < std::size(kCodes); ++i) out.push_back(static_cast<Code>(i));
    return out;
  }();
  return codes;
}

std::optional<Code> FindCode(std::string_view code) {
  for (size_t i = 0; i < std::size(kCodes); ++i) {
    std::string_view known = kCodes[i].code;
    if (known.size() == code.size() &&
        std::equal(known.begin(), known.end(), code.begin(), [](char a, char b) {
          return a == std::toupper(static_cast<unsigned char>(b));
        })) {
      return static_cast<Code>(i);
    }
  }
  return std::nullopt;
}

std::string HelpUri(Code code) {
  std::string anchor(CodeString(code));
  for (char& c : anchor) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return fmt::format("{}#{}", FLOWC_DOCS_URL, anchor);
}

Diagnostic& Diagnostics::Report(Code code, const SourceFile* file, SourceRange range,
                                std::string message) {
  Severity severity = DefaultSeverity(code);
  (severity == Severity::kError ? error_count_ : warning_count_)++;
  diagnostics_.push_back(Diagnostic{code, severity, file, range, std::move(message), {}, {}});
  return diagnostics_.back();
}

void Diagnostics::SortBySource() {
  std::stable_sort(diagnostics_.begin(), diagnostics_.end(),
                   [](const Diagnostic& a, const Diagnostic& b) { return a.range.offset < b.range.offset; });
}

void Diagnostics::PromoteWarnings() {
  for (Diagnostic& d : diagnostics_) d.severity = Severity::kError;
  error_count_ += warning_count_;
  warning_count_ = 0;
}

std::string RenderText(const Diagnostic& d) {
  std::string out;
  auto location = [&](SourceRange range) {
    if (d.file == nullptr) return std::string("flowc: ");
    if (!range.valid()) return fmt::format("{}: ", d.file->path());
    return fmt::format("{}:{}:{}: ", d.file->path(), range.line, range.column);
  };
  fmt::format_to(std::back_inserter(out), "{}{}: {} [{}]\n", location(d.range),
                 SeverityName(d.severity), d.message, CodeString(d.code));
  if (d.file != nullptr && d.range.valid()) RenderSnippet(*d.file, d.range, out);
  for (const Note& note : d.notes) {
    if (d.file != nullptr && note.range.valid()) {
      fmt::format_to(std::back_inserter(out), "{}note: {}\n", location(note.range), note.message);
      RenderSnippet(*d.file, note.range, out);
    } else {
      fmt::format_to(std::back_inserter(out), "note: {}\n", note.message);
    }
  }
  if (!d.help.empty()) fmt::format_to(std::back_inserter(out), "help: {}\n", d.help);
  return out;
}

std::string RenderText(const std::vector<Diagnostic>& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics) out += RenderText(d);
  return out;
}

namespace {

nlohmann::json LocationJson(const Diagnostic& d, SourceRange range) {
  nlohmann::json location = nlohmann::json::object();
  if (d.file != nullptr) location["file"] = d.file->path();
  if (range.valid()) {
    location["line"] = range.line;
    location["column"] = range.column;
    location["length"] = range.length;
  }
  return location;
}

}  // namespace

nlohmann::json RenderJson(const std::vector<Diagnostic>& diagnostics) {
  nlohmann::json out = nlohmann::json::array();
  for (const Diagnostic& d : diagnostics) {
    nlohmann::json item = LocationJson(d, d.range);
    item["severity"] = SeverityName(d.severity);
    item["code"] = CodeString(d.code);
    item["message"] = d.message;
    nlohmann::json notes = nlohmann::json::array();
    for (const Note& note : d.notes) {
      nlohmann::json n = LocationJson(d, note.range);
      n["message"] = note.message;
      notes.push_back(std::move(n));
    }
    item["notes"] = std::move(notes);
    if (!d.help.empty()) item["help"] = d.help;
    out.push_back(std::move(item));
  }
  return out;
}

nlohmann::json RenderSarif(const std::vector<Diagnostic>& diagnostics, std::string_view version) {
  nlohmann::json rules = nlohmann::json::array();
  nlohmann::json results = nlohmann::json::array();
  std::vector<bool> seen(std::size(kCodes), false);
  for (const Diagnostic& d : diagnostics) {
    size_t index = static_cast<size_t>(d.code);
    if (!seen[index]) {
      seen[index] = true;
      rules.push_back({{"id", CodeString(d.code)},
                       {"shortDescription", {{"text", Text(d.code).title}}},
                       {"helpUri", HelpUri(d.code)}});
    }
    std::string text = d.message;
    if (!d.help.empty()) text += "\nhelp: " + d.help;
    nlohmann::json result = {
        {"ruleId", CodeString(d.code)},
        {"level", d.severity == Severity::kError ? "error" : "warning"},
        {"message", {{"text", text}}},
    };
    if (d.file != nullptr) {
      nlohmann::json physical = {{"artifactLocation", {{"uri", d.file->path()}}}};
      if (d.range.valid()) {
        physical["region"] = {{"startLine", d.range.line}, {"startColumn", d.range.column}};
      }
      result["locations"] = nlohmann::json::array({{{"physicalLocation", physical}}});
    }
    results.push_back(std::move(result));
  }
  return {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       nlohmann::json::array({{
           {"tool",
            {{"driver",
              {{"name", "flowc"},
               {"version", std::string(version)},
               {"rules", rules}}}}},
           {"results", results},
       }})},
  };
}

}  // namespace flowc::diag
