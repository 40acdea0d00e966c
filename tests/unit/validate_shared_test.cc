// The schemas flowc embeds are rewritten at build time (compiler/validate/embed_schemas.cc):
// a CRD's repeated schemas are stored once and referred to, and each Kubernetes definition is
// kept as text until used. Neither may change a check: for every bundled CRD version and the
// core built-in kinds, the translation of the embedded schema must equal that of the upstream
// file in the source tree, for a document shaped to reach every property.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "compiler/validate/openapi_to_jsonschema.h"
#include "compiler/validate/schema_store.h"

namespace flowc::validate {
namespace {

using nlohmann::json;

// The shape of a document that has every property, list item and map value `schema` names.
json FullShape(const json& schema, int depth) {
  if (!schema.is_object() || depth > 64) return nullptr;
  if (auto items = schema.find("items"); items != schema.end() && items->is_object()) {
    return json::array({FullShape(*items, depth + 1)});
  }
  json out;
  if (auto props = schema.find("properties"); props != schema.end() && props->is_object()) {
    out = json::object();
    for (auto it = props->begin(); it != props->end(); ++it) {
      out[it.key()] = FullShape(*it, depth + 1);
    }
  }
  auto more = schema.find("additionalProperties");
  if (more != schema.end() && more->is_object()) {
    if (!out.is_object()) out = json::object();
    out["any-key"] = FullShape(*more, depth + 1);
  }
  return out;
}

TEST_CASE("an embedded CRD schema translates as its upstream file does") {
  const std::filesystem::path schemas =
      std::filesystem::path(FLOWC_SOURCE_DIR) / "compiler/validate/schemas";
  REQUIRE(std::filesystem::is_directory(schemas));
  size_t compared = 0;
  for (const auto& dir : std::filesystem::directory_iterator(schemas)) {
    std::string folder = dir.path().filename().string();
    // A store that serves this folder's version of its family.
    size_t at = folder.find('@');
    SchemaStore store(SchemaStore::Versions{{folder.substr(0, at), folder.substr(at + 1)}});
    for (const auto& file : std::filesystem::directory_iterator(dir.path())) {
      if (file.path().extension() != ".json") continue;
      std::ifstream in(file.path());
      json crd = json::parse(in);
      if (!crd.is_object() || crd.value("kind", "") != "CustomResourceDefinition") continue;
      std::string kind = crd["spec"]["names"]["kind"];
      for (const json& version : crd["spec"]["versions"]) {
        json::json_pointer at("/schema/openAPIV3Schema");
        if (!version.contains(at)) continue;
        std::string api_version =
            crd["spec"]["group"].get<std::string>() + "/" + version["name"].get<std::string>();
        INFO(folder << "/" << file.path().filename().string() << ": " << api_version << " "
                    << kind);
        std::string error;
        const KindSchema* embedded = store.Find(api_version, kind, &error);
        REQUIRE(embedded != nullptr);
        REQUIRE(embedded->openapi != nullptr);
        const json& upstream = version[at];
        json shape = FullShape(upstream, 0);
        shape["metadata"] = {{"name", nullptr}, {"labels", {{"app", nullptr}}}};
        json upstream_shape = shape, embedded_shape = shape;
        json want = OpenApiTranslator(embedded->definitions, nullptr)
                        .CrdRoot(upstream, kind, upstream_shape);
        json got = OpenApiTranslator(embedded->definitions, embedded->shared, &embedded->fallbacks)
                       .CrdRoot(*embedded->openapi, kind, embedded_shape);
        CHECK(got == want);
        CHECK(embedded_shape == upstream_shape);
        ++compared;
      }
    }
  }
  // argo 3.7 and 4.1 (7 each), jobset 2, trainer 3, kueue 11 (v1beta2 and v1beta1 each)
  CHECK(compared == 41);
}

// FullShape for the built-in definitions, which refer to each other by $ref: followed `depth`
// levels down (the definitions are recursive: JSONSchemaProps holds JSONSchemaProps).
json FullDefinitionShape(const json& schema, const json& definitions, int depth) {
  if (!schema.is_object() || depth == 0) return nullptr;
  if (auto ref = schema.find("$ref"); ref != schema.end() && ref->is_string()) {
    std::string name = ref->get<std::string>();
    name = name.substr(name.rfind('/') + 1);
    return definitions.contains(name) ? FullDefinitionShape(definitions[name], definitions, depth)
                                      : nullptr;
  }
  if (auto items = schema.find("items"); items != schema.end() && items->is_object()) {
    return json::array({FullDefinitionShape(*items, definitions, depth - 1)});
  }
  json out;
  if (auto props = schema.find("properties"); props != schema.end() && props->is_object()) {
    out = json::object();
    for (auto it = props->begin(); it != props->end(); ++it) {
      out[it.key()] = FullDefinitionShape(*it, definitions, depth - 1);
    }
  }
  auto more = schema.find("additionalProperties");
  if (more != schema.end() && more->is_object()) {
    if (!out.is_object()) out = json::object();
    out["any-key"] = FullDefinitionShape(*more, definitions, depth - 1);
  }
  return out;
}

TEST_CASE("an embedded built-in kind translates as the upstream definitions do") {
  const std::filesystem::path file = std::filesystem::path(FLOWC_SOURCE_DIR) /
                                     "compiler/validate/schemas/kubernetes@v1.36/definitions.json";
  std::ifstream in(file);
  REQUIRE(in);
  json upstream = json::parse(in)["definitions"];
  Definitions texts;
  json as_text = json::object();
  for (auto it = upstream.begin(); it != upstream.end(); ++it) as_text[it.key()] = it->dump();
  texts.Add(std::move(as_text));
  SchemaStore store("4.1");
  for (const char* kind :
       {"Pod", "ConfigMap", "Secret", "PersistentVolumeClaim", "Namespace", "ServiceAccount"}) {
    INFO(kind);
    std::string error;
    const KindSchema* embedded = store.Find("v1", kind, &error);
    REQUIRE(embedded != nullptr);
    REQUIRE(!embedded->definition.empty());
    json shape = FullDefinitionShape(upstream[embedded->definition], upstream, 8);
    json upstream_shape = shape, embedded_shape = shape;
    json want = OpenApiTranslator(&texts).DefinitionRoot(embedded->definition, upstream_shape);
    json got = OpenApiTranslator(embedded->definitions)
                   .DefinitionRoot(embedded->definition, embedded_shape);
    CHECK(got.size() > 3);
    CHECK(got == want);
    CHECK(embedded_shape == upstream_shape);
  }
  std::string error;
  const KindSchema* claims = store.Find("resource.k8s.io/v1", "ResourceClaimTemplate", &error);
  REQUIRE(claims != nullptr);
  json shape = FullDefinitionShape(upstream[claims->definition], upstream, 8);
  json upstream_shape = shape, embedded_shape = shape;
  CHECK(OpenApiTranslator(claims->definitions).DefinitionRoot(claims->definition, embedded_shape) ==
        OpenApiTranslator(&texts).DefinitionRoot(claims->definition, upstream_shape));
}

}  // namespace
}  // namespace flowc::validate
