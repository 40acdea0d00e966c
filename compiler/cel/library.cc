#include "compiler/cel/library.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace flowc::cel {
namespace {

// Decodes UTF-8 leniently: a byte that starts no valid sequence stands for itself as U+FFFD,
// so that indexes stay defined on any input.
std::u32string Decode(const std::string& s) {
  std::u32string out;
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
    bool ok = len > 0 && i + len <= s.size();
    for (int k = 1; ok && k < len; ++k) {
      unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc >> 6) != 2) ok = false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if (!ok) {
      out.push_back(0xFFFD);
      ++i;
      continue;
    }
    out.push_back(cp);
    i += len;
  }
  return out;
}

std::string Encode(const std::u32string& s) {
  std::string out;
  for (char32_t cp : s) {
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }
  return out;
}

Value NoOverload(Fn fn, const std::vector<Value>& args) {
  std::string types;
  for (const Value& a : args) types += (types.empty() ? "" : ", ") + std::string(TypeName(a));
  return Value::Error(fmt::format("no such overload: {}({})", FnName(fn), types));
}

bool AllStrings(const std::vector<Value>& args, size_t from, size_t to) {
  for (size_t k = from; k < to && k < args.size(); ++k) {
    if (args[k].kind != Value::kString) return false;
  }
  return true;
}

// Unicode's White_Space property, which cel-go's trim() (Go's strings.TrimSpace) removes.
bool IsSpace(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}

// indexOf and lastIndexOf in code points, with cel-go ext.Strings' range errors.
Value IndexOf(Fn fn, const std::vector<Value>& args) {
  if (!AllStrings(args, 0, 2) || (args.size() == 3 && args[2].kind != Value::kInt)) {
    return NoOverload(fn, args);
  }
  std::u32string s = Decode(args[0].s), sub = Decode(args[1].s);
  int64_t n = static_cast<int64_t>(s.size()), m = static_cast<int64_t>(sub.size());
  bool last = fn == Fn::kLastIndexOf;
  int64_t offset = args.size() == 3 ? args[2].i : (last ? n : 0);
  if (offset < 0 || offset > n) return Value::Error(fmt::format("index out of range: {}", offset));
  if (!last) {
    size_t at = s.find(sub, static_cast<size_t>(offset));
    return Value::Int(at == std::u32string::npos ? -1 : static_cast<int64_t>(at));
  }
  if (m > n) return Value::Int(-1);
  int64_t start = std::min(offset, n - m);
  size_t at = s.rfind(sub, static_cast<size_t>(start));
  return Value::Int(at == std::u32string::npos ? -1 : static_cast<int64_t>(at));
}

