#include "compiler/driver/spool.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <vector>

#include <fmt/format.h>

namespace flowc::driver {

Spool::Spool(std::string path, size_t memory_limit)
    : path_(std::move(path)), memory_limit_(path_ == "-" ? memory_limit : 0) {}

Spool::~Spool() {
  if (fd_ >= 0) ::close(fd_);
  if (!temp_path_.empty()) ::unlink(temp_path_.c_str());
}

bool Spool::Open() {
  std::string pattern;
  std::string dir;
  if (path_ == "-") {
    const char* tmpdir = std::getenv("TMPDIR");
    dir = tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
    pattern = dir + "/flowc-XXXXXX";
  } else {
    pattern = path_ + ".flowc-XXXXXX";  // beside the file, so that Commit is a rename
  }
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  fd_ = ::mkstemp(name.data());
  if (fd_ < 0) {
    errno_ = errno;
    temp_dir_ = dir;
    return false;
  }
  if (path_ == "-") {
    ::unlink(name.data());  // nobody else needs its name; it goes when closed
  } else {
    temp_path_ = name.data();
  }
  return true;
}

bool Spool::WriteAll(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      errno_ = errno;
      return false;
    }
    text.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

void Spool::Write(std::string_view text) {
  if (errno_ != 0) return;
  if (fd_ < 0 && memory_.size() + text.size() <= memory_limit_) {
    memory_ += text;
    return;
  }
  if (fd_ < 0) {
    if (!Open() || !WriteAll(fd_, memory_)) return;
    std::string().swap(memory_);
  }
  WriteAll(fd_, text);
}

bool Spool::Commit(std::string* error) {
  auto failed = [&](int code) {
    if (path_ != "-") {
      *error = fmt::format("cannot write '{}': {}", path_, std::strerror(code));
    } else if (!temp_dir_.empty()) {
      // Output past the memory limit waits in $TMPDIR: say so, not just that stdout failed.
      *error = fmt::format("cannot write to stdout: no temporary file in '{}' for output over "
                           "{} MiB: {}",
                           temp_dir_, memory_limit_ >> 20, std::strerror(code));
    } else {
      *error = fmt::format("cannot write to stdout: {}", std::strerror(code));
    }
    return false;
  };
  if (errno_ != 0) return failed(errno_);
  if (path_ == "-") {
    std::cout.flush();
    if (fd_ < 0) return WriteAll(STDOUT_FILENO, memory_) || failed(errno_);
    if (::lseek(fd_, 0, SEEK_SET) < 0) return failed(errno);
    std::vector<char> chunk(size_t{1} << 20);
    for (;;) {
      ssize_t n = ::read(fd_, chunk.data(), chunk.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return failed(errno);
      if (n == 0) return true;
      if (!WriteAll(STDOUT_FILENO, std::string_view(chunk.data(), static_cast<size_t>(n)))) {
        return failed(errno_);
      }
    }
  }
  if (fd_ < 0 && !Open()) return failed(errno_);
  if (!WriteAll(fd_, memory_)) return failed(errno_);
  // Keep the mode an ordinary new file would get, unless told which.
  mode_t mode = static_cast<mode_t>(mode_);
  if (mode_ < 0) {
    mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  if (::fchmod(fd_, mode) != 0) return failed(errno);
  int closed = ::close(fd_);
  fd_ = -1;
  if (closed != 0) return failed(errno);
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0) return failed(errno);
  temp_path_.clear();
  return true;
}

}  // namespace flowc::driver
