#include "compiler/diff/report.h"

#include <fmt/format.h>

#include <cctype>
#include <map>
#include <string_view>

namespace flowc::diff {
namespace {

// JSON text with every character outside printable ASCII escaped (ensure_ascii): no newline,
// no escape character, no C1 control, no bidirectional override reaches the report raw.
std::string Escaped(const Json& value) {
  return value.dump(-1, ' ', true, nlohmann::detail::error_handler_t::replace);
}

bool PlainWord(const std::string& text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.' &&
        c != '/' && c != ':' && c != '*') {
      return false;
    }
  }
  return true;
}

// A name (a step's, a file's) as it is when it is a plain word, else as a JSON string.
std::string Name(const std::string& text) { return PlainWord(text) ? text : Escaped(Json(text)); }

std::string StepLabel(const std::string& step) {
  if (step.empty()) return "(flow)";
  if (step == kEveryStep) return "(every step)";
  return Name(step);
}

std::string FilesText(const std::vector<std::string>& files) {
  std::string out;
  for (const std::string& f : files) out += (out.empty() ? "" : ", ") + Escaped(Json(f));
  return out;
}

// What a change is, in words, without its step: "container.image: "a" -> "b"".
std::string Describe(const Change& c, const std::string& red, const std::string& green,
                     const std::string& reset) {
  std::string old_text = c.old_value ? red + Escaped(*c.old_value) + reset : "";
  std::string new_text = c.new_value ? green + Escaped(*c.new_value) + reset : "";
  if (c.field.empty()) {
    if (c.kind == Kind::kRenamed) return fmt::format("step renamed from {}", old_text);
    std::string what = c.step.empty() ? "flow" : "step";
    return fmt::format("{} {}{}", what, KindName(c.kind),
                       c.step.empty() ? " " + (c.old_value ? old_text : new_text) : "");
  }
  std::string out = c.field + ": ";
  switch (c.kind) {
    case Kind::kAdded:
      out += "added " + new_text;
      break;
    case Kind::kRemoved:
      out += "removed " + old_text;
      break;
    default:
      out += old_text + " -> " + new_text;
      break;
  }
  if (!c.files.empty()) out += " (files: " + FilesText(c.files) + ")";
  return out;
}

size_t Count(const std::vector<FileReport>& reports) {
  size_t n = 0;
  for (const FileReport& r : reports) n += r.changes.size();
  return n;
}

// Markdown: every ASCII punctuation character that is markup somewhere in CommonMark or GitHub's
// tables and HTML (all but . , / : = - and the double quote, which are markup in none of the
// places the report writes text: a table cell or a bold heading, never the start of a line) as
// a numeric character reference, which CommonMark reads as a literal character and never as
// markup (spec 0.30, "Entity and numeric character references"); `text` is already printable
// ASCII (Escaped, Name), so no line break or control character remains to escape.
std::string Md(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (std::ispunct(static_cast<unsigned char>(c)) &&
        std::string_view(".,/:=-\"").find(c) == std::string_view::npos) {
      out += fmt::format("&#{};", static_cast<int>(c));
    } else {
      out += c;
    }
  }
  return out;
}

std::string MdValue(const std::optional<Json>& value) {
  return value ? "<code>" + Md(Escaped(*value)) + "</code>" : "";
}

std::string Labels(const FileReport& r) {
  if (r.old_label == r.new_label || r.old_label.empty()) return Name(r.new_label);
  if (r.new_label.empty()) return Name(r.old_label);
  return Name(r.old_label) + " -> " + Name(r.new_label);
}

}  // namespace

const char* StatusName(FileReport::Status status) {
  switch (status) {
    case FileReport::Status::kCompared:
      return "compared";
    case FileReport::Status::kAdded:
      return "added";
    case FileReport::Status::kRemoved:
      return "removed";
    case FileReport::Status::kError:
      return "error";
  }
  return "compared";
}

bool AnyDifference(const std::vector<FileReport>& reports) {
  for (const FileReport& r : reports) {
    if (!r.changes.empty() || r.status != FileReport::Status::kCompared) return true;
  }
  return false;
}

