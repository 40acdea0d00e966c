// The floor under `flowc validate` on a big file: yaml-cpp's event parser reading every
// document into a handler that keeps nothing. flowc's reader is this parser plus the JSON it
// builds, so no run of flowc validate on the file can be faster. bench/validate.sh builds and
// times it.
//
//   yaml_scan FILE
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <fstream>
#include <iostream>

namespace {

class Discard : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override { ++nodes; }
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override { ++nodes; }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {
    ++nodes;
  }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    ++nodes;
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    ++nodes;
  }
  void OnMapEnd() override {}

  long nodes = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: yaml_scan FILE\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "yaml_scan: cannot read " << argv[1] << "\n";
    return 1;
  }
  YAML::Parser parser(in);
  Discard handler;
  while (parser.HandleNextDocument(handler)) {
  }
  std::cout << handler.nodes << " nodes\n";
  return 0;
}
