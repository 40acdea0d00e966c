#include "compiler/graph/decorators.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "compiler/diag/suggest.h"
#include "compiler/graph/names.h"
#include "compiler/graph/timezone.h"

namespace flowc::graph {
namespace {

using ast::Value;
using diag::Code;
using Kind = ast::Value::Kind;

// ---------------------------------------------------------------------------
// The table.

enum class ArgType {
  kInt,              // integer within [min, max]
  kNumber,           // integer or decimal within [min, max]
  kString,           // non-empty string
  kBool,
  kEnum,             // one of `choices`
  kSize,             // integer MB within [min, max], or a quantity string
  kStringList,       // list of strings
  kStringMap,        // map of string to string
  kNodeSelector,     // map of string to string, or "k=v,k2=v2"
  kTolerations,      // list of toleration maps
  kSecurityContext,  // map of the fields of SecurityContextConfig
};

// Kubernetes rules a string argument must also follow.
enum class Rule { kNone, kLabel, kSubdomain, kAbsolutePath, kLabels, kAnnotations, kEnvVars };

constexpr double kNoLimit = std::numeric_limits<double>::infinity();
// Upper bounds that keep every derived value (millicores, bytes, MiB) far
// inside int64, and counts inside the int32 fields Kubernetes stores them in.
constexpr double kMaxCpu = 1e6;            // cores
constexpr double kMaxMegabytes = 1e12;     // an exabyte
constexpr double kMaxCount = 2147483647;   // int32: parallelism, completions

struct ArgSpec {
  std::string_view name;
  ArgType type;
  double min = -kNoLimit;
  double max = kNoLimit;
  std::string_view default_value = {};  // in the flow language, "" for none
  std::string_view choices = {};        // kEnum: "a|b|c"
  Rule rule = Rule::kNone;
  std::string_view help = {};  // for a value out of range or against its rule
};

enum Placement : unsigned { kOnStep = 1, kOnFlow = 2 };

struct DecoratorSpec {
  std::string_view name;
  unsigned placement;
  std::vector<ArgSpec> args;
};

const std::vector<DecoratorSpec>& Table() {
  static const std::vector<DecoratorSpec> table = {
      {"kubernetes", kOnStep | kOnFlow, {
          {"cpu", ArgType::kNumber, 0.001, kMaxCpu, "1"},
          {"memory", ArgType::kSize, 1, kMaxMegabytes, "4096"},
          {"disk", ArgType::kSize, 1, kMaxMegabytes, "10240"},
          {"gpu", ArgType::kInt, 1, kMaxCount},
          {"gpu_vendor", ArgType::kEnum, 0, 0, "\"nvidia\"", "nvidia|amd"},
          {"trainium", ArgType::kInt, 1, kMaxCount},
          {"inferentia", ArgType::kInt, 1, kMaxCount},
          {"efa", ArgType::kInt, 1, kMaxCount},
          {"image", ArgType::kString, 0, 0, "\"python:3.12-slim\""},
          {"image_pull_policy", ArgType::kEnum, 0, 0, {}, "Always|IfNotPresent|Never"},
          {"image_pull_secrets", ArgType::kStringList, 0, 0, {}, {}, Rule::kSubdomain},
          {"namespace", ArgType::kString, 0, 0, {}, {}, Rule::kLabel},
          {"service_account", ArgType::kString, 0, 0, {}, {}, Rule::kSubdomain},
          {"secrets", ArgType::kStringList, 0, 0, {}, {}, Rule::kSubdomain},
          {"node_selector", ArgType::kNodeSelector, 0, 0, {}, {}, Rule::kLabels},
          {"tolerations", ArgType::kTolerations},
          {"labels", ArgType::kStringMap, 0, 0, {}, {}, Rule::kLabels},
          {"annotations", ArgType::kStringMap, 0, 0, {}, {}, Rule::kAnnotations},
          {"use_tmpfs", ArgType::kBool, 0, 0, "false"},
          {"tmpfs_size", ArgType::kInt, 1, kMaxMegabytes},
          {"tmpfs_path", ArgType::kString, 0, 0, "\"/tmp\"", {}, Rule::kAbsolutePath},
          {"tmpfs_tempdir", ArgType::kBool, 0, 0, "true"},
          {"persistent_volume_claims", ArgType::kStringMap, 0, 0, {}, {}, Rule::kAbsolutePath},
          {"shared_memory", ArgType::kInt, 1, kMaxMegabytes},
          {"port", ArgType::kInt, 1, 65535},
          {"qos", ArgType::kEnum, 0, 0, "\"Burstable\"", "Burstable|Guaranteed"},
          {"security_context", ArgType::kSecurityContext},
      }},
      {"resources", kOnStep | kOnFlow, {
          {"cpu", ArgType::kNumber, 0.001, kMaxCpu},
          {"memory", ArgType::kSize, 1, kMaxMegabytes},
          {"disk", ArgType::kSize, 1, kMaxMegabytes},
          {"gpu", ArgType::kInt, 1, kMaxCount},
          {"shared_memory", ArgType::kInt, 1, kMaxMegabytes},
      }},
      {"neuron", kOnStep | kOnFlow, {
          {"devices", ArgType::kInt, 1, 16, {}, {}, Rule::kNone,
           "a node has at most 16 Neuron devices (trn2.48xlarge); for more, run the step as "
           "@parallel(nodes=N)"},
          {"all", ArgType::kBool},
          {"ultraserver", ArgType::kInt, 1, 4},
          {"template", ArgType::kString, 0, 0, {}, {}, Rule::kSubdomain,
           "name the ResourceClaimTemplate as it is in the cluster: lowercase letters, digits, "
           "'-' and '.'"},
          {"connected", ArgType::kBool},
          {"instance_type", ArgType::kString},
          {"driver_version", ArgType::kString},
          {"lnc", ArgType::kInt, 1, 2, {}, {}, Rule::kNone,
           "write lnc=1 for one physical NeuronCore per logical core, or lnc=2 (trn2's "
           "default) for two"},
      }},
      {"parallel", kOnStep, {
          {"nodes", ArgType::kInt, 1, kMaxCount},
      }},
      {"trainjob", kOnStep, {
          {"runtime", ArgType::kString, 0, 0, {}, {}, Rule::kSubdomain,
           "name the ClusterTrainingRuntime as it is in the cluster: lowercase letters, digits, "
           "'-' and '.'"},
          {"proc_per_node", ArgType::kInt, 1, kMaxCount},
      }},
      {"code", kOnStep | kOnFlow, {
          {"files", ArgType::kStringList},
          {"path", ArgType::kString, 0, 0, "\"/workspace\"", {}, Rule::kAbsolutePath},
      }},
      {"retry", kOnStep | kOnFlow, {
          {"times", ArgType::kInt, 0, 10, "3"},
          {"minutes_between_retries", ArgType::kInt, 0, kNoLimit, "2"},
      }},
      {"timeout", kOnStep | kOnFlow, {
          {"seconds", ArgType::kInt, 0},
          {"minutes", ArgType::kInt, 0},
          {"hours", ArgType::kInt, 0},
      }},
      {"environment", kOnStep | kOnFlow, {
          {"vars", ArgType::kStringMap, 0, 0, {}, {}, Rule::kEnvVars},
      }},
      {"secrets", kOnStep | kOnFlow, {
          {"sources", ArgType::kStringList, 0, 0, {}, {}, Rule::kSubdomain},
      }},
      {"schedule", kOnFlow, {
          {"cron", ArgType::kString},
          {"hourly", ArgType::kBool},
          {"daily", ArgType::kBool},
          {"weekly", ArgType::kBool},
          {"timezone", ArgType::kString},
      }},
  };
  return table;
}

const DecoratorSpec* FindDecorator(std::string_view name) {
  for (const DecoratorSpec& spec : Table()) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

const ArgSpec* FindArg(const DecoratorSpec& spec, std::string_view name) {
  for (const ArgSpec& arg : spec.args) {
    if (arg.name == name) return &arg;
  }
  return nullptr;
}

// A table default, as the parser would have produced it.
Value DefaultValue(std::string_view literal) {
  Value value;
  if (literal.front() == '"') {
    value.kind = Kind::kString;
    value.string = std::string(literal.substr(1, literal.size() - 2));
  } else if (literal == "true" || literal == "false") {
    value.kind = Kind::kBool;
    value.bool_value = literal == "true";
  } else {
    value.kind = Kind::kInt;
    value.int_value = std::stoll(std::string(literal));
  }
  return value;
}

const Value& Default(const ArgSpec& arg) {
  static std::map<const ArgSpec*, Value> cache;
  auto it = cache.find(&arg);
  if (it == cache.end()) it = cache.emplace(&arg, DefaultValue(arg.default_value)).first;
  return it->second;
}

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

// Checks a list of decorators written on one flow or step; returns the valid
// ones. `placement` says which of the two it is.
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

// ---------------------------------------------------------------------------
// Resolving a step: step arguments over flow arguments over table defaults.

struct Resolved {
  const Value* value = nullptr;
  bool from_step = false;
};

class Args {
 public:
  Args(const DecoratorSpec& spec, const ast::Decorator* flow, const ast::Decorator* step)
      : spec_(spec), flow_(flow), step_(step) {}

  bool present() const { return flow_ != nullptr || step_ != nullptr; }
  // The step's own decorator, else the flow's.
  const ast::Decorator* decorator() const { return step_ != nullptr ? step_ : flow_; }
  bool on_step() const { return step_ != nullptr; }

  Resolved Get(std::string_view name) const {
    for (const ast::Decorator* d : {step_, flow_}) {
      if (d == nullptr) continue;
      for (const ast::Argument& arg : d->arguments) {
        if (arg.name.name == name) return {&arg.value, d == step_};
      }
    }
    const ArgSpec* arg = FindArg(spec_, name);
    if (arg != nullptr && !arg->default_value.empty()) return {&Default(*arg), false};
    return {};
  }

  const Value* operator[](std::string_view name) const { return Get(name).value; }

 private:
  const DecoratorSpec& spec_;
  const ast::Decorator* flow_;
  const ast::Decorator* step_;
};

const ast::Decorator* Find(const std::vector<const ast::Decorator*>& list, std::string_view name) {
  for (const ast::Decorator* d : list) {
    if (d->name.name == name) return d;
  }
  return nullptr;
}

std::vector<std::string> Strings(const Value* list) {
  std::vector<std::string> out;
  if (list != nullptr) {
    for (const Value& item : list->items) out.push_back(item.string);
  }
  return out;
}

KeyValues Pairs(const Value* value) {
  KeyValues out;
  if (value == nullptr) return out;
  if (value->kind == Kind::kString) {  // "k=v,k2=v2"
    std::string_view text = value->string;
    for (size_t start = 0;;) {
      size_t comma = text.find(',', start);
      std::string_view pair = text.substr(start, comma == std::string_view::npos ? comma : comma - start);
      size_t eq = pair.find('=');
      out.emplace_back(std::string(pair.substr(0, eq)), std::string(pair.substr(eq + 1)));
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    return out;
  }
  for (const ast::MapEntry& entry : value->entries) out.emplace_back(entry.key, entry.value.string);
  return out;
}

Quantity Size(const Value& value) {
  if (value.kind == Kind::kInt) return QuantityFromMb(value.int_value);
  QuantityError unused;
  return *ParseQuantity(value.string, &unused);
}

const Value* Field(const Value& map, std::string_view key) {
  for (const ast::MapEntry& entry : map.entries) {
    if (entry.key == key) return &entry.value;
  }
  return nullptr;
}

void ApplyKubernetes(const Args& a, StepConfig& c) {
  c.cpu_millis = std::llround(a["cpu"]->AsDouble() * 1000);
  c.memory = Size(*a["memory"]);
  c.disk = Size(*a["disk"]);
  if (auto* v = a["gpu"]) c.gpu = v->int_value;
  c.gpu_vendor = a["gpu_vendor"]->string;
  if (auto* v = a["trainium"]) c.neuron = v->int_value;
  if (auto* v = a["inferentia"]) c.neuron = v->int_value;
  if (auto* v = a["efa"]) c.efa = v->int_value;
  c.image = a["image"]->string;
  if (auto* v = a["image_pull_policy"]) c.image_pull_policy = v->string;
  c.image_pull_secrets = Strings(a["image_pull_secrets"]);
  if (auto* v = a["namespace"]) c.namespace_ = v->string;
  if (auto* v = a["service_account"]) c.service_account = v->string;
  c.secrets = Strings(a["secrets"]);
  c.node_selector = Pairs(a["node_selector"]);
  if (auto* v = a["tolerations"]) {
    for (const Value& item : v->items) {
      TolerationConfig t;
      if (auto* f = Field(item, "key")) t.key = f->string;
      t.op = "Equal";
      if (auto* f = Field(item, "operator")) t.op = f->string;
      if (auto* f = Field(item, "value")) t.value = f->string;
      if (auto* f = Field(item, "effect")) t.effect = f->string;
      if (auto* f = Field(item, "tolerationSeconds")) t.toleration_seconds = f->int_value;
      c.tolerations.push_back(std::move(t));
    }
  }
  c.labels = Pairs(a["labels"]);
  c.annotations = Pairs(a["annotations"]);
  c.use_tmpfs = a["use_tmpfs"]->bool_value;
  if (auto* v = a["tmpfs_size"]) c.tmpfs_size_mib = v->int_value;
  c.tmpfs_path = a["tmpfs_path"]->string;
  c.tmpfs_tempdir = a["tmpfs_tempdir"]->bool_value;
  c.persistent_volume_claims = Pairs(a["persistent_volume_claims"]);
  if (auto* v = a["shared_memory"]) c.shared_memory_mib = v->int_value;
  if (auto* v = a["port"]) c.port = v->int_value;
  c.guaranteed = a["qos"]->string == "Guaranteed";
  if (auto* v = a["security_context"]) {
    SecurityContextConfig s;
    if (auto* f = Field(*v, "privileged")) s.privileged = f->bool_value;
    if (auto* f = Field(*v, "allow_privilege_escalation")) s.allow_privilege_escalation = f->bool_value;
    if (auto* f = Field(*v, "run_as_user")) s.run_as_user = f->int_value;
    if (auto* f = Field(*v, "run_as_group")) s.run_as_group = f->int_value;
    if (auto* f = Field(*v, "run_as_non_root")) s.run_as_non_root = f->bool_value;
    c.security_context = s;
  }
}

// @resources: the larger of each value wins.
void ApplyResources(const Args& a, StepConfig& c) {
  if (auto* v = a["cpu"]) c.cpu_millis = std::max<int64_t>(c.cpu_millis, std::llround(v->AsDouble() * 1000));
  if (auto* v = a["memory"]) {
    Quantity q = Size(*v);
    if (q.bytes > c.memory.bytes) c.memory = q;
  }
  if (auto* v = a["disk"]) {
    Quantity q = Size(*v);
    if (q.bytes > c.disk.bytes) c.disk = q;
  }
  if (auto* v = a["gpu"]) c.gpu = std::max(c.gpu, v->int_value);
  if (auto* v = a["shared_memory"]) {
    c.shared_memory_mib = std::max(c.shared_memory_mib.value_or(0), v->int_value);
  }
}

// ---------------------------------------------------------------------------
// @schedule

struct CronField {
  const char* name;
  int min;
  int max;
  std::vector<std::string_view> names;  // JAN.., SUN..
};

int CronValue(std::string_view text, const CronField& field) {
  for (size_t i = 0; i < field.names.size(); ++i) {
    if (text.size() == 3 && std::equal(text.begin(), text.end(), field.names[i].begin(),
                                       [](char a, char b) { return std::toupper(a) == b; })) {
      return field.min + static_cast<int>(i);
    }
  }
  if (text.empty() || text.size() > 4 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return -1;
  }
  return std::stoi(std::string(text));
}

// "" when `cron` is a valid five-field expression, else what is wrong.
std::string CheckCron(std::string_view cron) {
  static const CronField kFields[] = {
      {"minute", 0, 59, {}},
      {"hour", 0, 23, {}},
      {"day of month", 1, 31, {}},
      {"month", 1, 12, {"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}},
      {"day of week", 0, 7, {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"}},
  };
  std::vector<std::string_view> parts;
  for (size_t i = 0; i < cron.size();) {
    while (i < cron.size() && cron[i] == ' ') ++i;
    size_t j = i;
    while (j < cron.size() && cron[j] != ' ') ++j;
    if (j > i) parts.push_back(cron.substr(i, j - i));
    i = j;
  }
  if (parts.size() != 5) {
    return fmt::format("has {} field{}; a cron expression has five (minute hour day-of-month "
                       "month day-of-week)",
                       parts.size(), parts.size() == 1 ? "" : "s");
  }
  for (size_t f = 0; f < 5; ++f) {
    const CronField& field = kFields[f];
    std::string_view part = parts[f];
    for (size_t start = 0;;) {
      size_t comma = part.find(',', start);
      std::string_view item = part.substr(start, comma == std::string_view::npos ? comma : comma - start);
      std::string_view range = item;
      size_t slash = item.find('/');
      if (slash != std::string_view::npos) {
        range = item.substr(0, slash);
        int step = CronValue(item.substr(slash + 1), CronField{"", 1, 0, {}});
        if (step < 1) return fmt::format("has a bad step '{}' in the {} field", item, field.name);
      }
      if (range != "*") {
        size_t dash = range.find('-');
        std::string_view low = range.substr(0, dash);
        std::string_view high = dash == std::string_view::npos ? low : range.substr(dash + 1);
        int lo = CronValue(low, field), hi = CronValue(high, field);
        if (lo < field.min || lo > field.max || hi < field.min || hi > field.max || hi < lo) {
          return fmt::format("has '{}' in the {} field, outside {}-{}", item, field.name, field.min,
                             field.max);
        }
      }
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
  }
  return "";
}

std::optional<ScheduleConfig> ResolveSchedule(const ast::Decorator& decorator,
                                              diag::Reporter& report) {
  const DecoratorSpec& spec = *FindDecorator("schedule");
  Args a(spec, nullptr, &decorator);
  ScheduleConfig schedule;
  schedule.range = decorator.range;
  std::vector<std::string_view> given;
  if (auto* v = a["cron"]) {
    given.push_back("cron");
    std::string why = CheckCron(v->string);
    if (!why.empty()) {
      auto& d = report(diag::Code::kInvalidSchedule, v->range,
                       fmt::format("cron expression '{}' {}", v->string, why));
      if (!v->string.empty() && v->string[0] == '@') {
        d.SetHelp("write hourly=true, daily=true or weekly=true instead of a '@' descriptor");
      } else {
        d.SetHelp("for example cron=\"0 3 * * *\" runs every day at 03:00");
      }
      return std::nullopt;
    }
    schedule.cron = v->string;
  }
  static const std::pair<std::string_view, std::string_view> kShortcuts[] = {
      {"hourly", "0 * * * *"}, {"daily", "0 0 * * *"}, {"weekly", "0 0 * * 0"}};
  for (const auto& [name, cron] : kShortcuts) {
    auto* v = a[name];
    if (v == nullptr) continue;
    if (!v->bool_value) {
      report(diag::Code::kInvalidSchedule, v->range, fmt::format("'{}=false' schedules nothing", name))
          .SetHelp(fmt::format("remove '{}', or set it to true", name));
      return std::nullopt;
    }
    given.push_back(name);
    schedule.cron = std::string(cron);
  }
  if (given.size() != 1) {
    report(diag::Code::kInvalidSchedule, decorator.range,
           given.empty() ? "'@schedule' needs one of cron, hourly, daily or weekly"
                         : fmt::format("'@schedule' takes one of cron, hourly, daily or weekly, "
                                       "found {}",
                                       fmt::join(given, " and ")))
        .SetHelp("for example @schedule(cron=\"0 3 * * *\") or @schedule(daily=true)");
    return std::nullopt;
  }
  if (auto* v = a["timezone"]) {
    if (!CheckTimeZone(*v, report)) return std::nullopt;
    schedule.timezone = v->string;
  }
  return schedule;
}

// Two volumes mounted at one path: shared memory, tmpfs, claims and @code;
// and a file of @code where another volume is mounted.
bool CheckMounts(const StepConfig& c, const Args& k8s, const Args& code, const ast::Step* step,
                 diag::Reporter& report) {
  struct Mount {
    std::string path;
    std::string by;    // "'shared_memory'", "claim 'data'"
    Resolved origin;   // where it was written
    std::string help;  // how to move it
  };
  std::vector<Mount> mounts;
  if (c.shared_memory_mib) {
    Resolved r = k8s.Get("shared_memory");
    if (r.value != nullptr) mounts.push_back({"/dev/shm", "'shared_memory'", r, ""});
  }
  if (c.use_tmpfs) {
    Resolved r = k8s.Get("tmpfs_path");
    if (r.value->range.line == 0) r = k8s.Get("use_tmpfs");  // the default path
    mounts.push_back({c.tmpfs_path, "the tmpfs", r, "set tmpfs_path to another path"});
  }
  if (const Value* claims = k8s["persistent_volume_claims"]) {
    bool from_step = k8s.Get("persistent_volume_claims").from_step;
    for (const ast::MapEntry& entry : claims->entries) {
      mounts.push_back({entry.value.string, fmt::format("claim '{}'", entry.key),
                        Resolved{&entry.value, from_step}, "mount the claim at another path"});
    }
  }
  const size_t others = mounts.size();
  if (c.code) {
    Resolved r = code.Get("path");
    if (r.value->range.line == 0) r = code.Get("files");  // the default path
    mounts.push_back({c.code->path, "'@code'", r, "give '@code' another path"});
  }
  bool ok = true;
  for (size_t i = 0; c.code && i < others; ++i) {
    const Mount& mine = mounts.back();
    if ((step != nullptr) != (mounts[i].origin.from_step || mine.origin.from_step)) continue;
    std::string file = CodeFileUnderMount(*c.code, mounts[i].path);
    if (file.empty()) continue;
    report(diag::Code::kVolumeConflict, mine.origin.value->range,
           fmt::format("'{}' of '@code' collides with {} at '{}'", file, mounts[i].by,
                       mounts[i].path))
        .AddNote(mounts[i].origin.value->range, fmt::format("{} is set here", mounts[i].by))
        .SetHelp(fmt::format("mount {} outside '{}', or leave '{}' out of '@code'", mounts[i].by,
                             c.code->path, file));
    ok = false;
  }
  // The pod's volume for @code is named `code`; a claim may not be.
  const Value* claims = k8s["persistent_volume_claims"];
  for (size_t i = 0; c.code && claims != nullptr && i < claims->entries.size(); ++i) {
    const ast::MapEntry& entry = claims->entries[i];
    bool from_step = k8s.Get("persistent_volume_claims").from_step || code.on_step();
    if (entry.key != kCodeVolumeName || (step != nullptr) != from_step) continue;
    report(diag::Code::kVolumeConflict, entry.key_range,
           fmt::format("claim '{}' has the name of the volume of '@code'", entry.key))
        .AddNote(code.decorator()->range, "'@code' is written here")
        .SetHelp("claims are mounted as volumes of their own name: use another claim name");
    ok = false;
  }
  for (size_t i = 0; i < mounts.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (mounts[i].path != mounts[j].path) continue;
      bool from_step = mounts[i].origin.from_step || mounts[j].origin.from_step;
      if ((step != nullptr) != from_step) continue;  // the other pass reports it
      auto& d = report(diag::Code::kVolumeConflict, mounts[i].origin.value->range,
                       fmt::format("'{}' is mounted twice: by {} and by {}", mounts[i].path,
                                   mounts[i].by, mounts[j].by));
      d.AddNote(mounts[j].origin.value->range, fmt::format("{} is set here", mounts[j].by))
          .SetHelp(mounts[i].help);
      ok = false;
    }
  }
  return ok;
}

// Guaranteed QoS sets limits equal to requests; with neither cpu nor memory
// written, those limits are the defaults, which is rarely what was meant.
void WarnUnsizedGuaranteed(const Args& k8s, const Args& resources, const ast::Step* step,
                           diag::Reporter& report) {
  Resolved qos = k8s.Get("qos");
  if ((step != nullptr) != qos.from_step) return;  // the other pass looks at it
  for (std::string_view name : {"cpu", "memory"}) {
    if (k8s.Get(name).value->range.valid() || resources[name] != nullptr) return;
  }
  report(diag::Code::kGuaranteedWithoutLimits, qos.value->range,
         "Guaranteed QoS without cpu or memory: its limits are the defaults, 1 cpu and 4096M")
      .SetHelp("set cpu and memory in @kubernetes or @resources to the limits the step needs");
}

// Checks that need a step's whole configuration. Errors whose values all come
// from the flow are reported once, for the flow (`step` is null then).
bool CheckResolved(const StepConfig& c, const std::map<std::string_view, Args>& args,
                   const ast::Step* step, diag::Reporter& report) {
  const Args& k8s = args.at("kubernetes");
  const Args& resources = args.at("resources");
  auto origin = [&](std::string_view name) -> Resolved {
    Resolved r = k8s.Get(name);
    if (r.value == nullptr && (name == "gpu")) r = resources.Get(name);
    return r;
  };
  // Reports at the step's own value, with a note at the other one.
  auto conflict = [&](std::string_view a, std::string_view b, std::string message,
                      std::string help) {
    Resolved ra = origin(a), rb = origin(b);
    bool from_step = ra.from_step || rb.from_step;
    if ((step != nullptr) != from_step) return false;  // the other pass reports it
    bool a_here = ra.from_step || step == nullptr;
    const Resolved& here = a_here ? ra : rb;
    const Resolved& there = a_here ? rb : ra;
    auto& d = report(diag::Code::kAcceleratorConflict, here.value->range, std::move(message));
    d.AddNote(there.value->range, fmt::format("'{}' is set here", a_here ? b : a))
        .SetHelp(std::move(help));
    return true;
  };
  bool ok = true;
  const Value* trainium = k8s["trainium"];
  const Value* inferentia = k8s["inferentia"];
  if (trainium != nullptr && inferentia != nullptr) {
    ok = !conflict("inferentia", "trainium",
                   "'trainium' and 'inferentia' are both set; 'inferentia' is an alias of "
                   "'trainium'",
                   "keep one of them: both request aws.amazon.com/neuron devices") && ok;
  }
  if (c.gpu > 0 && c.neuron > 0) {
    std::string_view neuron = trainium != nullptr ? "trainium" : "inferentia";
    ok = !conflict("gpu", neuron,
                   fmt::format("a step cannot have both 'gpu' and '{}'", neuron),
                   "GPUs and AWS Neuron devices are never on the same node; split the work into "
                   "two steps") && ok;
  }
  const Args& neuron = args.at("neuron");
  if (neuron.present() && (c.gpu > 0 || c.neuron > 0)) {
    // Reported where the step wrote one of the two, or once for the flow
    // when both come from it.
    std::string_view other = c.gpu > 0 ? "gpu" : trainium != nullptr ? "trainium" : "inferentia";
    Resolved r = origin(other);
    if ((step != nullptr) == (r.from_step || neuron.on_step())) {
      bool at_other = r.from_step || step == nullptr;
      diag::SourceRange here = at_other ? r.value->range : neuron.decorator()->range;
      diag::SourceRange there = at_other ? neuron.decorator()->range : r.value->range;
      auto& d = report(diag::Code::kAcceleratorConflict, here,
                       c.gpu > 0 ? std::string("a step cannot have both 'gpu' and '@neuron'")
                                 : fmt::format("'@neuron' and '{}' both ask for Neuron devices",
                                               other));
      d.AddNote(there, at_other ? std::string("'@neuron' is written here")
                                : fmt::format("'{}' is set here", other));
      d.SetHelp(c.gpu > 0 ? "GPUs and AWS Neuron devices are never on the same node; split the "
                            "work into two steps"
                          : fmt::format("keep '@neuron' for clusters that run the Neuron DRA "
                                        "driver, or '{}' for the device plugin: a node has one "
                                        "or the other",
                                        other));
      ok = false;
    }
  }
  if (c.guaranteed) WarnUnsizedGuaranteed(k8s, resources, step, report);
  return CheckMounts(c, k8s, args.at("code"), step, report) && ok;
}

std::map<std::string_view, Args> ArgsOf(const std::vector<const ast::Decorator*>& flow,
                                        const std::vector<const ast::Decorator*>& step) {
  std::map<std::string_view, Args> out;
  for (const DecoratorSpec& spec : Table()) {
    out.emplace(spec.name, Args(spec, Find(flow, spec.name), Find(step, spec.name)));
  }
  return out;
}

StepConfig Apply(const std::map<std::string_view, Args>& args) {
  StepConfig c;
  ApplyKubernetes(args.at("kubernetes"), c);
  ApplyResources(args.at("resources"), c);
  if (auto* v = args.at("parallel")["nodes"]) c.parallel_nodes = v->int_value;
  const Args& retry = args.at("retry");
  if (retry.present()) {
    c.retry = RetryConfig{retry["times"]->int_value, retry["minutes_between_retries"]->int_value};
  }
  const Args& timeout = args.at("timeout");
  if (timeout.present()) {
    int64_t total = 0;
    if (auto* v = timeout["seconds"]) total += v->int_value;
    if (auto* v = timeout["minutes"]) total += v->int_value * 60;
    if (auto* v = timeout["hours"]) total += v->int_value * 3600;
    c.timeout_seconds = total;
  }
  c.env = Pairs(args.at("environment")["vars"]);
  for (std::string& s : Strings(args.at("secrets")["sources"])) {
    if (std::find(c.secrets.begin(), c.secrets.end(), s) == c.secrets.end()) c.secrets.push_back(s);
  }
  return c;
}

// Checks on single decorators that involve several of their arguments.
bool CheckWhole(const ast::Decorator& decorator, Placement placement, diag::Reporter& report) {
  const std::string& name = decorator.name.name;
  if (name == "neuron") return CheckNeuronDecorator(decorator, placement == kOnFlow, report);
  if (name == "code") return CheckCodeDecorator(decorator, placement == kOnFlow, report);
  if (name == "parallel" && decorator.arguments.empty()) {
    report(diag::Code::kMissingArgument, decorator.range, "'@parallel' needs 'nodes'")
        .SetHelp("write @parallel(nodes=4) for a gang of four pods");
    return false;
  }
  if (name == "timeout") {
    int64_t total = 0;
    for (const ast::Argument& arg : decorator.arguments) {
      int64_t unit = arg.name.name == "hours" ? 3600 : arg.name.name == "minutes" ? 60 : 1;
      if (arg.value.int_value > std::numeric_limits<int32_t>::max()) {
        report(diag::Code::kArgumentRange, arg.value.range, "'@timeout' is longer than 68 years");
        return false;
      }
      total += arg.value.int_value * unit;
    }
    if (total <= 0) {
      report(diag::Code::kArgumentRange, decorator.range,
             "'@timeout' must add up to more than 0 seconds")
          .SetHelp("write @timeout(minutes=30), or seconds, minutes and hours, which are summed");
      return false;
    }
  }
  return true;
}

}  // namespace

FlowDefaults CheckFlowDecorators(const std::vector<ast::Decorator>& decorators,
                                 diag::Reporter& report) {
  FlowDefaults defaults;
  bool ok = true;
  for (const ast::Decorator* d : CheckDecorators(decorators, kOnFlow, report, &ok)) {
    if (!CheckWhole(*d, kOnFlow, report)) {
      ok = false;
      continue;
    }
    if (d->name.name == "schedule") {
      defaults.schedule = ResolveSchedule(*d, report);
    } else {
      if (d->name.name == "code") defaults.code = LoadCode(*d, report);  // once for every step
      defaults.decorators.push_back(d);
    }
  }
  auto args = ArgsOf(defaults.decorators, {});
  StepConfig flow_config = Apply(args);
  bool code_ok = true;
  flow_config.code =
      ResolveCode(Find(defaults.decorators, "code"), defaults.code, nullptr, report, &code_ok);
  CheckResolved(flow_config, args, nullptr, report);
  return defaults;
}

std::optional<StepConfig> ResolveStepConfig(const FlowDefaults& defaults, const ast::Step& step,
                                            diag::Reporter& report) {
  bool ok = true;
  std::vector<const ast::Decorator*> own = CheckDecorators(step.decorators, kOnStep, report, &ok);
  for (const ast::Decorator* d : own) ok = CheckWhole(*d, kOnStep, report) && ok;
  if (!ok) return std::nullopt;
  auto args = ArgsOf(defaults.decorators, own);
  StepConfig config = Apply(args);
  config.neuron_dra = ResolveNeuron(Find(defaults.decorators, "neuron"), Find(own, "neuron"),
                                    config.parallel_nodes, report, &ok);
  config.code =
      ResolveCode(Find(defaults.decorators, "code"), defaults.code, Find(own, "code"), report, &ok);
  if (!ok) return std::nullopt;
  if (!CheckResolved(config, args, &step, report)) return std::nullopt;
  config.trainjob = ResolveTrainJob(defaults.decorators, own, config, report, &ok);
  if (!ok) return std::nullopt;
  return config;
}

}  // namespace flowc::graph
