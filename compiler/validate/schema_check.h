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
#include <string>

#include "compiler/validate/finding.h"
#include "compiler/validate/schema_store.h"

namespace flowc::validate {

// Fills what libstdc++ fills lazily and threads would then race to fill: std::regex's compiler
// narrows characters through the C locale's ctype facet, which caches each character on first
// use (locale_facets.h, narrow). Call before starting threads that check documents; CheckSchema
// calls it itself.
void PrepareForThreads();

// The part of a kind's schema one document reaches, translated for it
// (openapi_to_jsonschema.h).
struct TranslatedSchema {
  std::string kind;
  nlohmann::json root;
};

// Prepares `doc` in place (nulls dropped, defaults filled in: the document the API server
// checks, which the semantic checks then see too) and translates the part of `schema` it
// reaches.
TranslatedSchema PrepareDocument(const KindSchema& schema, nlohmann::json& doc);

// Reports every way the prepared `doc` breaks `schema`: CEL rule failures through `rule`, the
// rest through `report`. With `parallel` (a big document), valijson's pass and the walk run on
// two threads; the findings come in the same order either way.
void CheckSchema(const TranslatedSchema& schema, const nlohmann::json& doc, const Report& report,
                 const Report& rule, bool parallel);

}  // namespace flowc::validate

#endif  // FLOWC_VALIDATE_SCHEMA_CHECK_H_
