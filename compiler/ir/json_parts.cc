#include "compiler/ir/json_parts.h"

#include <utility>

namespace flowc::ir {
namespace {

constexpr unsigned kIndentStep = 2;  // dump(2)

}  // namespace

namespace pretty {

void Item(std::string& text, bool first, unsigned indent) {
  text += first ? "\n" : ",\n";
  text.append(indent, ' ');
}

void Key(Serializer& serializer, std::string& text, const std::string& key) {
  serializer.dump(nlohmann::ordered_json(key), true, false, kIndentStep);
  text += ": ";
}

void Close(std::string& text, unsigned indent, char bracket) {
  text += '\n';
  text.append(indent, ' ');
  text += bracket;
}

}  // namespace pretty

void SharedParts::Dump(Serializer& serializer, std::string& text, const Json& value,
                       unsigned indent) {
  const unsigned inner = indent + kIndentStep;
  switch (value.type()) {
    case Json::value_t::binary: {
      Part& part = parts_[value.get_binary().subtype()];
      for (const auto& [at, written] : part.texts) {
        if (at == indent) {
          text += written;
          return;
        }
      }
      const size_t start = text.size();
      serializer.dump(part.value, true, false, kIndentStep, indent);
      part.texts.emplace_back(indent, text.substr(start));
      return;
    }
    case Json::value_t::object:
    case Json::value_t::array: {
      const bool object = value.is_object();
      if (value.empty()) {
        text += object ? "{}" : "[]";
        return;
      }
      text += object ? '{' : '[';
      bool first = true;
      if (object) {
        for (const auto& [key, member] : value.get_ref<const Json::object_t&>()) {
          pretty::Item(text, std::exchange(first, false), inner);
          pretty::Key(serializer, text, key);
          Dump(serializer, text, member, inner);
        }
      } else {
        for (const Json& element : value) {
          pretty::Item(text, std::exchange(first, false), inner);
          Dump(serializer, text, element, inner);
        }
      }
      pretty::Close(text, indent, object ? '}' : ']');
      return;
    }
    default:
      serializer.dump(value, true, false, kIndentStep, indent);
  }
}

}  // namespace flowc::ir
