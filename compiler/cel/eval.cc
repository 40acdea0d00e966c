#include "compiler/cel/eval.h"

#include <fmt/format.h>

#include <memory>

namespace flowc::cel {
namespace {

// Evaluation steps a rule may take before it is stopped: the API server bounds a rule's cost
// too (its estimated and its actual cost), and a bound keeps a user's rule over a large
// document from running for minutes. Ten million steps is far above any bundled rule on any
// document the API server would accept.
constexpr uint64_t kMaxSteps = 10'000'000;

class Evaluator {
 public:
  explicit Evaluator(int slots) : slots_(static_cast<size_t>(slots)) {}
  std::vector<Value>& slots() { return slots_; }

  Value Eval(const Expr& e) {
    if (++steps_ > kMaxSteps) {
      return Value::Error(fmt::format("the rule took more than {} evaluation steps", kMaxSteps));
    }
    switch (e.kind) {
      case Expr::kConst:
        return e.constant;
      case Expr::kVar:
        return slots_[static_cast<size_t>(e.slot)];
      case Expr::kSelect:
        return Select(e, Eval(*e.args[0]), e.optional);
      case Expr::kHas: {
        Value target = Eval(*e.args[0]);
        if (target.IsError()) return target;
        if (target.kind != Value::kMap) {
          return Value::Error(fmt::format("has() on a {}, which has no fields", TypeName(target)));
        }
        bool found;
        MapField(target, e.name, &found);
        if (!found && !e.unescaped.empty()) MapField(target, e.unescaped, &found);
        return Value::Bool(found);
      }
      case Expr::kIndex:
        return Index(e);
      case Expr::kCall: {
        std::vector<Value> args;
        args.reserve(e.args.size());
        for (const auto& a : e.args) {
          args.push_back(Eval(*a));
          if (args.back().IsError()) return args.back();  // functions are strict
        }
        return Call(e.fn, args);
      }
      case Expr::kList:
        return MakeList(e);
      case Expr::kMap:
        return MakeMap(e);
      case Expr::kAnd:
      case Expr::kOr:
        return Logic(e);
      case Expr::kNot: {
        Value v = Eval(*e.args[0]);
        if (v.IsError()) return v;
        if (v.kind != Value::kBool)
          return Value::Error(fmt::format("no such overload: !_({})", TypeName(v)));
        return Value::Bool(!v.b);
      }
      case Expr::kTernary: {
        Value c = Eval(*e.args[0]);
        if (c.IsError()) return c;
        if (c.kind != Value::kBool) {
          return Value::Error(fmt::format("no such overload: _?_:_({}, ...)", TypeName(c)));
        }
        return Eval(*e.args[c.b ? 1 : 2]);
      }
      case Expr::kMacro:
        return Macro(e);
    }
    return Value::Error("unknown expression");
  }

 private:
  // `a.b`, `a.?b`, and a selection on an optional (`a.?b.c`), which stays optional.
  Value Select(const Expr& e, const Value& target, bool optional) {
    if (target.IsError()) return target;
    if (target.kind == Value::kOptional) {
      if (!target.opt) return target;
      return Select(e, *target.opt, true);
    }
    if (target.kind != Value::kMap) {
      return Value::Error(
          fmt::format("no such key: '{}' (a {} has no fields)", e.name, TypeName(target)));
    }
    bool found;
    Value v = MapField(target, e.name, &found);
    if (!found && !e.unescaped.empty()) v = MapField(target, e.unescaped, &found);
    if (optional) return Value::Optional(found ? std::make_shared<const Value>(v) : nullptr);
    if (!found) return Value::Error(fmt::format("no such key: '{}'", e.name));
    return v;
  }

  Value Index(const Expr& e) {
    Value target = Eval(*e.args[0]);
    if (target.IsError()) return target;
    Value key = Eval(*e.args[1]);
    if (key.IsError()) return key;
    bool optional = e.optional;
    if (target.kind == Value::kOptional) {
      if (!target.opt) return target;
      Value inner = *target.opt;
      target = inner;
      optional = true;
    }
    auto wrap = [&](bool found, Value v, std::string missing) {
      if (optional)
        return Value::Optional(found ? std::make_shared<const Value>(std::move(v)) : nullptr);
      if (!found) return Value::Error(std::move(missing));
      return v;
    };
    if (target.kind == Value::kList) {
      int64_t i = 0;
      if (key.kind == Value::kInt) {
        i = key.i;
      } else if (key.kind == Value::kUint && key.u < (1ull << 62)) {
        i = static_cast<int64_t>(key.u);
      } else if (key.kind == Value::kDouble &&
                 key.d == static_cast<double>(static_cast<int64_t>(key.d))) {
        i = static_cast<int64_t>(key.d);  // a double with an integral value indexes, as in cel-go
      } else {
        return Value::Error(fmt::format("no such overload: _[_](list, {})", TypeName(key)));
      }
      bool in_range = i >= 0 && static_cast<uint64_t>(i) < Size(target);
      return wrap(in_range, in_range ? ListAt(target, static_cast<size_t>(i)) : Value(),
                  fmt::format("index out of range: {}", i));
    }
    if (target.kind == Value::kMap) {
      bool found;
      Value v = MapGet(target, key, &found);
      return wrap(found, v, fmt::format("no such key: {}", Debug(key)));
    }
    return Value::Error(
        fmt::format("no such overload: _[_]({}, {})", TypeName(target), TypeName(key)));
  }

