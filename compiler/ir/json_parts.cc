#include "compiler/ir/json_parts.h"

namespace flowc::ir {
namespace {

constexpr unsigned kIndentStep = 2;  // dump(2)

}  // namespace

// The glue is what nlohmann's serializer::dump writes around members and elements when it
// pretty-prints (nlohmann/detail/output/serializer.hpp, value_t::object and value_t::array):
// "{}" or "[]" when empty; else the bracket, a line break, each member or element on its own
// line indented `indent + 2`, a key as its escaped string then ": ", a comma and a line break
// between them, a line break and `indent` spaces before the closing bracket. Every key and
// value is still written by the serializer.
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
      text += object ? "{\n" : "[\n";
      bool first = true;
      auto member = [&](const std::string* key, const Json& element) {
        if (!first) text += ",\n";
        first = false;
        text.append(inner, ' ');
        if (key != nullptr) {
          serializer.dump(Json(*key), true, false, kIndentStep, inner);
          text += ": ";
        }
        Dump(serializer, text, element, inner);
      };
      if (object) {
        for (const auto& [key, element] : value.get_ref<const Json::object_t&>()) {
          member(&key, element);
        }
      } else {
        for (const Json& element : value) member(nullptr, element);
      }
      text += '\n';
      text.append(indent, ' ');
      text += object ? '}' : ']';
      return;
    }
    default:
      serializer.dump(value, true, false, kIndentStep, indent);
  }
}

}  // namespace flowc::ir
