#include "compiler/driver/diagnostic_printer.h"

#include <iostream>

#include <nlohmann/json.hpp>

#include "compiler/driver/driver.h"

#ifndef FLOWC_VERSION
#define FLOWC_VERSION "dev"
#endif

namespace flowc::driver {

void DiagnosticPrinter::Add(diag::Diagnostics& diagnostics) {
  if (werror_) diagnostics.PromoteWarnings();
  diagnostics.SortBySource();
  if (format_ == "text") {
    std::cerr << diag::RenderText(diagnostics.all());
  } else {
    all_.insert(all_.end(), diagnostics.all().begin(), diagnostics.all().end());
  }
}

void DiagnosticPrinter::Finish() {
  if (format_ == "json") {
    std::cerr << diag::RenderJson(all_).dump(2) << "\n";
  } else if (format_ == "sarif") {
    std::cerr << diag::RenderSarif(all_, FLOWC_VERSION).dump(2) << "\n";
  }
}

int IoError(const std::string& message) {
  std::cerr << "flowc: error: " << message << "\n";
  return kExitIo;
}

}  // namespace flowc::driver
