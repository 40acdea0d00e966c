// The IR's document: the flow's members, its steps and params, and the two ways of writing them
// (one tree, or text as it is made). The pods' and objects' JSON is pod_json.cc's.
#include "compiler/ir/ir_json.h"

#include "compiler/ir/json_parts.h"
#include "compiler/ir/pod_json.h"

namespace flowc::ir {
namespace {

using pod_json::Add;
using pod_json::Json;
using pod_json::JsonArray;
using pod_json::JsonObject;
using pod_json::SetIf;

// A step's or the flow's @queue, with the labels of the object Kueue admits.
Json QueueJson(const Queue& queue) {
  Json q = JsonObject(3);
  SetIf(q, "name", queue.name);
  SetIf(q, "priority", queue.priority);
  SetIf(q, "labels", queue.labels);
  return q;
}

// A step; `parts`, when writing text, takes its pod's shared parts.
Json StepJson(const Flow& flow, const Step& step, SharedParts* parts) {
  auto names = [&](const std::vector<size_t>& indexes) {
    Json out = JsonArray(indexes.size());
    for (size_t i : indexes) out.push_back(flow.steps[i].name);
    return out;
  };
  Json s = JsonObject(14);
  Add(s, "name", step.name);
  Add(s, "k8s_name", step.k8s_name);
  Add(s, "line", step.range.line);
  Add(s, "next", names(step.next));
  Add(s, "predecessors", names(step.predecessors));
  if (step.join) Add(s, "join", flow.steps[*step.join].name);
  if (step.foreach) {
    Json f = JsonObject(3);
    if (!step.foreach->param.empty()) {
      Add(f, "param", step.foreach->param);
    } else {
      Add(f, "items", step.foreach->items);
    }
    Add(f, "body", flow.steps[step.foreach->body].name);
    Add(f, "join", flow.steps[step.foreach->join].name);
    Add(s, "foreach", std::move(f));
  }
  if (!step.enclosing_foreach.empty()) Add(s, "enclosing_foreach", names(step.enclosing_foreach));
  if (step.parallel) {
    Json parallel = JsonObject(2);
    Add(parallel, "nodes", step.parallel->nodes);
    SetIf(parallel, "exclusive_topology", step.parallel->exclusive_topology);
    Add(s, "parallel", std::move(parallel));
  }
  if (step.retry) {
    Json retry = JsonObject(2);
    Add(retry, "times", step.retry->times);
    Add(retry, "minutes_between_retries", step.retry->minutes_between_retries);
    Add(s, "retry", std::move(retry));
  }
  if (step.timeout_seconds) Add(s, "timeout_seconds", *step.timeout_seconds);
  if (step.trainjob) {
    Json runtime = JsonObject(2);
    Add(runtime, "kind", step.trainjob->runtime_kind);
    Add(runtime, "name", step.trainjob->runtime_name);
    Json trainjob = JsonObject(2);
    Add(trainjob, "runtime", std::move(runtime));
    if (step.trainjob->proc_per_node) Add(trainjob, "proc_per_node", *step.trainjob->proc_per_node);
    Add(s, "trainjob", std::move(trainjob));
  }
  if (step.queue) Add(s, "queue", QueueJson(*step.queue));
  if (!step.objects.empty()) {
    Json objects = JsonArray(step.objects.size());
    for (size_t i : step.objects) objects.push_back(flow.objects[i].name);
    Add(s, "objects", std::move(objects));
  }
  Add(s, "pod", pod_json::PodJson(step.pod, parts));
  return s;
}

bool HasFloat(const Json& value) {
  if (value.is_number_float()) return true;
  if (!value.is_structured()) return false;
  for (const auto& item : value) {
    if (HasFloat(item)) return true;
  }
  return false;
}

Json ParamJson(const Param& p) {
  Json j;
  j["name"] = p.name;
  j["type"] = graph::ParamTypeName(p.type);
  if (p.default_json) {
    j["default"] = Json::parse(*p.default_json);
  } else {
    j["required"] = true;
  }
  return j;
}

Json ScheduleJson(const Schedule& schedule) {
  Json s;
  s["cron"] = schedule.cron;
  if (!schedule.timezone.empty()) s["timezone"] = schedule.timezone;
  return s;
}

// Whether a member's values may hold floats. Only a param's default does:
// ir.h has no floating-point field, and ParamJson is the one place that parses
// JSON text (a default written as 0.1). Looking for floats in the other
// members found none and cost 3 % of a --target ir compile.
enum class Floats { kNone, kMaybe };

// The members of the flow's document, in order, given to `out` one at a time:
// out.Member(key, value) and out.Array(key, count, element, floats), element(i)
// being the array's i-th element. FlowToJson builds the tree from them and
// WriteFlowJson prints them as they come, so the two cannot disagree.
template <typename Out>
void FlowMembers(const Flow& flow, Out& out) {
  out.Member("flow", Json(flow.name));
  out.Member("k8s_name", Json(flow.k8s_name));
  out.Array(
      "params", flow.params.size(), [&](size_t i) { return ParamJson(flow.params[i]); },
      Floats::kMaybe);
  if (flow.schedule) out.Member("schedule", ScheduleJson(*flow.schedule));
  if (flow.queue) out.Member("queue", QueueJson(*flow.queue));
  out.Array("steps", flow.steps.size(),
            [&](size_t i) { return StepJson(flow, flow.steps[i], out.parts()); });
  if (!flow.objects.empty()) {
    out.Array("objects", flow.objects.size(),
              [&](size_t i) { return pod_json::ObjectJson(flow.objects[i], out.parts()); });
  }
}

// FlowMembers into one tree.
class TreeOut {
 public:
  void Member(const char* key, Json value) { tree_[key] = std::move(value); }
  template <typename Element>
  void Array(const char* key, size_t count, const Element& element, Floats = Floats::kNone) {
    Json array = Json::array();
    for (size_t i = 0; i < count; ++i) array.push_back(element(i));
    tree_[key] = std::move(array);
  }
  Json Take() { return std::move(tree_); }
  SharedParts* parts() { return nullptr; }  // whole trees

