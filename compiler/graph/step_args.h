// A step's decorator arguments as they resolve: the step's own argument over the flow's over
// the table's default (decorator_table.h), and readers of argument values. Used by the graph
// stage's resolution of a step (decorators.cc) and by the checks on what a step resolves to
// (capacity.cc, W005).
#ifndef FLOWC_GRAPH_STEP_ARGS_H_
#define FLOWC_GRAPH_STEP_ARGS_H_

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/graph/decorator_table.h"
#include "compiler/graph/decorators.h"
#include "compiler/graph/quantity.h"
#include "compiler/parse/ast.h"

namespace flowc::graph::step_args {

// An argument's value (null: none) and whether the step wrote it (else the flow, or the
// table's default).
struct Resolved {
  const ast::Value* value = nullptr;
  bool from_step = false;
};

// One decorator's arguments for a step.
class Args {
 public:
  // A written decorator's arguments are found once here, by their position in the table.
  Args(const decorator_table::DecoratorSpec& spec, const ast::Decorator* flow,
       const ast::Decorator* step)
      : spec_(spec), index_(decorator_table::IndexOf(spec)), flow_(flow), step_(step) {
    if (!present()) return;
    written_.resize(spec.args.size());
    for (const ast::Decorator* d : {step_, flow_}) {
      if (d == nullptr) continue;
      for (const ast::Argument& arg : d->arguments) {
        size_t position = index_.Find(arg.name.name);
        // The first written wins: the step's, then the flow's.
        if (position != decorator_table::kNoArg && written_[position].value == nullptr) {
          written_[position] = {&arg.value, d == step_};
        }
      }
    }
  }

  bool present() const { return flow_ != nullptr || step_ != nullptr; }
  // The step's own decorator, else the flow's.
  const ast::Decorator* decorator() const { return step_ != nullptr ? step_ : flow_; }
  bool on_step() const { return step_ != nullptr; }
  std::string_view name() const { return spec_.name; }

  Resolved Get(std::string_view name) const {
    size_t position = index_.Find(name);
    if (position != decorator_table::kNoArg && !written_.empty() &&
        written_[position].value != nullptr) {
      return written_[position];
    }
    if (position != decorator_table::kNoArg) return {index_.Default(position), false};
    for (const ast::Decorator* d : {step_, flow_}) {  // a name the table lacks, as written
      for (size_t i = 0; d != nullptr && i < d->arguments.size(); ++i) {
        if (d->arguments[i].name.name == name) return {&d->arguments[i].value, d == step_};
      }
    }
    return {};
  }

  const ast::Value* operator[](std::string_view name) const { return Get(name).value; }

 private:
  const decorator_table::DecoratorSpec& spec_;
  const decorator_table::ArgIndex& index_;
  const ast::Decorator* flow_;
  const ast::Decorator* step_;
  std::vector<Resolved> written_;  // by position in spec_.args; empty when not present()
};

// Every decorator's arguments for one step, in the table's order. (A std::map of them, built
// for every step, had been a tenth of the graph's instructions.)
class ArgsByName : public std::vector<Args> {
 public:
  const Args& at(std::string_view name) const {
    for (const Args& args : *this) {
      if (args.name() == name) return args;
    }
    throw std::out_of_range(std::string(name));  // a name missing from Table(): a bug
  }
};

// Every decorator of the table, with the arguments the step and the flow wrote for it.
ArgsByName ArgsOf(const std::vector<const ast::Decorator*>& flow,
                  const std::vector<const ast::Decorator*>& step);

// The decorator called `name` in `list`, else null.
const ast::Decorator* Find(const std::vector<const ast::Decorator*>& list, std::string_view name);
// A list of strings; none for null.
std::vector<std::string> Strings(const ast::Value* list);
// A map, or a "k=v,k2=v2" string, as pairs in their written order; none for null.
KeyValues Pairs(const ast::Value* value);
// A size: an int is MB, a string a Kubernetes quantity (checked before).
Quantity Size(const ast::Value& value);
// The entry `key` of a map, else null.
const ast::Value* Field(const ast::Value& map, std::string_view key);

}  // namespace flowc::graph::step_args

#endif  // FLOWC_GRAPH_STEP_ARGS_H_
