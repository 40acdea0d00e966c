// The JSON value of a plain (unquoted, untagged) YAML scalar, as sigs.k8s.io/yaml reads it.
//
// kubectl reads manifests with sigs.k8s.io/yaml, whose YAML layer is a fork of go-yaml v2
// (sigs.k8s.io/yaml goyaml.v2/resolve.go, `resolve`): YAML 1.1's booleans (y, yes, on, ...),
// nulls (~, null, empty), integers through Go's strconv.ParseInt with base 0 after dropping '_'
// (so 0x1F is hex and 0755 octal), floats of the form [-+](.d+|d+(.d*)?)([eE][-+]?d+)? and
// .inf/.nan. A timestamp stays a string when decoded into interface{} (goyaml.v2/decode.go).
// The YAML is then marshalled to JSON (sigs.k8s.io/yaml yaml.go, JSONToYAML's inverse
// yamlToJSON): a float with no fraction prints as an integer, so `1.0` reaches the API server
// as 1.
#ifndef FLOWC_VALIDATE_YAML_SCALAR_H_
#define FLOWC_VALIDATE_YAML_SCALAR_H_

#include <nlohmann/json.hpp>
#include <string_view>

namespace flowc::validate {

nlohmann::json ResolvePlainScalar(std::string_view text);

// A float as JSON would carry it after Go's encoding/json: integral values within 2^63 become
// integers (json.Marshal prints 1.0 as 1; the API server decodes 1 as an int64).
nlohmann::json JsonNumber(double value);

}  // namespace flowc::validate

#endif  // FLOWC_VALIDATE_YAML_SCALAR_H_
