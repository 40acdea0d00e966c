// Where each step of a flow goes in Argo (its DAG, its template, its task's name), and the
// small facts about a step that both the checks (checks.h) and the renderer
// (renderer.h) need.
#ifndef FLOWC_BACKENDS_ARGO_LAYOUT_H_
#define FLOWC_BACKENDS_ARGO_LAYOUT_H_

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "compiler/ir/ir.h"

namespace flowc::backends::argo {

inline constexpr const char* kSubstitutionNote =
    "Argo substitutes a template up to three times and has no escape: flowc protects a "
    "literal '{{' from the first pass, and the next pass reads it again";

// A param's value as Argo's string parameter holds it: a string without its
// JSON quotes, anything else as JSON (3, 0.5, true, ["a","b"]).
std::string ParamValue(const ir::Param& param);

bool Retried(const ir::Step& step);

// A @parallel step creates one JobSet per element of a foreach and per
// attempt; those need names of their own.
bool HasIterationSuffix(const ir::Step& step);

// A @parallel step with @timeout: its gang's wait, time in a Kueue queue included, is bounded
// by the template that creates it, and a gang that outlives a failed attempt is deleted
// (bounded_gang.h). Such a step has two more templates.
bool BoundsGang(const ir::Step& step);

// Where each step goes. A step's task sits in the DAG of its innermost
// foreach, or in the entrypoint's; a foreach step is followed in that DAG by
// one more task, which runs the DAG of its body once per element. Every
// template and task is named after a step, so names are unique flow-wide.
class Layout {
 public:
  explicit Layout(const ir::Flow& flow);

  const std::string& entry() const { return entry_; }
  const std::string& step_name(size_t step) const { return flow_.steps[step].k8s_name; }
  const std::string& body_name(size_t foreach_step) const { return body_[foreach_step]; }
  const std::vector<size_t>& foreach_steps() const { return foreach_steps_; }
  // The templates of a step that BoundsGang: the one that creates its gang and the one that
  // deletes it.
  const std::string& gang_name(size_t step) const { return gang_[step]; }
  const std::string& delete_name(size_t step) const { return delete_[step]; }

  // `wanted`, or `wanted-<n>` when a template already has that name; taken from then on.
  std::string ClaimName(const std::string& wanted) { return Claim(wanted); }

  // The DAG a step's task sits in: its innermost foreach, or none.
  static std::optional<size_t> ScopeOf(const ir::Step& step) {
    if (step.enclosing_foreach.empty()) return std::nullopt;
    return step.enclosing_foreach.back();
  }

  // The task in the DAG of `scope` that stands for `step`: its own, the task
  // running the body that holds it, or none when it is outside the DAG.
  std::optional<std::string> TaskFor(size_t step, std::optional<size_t> scope) const;

 private:
  std::string Claim(const std::string& wanted);

  const ir::Flow& flow_;
  std::set<std::string> taken_;
  std::string entry_;
  std::vector<std::string> body_;    // per step; empty unless a foreach
  std::vector<std::string> gang_;    // per step; empty unless BoundsGang
  std::vector<std::string> delete_;  // per step; empty unless BoundsGang
  std::vector<size_t> foreach_steps_;
};

}  // namespace flowc::backends::argo

#endif  // FLOWC_BACKENDS_ARGO_LAYOUT_H_
