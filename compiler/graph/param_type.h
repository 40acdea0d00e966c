// The types a param can have (`param n: int`), shared by the graph and the
// IR so that both name them one way.
#ifndef FLOWC_GRAPH_PARAM_TYPE_H_
#define FLOWC_GRAPH_PARAM_TYPE_H_

namespace flowc::graph {

enum class ParamType { kStr, kInt, kFloat, kBool, kList };

// "str", "int", "float", "bool", "list": as the flow language writes them.
const char* ParamTypeName(ParamType type);

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_PARAM_TYPE_H_
