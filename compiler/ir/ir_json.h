// The IR as stable, readable JSON (`flowc compile --target ir`).
//
// Keys keep a fixed order and unset fields are left out, so the text is the
// same for the same flow. A step's "pod" has the shape of a Kubernetes Pod
// (metadata, spec.containers[0], ...): it is the reference every read-back
// test compares a target's pods with.
#ifndef FLOWC_IR_IR_JSON_H_
#define FLOWC_IR_IR_JSON_H_

#include <functional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "compiler/ir/float_text.h"
#include "compiler/ir/ir.h"
#include "compiler/ir/sha256.h"

namespace flowc::ir {

nlohmann::ordered_json PodToJson(const Pod& pod);
// An object beside the pods: kind, name, namespace and its content.
nlohmann::ordered_json ObjectToJson(const Object& object);

// Sha256Hex(10) over the object's JSON content (name and namespace aside,
// as the caller leaves them empty; labels left out): the same content, the
// same name.
std::string ObjectContentHash(const Object& object);
// The whole document as one tree. For tests: the compiler prints the IR with
// WriteFlowJson, which never holds the tree.
nlohmann::ordered_json FlowToJson(const Flow& flow);
// The whole document, indented, with a final newline: FlowToJson's dump(2),
// byte for byte, given to `write` in pieces as it is made. Only one member or
// array element (a step, an object, a param) is a JSON tree at any time, so
// memory does not grow with the flow beyond the text `write` keeps.
void WriteFlowJson(const Flow& flow, const std::function<void(std::string_view)>& write);
// WriteFlowJson into one string.
std::string FlowToJsonText(const Flow& flow);

}  // namespace flowc::ir

#endif  // FLOWC_IR_IR_JSON_H_
