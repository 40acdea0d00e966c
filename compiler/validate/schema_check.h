// Checking one document against its kind's schema, as the API server does on create with
// strict field validation (kubectl's default).
//
// The document is first prepared as the API server prepares it: a null in a mapping is dropped
// and the schema's defaults are filled in (apiextensions-apiserver pkg/apiserver/schema/
// defaulting/algorithm.go, Default; pruning of nulls in pkg/apiserver/schema/defaulting/
// prunenulls.go). Then valijson checks the JSON Schema words (types, required, enums, patterns,
// bounds, lengths), and one walk over the document and the schema together checks what the
// API server adds: unknown fields, formats, list-type map/set duplicates and every
// x-kubernetes-validations CEL rule. Everything is reported as Findings (finding.h).
#ifndef FLOWC_VALIDATE_SCHEMA_CHECK_H_
#define FLOWC_VALIDATE_SCHEMA_CHECK_H_

#include <nlohmann/json.hpp>

#include "compiler/validate/finding.h"
#include "compiler/validate/schema_store.h"

namespace flowc::validate {

// Prepares `doc` in place (nulls dropped, defaults filled in: the document the API server
// checks, which the semantic checks then see too), then reports every way it breaks `schema`.
// CEL rule failures are reported through `rule`, the rest through `report`.
void CheckSchema(const KindSchema& schema, nlohmann::json& doc, const Report& report,
                 const Report& rule);

}  // namespace flowc::validate

#endif  // FLOWC_VALIDATE_SCHEMA_CHECK_H_