Value Strings(Fn fn, const std::vector<Value>& args) {
  switch (fn) {
    case Fn::kLowerAscii:
    case Fn::kUpperAscii: {
      if (!AllStrings(args, 0, 1)) return NoOverload(fn, args);
      std::string s = args[0].s;
      for (char& c : s) {
        if (fn == Fn::kLowerAscii && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (fn == Fn::kUpperAscii && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
      }
      return Value::String(s);
    }
    case Fn::kIndexOf:
    case Fn::kLastIndexOf:
      return IndexOf(fn, args);
    case Fn::kCharAt: {
      if (!AllStrings(args, 0, 1) || args[1].kind != Value::kInt) return NoOverload(fn, args);
      std::u32string s = Decode(args[0].s);
      int64_t i = args[1].i;
      if (i < 0 || i > static_cast<int64_t>(s.size()))
        return Value::Error(fmt::format("index out of range: {}", i));
      if (i == static_cast<int64_t>(s.size())) return Value::String("");
      return Value::String(Encode(s.substr(static_cast<size_t>(i), 1)));
    }
    case Fn::kSubstring: {
      if (!AllStrings(args, 0, 1) || args[1].kind != Value::kInt ||
          (args.size() == 3 && args[2].kind != Value::kInt)) {
        return NoOverload(fn, args);
      }
      std::u32string s = Decode(args[0].s);
      int64_t n = static_cast<int64_t>(s.size());
      int64_t begin = args[1].i, end = args.size() == 3 ? args[2].i : n;
      if (begin < 0 || begin > n) return Value::Error(fmt::format("index out of range: {}", begin));
      if (end < 0 || end > n) return Value::Error(fmt::format("index out of range: {}", end));
      if (begin > end)
        return Value::Error(fmt::format("invalid substring range. start: {}, end: {}", begin, end));
      return Value::String(
          Encode(s.substr(static_cast<size_t>(begin), static_cast<size_t>(end - begin))));
    }
    case Fn::kReplace: {
      if (!AllStrings(args, 0, 3) || (args.size() == 4 && args[3].kind != Value::kInt)) {
        return NoOverload(fn, args);
      }
      const std::string &s = args[0].s, &from = args[1].s, &to = args[2].s;
      int64_t limit = args.size() == 4 ? args[3].i : -1;  // negative: all
      std::string out;
      size_t pos = 0;
      int64_t done = 0;
      if (from.empty()) {  // Go's strings.Replace: an empty old string matches between runes
        std::u32string d = Decode(s);
        for (size_t k = 0; k <= d.size(); ++k) {
          if (limit < 0 || done < limit) {
            out += to;
            ++done;
          }
          if (k < d.size()) out += Encode(d.substr(k, 1));
        }
        return Value::String(out);
      }
      while (limit < 0 || done < limit) {
        size_t at = s.find(from, pos);
        if (at == std::string::npos) break;
        out.append(s, pos, at - pos);
        out += to;
        pos = at + from.size();
        ++done;
      }
      out.append(s, pos, std::string::npos);
      return Value::String(out);
    }
    case Fn::kSplit: {
      if (!AllStrings(args, 0, 2) || (args.size() == 3 && args[2].kind != Value::kInt)) {
        return NoOverload(fn, args);
      }
      const std::string &s = args[0].s, &sep = args[1].s;
      int64_t limit = args.size() == 3 ? args[2].i : -1;
      List parts;
      if (limit == 0) return Value::OwnedList(std::move(parts));
      if (sep.empty()) {  // Go's strings.SplitN: each rune, the last part the rest
        std::u32string d = Decode(s);
        for (size_t k = 0; k < d.size(); ++k) {
          if (limit > 0 && static_cast<int64_t>(parts.size()) == limit - 1) {
            parts.push_back(Value::String(Encode(d.substr(k))));
            return Value::OwnedList(std::move(parts));
          }
          parts.push_back(Value::String(Encode(d.substr(k, 1))));
        }
        return Value::OwnedList(std::move(parts));
      }
      size_t pos = 0;
      while (limit < 0 || static_cast<int64_t>(parts.size()) < limit - 1) {
        size_t at = s.find(sep, pos);
        if (at == std::string::npos) break;
        parts.push_back(Value::String(s.substr(pos, at - pos)));
        pos = at + sep.size();
      }
      parts.push_back(Value::String(s.substr(pos)));
      return Value::OwnedList(std::move(parts));
    }
    case Fn::kTrim: {
      if (!AllStrings(args, 0, 1)) return NoOverload(fn, args);
      std::u32string d = Decode(args[0].s);
      size_t b = 0, e = d.size();
      while (b < e && IsSpace(d[b])) ++b;
      while (e > b && IsSpace(d[e - 1])) --e;
      return Value::String(Encode(d.substr(b, e - b)));
    }
    case Fn::kJoin: {
      if (args[0].kind != Value::kList || (args.size() == 2 && args[1].kind != Value::kString)) {
        return NoOverload(fn, args);
      }
      std::string out;
      for (size_t k = 0, n = Size(args[0]); k < n; ++k) {
        Value item = ListAt(args[0], k);
        if (item.kind != Value::kString) return Value::Error("join: the list holds a non-string");
        if (k > 0 && args.size() == 2) out += args[1].s;
        out += item.s;
      }
      return Value::String(out);
    }
    default:
      return NoOverload(fn, args);
  }
}

// k8s.io/apiserver/pkg/cel/library/lists.go: isSorted, sum, min, max, indexOf, lastIndexOf.
Value Lists(Fn fn, const std::vector<Value>& args) {
  const Value& list = args[0];
  size_t n = Size(list);
  switch (fn) {
    case Fn::kIsSorted:
      for (size_t k = 1; k < n; ++k) {
        bool ok;
        int c = Compare(ListAt(list, k - 1), ListAt(list, k), &ok);
        if (!ok) return NoOverload(fn, args);
        if (c > 0) return Value::Bool(false);
      }
      return Value::Bool(true);
    case Fn::kSum: {
      if (n == 0) return Value::Int(0);
      Value total = ListAt(list, 0);
      if (total.kind != Value::kInt && total.kind != Value::kUint && total.kind != Value::kDouble) {
        return NoOverload(fn, args);
      }
      for (size_t k = 1; k < n; ++k) {
        total = Call(Fn::kAdd, {total, ListAt(list, k)});
        if (total.IsError()) return total;
      }
      return total;
    }
    case Fn::kMin:
    case Fn::kMax: {
      if (n == 0) return Value::Error(fmt::format("{} called on an empty list", FnName(fn)));
      Value best = ListAt(list, 0);
      for (size_t k = 1; k < n; ++k) {
        Value item = ListAt(list, k);
        bool ok;
        int c = Compare(item, best, &ok);
        if (!ok) return NoOverload(fn, args);
        if (fn == Fn::kMin ? c < 0 : c > 0) best = item;
      }
      return best;
    }
    case Fn::kIndexOf:
      for (size_t k = 0; k < n; ++k) {
        if (Equal(ListAt(list, k), args[1])) return Value::Int(static_cast<int64_t>(k));
      }
      return Value::Int(-1);
    case Fn::kLastIndexOf:
      for (size_t k = n; k > 0; --k) {
        if (Equal(ListAt(list, k - 1), args[1])) return Value::Int(static_cast<int64_t>(k - 1));
      }
      return Value::Int(-1);
    default:
      return NoOverload(fn, args);
  }
}

bool IsZero(const Value& v) {
  switch (v.kind) {
    case Value::kNull:
      return true;
    case Value::kBool:
      return !v.b;
    case Value::kInt:
      return v.i == 0;
    case Value::kUint:
      return v.u == 0;
    case Value::kDouble:
      return v.d == 0;
    case Value::kString:
    case Value::kBytes:
      return v.s.empty();
    case Value::kList:
    case Value::kMap:
      return Size(v) == 0;
    default:
      return false;
  }
}

Value Optionals(Fn fn, const std::vector<Value>& args) {
  switch (fn) {
    case Fn::kOptionalOf:
      return Value::Optional(std::make_shared<const Value>(args[0]));
    case Fn::kOptionalNone:
      return Value::Optional(nullptr);
    case Fn::kOptionalOfNonZero:
      if (IsZero(args[0])) return Value::Optional(nullptr);
      return Value::Optional(std::make_shared<const Value>(args[0]));
    default:
      break;
  }
  if (args[0].kind != Value::kOptional) return NoOverload(fn, args);
  const Value& opt = args[0];
  switch (fn) {
    case Fn::kHasValue:
      return Value::Bool(opt.opt != nullptr);
    case Fn::kValue:
      if (!opt.opt) return Value::Error("optional.none() dereference");
      return *opt.opt;
    case Fn::kOrValue:
      return opt.opt ? *opt.opt : args[1];
    case Fn::kOptOr:
      if (args[1].kind != Value::kOptional) return NoOverload(fn, args);
      return opt.opt ? opt : args[1];
    default:
      return NoOverload(fn, args);
  }
}

}  // namespace

size_t CodePoints(const std::string& utf8) {
  size_t n = 0;
  for (char c : utf8) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

bool ValidUtf8(const std::string& s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > s.size()) return false;
    uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
    for (int k = 1; k < len; ++k) {
      unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc >> 6) != 2) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[len] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return false;
    i += len;
  }
  return true;
}

Value CallLibrary(Fn fn, const std::vector<Value>& args) {
  switch (fn) {
    case Fn::kIndexOf:
    case Fn::kLastIndexOf:
      if (!args.empty() && args[0].kind == Value::kList) return Lists(fn, args);
      return Strings(fn, args);
    case Fn::kIsSorted:
    case Fn::kSum:
    case Fn::kMin:
    case Fn::kMax:
      if (args[0].kind != Value::kList) return NoOverload(fn, args);
      return Lists(fn, args);
    case Fn::kOptionalOf:
    case Fn::kOptionalNone:
    case Fn::kOptionalOfNonZero:
    case Fn::kHasValue:
    case Fn::kValue:
    case Fn::kOrValue:
    case Fn::kOptOr:
      return Optionals(fn, args);
    default:
      return Strings(fn, args);
  }
}

}  // namespace flowc::cel
