#include "compiler/graph/decorator_args.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "compiler/diag/suggest.h"
#include "compiler/graph/names.h"
#include "compiler/graph/quantity.h"
#include "compiler/graph/timezone.h"

namespace flowc::graph::decorator_table {
namespace {

using ast::Value;
using diag::Code;
using Kind = ast::Value::Kind;

std::string FormatNumber(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    return std::to_string(static_cast<int64_t>(value));
  }
  return fmt::format("{}", value);
}

// ---------------------------------------------------------------------------
// Checking one written argument against its spec.

class ArgChecker {
 public:
  ArgChecker(const DecoratorSpec& decorator, const ArgSpec& spec, diag::Reporter& report)
      : decorator_(decorator), spec_(spec), report_(report) {}

  bool Check(const Value& value) {
    switch (spec_.type) {
      case ArgType::kInt: return Expect(value, Kind::kInt, "an integer") && InRange(value);
      case ArgType::kNumber:
        if (!value.is_number()) return TypeError(value, "a number");
        return InRange(value);
      case ArgType::kString:
        return Expect(value, Kind::kString, "a string") && NonEmpty(value) &&
               FollowsRule(value.string, value.range);
      case ArgType::kBool: return Expect(value, Kind::kBool, "true or false");
      case ArgType::kEnum: return CheckEnum(value);
      case ArgType::kSize: return CheckSize(value);
      case ArgType::kStringList: return CheckStringList(value);
      case ArgType::kStringMap: return CheckStringMap(value);
      case ArgType::kNodeSelector:
        if (value.kind == Kind::kString) return CheckSelectorString(value);
        return CheckStringMap(value);
      case ArgType::kTolerations: return CheckTolerations(value);
      case ArgType::kSecurityContext: return CheckSecurityContext(value);
    }
    return false;
  }

 private:
  std::string What() const { return fmt::format("'{}' of '@{}'", spec_.name, decorator_.name); }

  bool TypeError(const Value& value, std::string_view expected) {
    auto& d = report_(Code::kArgumentType, value.range,
                      fmt::format("{} expects {}, found {}", What(), expected,
                                  ast::KindName(value.kind)));
    if (value.kind == Kind::kString && (spec_.type == ArgType::kInt || spec_.type == ArgType::kNumber)) {
      d.SetHelp(fmt::format("write the number without quotes: {}={}", spec_.name, value.string));
    } else if (value.kind == Kind::kString && spec_.type == ArgType::kBool) {
      d.SetHelp(fmt::format("write {0}=true or {0}=false, without quotes", spec_.name));
    } else if (value.kind == Kind::kString && spec_.type == ArgType::kStringList) {
      d.SetHelp(fmt::format("write a list: {}=[\"{}\"]", spec_.name, value.string));
    } else if (value.kind == Kind::kFloat && spec_.type == ArgType::kInt) {
      d.SetHelp(fmt::format("'{}' takes whole numbers", spec_.name));
    }
    return false;
  }

  bool Expect(const Value& value, Kind kind, std::string_view expected) {
    return value.kind == kind || TypeError(value, expected);
  }

  bool InRange(const Value& value) {
    double v = value.AsDouble();
    if (v >= spec_.min && v <= spec_.max) return true;
    // A small closed range reads best whole ("between 0 and 10"); otherwise
    // name the bound that was crossed.
    std::string bound;
    if (spec_.max <= 65535) {
      bound = fmt::format("between {} and {}", FormatNumber(spec_.min), FormatNumber(spec_.max));
    } else if (v > spec_.max) {
      bound = fmt::format("at most {}", FormatNumber(spec_.max));
    } else {
      bound = spec_.min == 0.001 ? "greater than 0" : fmt::format("at least {}", FormatNumber(spec_.min));
    }
    auto& d = report_(Code::kArgumentRange, value.range,
                      fmt::format("{} must be {}, found {}", What(), bound, FormatNumber(v)));
    if (v <= 0 && spec_.min >= 1) {
      d.SetHelp(decorator_.name == "parallel"
                    ? std::string("remove '@parallel' to run the step as a single pod")
                    : fmt::format("remove '{}' to leave it unset; 0 is never a silent no-op",
                                  spec_.name));
    } else if (!spec_.help.empty()) {
      d.SetHelp(std::string(spec_.help));
    }
    return false;
  }

