#include "compiler/diff/git.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

extern char** environ;

namespace flowc::diff {
namespace {

struct Result {
  int status = -1;  // the exit status; -1 when git could not be run
  std::string out;
  std::string err;
};

// Runs `git ARGS...` in `cwd` ("" for the current directory) with stdin from `input_path`
// (or /dev/null), collecting stdout and stderr.
Result RunGit(const std::vector<std::string>& args, const std::string& cwd,
              const std::string& input_path = "/dev/null") {
  Result result;
  std::vector<std::string> argv = {"git"};
  if (!cwd.empty()) argv.insert(argv.end(), {"-C", cwd});
  // No pager, no prompt for credentials (nothing here talks to a remote), no lock files taken
  // for a refresh of the index.
  argv.insert(argv.end(), {"--no-pager", "--no-optional-locks"});
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> c_argv;
  for (std::string& a : argv) c_argv.push_back(a.data());
  c_argv.push_back(nullptr);

  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return result;
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, input_path.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  pid_t pid;
  int spawned = ::posix_spawnp(&pid, "git", &actions, nullptr, c_argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (spawned != 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    result.err = fmt::format("cannot run git: {}", std::strerror(spawned));
    return result;
  }
  // Both pipes at once: git may fill one while flowc waits on the other.
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open = 2;
  char buffer[1 << 16];
  while (open > 0) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  for (pollfd& fd : fds) {
    if (fd.fd >= 0) ::close(fd.fd);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string Trim(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

std::string Failure(const Result& r, const std::string& what) {
  std::string err = Trim(r.err);
  return err.empty() ? fmt::format("{} failed", what) : fmt::format("{}: {}", what, err);
}

// Creates the folders of `path` below `dir`.
bool MakeParents(const std::string& dir, const std::string& path) {
  for (size_t slash = path.find('/'); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    std::string folder = dir + "/" + path.substr(0, slash);
    if (::mkdir(folder.c_str(), 0755) != 0 && errno != EEXIST) return false;
  }
  return true;
}

}  // namespace

std::optional<GitRepo> GitRepo::Open(std::string* error) {
  Result r = RunGit({"rev-parse", "--show-toplevel", "--show-prefix"}, "");
  if (r.status != 0) {
    *error = Failure(r, "git rev-parse");
    return std::nullopt;
  }
  GitRepo repo;
  size_t newline = r.out.find('\n');
  repo.root_ = r.out.substr(0, newline);
  repo.prefix_ = newline == std::string::npos ? "" : Trim(r.out.substr(newline + 1));
  return repo;
}

std::optional<std::string> GitRepo::ResolveCommit(const std::string& rev) const {
  Result r =
      RunGit({"rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}"}, root_);
  if (r.status != 0) return std::nullopt;
  return Trim(r.out);
}

std::optional<std::vector<GitFile>> GitRepo::Tree(const std::string& commit,
                                                  std::string* error) const {
  Result r = RunGit({"ls-tree", "-r", "-z", "--full-tree", commit}, root_);
  if (r.status != 0) {
    *error = Failure(r, "git ls-tree");
    return std::nullopt;
  }
  // "<mode> SP <type> SP <object> TAB <path> NUL" (git-ls-tree(1), "Output format").
  std::vector<GitFile> files;
  size_t start = 0;
  while (start < r.out.size()) {
    size_t end = r.out.find('\0', start);
    if (end == std::string::npos) end = r.out.size();
    std::string entry = r.out.substr(start, end - start);
    start = end + 1;
    size_t tab = entry.find('\t');
    size_t space1 = entry.find(' ');
    size_t space2 = space1 == std::string::npos ? space1 : entry.find(' ', space1 + 1);
    if (tab == std::string::npos || space2 == std::string::npos || space2 > tab) continue;
    if (entry.compare(space1 + 1, space2 - space1 - 1, "blob") != 0) continue;  // submodules
    files.push_back({entry.substr(tab + 1), entry.substr(0, space1),
                     entry.substr(space2 + 1, tab - space2 - 1)});
  }
  return files;
}

std::optional<std::vector<std::string>> GitRepo::WorkingTree(std::string* error) const {
  Result r = RunGit(
      {"ls-files", "-z", "--cached", "--others", "--exclude-standard", "--full-name", "--", "."},
      root_);
  if (r.status != 0) {
    *error = Failure(r, "git ls-files");
    return std::nullopt;
  }
  std::vector<std::string> files;
  size_t start = 0;
  while (start < r.out.size()) {
    size_t end = r.out.find('\0', start);
    if (end == std::string::npos) end = r.out.size();
    if (end > start) files.push_back(r.out.substr(start, end - start));
    start = end + 1;
  }
  return files;
}

bool GitRepo::Materialize(const std::vector<GitFile>& files, const std::string& dir,
                          std::string* error) const {
  if (files.empty()) return true;
  // `git cat-file --batch` reads one object id a line and writes "<id> SP <type> SP <size> LF
  // <content> LF" for each (git-cat-file(1), "BATCH OUTPUT"). The ids go through a file, so
  // that git never waits on a pipe flowc is not yet reading.
  std::string list = dir + "/.flowc-diff-objects";
  {
    std::ofstream out(list, std::ios::binary);
    for (const GitFile& f : files) out << f.object << '\n';
    if (!out) {
      *error = fmt::format("cannot write '{}'", list);
      return false;
    }
  }
  Result r = RunGit({"cat-file", "--batch"}, root_, list);
  ::unlink(list.c_str());
  if (r.status != 0) {
    *error = Failure(r, "git cat-file");
    return false;
  }
  size_t at = 0;
  for (const GitFile& f : files) {
    size_t newline = r.out.find('\n', at);
    if (newline == std::string::npos) break;
    std::string header = r.out.substr(at, newline - at);
    size_t space = header.rfind(' ');
    size_t size = space == std::string::npos ? 0 : std::stoul(header.substr(space + 1));
    std::string content = r.out.substr(newline + 1, size);
    at = newline + 1 + size + 1;
    if (!MakeParents(dir, f.path)) {
      *error = fmt::format("cannot create the folders of '{}' in '{}'", f.path, dir);
      return false;
    }
    std::string path = dir + "/" + f.path;
    if (f.mode == "120000") {
      if (::symlink(content.c_str(), path.c_str()) != 0) {
        *error = fmt::format("cannot create the link '{}': {}", path, std::strerror(errno));
        return false;
      }
      continue;
    }
    std::ofstream out(path, std::ios::binary);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();
    if (!out || ::chmod(path.c_str(), f.mode == "100755" ? 0755 : 0644) != 0) {
      *error = fmt::format("cannot write '{}'", path);
      return false;
    }
  }
  return true;
}

}  // namespace flowc::diff
