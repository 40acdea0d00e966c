#include "backends/argo/layout.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace flowc::backends::argo {
namespace {

constexpr const char* kEntrypoint = "main";
constexpr const char* kBodySuffix = "-foreach";
constexpr const char* kGangSuffix = "-gang";
constexpr const char* kDeleteSuffix = "-delete";

}  // namespace

std::string ParamValue(const ir::Param& param) {
  nlohmann::json value = nlohmann::json::parse(*param.default_json, nullptr, false);
  if (value.is_string()) return value.get<std::string>();
  return *param.default_json;
}

bool Retried(const ir::Step& step) { return step.retry && step.retry->times > 0; }

bool HasIterationSuffix(const ir::Step& step) {
  return !step.enclosing_foreach.empty() || Retried(step);
}

bool BoundsGang(const ir::Step& step) { return step.parallel && step.timeout_seconds; }

Layout::Layout(const ir::Flow& flow) : flow_(flow) {
  for (const ir::Step& step : flow.steps) taken_.insert(step.k8s_name);
  entry_ = Claim(kEntrypoint);
  body_.resize(flow.steps.size());
  for (size_t i = 0; i < flow.steps.size(); ++i) {
    if (const auto& foreach = flow.steps[i].foreach) {
      body_[i] = Claim(flow.steps[foreach->body].k8s_name + kBodySuffix);
      foreach_steps_.push_back(i);
    }
  }
  gang_.resize(flow.steps.size());
  delete_.resize(flow.steps.size());
  for (size_t i = 0; i < flow.steps.size(); ++i) {
    if (!BoundsGang(flow.steps[i])) continue;
    gang_[i] = Claim(flow.steps[i].k8s_name + kGangSuffix);
    delete_[i] = Claim(flow.steps[i].k8s_name + kDeleteSuffix);
  }
}

std::optional<std::string> Layout::TaskFor(size_t step, std::optional<size_t> scope) const {
  const std::vector<size_t>& enclosing = flow_.steps[step].enclosing_foreach;
  size_t depth = 0;
  if (scope) {
    while (depth < enclosing.size() && enclosing[depth] != *scope) ++depth;
    if (depth == enclosing.size()) return std::nullopt;
    ++depth;
  }
  if (depth == enclosing.size()) return step_name(step);
  return body_name(enclosing[depth]);
}

std::string Layout::Claim(const std::string& wanted) {
  std::string name = wanted;
  for (int n = 2; !taken_.insert(name).second; ++n) name = fmt::format("{}-{}", wanted, n);
  return name;
}

}  // namespace flowc::backends::argo
