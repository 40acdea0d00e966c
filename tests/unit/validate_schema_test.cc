// flowc validate's schema pass: a big document's valijson pass and walk run on two threads
// (schema_check.h), and must report exactly what one thread reports, in the same order.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "compiler/validate/schema_check.h"
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