  bool NonEmpty(const Value& value) {
    if (!value.string.empty()) return true;
    report_(Code::kArgumentRange, value.range, fmt::format("{} must not be empty", What()));
    return false;
  }

  bool CheckEnum(const Value& value) {
    if (!Expect(value, Kind::kString, "a string")) return false;
    std::vector<std::string_view> choices;
    for (size_t start = 0;;) {
      size_t bar = spec_.choices.find('|', start);
      choices.push_back(spec_.choices.substr(start, bar - start));
      if (bar == std::string_view::npos) break;
      start = bar + 1;
    }
    if (std::find(choices.begin(), choices.end(), value.string) != choices.end()) return true;
    auto& d = report_(Code::kArgumentRange, value.range,
                      fmt::format("{} must be one of {}, found '{}'", What(),
                                  fmt::format("'{}'", fmt::join(choices, "', '")), value.string));
    for (std::string_view choice : choices) {
      if (choice.size() == value.string.size() &&
          std::equal(choice.begin(), choice.end(), value.string.begin(), [](char a, char b) {
            return std::tolower(static_cast<unsigned char>(a)) ==
                   std::tolower(static_cast<unsigned char>(b));
          })) {
        d.SetHelp(fmt::format("did you mean '{}'?", choice));
        return false;
      }
    }
    std::string hint = diag::DidYouMean(value.string, choices);
    if (!hint.empty()) d.SetHelp(hint);
    return false;
  }

  bool CheckSize(const Value& value) {
    if (value.kind == Kind::kInt) return InRange(value);
    if (value.kind != Kind::kString) return TypeError(value, "an integer of MB or a quantity string");
    QuantityError error;
    if (auto q = ParseQuantity(value.string, &error)) {
      if (q->bytes <= spec_.max * 1e6) return true;
      report_(Code::kArgumentRange, value.range,
              fmt::format("{} must be at most {} MB, found '{}'", What(), FormatNumber(spec_.max),
                          value.string));
      return false;
    }
    auto& d = report_(Code::kInvalidQuantity, value.range,
                      fmt::format("{}: {}", What(), error.message));
    if (!error.help.empty()) d.SetHelp(error.help);
    return false;
  }

  bool CheckStringList(const Value& value) {
    if (!Expect(value, Kind::kList, "a list of strings")) return false;
    bool ok = true;
    for (const Value& item : value.items) {
      if (item.kind != Kind::kString) {
        ok = TypeError(item, "strings in its list");
      } else {
        ok = NonEmpty(item) && FollowsRule(item.string, item.range) && ok;
      }
    }
    return ok;
  }

  bool CheckStringMap(const Value& value) {
    if (!Expect(value, Kind::kMap, "a map of strings")) return false;
    bool ok = true;
    for (size_t i = 0; i < value.entries.size(); ++i) {
      const ast::MapEntry& entry = value.entries[i];
      for (size_t j = 0; j < i; ++j) {
        if (value.entries[j].key == entry.key) {
          report_(Code::kDuplicateArgument, entry.key_range,
                  fmt::format("key '{}' appears twice in {}", entry.key, What()))
              .AddNote(value.entries[j].key_range, "first written here");
          ok = false;
        }
      }
      if (entry.value.kind != Kind::kString) {
        auto& d = report_(Code::kArgumentType, entry.value.range,
                          fmt::format("{} expects string values, found {} for key '{}'", What(),
                                      ast::KindName(entry.value.kind), entry.key));
        if (entry.value.kind != Kind::kMap && entry.value.kind != Kind::kList) {
          d.SetHelp("quote the value: Kubernetes takes only strings here");
        }
        ok = false;
        continue;
      }
      ok = CheckEntry(entry.key, entry.key_range, entry.value) && ok;
    }
    return ok;
  }

