#include "compiler/graph/params.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "compiler/diag/suggest.h"
#include "compiler/graph/templating.h"

namespace flowc::graph {
namespace {

using diag::Code;
using Kind = ast::Value::Kind;

// A value's kind in words, with its article: "an integer", "null".
std::string Described(Kind kind) {
  if (kind == Kind::kNull) return "null";
  return fmt::format("{} {}", kind == Kind::kInt ? "an" : "a", ast::KindName(kind));
}

// Names a reference always means, so a param of that name could never be
// referred to.
bool IsReservedName(std::string_view name) {
  return name == "item" || name == "run_id" || IsGangReferenceName(name);
}

Param::Type InferType(const ast::Value& v) {
  switch (v.kind) {
    case Kind::kInt:
      return Param::Type::kInt;
    case Kind::kFloat:
      return Param::Type::kFloat;
    case Kind::kBool:
      return Param::Type::kBool;
    case Kind::kList:
      return Param::Type::kList;
    default:
      return Param::Type::kStr;
  }
}

bool DefaultMatches(Param::Type type, const ast::Value& v) {
  switch (type) {
    case Param::Type::kStr:
      return v.kind == Kind::kString;
    case Param::Type::kInt:
      return v.kind == Kind::kInt;
    case Param::Type::kFloat:
      return v.is_number();
    case Param::Type::kBool:
      return v.kind == Kind::kBool;
    case Param::Type::kList:
      return v.kind == Kind::kList && std::all_of(v.items.begin(), v.items.end(), IsScalarValue);
  }
  return false;
}

class ParamBuilder {
 public:
  ParamBuilder(const std::vector<ast::Param>& params, diag::Reporter& report)
      : params_(params), report_(report) {}

  std::vector<Param> Build() {
    std::vector<Param> params;
    std::unordered_map<std::string_view, size_t> seen;
    for (const ast::Param& p : params_) {
      auto [it, inserted] = seen.emplace(p.name.name, params.size());
      if (!inserted) {
        report_(Code::kDuplicateParam, p.name.range,
                fmt::format("param '{}' is declared twice", p.name.name))
            .AddNote(params[it->second].range, "first declared here");
        continue;
      }
      Param param;
      param.name = p.name.name;
      param.range = p.name.range;
      if (IsReservedName(p.name.name)) {
        report_(Code::kDuplicateParam, p.name.range,
                fmt::format("'{}' is a reserved reference and cannot name a param", p.name.name))
            .SetHelp("choose another name");
      }
      bool type_known = true;
      if (p.type) {
        static const std::vector<std::pair<std::string_view, Param::Type>> kTypes = {
            {"str", Param::Type::kStr},
            {"int", Param::Type::kInt},
            {"float", Param::Type::kFloat},
            {"bool", Param::Type::kBool},
            {"list", Param::Type::kList}};
        auto it2 = std::find_if(kTypes.begin(), kTypes.end(),
                                [&](const auto& t) { return t.first == p.type->name; });
        if (it2 == kTypes.end()) {
          auto& d = report_(Code::kParamType, p.type->range,
                            fmt::format("unknown param type '{}'", p.type->name));
          static const std::unordered_map<std::string_view, std::string_view> kAliases = {
              {"string", "str"},   {"integer", "int"},  {"boolean", "bool"},
              {"double", "float"}, {"number", "float"}, {"array", "list"}};
          auto alias = kAliases.find(p.type->name);
          std::vector<std::string_view> names = {"str", "int", "float", "bool", "list"};
          std::string hint = alias != kAliases.end()
                                 ? fmt::format("did you mean '{}'?", alias->second)
                                 : diag::DidYouMean(p.type->name, names);
          d.SetHelp(hint.empty() ? "types are str, int, float, bool and list" : hint);
          type_known = false;
        } else {
          param.type = it2->second;
        }
      }
      if (p.default_value) {
        const ast::Value& v = *p.default_value;
        if (!p.type) param.type = InferType(v);
        if (type_known && !DefaultMatches(param.type, v)) ReportDefaultMismatch(param, v);
        param.default_value = v;
      }
      params.push_back(std::move(param));
    }
    return params;
  }

 private:
  // E041, saying what is wrong with the default: its kind, or, where the
  // kind is right, the number or the list element that is not.
  void ReportDefaultMismatch(const Param& param, const ast::Value& v) {
    const char* type = ParamTypeName(param.type);
    if (param.type == Param::Type::kInt && v.kind == Kind::kFloat) {
      std::string_view written = SourceText(v.range);
      // Integral values that fit an int64 (2^63 is exact as a double).
      bool whole = std::trunc(v.float_value) == v.float_value &&
                   std::fabs(v.float_value) < 9223372036854775808.0;
      auto& d =
          report_(Code::kParamType, v.range,
                  fmt::format("param '{}' is of type 'int' but its default {} is {}", param.name,
                              written, whole ? "written as a float" : "not a whole number"));
      if (whole) {
        d.SetHelp(fmt::format("write it as an integer: param {}: int = {}", param.name,
                              static_cast<int64_t>(v.float_value)));
      } else {
        d.SetHelp(fmt::format("declare it as a float: param {}: float = {}", param.name, written));
      }
      return;
    }
    if (param.type == Param::Type::kList && v.kind == Kind::kList) {
      for (size_t i = 0; i < v.items.size(); ++i) {
        const ast::Value& item = v.items[i];
        if (IsScalarValue(item)) continue;
        report_(Code::kParamType, item.range,
                fmt::format("element {} of the default of list param '{}' is {}", i + 1, param.name,
                            Described(item.kind)))
            .SetHelp("a list param holds strings, numbers and booleans");
        return;
      }
    }
    auto& d = report_(Code::kParamType, v.range,
                      fmt::format("param '{}' is of type '{}' but its default is {}", param.name,
                                  type, Described(v.kind)));
    bool numeric = (param.type == Param::Type::kInt || param.type == Param::Type::kFloat) &&
                   v.kind == Kind::kString && !v.string.empty() &&
                   v.string.find_first_not_of("-0123456789.eE") == std::string::npos;
    if (numeric) {
      d.SetHelp(fmt::format("write the number without quotes: param {}: {} = {}", param.name, type,
                            v.string));
    } else if (param.type == Param::Type::kBool) {
      d.SetHelp("write true or false");
    }
  }

  std::string_view SourceText(const diag::SourceRange& range) const {
    return std::string_view(report_.file().text()).substr(range.offset, range.length);
  }

  const std::vector<ast::Param>& params_;
  diag::Reporter& report_;
};

}  // namespace

bool IsScalarValue(const ast::Value& v) {
  return v.kind == Kind::kString || v.is_number() || v.kind == Kind::kBool;
}

std::vector<Param> BuildParams(const std::vector<ast::Param>& params, diag::Reporter& report) {
  return ParamBuilder(params, report).Build();
}

}  // namespace flowc::graph