  Value MakeList(const Expr& e) {
    List items;
    for (size_t k = 0; k < e.args.size(); ++k) {
      Value v = Eval(*e.args[k]);
      if (v.IsError()) return v;
      if (e.optional_entries[k]) {
        if (v.kind != Value::kOptional) return Value::Error("[?x] takes an optional value");
        if (!v.opt) continue;
        v = Value(*v.opt);
      }
      items.push_back(std::move(v));
    }
    return Value::OwnedList(std::move(items));
  }

  Value MakeMap(const Expr& e) {
    Map entries;
    for (size_t k = 0; k + 1 < e.args.size(); k += 2) {
      Value key = Eval(*e.args[k]);
      if (key.IsError()) return key;
      Value v = Eval(*e.args[k + 1]);
      if (v.IsError()) return v;
      if (key.kind != Value::kString && key.kind != Value::kInt && key.kind != Value::kUint &&
          key.kind != Value::kBool) {
        return Value::Error(fmt::format("unsupported map key type: {}", TypeName(key)));
      }
      if (e.optional_entries[k / 2]) {
        if (v.kind != Value::kOptional) return Value::Error("{?k: v} takes an optional value");
        if (!v.opt) continue;
        v = Value(*v.opt);
      }
      for (const auto& entry : entries) {
        if (Equal(entry.first, key))
          return Value::Error(fmt::format("repeated key in a map: {}", Debug(key)));
      }
      entries.emplace_back(std::move(key), std::move(v));
    }
    return Value::OwnedMap(std::move(entries));
  }

  // && and ||, commutatively: one operand that decides (false for &&, true for ||) decides
  // whatever the others are, errors included; otherwise the first error is the result.
  Value Logic(const Expr& e) {
    bool deciding = e.kind == Expr::kOr;
    Value first_error;
    bool have_error = false;
    for (const auto& a : e.args) {
      Value v = Eval(*a);
      if (v.kind == Value::kBool) {
        if (v.b == deciding) return v;
        continue;
      }
      if (!have_error) {
        have_error = true;
        first_error = v.IsError()
                          ? v
                          : Value::Error(fmt::format("no such overload: {}({})",
                                                     deciding ? "_||_" : "_&&_", TypeName(v)));
      }
    }
    return have_error ? first_error : Value::Bool(!deciding);
  }

  Value Macro(const Expr& e) {
    Value range = Eval(*e.args[0]);
    if (range.IsError()) return range;
    std::vector<Value> keys;
    bool is_map = range.kind == Value::kMap;
    if (is_map) {
      keys = MapKeys(range);  // a macro over a map ranges over its keys
    } else if (range.kind != Value::kList) {
      return Value::Error(
          fmt::format("{}() on a {}: it takes a list or a map", e.name, TypeName(range)));
    }
    size_t n = is_map ? keys.size() : Size(range);
    Value& var = slots_[static_cast<size_t>(e.slot)];
    auto element = [&](size_t k) { return is_map ? keys[k] : ListAt(range, k); };
    auto predicate = [&](const Value& v) {
      if (v.IsError() || v.kind == Value::kBool) return v;
      return Value::Error(
          fmt::format("{}(): the predicate is a {}, not a bool", e.name, TypeName(v)));
    };

    switch (e.macro) {
      case Expr::Macro::kAll:
      case Expr::Macro::kExists: {
        // As && (all) and || (exists) over the elements: errors absorbed the same way.
        bool deciding = e.macro == Expr::Macro::kExists;
        Value first_error;
        bool have_error = false;
        for (size_t k = 0; k < n; ++k) {
          var = element(k);
          Value v = predicate(Eval(*e.args[1]));
          if (v.kind == Value::kBool) {
            if (v.b == deciding) return v;
          } else if (!have_error) {
            have_error = true;
            first_error = v;
          }
        }
        return have_error ? first_error : Value::Bool(!deciding);
      }
      case Expr::Macro::kExistsOne: {
        int64_t count = 0;
        for (size_t k = 0; k < n; ++k) {
          var = element(k);
          Value v = predicate(Eval(*e.args[1]));
          if (v.IsError()) return v;
          count += v.b ? 1 : 0;
        }
        return Value::Bool(count == 1);
      }
      case Expr::Macro::kMap:
      case Expr::Macro::kMapFilter:
      case Expr::Macro::kFilter: {
        List out;
        for (size_t k = 0; k < n; ++k) {
          var = element(k);
          if (e.macro != Expr::Macro::kMap) {
            Value keep = predicate(Eval(*e.args[1]));
            if (keep.IsError()) return keep;
            if (!keep.b) continue;
          }
          if (e.macro == Expr::Macro::kFilter) {
            out.push_back(var);
            continue;
          }
          Value v = Eval(*e.args.back());
          if (v.IsError()) return v;
          out.push_back(std::move(v));
        }
        return Value::OwnedList(std::move(out));
      }
    }
    return Value::Error("unknown macro");
  }

  std::vector<Value> slots_;
  uint64_t steps_ = 0;
};

}  // namespace

Value Run(const Program& program, const nlohmann::json& self, const nlohmann::json* old_self,
          bool optional_old_self) {
  Evaluator evaluator(program.slots);
  evaluator.slots()[0] = FromJson(self);
  if (optional_old_self) {
    evaluator.slots()[1] = Value::Optional(
        old_self != nullptr ? std::make_shared<const Value>(FromJson(*old_self)) : nullptr);
  } else {
    evaluator.slots()[1] = old_self != nullptr
                               ? FromJson(*old_self)
                               : Value::Error("oldSelf is not available: there is no old object");
  }
  return evaluator.Eval(*program.root);
}

}  // namespace flowc::cel
