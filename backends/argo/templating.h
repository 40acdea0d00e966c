// Argo Workflows templating: how the Argo target spells the flow's references
// and how it protects literal text from Argo's own `{{...}}` substitution.
// Used by the Argo backend's string policies (argo_backend.cc) and its tests.
//
// Argo has no escape character. Its controller serialises a template to JSON
// and substitutes every `{{tag}}` it can resolve and evaluates every
// `{{=expression}}`, and it does so up to three times for the same text
// (globals, then inputs, then the finished pod; util/template, workflowpod.go).
// flowc writes a literal run of `{` that could open a tag as an expression
// that yields the same braces, `{{='{{'}}`, which the first pass evaluates.
// The braces it yields are read again by the later passes; there they are
// harmless unless what follows them is itself something Argo resolves: one of
// its variables, an expression, or one of flowc's own `{{item}}` tags that is
// still waiting for its pass. LiteralsArgoWouldRead finds those cases, which
// the backend reports instead of emitting text that Argo would change.
#ifndef FLOWC_BACKENDS_ARGO_TEMPLATING_H_
#define FLOWC_BACKENDS_ARGO_TEMPLATING_H_

#include <string>
#include <string_view>
#include <vector>

#include "compiler/ir/ir.h"

namespace flowc::backends::argo {

// The name of the input parameter that carries a foreach element into the
// templates of the foreach body.
inline constexpr const char* kItemParameter = "item";

// How references are spelled.
enum class RefStyle {
  // A container template: Argo substitutes the value into JSON, escaped.
  kContainer,
  // A resource manifest: Argo splices the value into the manifest's YAML
  // text as it is, so references become expressions that yield the value
  // JSON-escaped, for a manifest whose strings are all double-quoted.
  kManifest,
};

// `{{workflow.parameters.<name>}}`, `{{inputs.parameters.item}}`,
// `{{workflow.name}}` in the given style.
std::string ParamRef(std::string_view name, RefStyle style);
std::string ItemRef(RefStyle style);
std::string RunIdRef();

// `text` written so that Argo's first pass yields it unchanged.
// `tag_follows`: the output is followed directly by a `{{` tag, so a trailing
// `{` must not run into it.
std::string EscapeLiteral(std::string_view text, bool tag_follows = false);

// A command argument: literal segments escaped, references translated.
// Literal braces right before `{{item}}` are written into one expression with
// the item (`{{='{' + inputs.parameters.item}}`), which Argo evaluates in the
// pass that knows the item, so no brace of the first pass runs into its tag.
std::string TranslateText(const ir::Text& text, RefStyle style);

// Each literal `{{...` in `text` that a later pass of Argo's would not leave
// alone, as the flow spells it ("{{workflow.name}}", "{{=1+1}}"); empty when
// Argo passes every literal brace through. `text` is a command argument
// spelled in `style`, or any other string. `unterminated_unsafe`: a `{{`
// without a `}}` after it in the same string is unsafe too, as in a manifest
// that holds an item reference the `{{` would run into.
std::vector<std::string> LiteralsArgoWouldRead(const ir::Text& text, RefStyle style,
                                               bool unterminated_unsafe = false);
std::vector<std::string> LiteralsArgoWouldRead(std::string_view literal,
                                               bool unterminated_unsafe = false);

}  // namespace flowc::backends::argo

#endif  // FLOWC_BACKENDS_ARGO_TEMPLATING_H_
