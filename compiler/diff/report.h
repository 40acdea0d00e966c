// The three ways `flowc diff` prints its changes (docs/diff.md, "Formats"): text for a
// terminal, Markdown for a pull request comment, and JSON of a stable schema for bots. The
// driver (compiler/driver/diff_command.cc) builds one FileReport per pair of flows.
//
// Every string a flow controls (a step's name, a key, a value, a file's path) is written
// escaped for its format, so no flow can forge a line, a heading, a table cell or a terminal
// escape of the report: values as JSON text with every character outside printable ASCII
// escaped, and in Markdown every ASCII punctuation character as a numeric character reference.
#ifndef FLOWC_DIFF_REPORT_H_
#define FLOWC_DIFF_REPORT_H_

#include <string>
#include <vector>

#include "compiler/diff/diff.h"

namespace flowc::diff {

struct FileReport {
  enum class Status { kCompared, kAdded, kRemoved, kError };
  std::string old_label;  // "a.flow", or "HEAD:flows/a.flow"
  std::string new_label;
  Status status = Status::kCompared;
  std::vector<Change> changes;  // Compare's
};

const char* StatusName(FileReport::Status status);  // "compared", "added", "removed", "error"

// Whether any report holds a change or an error: the exit status is 1 then.
bool AnyDifference(const std::vector<FileReport>& reports);

// `color`: ANSI colours, for a terminal.
std::string FormatText(const std::vector<FileReport>& reports, bool color);
std::string FormatMarkdown(const std::vector<FileReport>& reports);
// The schema is docs/diff.md's ("JSON"): {"schema": "flowc-diff/1", "files": [...]}.
std::string FormatJson(const std::vector<FileReport>& reports);

}  // namespace flowc::diff

#endif  // FLOWC_DIFF_REPORT_H_
