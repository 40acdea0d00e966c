// Where the driver keeps a compile's output until the compile is known to have succeeded:
// the backends write as they render (backends/backend.h), and a diagnostic may still come, or
// --werror turn a warning into an error, after they wrote. Small output stays in memory; large
// output goes to a temporary file as it comes, so a 100,000-step flow's text is never held
// whole. Nothing reaches the destination unless Commit is called.
#ifndef FLOWC_DRIVER_SPOOL_H_
#define FLOWC_DRIVER_SPOOL_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "backends/backend.h"

namespace flowc::driver {

class Spool final : public backends::OutputSink {
 public:
  // Output for `path` ("-" is stdout). A file's text goes to a temporary file beside it from
  // the first byte, which Commit renames; stdout's stays in memory up to `memory_limit` bytes,
  // then moves to an unnamed temporary file in $TMPDIR (or /tmp).
  explicit Spool(std::string path, size_t memory_limit = size_t{8} << 20);
  ~Spool() override;  // removes the temporary file unless committed
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  void Write(std::string_view text) override;

  // The permission bits the file gets at Commit (flowc fmt keeps a rewritten file's); without
  // this call, those of a new file.
  void set_mode(unsigned mode) { mode_ = static_cast<int>(mode & 07777); }

  // Makes the text the file's content (atomically: through the rename, so a failure leaves
  // the previous file as it was), or copies it to stdout. Sets `error` on failure.
  bool Commit(std::string* error);

 private:
  bool Open();  // the temporary file
  bool WriteAll(int fd, std::string_view text);

  std::string path_;
  size_t memory_limit_;
  std::string memory_;
  int fd_ = -1;
  std::string temp_path_;  // "" for an unnamed file
  int mode_ = -1;           // -1: a new file's
  int errno_ = 0;          // the first failure, reported at Commit
  std::string temp_dir_;   // set when the temporary file could not be made: where it failed
};

}  // namespace flowc::driver

#endif  // FLOWC_DRIVER_SPOOL_H_
