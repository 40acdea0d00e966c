// A step's lowered pod, summarised in Markdown for hover: computed by the same IR the
// compiler renders every target from, and which targets can express the step and how.
#ifndef FLOWC_LSP_POD_SUMMARY_H_
#define FLOWC_LSP_POD_SUMMARY_H_

#include <string>

#include "compiler/lsp/analysis.h"

namespace flowc::lsp {

// The summary of step `name` of `lowered` (an analysis with an IR), or "" when it has no
// such step.
std::string PodSummary(const Analysis& lowered, const std::string& name);

}  // namespace flowc::lsp

#endif  // FLOWC_LSP_POD_SUMMARY_H_
