// File input for the driver: reading inputs (or stdin), and comparing an output with what
// is there (--check). Outputs are written through spool.h.
#ifndef FLOWC_DRIVER_FILES_H_
#define FLOWC_DRIVER_FILES_H_

#include <optional>
#include <string>

namespace flowc::driver {

// Reads `path` ("-" is stdin). On failure returns nullopt and sets `error`.
std::optional<std::string> ReadInput(const std::string& path, std::string* error);

bool IsDirectory(const std::string& path);

// A unified diff of `before` (labelled `from`) and `after` (labelled `to`),
// or "" when they are equal.
std::string UnifiedDiff(const std::string& before, const std::string& after,
                        const std::string& from, const std::string& to);

}  // namespace flowc::driver

#endif  // FLOWC_DRIVER_FILES_H_