  bool CheckEntry(const std::string& key, diag::SourceRange key_range, const Value& value) {
    std::string why;
    switch (spec_.rule) {
      case Rule::kLabels:
        why = CheckQualifiedName(key);
        if (!why.empty()) return Invalid(key_range, fmt::format("key '{}'", key), why);
        why = CheckLabelValue(value.string);
        if (!why.empty()) return Invalid(value.range, fmt::format("value '{}'", value.string), why);
        return true;
      case Rule::kAnnotations:
        why = CheckQualifiedName(key);
        if (!why.empty()) return Invalid(key_range, fmt::format("key '{}'", key), why);
        return true;
      case Rule::kEnvVars:
        why = CheckEnvVarName(key);
        if (!why.empty()) return Invalid(key_range, fmt::format("variable name '{}'", key), why);
        return true;
      case Rule::kAbsolutePath:  // persistent_volume_claims: claim name -> path
        why = CheckDns1123Label(key);
        if (!why.empty()) return Invalid(key_range, fmt::format("claim name '{}'", key), why);
        return FollowsRule(value.string, value.range);
      default:
        return true;
    }
  }

  bool Invalid(diag::SourceRange at, std::string what, std::string why, std::string help = "") {
    auto& d = report_(Code::kInvalidKubernetesValue, at, fmt::format("{} in {} {}", what, What(), why));
    if (!help.empty()) d.SetHelp(std::move(help));
    return false;
  }

  bool FollowsRule(const std::string& text, diag::SourceRange at) {
    std::string why;
    std::string help;
    switch (spec_.rule) {
      case Rule::kLabel:
        why = CheckDns1123Label(text);
        // "ML_Team" is one lowercasing away from a valid name.
        if (CheckDns1123Label(KubernetesName(text)).empty()) {
          help = fmt::format("did you mean '{}'?", KubernetesName(text));
        } else {
          help = spec_.help;
        }
        break;
      case Rule::kSubdomain:
        why = CheckDns1123Subdomain(text);
        if (CheckDns1123Subdomain(KubernetesName(text)).empty()) {
          help = fmt::format("did you mean '{}'?", KubernetesName(text));
        } else {
          help = spec_.help;
        }
        break;
      case Rule::kAbsolutePath:
        if (text.empty() || text[0] != '/') why = "must be an absolute path";
        break;
      default: break;
    }
    if (why.empty()) return true;
    return Invalid(at, fmt::format("'{}'", text), why, help);
  }

