// The lowering of `@neuron` (docs/neuron.md): a step's Neuron request
// as a resource.k8s.io/v1 ResourceClaimTemplate, and the name flowc gives it.
// Used by LowerToIr; the template becomes an object beside the pods. `flowc graph`
// (compiler/driver/graph_view.cc) reads the request back with NeuronRequestSummary.
#ifndef FLOWC_IR_NEURON_CLAIMS_H_
#define FLOWC_IR_NEURON_CLAIMS_H_

#include <string>
#include <string_view>

#include "compiler/graph/neuron.h"
#include "compiler/ir/content_key.h"
#include "compiler/ir/ir.h"

namespace flowc::ir {

// The claim's name in the pod (`resourceClaims[].name`, and the container's
// `resources.claims[].name`), and the request's name in the template.
inline constexpr const char* kNeuronClaim = "neurons";
// The AWS Neuron DRA driver's DeviceClass and driver name.
inline constexpr const char* kNeuronDriver = "neuron.aws.com";
// The node label an UltraServer's nodes share, per UltraServer size; a gang
// on one UltraServer is placed exclusively on one value of it.
inline constexpr const char* kUltraServerTopologyPrefix = "neuron.amazonaws.com/ultraserver-server-id-";

// The template for a request flowc writes (not `template=`).
ResourceClaimTemplate NeuronClaimTemplate(const graph::NeuronConfig& neuron);

// `<flow>-neuron-<10 hex digits of SHA-256 over the template's content>`:
// the same request gets the same name in every flow run and target, and a
// changed request a new one, so an object in the cluster never changes.
// `hashes` hashes each distinct request once however many steps make it.
std::string NeuronClaimTemplateName(std::string_view flow_k8s_name,
                                    const ResourceClaimTemplate& claim_template,
                                    ContentHashes& hashes);

// What a template NeuronClaimTemplate made asks for, in a few words, as `flowc graph` shows it
// beside a step's other accelerators: the device class and how many ("neuron.aws.com x4",
// "neuron.aws.com all", "neuron.aws.com ultraserver x2"), "connected" for a connected set, and
// "on <instance type>" when one is asked for.
std::string NeuronRequestSummary(const ResourceClaimTemplate& claim_template);

}  // namespace flowc::ir

#endif  // FLOWC_IR_NEURON_CLAIMS_H_