 private:
  Json tree_;
};

// FlowMembers printed as nlohmann's dump(2) prints the whole tree, holding one
// member or array element at a time. nlohmann writes every key and value; this
// writes only the glue between them (json_parts.h, pretty).
class TextOut {
 public:
  explicit TextOut(const std::function<void(std::string_view)>& write)
      : write_(write),
        // What basic_json::dump(2) runs (nlohmann/json.hpp), kept for the whole
        // document and writing straight into text_. It is nlohmann::detail,
        // not the documented API, because dump() cannot start at a depth
        // (`current_indent`); re-indenting each dumped piece instead cost 2 %
        // more instructions on the whole compile than the tree did.
        serializer_(nlohmann::detail::output_adapter<char, std::string>(text_), ' ',
                    nlohmann::detail::error_handler_t::strict) {
    text_ = "{";
  }

  void Member(const char* key, const Json& value) {
    Key(key);
    Piece(value, 1, Floats::kNone);
  }

  template <typename Element>
  void Array(const char* key, size_t count, const Element& element, Floats floats = Floats::kNone) {
    Key(key);
    if (count == 0) {
      text_ += "[]";  // as nlohmann prints an empty array
      return;
    }
    text_ += '[';
    for (size_t i = 0; i < count; ++i) {
      pretty::Item(text_, i == 0, 2 * kIndent);
      Piece(element(i), 2, floats);
      // The sink gets the text in pieces of some size, not one call per element.
      if (text_.size() >= kFlushSize) Flush();
    }
    pretty::Close(text_, kIndent, ']');
  }

  // The steps' and objects' trees hold stand-ins for their pods' shared parts, which Piece
  // writes from the text each part was given the first time (json_parts.h).
  SharedParts* parts() { return &parts_; }

  // Closes the document, with a final newline, and hands over what is left.
  void Finish() {
    pretty::Close(text_, 0, '}');
    text_ += '\n';
    Flush();
  }

 private:
  static constexpr size_t kFlushSize = 1 << 16;
  static constexpr unsigned kIndent = 2;

  void Key(const char* key) {
    pretty::Item(text_, members_++ == 0, kIndent);
    pretty::Key(serializer_, text_, key);
  }

  // `value` at nesting depth `depth`, as the pretty printer writes it nested
  // that deep: basic_json::dump() always starts at depth 0, its serializer
  // takes the depth as `current_indent` (the indent of the lines after the
  // first). Its floats are then printed as FlowToJsonText always has, by
  // ShortestFloats (a pass over the text, only where there are floats).
  void Piece(const Json& value, unsigned depth, Floats floats) {
    size_t start = text_.size();
    parts_.Dump(serializer_, text_, value, kIndent * depth);
    if (floats == Floats::kMaybe && HasFloat(value)) {
      std::string shortest = ShortestFloats(std::string_view(text_).substr(start));
      text_.replace(start, std::string::npos, shortest);
    }
  }

  void Flush() {
    write_(text_);
    text_.clear();
  }

  const std::function<void(std::string_view)>& write_;
  std::string text_;
  nlohmann::detail::serializer<Json> serializer_;
  SharedParts parts_;
  size_t members_ = 0;
};

}  // namespace

Json FlowToJson(const Flow& flow) {
  TreeOut out;
  FlowMembers(flow, out);
  return out.Take();
}

void WriteFlowJson(const Flow& flow, const std::function<void(std::string_view)>& write) {
  TextOut out(write);
  FlowMembers(flow, out);
  out.Finish();
}

std::string FlowToJsonText(const Flow& flow) {
  std::string text;
  WriteFlowJson(flow, [&](std::string_view piece) { text.append(piece); });
  return text;
}

}  // namespace flowc::ir
