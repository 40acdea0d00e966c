// How the Argo renderer (renderer.h) spells one step's pod strings: through
// templating.h's translation, recording each literal `{{` that Argo would read as its own tag,
// which the renderer reports at the step.
#ifndef FLOWC_BACKENDS_ARGO_ARGO_STRINGS_H_
#define FLOWC_BACKENDS_ARGO_ARGO_STRINGS_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "backends/argo/templating.h"
#include "backends/k8s/pod_yaml.h"
#include "compiler/ir/ir.h"

namespace flowc::backends::argo {

// Argo spelling for every string of one step's pod. The renderer calls it for
// each string it writes, so it also records, for the diagnostics, each
// literal `{{` that Argo would not pass through (mutable: the renderer's
// interface is const, and a record is not a change of policy).
class ArgoStrings final : public k8s::StringPolicy {
 public:
  // `pod`: the pod whose strings these are, written in Argo's order: what
  // comes before its command comes before it in the template's text too.
  ArgoStrings(RefContext context, const ir::Pod& pod) : context_(context) {
    for (const ir::Text& arg : pod.command) pending_args_ += HasPendingReference(arg, context);
  }

  std::string Text(const ir::Text& text) const override {
    pending_args_ -= HasPendingReference(text, context_);
    Record(LiteralsArgoWouldRead(text, context_, /*pending_after=*/pending_args_ > 0));
    return TranslateText(text, context_);
  }
  std::string Literal(std::string_view text) const override {
    Record(LiteralsArgoWouldRead(text, /*pending_after=*/pending_args_ > 0));
    return EscapeLiteral(text);
  }

  const std::vector<std::string>& unsafe() const { return unsafe_; }

 private:
  void Record(std::vector<std::string> tags) const {
    for (std::string& tag : tags) {
      bool seen = false;
      for (const std::string& s : unsafe_) seen |= s == tag;
      if (!seen) unsafe_.push_back(std::move(tag));
    }
  }

  RefContext context_;
  // Command arguments not yet written that hold an expression of the pass
  // that decodes the element (mutable, like unsafe_: the renderer's order).
  mutable int pending_args_ = 0;
  mutable std::vector<std::string> unsafe_;
};

}  // namespace flowc::backends::argo

#endif  // FLOWC_BACKENDS_ARGO_ARGO_STRINGS_H_