  bool CheckSelectorString(const Value& value) {
    bool ok = true;
    std::string_view text = value.string;
    size_t start = 0;
    while (start <= text.size()) {
      size_t comma = text.find(',', start);
      std::string_view pair = text.substr(start, comma == std::string_view::npos ? comma : comma - start);
      size_t eq = pair.find('=');
      if (eq == std::string_view::npos) {
        report_(Code::kArgumentType, value.range,
                fmt::format("{}: '{}' is not of the form key=value", What(), pair))
            .SetHelp("write \"key=value,key2=value2\" or a map {\"key\": \"value\"}");
        return false;
      }
      ok = CheckEntry(std::string(pair.substr(0, eq)), value.range,
                      [&] {
                        Value v;
                        v.kind = Kind::kString;
                        v.string = std::string(pair.substr(eq + 1));
                        v.range = value.range;
                        return v;
                      }()) && ok;
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    return ok;
  }

  bool CheckTolerations(const Value& value) {
    if (!Expect(value, Kind::kList, "a list of toleration maps")) return false;
    bool ok = true;
    for (const Value& item : value.items) ok = CheckToleration(item) && ok;
    return ok;
  }

  bool CheckToleration(const Value& item) {
    if (item.kind != Kind::kMap) return TypeError(item, "maps in its list");
    static const std::vector<std::string_view> kFields = {"key", "operator", "value", "effect",
                                                          "tolerationSeconds"};
    const Value* fields[5] = {};
    bool ok = true;
    for (const ast::MapEntry& entry : item.entries) {
      auto it = std::find(kFields.begin(), kFields.end(), entry.key);
      if (it == kFields.end()) {
        auto& d = report_(Code::kInvalidToleration, entry.key_range,
                          fmt::format("unknown toleration field '{}'", entry.key));
        std::string hint = diag::DidYouMean(entry.key == "toleration_seconds" ? "tolerationSeconds"
                                                                              : entry.key,
                                            kFields);
        if (entry.key == "toleration_seconds") hint = "did you mean 'tolerationSeconds'?";
        d.SetHelp(hint.empty() ? "a toleration has key, operator, value, effect, tolerationSeconds"
                               : hint);
        ok = false;
        continue;
      }
      fields[it - kFields.begin()] = &entry.value;
    }
    if (!ok) return false;
    for (int i = 0; i < 4; ++i) {
      if (fields[i] != nullptr && fields[i]->kind != Kind::kString) {
        return TypeError(*fields[i], fmt::format("a string for toleration field '{}'", kFields[i]));
      }
    }
    const Value *key = fields[0], *op = fields[1], *val = fields[2], *effect = fields[3],
                *seconds = fields[4];
    if (op != nullptr && op->string != "Exists" && op->string != "Equal") {
      auto& d = report_(Code::kInvalidToleration, op->range,
                        fmt::format("toleration operator must be 'Exists' or 'Equal', found '{}'",
                                    op->string));
      std::string hint = diag::DidYouMean(op->string, {"Exists", "Equal"});
      if (!hint.empty()) d.SetHelp(hint);
      return false;
    }
    bool exists = op != nullptr && op->string == "Exists";
    if (exists && val != nullptr && !val->string.empty()) {
      report_(Code::kInvalidToleration, val->range,
              "a toleration with operator 'Exists' must not have a value")
          .SetHelp("remove the value, or use operator 'Equal'");
      return false;
    }
    if (!exists && (key == nullptr || key->string.empty())) {
      report_(Code::kInvalidToleration, item.range,
              "a toleration with operator 'Equal' needs a key")
          .SetHelp("add a key, or use operator 'Exists' to tolerate every taint");
      return false;
    }
    if (key != nullptr && !key->string.empty()) {
      std::string why = CheckQualifiedName(key->string);
      if (!why.empty()) return Invalid(key->range, fmt::format("toleration key '{}'", key->string), why);
    }
    if (val != nullptr) {
      std::string why = CheckLabelValue(val->string);
      if (!why.empty()) return Invalid(val->range, fmt::format("toleration value '{}'", val->string), why);
    }
    if (effect != nullptr && effect->string != "NoSchedule" && effect->string != "PreferNoSchedule" &&
        effect->string != "NoExecute") {
      auto& d = report_(Code::kInvalidToleration, effect->range,
                        fmt::format("toleration effect must be 'NoSchedule', 'PreferNoSchedule' or "
                                    "'NoExecute', found '{}'",
                                    effect->string));
      std::string hint =
          diag::DidYouMean(effect->string, {"NoSchedule", "PreferNoSchedule", "NoExecute"});
      if (!hint.empty()) d.SetHelp(hint);
      return false;
    }
    if (seconds != nullptr) {
      if (seconds->kind != Kind::kInt) return TypeError(*seconds, "an integer for 'tolerationSeconds'");
      if (effect == nullptr || effect->string != "NoExecute") {
        report_(Code::kInvalidToleration, seconds->range,
                "'tolerationSeconds' applies only to effect 'NoExecute'")
            .SetHelp("set \"effect\": \"NoExecute\", or remove 'tolerationSeconds'");
        return false;
      }
    }
    return true;
  }

  bool CheckSecurityContext(const Value& value) {
    if (!Expect(value, Kind::kMap, "a map")) return false;
    static const std::vector<std::string_view> kBools = {"privileged", "allow_privilege_escalation",
                                                         "run_as_non_root"};
    static const std::vector<std::string_view> kInts = {"run_as_user", "run_as_group"};
    bool ok = true;
    for (const ast::MapEntry& entry : value.entries) {
      bool is_bool = std::find(kBools.begin(), kBools.end(), entry.key) != kBools.end();
      bool is_int = std::find(kInts.begin(), kInts.end(), entry.key) != kInts.end();
      if (!is_bool && !is_int) {
        std::vector<std::string_view> all = kBools;
        all.insert(all.end(), kInts.begin(), kInts.end());
        auto& d = report_(Code::kUnknownArgument, entry.key_range,
                          fmt::format("unknown security_context field '{}'", entry.key));
        std::string hint = diag::DidYouMean(entry.key, all);
        d.SetHelp(hint.empty() ? "fields are privileged, allow_privilege_escalation, run_as_user, "
                                 "run_as_group, run_as_non_root"
                               : hint);
        ok = false;
      } else if (is_bool && entry.value.kind != Kind::kBool) {
        ok = TypeError(entry.value, fmt::format("true or false for '{}'", entry.key));
      } else if (is_int && entry.value.kind != Kind::kInt) {
        ok = TypeError(entry.value, fmt::format("an integer for '{}'", entry.key));
      } else if (is_int && entry.value.int_value < 0) {
        report_(Code::kArgumentRange, entry.value.range,
                fmt::format("'{}' must be at least 0", entry.key));
        ok = false;
      }
    }
    return ok;
  }

  const DecoratorSpec& decorator_;
  const ArgSpec& spec_;
  diag::Reporter& report_;
};

// Checks every argument of one written decorator. Returns false on any error.
bool CheckDecorator(const ast::Decorator& decorator, const DecoratorSpec& spec,
                    diag::Reporter& report) {
  bool ok = true;
  for (size_t i = 0; i < decorator.arguments.size(); ++i) {
    const ast::Argument& arg = decorator.arguments[i];
    const ArgSpec* arg_spec = FindArg(spec, arg.name.name);
    if (arg_spec == nullptr) {
      std::vector<std::string_view> names;
      for (const ArgSpec& a : spec.args) names.push_back(a.name);
      auto& d = report(Code::kUnknownArgument, arg.name.range,
                       fmt::format("'@{}' has no argument '{}'", spec.name, arg.name.name));
      std::string hint = diag::DidYouMean(arg.name.name, names);
      d.SetHelp(hint.empty() ? fmt::format("its arguments are {}", fmt::join(names, ", ")) : hint);
      ok = false;
      continue;
    }
    bool duplicate = false;
    for (size_t j = 0; j < i; ++j) {
      if (decorator.arguments[j].name.name == arg.name.name) {
        report(Code::kDuplicateArgument, arg.name.range,
               fmt::format("argument '{}' is given twice", arg.name.name))
            .AddNote(decorator.arguments[j].name.range, "first given here");
        duplicate = true;
      }
    }
    ok = !duplicate && ArgChecker(spec, *arg_spec, report).Check(arg.value) && ok;
  }
  return ok;
}

}  // namespace

std::vector<const ast::Decorator*> CheckDecorators(const std::vector<ast::Decorator>& decorators,
                                                   Placement placement, diag::Reporter& report,
                                                   bool* ok) {
  std::vector<const ast::Decorator*> valid;
  for (size_t i = 0; i < decorators.size(); ++i) {
    const ast::Decorator& decorator = decorators[i];
    const DecoratorSpec* spec = FindDecorator(decorator.name.name);
    if (spec == nullptr) {
      std::vector<std::string_view> names;
      for (const DecoratorSpec& s : Table()) names.push_back(s.name);
      auto& d = report(Code::kUnknownDecorator, decorator.name.range,
                       fmt::format("unknown decorator '@{}'", decorator.name.name));
      std::string match = diag::ClosestMatch(decorator.name.name, names);
      d.SetHelp(match.empty() ? fmt::format("decorators are @{}", fmt::join(names, ", @"))
                              : fmt::format("did you mean '@{}'?", match));
      *ok = false;
      continue;
    }
    if (!(spec->placement & placement)) {
      auto& d = report(Code::kDecoratorPlacement, decorator.range,
                       fmt::format("'@{}' can only be used on {}", spec->name,
                                   placement == kOnFlow ? "a step" : "the flow"));
      d.SetHelp(placement == kOnFlow ? fmt::format("move '@{}' to the step it applies to", spec->name)
                                     : fmt::format("move '@{}' above 'flow'", spec->name));
      *ok = false;
      continue;
    }
    bool duplicate = false;
    for (size_t j = 0; j < i; ++j) {
      if (decorators[j].name.name == decorator.name.name) {
        report(Code::kDuplicateDecorator, decorator.name.range,
               fmt::format("'@{}' is written twice", decorator.name.name))
            .AddNote(decorators[j].name.range, "first written here")
            .SetHelp("merge the arguments into one decorator");
        duplicate = true;
        break;
      }
    }
    if (duplicate) {
      *ok = false;
      continue;
    }
    if (!CheckDecorator(decorator, *spec, report)) {
      *ok = false;
      continue;
    }
    valid.push_back(&decorator);
  }
  return valid;
}

}  // namespace flowc::graph::decorator_table
