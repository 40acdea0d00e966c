// Python and Jinja text for the Airflow target.
//
// Defines the one function that turns any string into a Python string
// literal (PythonString), the one translator from flow text to the Jinja that
// Airflow renders in templated fields (JinjaLiteral, JinjaText, JinjaParts),
// and PyExpr, a small expression tree that prints Python source
// deterministically, one element per line when a line would pass 100
// columns. Used only by airflow_backend.cc; every user string in a DAG file
// comes through here.
//
// A string may be read twice before it reaches a container: Python reads the
// literal, then Airflow renders it as a Jinja template if it sits in a
// templated field. The Jinja functions make the template render to the text;
// PythonString then makes Python read back the template byte for byte.
#ifndef FLOWC_BACKENDS_AIRFLOW_PYTHON_H_
#define FLOWC_BACKENDS_AIRFLOW_PYTHON_H_

#include <cstddef>
#include <memory_resource>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/ir/ir.h"

namespace flowc::backends::airflow {

enum class StringStyle {
  kInline,  // "..." on one line: \n, \t, quotes and backslashes escaped
  kBlock,   // """\ then the text's own lines: for long multi-line text (YAML)
};

// `text` as a Python 3 string literal that evaluates to exactly `text`.
// Control characters, C1 controls, line and paragraph separators, the byte
// order mark and bidirectional overrides are escaped so that the file reads
// the way it runs; other non-ASCII text is kept as UTF-8. A byte that is not
// valid UTF-8 becomes \udcXX (Python's surrogateescape).
std::string PythonString(std::string_view text, StringStyle style = StringStyle::kInline);

// PythonString(text, kBlock) in parts, for a text that repeats a long part:
// PythonBlockBody is what it writes between its quotes, and
// PythonBlockString({PythonBlockBody(a), PythonBlockBody(b)}) is
// PythonString(a + b, kBlock) when `a` ends in a newline (the escape of a
// quote looks only at the next character, and of a code point only at it).
std::string PythonBlockBody(std::string_view text);
std::string PythonBlockString(const std::vector<std::string_view>& bodies);

// How `{{item}}` is translated where it may appear.
struct JinjaScope {
  enum class Item {
    kNone,      // no foreach element here
    kVariable,  // the Jinja variable `item` (JobSet commands, see flowc_run_jobset)
    kConstant,  // a known element: `item_value`, as KubeletValue, escaped as literal text
  };
  const std::vector<ir::Param>* params = nullptr;  // types decide how a param renders
  Item item = Item::kNone;
  std::string item_value;
};

// A Jinja template that renders to exactly `text`: `{{`, `{%` and `{#` are
// written as `{{ '{{' }}` etc., a carriage return as `{{ '\r' }}` (Jinja
// turns a literal one into \n) and a final newline as `{{ '\n' }}` (Jinja
// drops one unless keep_trailing_newline is set).
std::string JinjaLiteral(std::string_view text);

// A value written into a command at compile time, as flowc_text writes one
// at run time: each `$` doubled, because kubelet reads `$$` as `$` and
// expands `$(NAME)`, whatever text follows the value.
std::string KubeletValue(std::string_view value);

// `text` as one Jinja template: `{{name}}` -> `{{ params.name | flowc_text }}`,
// `{{run_id}}` -> `{{ run_id }}`, `{{item}}` per `scope`, literal text as
// JinjaLiteral.
std::string JinjaText(const ir::Text& text, const JinjaScope& scope);

// `text` split at each `{{item}}`: the pieces between are complete Jinja
// templates, nullopt marks the element. For mapped tasks, whose mapped
// arguments Airflow does not render: the pieces are rendered, then joined
// around the element at run time (flowc_argv).
std::vector<std::optional<std::string>> JinjaParts(const ir::Text& text, const JinjaScope& scope);

// A Python expression. Leaves are source text; strings enter only through
// Str (PythonString) so none can escape its quotes.
//
// Its strings and lists take their memory from the default memory resource
// (std::pmr), which PyExprArena points at an arena while the writer builds
// and prints one task's expressions.
class PyExpr {
 public:
  using Exprs = std::pmr::vector<PyExpr>;
  using Items = std::pmr::vector<std::pair<PyExpr, PyExpr>>;
  using Kwargs = std::pmr::vector<std::pair<std::pmr::string, PyExpr>>;

  static PyExpr Code(std::string_view code);
  static PyExpr Str(std::string_view text);
  static PyExpr Int(int64_t value);
  static PyExpr Bool(bool value);
  static PyExpr None();
  static PyExpr Call(std::string_view callee, Exprs args, Kwargs kwargs = {});
  // A call of what another expression evaluates to: `task(...)(f)(...)`.
  static PyExpr Call(PyExpr callee, Exprs args, Kwargs kwargs = {});
  // `base.name`, as in `KubernetesPodOperator.partial(...).expand`.
  static PyExpr Attr(PyExpr base, std::string_view name);
  static PyExpr List(Exprs items);
  static PyExpr Dict(Items items);

  // The expression on one line (computed once).
  std::string_view Flat() const;
  // Flat().size(), without building the text: FormatAt asks each level
  // whether it fits on its line, and writes the flat text only of what does
  // (a pod's 200 @code items are a long list of short lines).
  size_t FlatSize() const;
  // The expression starting at `column` of a line indented by `indent`,
  // followed on its last line by `trailing` more characters. It breaks into
  // one element per line, indented 4 more, only where the flat form would
  // pass 100 columns.
  std::string FormatAt(size_t indent, size_t column, size_t trailing) const;
  // FormatAt, appended to `out`.
  void FormatInto(std::string& out, size_t indent, size_t column, size_t trailing) const;

 private:
  enum class Kind { kCode, kCall, kList, kDict, kAttr };
  void AppendFlat(std::string& out) const;
  // The bracketed part of the flat form: `(a, k=v)`, `[a, b]`, `{k: v}`.
  void AppendFlatArgs(std::string& out) const;
  void FormatArgsInto(std::string& out, size_t indent, size_t column, size_t trailing) const;
  Kind kind_ = Kind::kCode;
  std::pmr::string code_;  // kCode: the text; kAttr: the name
  Exprs callee_;           // kCall: the callee; kAttr: the base (one element)
  Exprs args_;
  Kwargs kwargs_;
  Items items_;
  mutable std::optional<std::pmr::string> flat_;  // Flat(), once asked
  mutable std::optional<size_t> flat_size_;       // FlatSize(), once asked
};

// While one lives, the PyExprs built take their memory from `buffer`, then
// from blocks it asks of the heap, all freed at once when it ends. (It sets
// the process's default resource: flowc's backends run on one thread.) A
// task's expressions are some 40 small strings and lists, made and dropped
// together; through malloc they were half the DAG writer's allocations, and
// at 100,000 tasks each cost more the larger and more scattered the heap
// (bench/PROFILE.md, "What changed for growth"). No PyExpr made in its life may outlive it.
class PyExprArena {
 public:
  explicit PyExprArena(std::vector<std::byte>& buffer)
      : arena_(buffer.data(), buffer.size()), previous_(std::pmr::set_default_resource(&arena_)) {}
  ~PyExprArena() { std::pmr::set_default_resource(previous_); }
  PyExprArena(const PyExprArena&) = delete;
  PyExprArena& operator=(const PyExprArena&) = delete;

 private:
  std::pmr::monotonic_buffer_resource arena_;
  std::pmr::memory_resource* previous_;
};

}  // namespace flowc::backends::airflow

#endif  // FLOWC_BACKENDS_AIRFLOW_PYTHON_H_
