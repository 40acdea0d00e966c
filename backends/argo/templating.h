// Argo Workflows templating: how the Argo target spells the flow's references
// and how it protects literal text and run-time values from Argo's own
// `{{...}}` substitution and from kubelet's `$(VAR)` expansion. Used by the
// Argo backend (renderer.cc, split_render.cc) and its tests.
//
// Argo has no escape character. Its controller serialises a template to JSON
// and substitutes every `{{tag}}` it can resolve and evaluates every
// `{{=expression}}` (util/template: valyala/fasttemplate pairs each `{{` with
// the next `}}` in the whole JSON text), and it does so several times for
// the same text: a DAG task when its dependencies resolve and again, strictly
// (an unknown tag fails the task), when it is expanded over its items
// (workflow/controller/dag.go resolveDependencyReferences, expandTask,
// operator.go processItem); a template in two passes, globals then inputs
// (workflow/common/util.go SubstituteParams), twice more when it is retried,
// and the pod once more (workflowpod.go substitutePodParams).
//
// So flowc writes:
//  - a literal run of `{` that could open a tag as an expression that yields
//    the same braces, `{{='{{'}}`, which the first pass evaluates;
//  - a foreach element, wherever Argo carries it (withItems, withParam, the
//    `item` parameters), as the body of its JSON string literal with `{` and
//    `}` written `\u007b` and `\u007d`: text in which no pass finds a tag. The
//    template that uses the element decodes it in the pass that resolves its
//    inputs, after every literal brace has been evaluated;
//  - every run-time value (a param, an element) through an expression that
//    doubles its `$` for kubelet (sprig.replace), JSON-escapes it inside a
//    JobSet manifest, and, in a template that also uses the element, hides
//    its `{` from that later pass.
// LiteralsArgoWouldRead finds the literal text that Argo would still read as
// its own tag; the backend reports it instead of emitting text Argo changes.
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
// The parameter that carries the run's name (`{{run_id}}`) into the Workflow of a part of a
// split flow (split.h); a flow's params are identifiers, so none is named so.
inline constexpr const char* kRunIdParameter = "flowc-run-id";

// How references are spelled.
enum class RefStyle {
  // A container template: Argo substitutes the value into JSON, escaped.
  kContainer,
  // A resource manifest: Argo splices the value into the manifest's YAML
  // text as it is, so references become expressions that yield the value
  // JSON-escaped, for a manifest whose strings are all double-quoted.
  kManifest,
};

// Where a reference is written.
struct RefContext {
  RefStyle style = RefStyle::kContainer;
  // The template uses the foreach element, which Argo resolves one pass
  // after the params: a param's value must then not show Argo a `{`.
  bool uses_item = false;
  // The template runs in a part's Workflow (split.h), whose own name is not the run's: there
  // the run's name is kRunIdParameter, which the part's creator passes on.
  bool in_part = false;
};

// A reference to param `name`, to the element, to the run, as a template of
// the foreach body spells it; `braces`: literal `{` written right before the
// reference, which go into the same expression.
std::string ParamRef(std::string_view name, const RefContext& context,
                     std::string_view braces = {});
std::string ItemRef(const RefContext& context, std::string_view braces = {});
// The run's name: its Workflow's own, or in a part (RefContext::in_part) kRunIdParameter.
std::string RunIdRef(bool in_part);

// How a DAG task hands the element on: the expanded item as withItems and
// withParam carry it, or the input of the body it runs in; both still encoded.
std::string ExpandedItem();
std::string ItemInput();

// A literal foreach element as withItems carries it (encoded, see above).
std::string EncodeItem(std::string_view text);
// withParam for a foreach over list param `name`: its elements, each as the
// text `{{item}}` stands for (a string as it is, anything else as JSON with
// each number as the param's text writes it, as Argo's own withParam keeps
// it), encoded like EncodeItem.
std::string ItemsOfParam(std::string_view name);

// `text` written so that Argo's first pass yields it unchanged.
// `tag_follows`: the output is followed directly by a `{{` tag, so a trailing
// `{` must not run into it.
std::string EscapeLiteral(std::string_view text, bool tag_follows = false);

// A command argument: literal segments escaped, references translated.
// Literal braces right before a param or the item are written into the
// reference's expression.
std::string TranslateText(const ir::Text& text, const RefContext& context);

// Each literal `{{...` in `text` that a later pass of Argo's would not leave
// alone, as the flow spells it ("{{workflow.name}}", "{{=1+1}}"); empty when
// Argo passes every literal brace through. `text` is a command argument
// written in `context`. In a template that uses the element, Argo reads a
// literal `{{` (which its first pass yields) together with the text up to
// the next `}}`, maybe in a later string: that must not hold an expression of
// the pass that decodes the element (HasPendingReference), which it would
// then not evaluate. `pending_after`: such an expression follows in a later
// string of the template. The string_view form is for any other string of a
// step (env, labels, ...).
std::vector<std::string> LiteralsArgoWouldRead(const ir::Text& text, const RefContext& context,
                                               bool pending_after = false);
std::vector<std::string> LiteralsArgoWouldRead(std::string_view literal,
                                               bool pending_after = false);

// Whether `text`, written in `context`, holds an expression that Argo
// evaluates in the pass that decodes the element: the element's own, or a
// param's hidden braces.
bool HasPendingReference(const ir::Text& text, const RefContext& context);

}  // namespace flowc::backends::argo

#endif  // FLOWC_BACKENDS_ARGO_TEMPLATING_H_
