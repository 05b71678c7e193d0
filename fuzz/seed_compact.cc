// Writes the compact envelope of each DeployedPackage JSON file given, as
// seeds for fuzz_compact_decode: seed_compact OUT_DIR FILE...
// Files that are not packages are skipped.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "compact/compact.h"
#include "model/model_json.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: seed_compact OUT_DIR FILE...\n");
    return 2;
  }
  int written = 0;
  for (int i = 2; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    auto pkg = zs::ParseDeployedPackage(text.str());
    if (!pkg.ok()) continue;
    for (bool dictionary : {true, false}) {
      auto envelope = zs::compact::Encode(*pkg, {.level = 3, .use_dictionary = dictionary});
      if (!envelope.ok()) continue;
      const std::string out = std::string(argv[1]) + "/envelope-" + std::to_string(written++);
      std::ofstream(out, std::ios::binary) << *envelope;
    }
  }
  std::printf("%d envelopes\n", written);
  return 0;
}
