// Kubernetes quantities as the flow language writes them: memory and disk as
// an integer of MB or a quantity string ("16Gi", "500M"), cpu as a number.
//
// A second grammar, on purpose: `flowc validate` reads Kubernetes' whole one exactly
// (compiler/validate/checks/quantity.cc: signs, decimal exponents, "m" and "n"), while a flow
// accepts fewer forms, refusing what a user could mean two ways ("16GB", "16gi"). Unlike
// the names and cron fields (compiler/rules), the two are not one rule written twice.
#ifndef FLOWC_GRAPH_QUANTITY_H_
#define FLOWC_GRAPH_QUANTITY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace flowc::graph {

// A memory or disk size: the text to emit and its size in bytes, to compare.
struct Quantity {
  std::string text;  // "4096M", "16Gi"
  double bytes = 0;
};

// `mb` megabytes (10^6 bytes), written "<mb>M" as docs/language.md prescribes.
Quantity QuantityFromMb(int64_t mb);

struct QuantityError {
  std::string message;
  std::string help;
};

// Parses a quantity string for memory or disk. Accepts Kubernetes' binary
// (Ki Mi Gi Ti Pi Ei) and decimal (k M G T P E) suffixes; rejects what a user
// could mean two ways ("16GB", "16gi", a bare number of bytes) with a help.
std::optional<Quantity> ParseQuantity(std::string_view text, QuantityError* error);

// Millicores for a cpu count, as Kubernetes writes it: "2", "500m".
std::string CpuQuantity(int64_t millis);

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_QUANTITY_H_
