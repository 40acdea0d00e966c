// The x-kubernetes-validations rules of a schema node, evaluated on its value as the API
// server does on create (apiextensions-apiserver pkg/apiserver/schema/cel/validation.go,
// validateExpressions): a transition rule (one naming oldSelf) is skipped, since there is no
// old object; a rule that is false is reported with its message, or its messageExpression's
// value, or "failed rule: RULE"; a rule that errors is reported with the error. A rule the
// evaluator (compiler/cel) cannot compile is reported too, naming the rule: never a pass.
#ifndef FLOWC_VALIDATE_CEL_RULES_H_
#define FLOWC_VALIDATE_CEL_RULES_H_

#include <nlohmann/json.hpp>

#include "compiler/validate/finding.h"
#include "compiler/validate/path.h"

namespace flowc::validate {

void EvaluateRules(const nlohmann::json& rules, const nlohmann::json& schema,
                   const nlohmann::json& value, const Path& path, const Report& report);

}  // namespace flowc::validate

#endif  // FLOWC_VALIDATE_CEL_RULES_H_
