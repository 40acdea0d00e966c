// `flowc validate`: the checks a cluster makes before it accepts a YAML stream, offline.
//
// Each document is matched on apiVersion and kind to a schema (schema_store.h), checked against
// it (schema_check.h: types, unknown fields, formats, CEL rules ...) and then by the semantic
// checks a schema cannot express (checks/checks.h: names, Argo's references, cron schedules
// ...). Every problem is a diagnostic at the line and column of the offending node, rendered by
// the one diagnostics engine: "out.yaml:72:7: error: WorkflowTemplate/nightly-train:
// spec.templates[2].container.resource: unknown field "resource"". The driver
// (compiler/driver/validate_command.cc) owns the command line and the printing.
#ifndef FLOWC_VALIDATE_VALIDATE_H_
#define FLOWC_VALIDATE_VALIDATE_H_

#include <cstddef>
#include <string>

#include "compiler/diag/diagnostics.h"
#include "compiler/validate/schema_store.h"

namespace flowc::validate {

struct Options {
  bool allow_unknown_kinds = false;  // pass a document whose kind has no schema
  // Keep every document until the process exits instead of freeing it (the command, which
  // exits next; not a fuzzer, which would pile them up).
  bool keep_documents = false;
};

// Documents, over a run: a document passes with no error; skipped is an unknown kind passed by
// allow_unknown_kinds. A stream that cannot be read, or holds no document, counts as failed.
struct Counts {
  size_t passed = 0;
  size_t failed = 0;
  size_t skipped = 0;
};

// The command-line flag that picks a family's bundled version ("--kubernetes-version"), and
// the value that names `version` to it ("1.34" for v1.34, "4.1" for Argo's v4.1.2).
std::string VersionFlag(const std::string& family);
std::string FlagValue(const std::string& family, const std::string& version);

// Validates every document of `file`, reporting into `diagnostics` (which point into `file`).
void ValidateFile(const diag::SourceFile& file, SchemaStore& store, const Options& options,
                  diag::Diagnostics& diagnostics, Counts& counts);

}  // namespace flowc::validate

#endif  // FLOWC_VALIDATE_VALIDATE_H_
