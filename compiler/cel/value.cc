#include "compiler/cel/value.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace flowc::cel {

Value Value::OwnedList(List items) {
  Value x;
  x.kind = kList;
  x.list = std::make_shared<const List>(std::move(items));
  return x;
}

Value Value::OwnedMap(Map entries) {
  Value x;
  x.kind = kMap;
  x.map = std::make_shared<const Map>(std::move(entries));
  return x;
}

Value FromJson(const nlohmann::json& node) {
  switch (node.type()) {
    case nlohmann::json::value_t::null:
      return Value::Null();
    case nlohmann::json::value_t::boolean:
      return Value::Bool(node.get<bool>());
    case nlohmann::json::value_t::number_integer:
      return Value::Int(node.get<int64_t>());
    case nlohmann::json::value_t::number_unsigned: {
      uint64_t u = node.get<uint64_t>();
      if (u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return Value::Int(static_cast<int64_t>(u));
      }
      return Value::Uint(u);
    }
    case nlohmann::json::value_t::number_float:
      return Value::Double(node.get<double>());
    case nlohmann::json::value_t::string:
      return Value::String(node.get<std::string>());
    case nlohmann::json::value_t::array: {
      Value x;
      x.kind = Value::kList;
      x.json = &node;
      return x;
    }
    case nlohmann::json::value_t::object: {
      Value x;
      x.kind = Value::kMap;
      x.json = &node;
      return x;
    }
    default:
      return Value::Error("unsupported JSON value");
  }
}

const char* TypeName(const Value& v) {
  switch (v.kind) {
    case Value::kNull:
      return "null_type";
    case Value::kBool:
      return "bool";
    case Value::kInt:
      return "int";
    case Value::kUint:
      return "uint";
    case Value::kDouble:
      return "double";
    case Value::kString:
      return "string";
    case Value::kBytes:
      return "bytes";
    case Value::kList:
      return "list";
    case Value::kMap:
      return "map";
    case Value::kType:
      return "type";
    case Value::kOptional:
      return "optional_type";
    case Value::kError:
      return "error";
  }
  return "unknown";
}

size_t Size(const Value& v) {
  if (v.json != nullptr) return v.json->size();
  if (v.kind == Value::kList) return v.list->size();
  if (v.kind == Value::kMap) return v.map->size();
  return 0;
}

Value ListAt(const Value& list, size_t index) {
  if (list.json != nullptr) return FromJson((*list.json)[index]);
  return (*list.list)[index];
}

Value MapGet(const Value& map, const Value& key, bool* found) {
  *found = false;
  if (map.json != nullptr) {
    if (key.kind != Value::kString) return Value();  // JSON objects have string keys only
    auto it = map.json->find(key.s);
    if (it == map.json->end()) return Value();
    *found = true;
    return FromJson(*it);
  }
  for (const auto& [k, v] : *map.map) {
    if (Equal(k, key)) {
      *found = true;
      return v;
    }
  }
  return Value();
}

Value MapField(const Value& map, const std::string& key, bool* found) {
  if (map.json == nullptr) return MapGet(map, Value::String(key), found);
  auto it = map.json->find(key);
  *found = it != map.json->end();
  return *found ? FromJson(*it) : Value();
}

std::vector<Value> MapKeys(const Value& map) {
  std::vector<Value> keys;
  if (map.json != nullptr) {
    for (auto it = map.json->begin(); it != map.json->end(); ++it) {
      keys.push_back(Value::String(it.key()));
    }
  } else {
    for (const auto& entry : *map.map) keys.push_back(entry.first);
  }
  return keys;
}

