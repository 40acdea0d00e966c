#include "compiler/graph/queue.h"

#include <fmt/format.h>

#include <string_view>

namespace flowc::graph {
namespace {

using diag::Code;

const ast::Argument* Find(const ast::Decorator* d, std::string_view name) {
  if (d == nullptr) return nullptr;
  for (const ast::Argument& arg : d->arguments) {
    if (arg.name.name == name) return &arg;
  }
  return nullptr;
}

const ast::Decorator* FindQueue(const std::vector<ast::Decorator>& decorators) {
  for (const ast::Decorator& d : decorators) {
    if (d.name.name == "queue") return &d;
  }
  return nullptr;
}

constexpr const char* kNameHelp =
    "write @queue(name=\"...\") with the LocalQueue of the step's namespace, on the flow for "
    "every step or on the step";

}  // namespace

QueueConfig FlowQueue(const ast::Decorator& decorator) {
  QueueConfig queue;
  if (const ast::Argument* a = Find(&decorator, "name")) queue.name = a->value.string;
  if (const ast::Argument* a = Find(&decorator, "priority")) queue.priority = a->value.string;
  queue.range = decorator.range;
  return queue;
}

bool CheckFlowQueueNamed(const ast::Decorator* flow, const std::vector<ast::Step>& steps,
                         diag::Reporter& report) {
  if (flow == nullptr || Find(flow, "name") != nullptr) return true;
  for (const ast::Step& step : steps) {
    if (FindQueue(step.decorators) != nullptr) continue;
    report(Code::kQueue, flow->range, "'@queue' on the flow names no queue")
        .AddNote(step.name.range,
                 fmt::format("step '{}' has no '@queue' of its own to name one", step.name.name))
        .SetHelp(kNameHelp);
    return false;
  }
  return true;
}

std::optional<QueueConfig> ResolveQueue(const ast::Decorator* flow, const ast::Decorator* step,
                                        diag::Reporter& report, bool* ok) {
  if (flow == nullptr && step == nullptr) return std::nullopt;
  QueueConfig queue;
  for (std::string_view name : {"name", "priority"}) {
    const ast::Argument* arg = Find(step, name);
    if (arg == nullptr) arg = Find(flow, name);
    if (arg == nullptr) continue;
    (name == "name" ? queue.name : queue.priority) = arg->value.string;
  }
  queue.range = step != nullptr ? step->range : flow->range;
  if (queue.name.empty()) {
    if (step != nullptr) {
      auto& d = report(Code::kQueue, step->range, "'@queue' names no queue");
      if (flow != nullptr) d.AddNote(flow->range, "the flow's '@queue' names none either");
      d.SetHelp(kNameHelp);
    }
    *ok = false;
    return std::nullopt;
  }
  return queue;
}

bool CheckNoKueueLabels(const ast::Value* labels, diag::Reporter& report) {
  if (labels == nullptr) return true;
  bool ok = true;
  for (const ast::MapEntry& entry : labels->entries) {
    if (entry.key != kKueueQueueLabel && entry.key != kKueuePriorityLabel) continue;
    report(Code::kQueue, entry.key_range,
           fmt::format("label '{}' is written by '@queue', not by 'labels'", entry.key))
        .AddNote(
            "pod labels also reach the pods of a gang's JobSet or TrainJob, which Kueue "
            "would then admit a second time")
        .SetHelp(entry.key == kKueueQueueLabel
                     ? fmt::format("write @queue(name=\"{}\") instead", entry.value.string)
                     : fmt::format("write @queue(priority=\"{}\") instead", entry.value.string));
    ok = false;
  }
  return ok;
}

}  // namespace flowc::graph
