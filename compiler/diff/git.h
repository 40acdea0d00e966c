// A git repository read through the `git` command, for `flowc diff --git`.
//
// Why the command and not libgit2: flowc is linked statically (CMakeLists.txt), and Debian
// bookworm's libgit2.a references GSSAPI (its HTTP Negotiate authentication), whose Debian
// packages (libkrb5-dev, heimdal-dev) ship no static archive, so a static flowc cannot link it.
// The command is run with an argument vector (posix_spawnp, no shell), every path after "--"
// or in NUL-separated output (-z), so no name in a repository is read as an option or split.
#ifndef FLOWC_DIFF_GIT_H_
#define FLOWC_DIFF_GIT_H_

#include <optional>
#include <string>
#include <vector>

namespace flowc::diff {

struct GitFile {
  std::string path;    // from the repository's root
  std::string mode;    // "100644", "100755", "120000" (a link)
  std::string object;  // the blob's id
};

class GitRepo {
 public:
  // The repository holding the current directory; nullopt with `error` outside one.
  static std::optional<GitRepo> Open(std::string* error);

  const std::string& root() const { return root_; }
  // The current directory from the root, "" or ending in '/'.
  const std::string& prefix() const { return prefix_; }

  // The commit `rev` names, or nullopt.
  std::optional<std::string> ResolveCommit(const std::string& rev) const;
  // Every file of `commit`'s tree.
  std::optional<std::vector<GitFile>> Tree(const std::string& commit, std::string* error) const;
  // The files of the working tree git sees: tracked and untracked, ignored ones left out.
  std::optional<std::vector<std::string>> WorkingTree(std::string* error) const;
  // Writes each of `files` under `dir` at its path, with its mode (a link as a link).
  bool Materialize(const std::vector<GitFile>& files, const std::string& dir,
                   std::string* error) const;

 private:
  std::string root_;
  std::string prefix_;
};

}  // namespace flowc::diff

#endif  // FLOWC_DIFF_GIT_H_