namespace {

bool IsNumber(const Value& v) {
  return v.kind == Value::kInt || v.kind == Value::kUint || v.kind == Value::kDouble;
}

// Numbers of different types compare by value (langdef.md, "Numeric values"): an int and a
// uint exactly, either against a double as real numbers.
int CompareNumbers(const Value& a, const Value& b, bool* ok) {
  *ok = true;
  auto sign = [](auto x, auto y) { return x < y ? -1 : (x > y ? 1 : 0); };
  if (a.kind == b.kind) {
    if (a.kind == Value::kInt) return sign(a.i, b.i);
    if (a.kind == Value::kUint) return sign(a.u, b.u);
  }
  if (a.kind == Value::kInt && b.kind == Value::kUint) {
    if (a.i < 0) return -1;
    return sign(static_cast<uint64_t>(a.i), b.u);
  }
  if (a.kind == Value::kUint && b.kind == Value::kInt) {
    if (b.i < 0) return 1;
    return sign(a.u, static_cast<uint64_t>(b.i));
  }
  // One side is a double. long double holds every int64 and uint64 exactly on x86-64; where
  // it does not, the comparison is as close as the platform's widest float.
  auto wide = [](const Value& v) -> long double {
    if (v.kind == Value::kInt) return static_cast<long double>(v.i);
    if (v.kind == Value::kUint) return static_cast<long double>(v.u);
    return static_cast<long double>(v.d);
  };
  long double x = wide(a), y = wide(b);
  if (std::isnan(x) || std::isnan(y)) {
    *ok = false;
    return 0;
  }
  return sign(x, y);
}

}  // namespace

bool Equal(const Value& a, const Value& b) {
  if (IsNumber(a) && IsNumber(b)) {
    bool ok;
    int c = CompareNumbers(a, b, &ok);
    return ok && c == 0;
  }
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Value::kNull:
      return true;
    case Value::kBool:
      return a.b == b.b;
    case Value::kString:
    case Value::kBytes:
    case Value::kType:
      return a.s == b.s;
    case Value::kList: {
      size_t n = Size(a);
      if (n != Size(b)) return false;
      for (size_t i = 0; i < n; ++i) {
        if (!Equal(ListAt(a, i), ListAt(b, i))) return false;
      }
      return true;
    }
    case Value::kMap: {
      if (Size(a) != Size(b)) return false;
      for (const Value& key : MapKeys(a)) {
        bool in_a, in_b;
        Value va = MapGet(a, key, &in_a);
        Value vb = MapGet(b, key, &in_b);
        if (!in_b || !Equal(va, vb)) return false;
      }
      return true;
    }
    case Value::kOptional:
      if (!a.opt || !b.opt) return !a.opt && !b.opt;
      return Equal(*a.opt, *b.opt);
    default:
      return false;
  }
}

int Compare(const Value& a, const Value& b, bool* ok) {
  *ok = false;
  if (IsNumber(a) && IsNumber(b)) return CompareNumbers(a, b, ok);
  if (a.kind != b.kind) return 0;
  switch (a.kind) {
    case Value::kBool:
      *ok = true;
      return a.b == b.b ? 0 : (a.b ? 1 : -1);
    case Value::kString:  // byte order of UTF-8 is code-point order
    case Value::kBytes: {
      *ok = true;
      int c = a.s.compare(b.s);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    default:
      return 0;
  }
}

std::string Debug(const Value& v) {
  switch (v.kind) {
    case Value::kNull:
      return "null";
    case Value::kBool:
      return v.b ? "true" : "false";
    case Value::kInt:
      return std::to_string(v.i);
    case Value::kUint:
      return std::to_string(v.u) + "u";
    case Value::kDouble:
      return fmt::format("{}", v.d);
    case Value::kString: {
      if (v.s.size() <= 40) return fmt::format("'{}'", v.s);
      // Cut at a character's first byte, so that a message stays UTF-8.
      size_t cut = 37;
      while (cut > 0 && (static_cast<unsigned char>(v.s[cut]) & 0xC0) == 0x80) --cut;
      return fmt::format("'{}...'", v.s.substr(0, cut));
    }
    case Value::kBytes:
      return "b'...'";
    case Value::kType:
      return v.s;
    case Value::kList: {
      std::string out = "[";
      size_t n = Size(v);
      for (size_t i = 0; i < n && i < 8; ++i) out += (i ? ", " : "") + Debug(ListAt(v, i));
      return out + (n > 8 ? ", ...]" : "]");
    }
    case Value::kMap:
      return "{...}";
    case Value::kOptional:
      return v.opt ? "optional.of(" + Debug(*v.opt) + ")" : "optional.none()";
    case Value::kError:
      return "error: " + v.s;
  }
  return "?";
}

}  // namespace flowc::cel
