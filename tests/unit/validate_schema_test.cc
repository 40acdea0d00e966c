// flowc validate's schema pass: a big document's valijson pass and walk run on two threads
// (schema_check.h), and must report exactly what one thread reports, in the same order.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "compiler/validate/schema_check.h"
#include "compiler/validate/schema_index.h"
#include "compiler/validate/schema_store.h"

namespace flowc::validate {
namespace {

using nlohmann::json;

// A JobSet of `jobs` replicated jobs, every seventh broken in three ways the schema catches
// (a wrong type, an unknown field, a port that is not a number), and one CEL rule of the JobSet CRD
// broken at the top.
json BrokenJobSet(int jobs) {
  json doc = {{"apiVersion", "jobset.x-k8s.io/v1alpha2"},
              {"kind", "JobSet"},
              {"metadata", {{"name", "big"}}},
              {"spec",
               {{"startupPolicy", {{"startupPolicyOrder", "InOrder"}}},
                {"replicatedJobs", json::array()}}}};
  for (int i = 0; i < jobs; ++i) {
    json container = {{"name", "main"}, {"image", "busybox"}, {"command", {"echo", "hi"}}};
    json job = {
        {"name", "job-" + std::to_string(i)},
        {"replicas", 1},
        {"template",
         {{"spec",
           {{"template",
             {{"spec",
               {{"restartPolicy", "Never"}, {"containers", json::array({container})}}}}}}}}}};
    if (i > 0)
      job["dependsOn"] = {{{"name", "job-" + std::to_string(i - 1)}, {"status", "Complete"}}};
    if (i % 7 == 3) {
      job["replicas"] = "two";
      json& c = job["template"]["spec"]["template"]["spec"]["containers"][0];
      c["imagePullPolcy"] = "Always";
      c["ports"] = {{{"containerPort", "http"}}};
    }
    doc["spec"]["replicatedJobs"].push_back(std::move(job));
  }
  return doc;
}

std::vector<std::string> Findings(const KindSchema& schema, json doc, bool parallel) {
  TranslatedSchema translated = PrepareDocument(schema, doc);
  std::vector<std::string> out;
  CheckSchema(
      translated, doc, [&](Finding f) { out.push_back("schema " + f.path + ": " + f.message); },
      [&](Finding f) { out.push_back("rule " + f.path + ": " + f.message); }, parallel);
  return out;
}

TEST_CASE("a big document's schema pass reports the same on two threads as on one") {
  SchemaStore store("4.1");
  std::string error;
  const KindSchema* schema = store.Find("jobset.x-k8s.io/v1alpha2", "JobSet", &error);
  REQUIRE(schema != nullptr);
  json doc = BrokenJobSet(300);
  std::vector<std::string> serial = Findings(*schema, doc, false);
  // 43 broken jobs, three findings each, and the rule: a pass that found nothing would agree
  // with itself.
  CHECK(serial.size() == 43 * 3 + 1);
  size_t rules = 0;
  for (const std::string& f : serial) rules += f.rfind("rule ", 0) == 0;
  CHECK(rules == 1);
  for (int run = 0; run < 5; ++run) CHECK(Findings(*schema, doc, true) == serial);
}

}  // namespace
}  // namespace flowc::validate

// A deprecated CRD version's warning: its deprecationWarning, or the API server's default text
// (apiextensions-apiserver customresource_handler.go, defaultDeprecationWarning), which names
// the newest served, not deprecated version newer than it, by CompareKubeAwareVersionStrings.
TEST_CASE("validate: a deprecated CRD version's warning, as the API server words it") {
  CHECK(flowc::validate::CompareKubeAwareVersions("v1", "v1beta2") > 0);
  CHECK(flowc::validate::CompareKubeAwareVersions("v1beta2", "v1beta1") > 0);
  CHECK(flowc::validate::CompareKubeAwareVersions("v1beta1", "v1alpha3") > 0);
  CHECK(flowc::validate::CompareKubeAwareVersions("v2", "v1") > 0);
  CHECK(flowc::validate::CompareKubeAwareVersions("foo", "v1alpha1") < 0);
  CHECK(flowc::validate::CompareKubeAwareVersions("v1beta1", "v1beta1") == 0);
  nlohmann::json crd = nlohmann::json::parse(R"({"apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "spec": {"group": "example.com", "names": {"kind": "Gadget"}, "scope": "Namespaced",
      "versions": [
        {"name": "v1alpha1", "served": true, "deprecated": true,
         "schema": {"openAPIV3Schema": {"type": "object"}}},
        {"name": "v1beta1", "served": true, "deprecated": true,
         "deprecationWarning": "use v1 now",
         "schema": {"openAPIV3Schema": {"type": "object"}}},
        {"name": "v1", "served": true, "schema": {"openAPIV3Schema": {"type": "object"}}},
        {"name": "v2", "served": false, "schema": {"openAPIV3Schema": {"type": "object"}}}]}})");
  std::vector<flowc::validate::KindRow> rows = flowc::validate::KindsOf(crd, {});
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].deprecation ==
        "example.com/v1alpha1 Gadget is deprecated; use example.com/v1 Gadget");
  CHECK(rows[1].deprecation == "use v1 now");
  CHECK(rows[2].deprecation.empty());
  // With no newer version that is served and not deprecated, the text ends at "deprecated".
  crd["spec"]["versions"][2]["deprecated"] = true;
  rows = flowc::validate::KindsOf(crd, {});
  CHECK(rows[2].deprecation == "example.com/v1 Gadget is deprecated");
}