std::string FormatText(const std::vector<FileReport>& reports, bool color) {
  const std::string bold = color ? "\033[1m" : "", red = color ? "\033[31m" : "",
                    green = color ? "\033[32m" : "", reset = color ? "\033[0m" : "";
  std::string out;
  for (const FileReport& r : reports) {
    if (r.status == FileReport::Status::kCompared && r.changes.empty()) continue;
    out += bold + "diff " + Labels(r) + reset + "\n";
    if (r.status == FileReport::Status::kError) {
      out += "  the flow has errors (reported above)\n";
      continue;
    }
    bool first = true;
    Section section = Section::kScheduling;
    for (const Change& c : r.changes) {
      if (first || c.section != section) {
        out += std::string(SectionTitle(c.section)) + "\n";
        section = c.section;
        first = false;
      }
      out += "  " + StepLabel(c.step) + ": " + Describe(c, red, green, reset) + "\n";
    }
  }
  size_t n = Count(reports);
  size_t errors = 0;
  for (const FileReport& r : reports) errors += r.status == FileReport::Status::kError;
  if (n == 0 && errors == 0) return "no changes\n";
  out += fmt::format("{} change{}", n, n == 1 ? "" : "s");
  if (errors > 0) out += fmt::format(", {} flow{} with errors", errors, errors == 1 ? "" : "s");
  return out + "\n";
}

std::string FormatMarkdown(const std::vector<FileReport>& reports) {
  if (!AnyDifference(reports)) return "### flowc diff\n\nNo changes.\n";
  std::string out = "### flowc diff\n\n| flow | status |";
  const Section sections[] = {Section::kScheduling, Section::kGraph, Section::kPod, Section::kFlow,
                              Section::kTarget};
  for (Section s : sections) out += std::string(" ") + SectionTitle(s) + " |";
  out += "\n|---|---|---|---|---|---|---|\n";
  for (const FileReport& r : reports) {
    if (r.status == FileReport::Status::kCompared && r.changes.empty()) continue;
    out += "| " + Md(Labels(r)) + " | " + StatusName(r.status) + " |";
    for (Section s : sections) {
      size_t n = 0;
      for (const Change& c : r.changes) n += c.section == s;
      out += fmt::format(" {} |", n);
    }
    out += "\n";
  }
  for (const FileReport& r : reports) {
    if (r.changes.empty()) continue;
    out += "\n#### " + Md(Labels(r)) + "\n";
    // Details per step, the steps in the order the report first names them.
    std::vector<std::string> order;
    std::map<std::string, std::vector<const Change*>> by_step;
    for (const Change& c : r.changes) {
      auto& list = by_step[c.step];
      if (list.empty()) order.push_back(c.step);
      list.push_back(&c);
    }
    for (const std::string& step : order) {
      out += "\n**" +
             Md(step.empty() || step == kEveryStep ? StepLabel(step) : "step " + Name(step)) +
             "**\n\n| section | field | change | old | new |\n|---|---|---|---|---|\n";
      for (const Change* c : by_step[step]) {
        std::string field = Md(c->field);
        if (!c->files.empty()) field += " (files: " + Md(FilesText(c->files)) + ")";
        out += fmt::format("| {} | {} | {} | {} | {} |\n", SectionTitle(c->section), field,
                           KindName(c->kind), MdValue(c->old_value), MdValue(c->new_value));
      }
    }
  }
  return out;
}

std::string FormatJson(const std::vector<FileReport>& reports) {
  Json files = Json::array();
  for (const FileReport& r : reports) {
    Json file;
    file["old"] = r.old_label.empty() ? Json() : Json(r.old_label);
    file["new"] = r.new_label.empty() ? Json() : Json(r.new_label);
    file["status"] = StatusName(r.status);
    Json changes = Json::array();
    for (const Change& c : r.changes) {
      Json change;
      change["section"] = SectionName(c.section);
      change["step"] = c.step.empty() ? Json() : Json(c.step);
      change["field"] = c.field;
      change["change"] = KindName(c.kind);
      if (c.old_value) change["old"] = *c.old_value;
      if (c.new_value) change["new"] = *c.new_value;
      if (!c.files.empty()) change["files"] = c.files;
      changes.push_back(std::move(change));
    }
    file["changes"] = std::move(changes);
    files.push_back(std::move(file));
  }
  Json out;
  out["schema"] = "flowc-diff/1";
  out["differs"] = AnyDifference(reports);
  out["files"] = std::move(files);
  return out.dump(2, ' ', true, nlohmann::detail::error_handler_t::replace) + "\n";
}

}  // namespace flowc::diff
