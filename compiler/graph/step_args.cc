#include "compiler/graph/step_args.h"

namespace flowc::graph::step_args {

using ast::Value;
using Kind = ast::Value::Kind;

ArgsByName ArgsOf(const std::vector<const ast::Decorator*>& flow,
                  const std::vector<const ast::Decorator*>& step) {
  ArgsByName out;
  out.reserve(decorator_table::Table().size());
  for (const decorator_table::DecoratorSpec& spec : decorator_table::Table()) {
    out.emplace_back(spec, Find(flow, spec.name), Find(step, spec.name));
  }
  return out;
}

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
      std::string_view pair =
          text.substr(start, comma == std::string_view::npos ? comma : comma - start);
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

}  // namespace flowc::graph::step_args
