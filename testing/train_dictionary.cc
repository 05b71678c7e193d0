// Builds the zstd dictionary of the compact codec (compact/data/zarf_state*.dict)
// and measures what it buys. Built on demand only (target
// zs_train_dictionary).
//
//   zs_train_dictionary train --out=FILE --fixtures=DIR [--size=BYTES]
//       The shipped kind of dictionary (BuildDictionary): 32 KiB trained by
//       zstd on synthetic packages (hand-modelled on Zarf's init package and
//       examples, every era's field set, v2 events, and
//       MakeSamplePackageJson at several sizes), followed by state
//       Zarf wrote: the package fixtures under DIR/legacy, newest era
//       nearest the end, each only when the state chosen so far does not
//       already predict it. --size caps the whole (default 96 KiB).
//   zs_train_dictionary crossval --fixtures=DIR [--size=BYTES]
//       What that buys for state the dictionary has not seen: built from
//       some eras' fixtures, measured on the other eras' and on a held-out
//       synthetic set (different seeds).
//   zs_train_dictionary measure --fixtures=DIR
//       The shipped codec on every DIR/legacy/*/pkg-*.payload.json: JSON,
//       gzip -9 of the JSON, compact with and without the dictionary.
//
// The samples are what the codec compresses: the Protobuf bytes inside the
// envelope, recovered from an Encode without dictionary.
#include <zdict.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "testing/synthetic_package.h"
#include "compact/compact.h"
#include "compact/internal/format.h"
#include "model/model_json.h"

namespace zs {
namespace {

// ---------------------------------------------------------------- samples

// The Protobuf bytes the codec compresses for `pkg`.
std::string ProtoBytes(const DeployedPackage& pkg) {
  auto envelope = compact::Encode(pkg, {.level = 1, .use_dictionary = false});
  if (!envelope.ok()) return {};
  const std::string& e = *envelope;
  std::uint32_t length = 0;
  for (int i = 0; i < 4; ++i) {
    length |= std::uint32_t{static_cast<unsigned char>(
                  e[compact::internal::kLengthOffset + i])}
              << (8 * i);
  }
  const std::string_view payload =
      std::string_view(e).substr(compact::internal::kHeaderSize);
  if ((e[compact::internal::kFlagsOffset] & compact::internal::kFlagZstd) == 0)
    return std::string(payload);
  std::string out(length, '\0');
  const std::size_t n =
      ZSTD_decompress(out.data(), out.size(), payload.data(), payload.size());
  return ZSTD_isError(n) || n != length ? std::string() : out;
}

// Training samples (`held_out` picks a disjoint set of seeds).
std::vector<std::string> Samples(bool held_out) {
  std::vector<std::string> out;
  const unsigned base = held_out ? 900000 : 100000;
  for (unsigned i = 0; i < 600; ++i) {
    auto pkg = DecodeDeployedPackage(bench::MakeEraPackage(base + i));
    if (pkg.ok()) out.push_back(ProtoBytes(*pkg));
  }
  const std::size_t sizes[] = {2 << 10,  4 << 10,  8 << 10,
                               16 << 10, 32 << 10, 64 << 10};
  for (unsigned i = 0; i < 36; ++i) {
    auto pkg = ParseDeployedPackage(
        bench::MakeSamplePackageJson(sizes[i % 6], base + 7 * i));
    if (pkg.ok()) out.push_back(ProtoBytes(*pkg));
  }
  return out;
}

// Samples laid out as ZDICT wants them: one buffer and the sizes.
struct Concatenated {
  explicit Concatenated(const std::vector<std::string>& samples) {
    for (const std::string& s : samples) {
      bytes += s;
      sizes.push_back(s.size());
    }
  }
  std::string bytes;
  std::vector<std::size_t> sizes;
};

std::string Train(const std::vector<std::string>& samples, std::size_t size) {
  const Concatenated all(samples);
  std::string dict(size, '\0');
  const std::size_t n =
      ZDICT_trainFromBuffer(dict.data(), dict.size(), all.bytes.data(),
                            all.sizes.data(),
                            static_cast<unsigned>(all.sizes.size()));
  if (ZDICT_isError(n)) {
    std::fprintf(stderr, "ZDICT_trainFromBuffer: %s\n", ZDICT_getErrorName(n));
    return {};
  }
  dict.resize(n);
  return dict;
}

// Envelope size for `proto` compressed as the codec does it with `dict`.
std::size_t CompactSize(const std::string& proto, const std::string& dict,
                        int level) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_dictIDFlag, 0);
  if (!dict.empty()) ZSTD_CCtx_loadDictionary(cctx, dict.data(), dict.size());
  std::string out(ZSTD_compressBound(proto.size()), '\0');
  const std::size_t n =
      ZSTD_compress2(cctx, out.data(), out.size(), proto.data(), proto.size());
  ZSTD_freeCCtx(cctx);
  return compact::internal::kHeaderSize + std::min(n, proto.size());
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
}

std::size_t GzipSize(const std::string& text) {
  z_stream z{};
  deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);  // gzip -9
  std::string out(deflateBound(&z, text.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  const std::size_t n = z.total_out;
  deflateEnd(&z);
  return n;
}

// Every DIR/legacy/*/pkg-*.payload.json, sorted.
std::vector<std::filesystem::path> FixturePaths(
    const std::filesystem::path& fixtures) {
  std::vector<std::filesystem::path> paths;
  for (const auto& e :
       std::filesystem::recursive_directory_iterator(fixtures / "legacy")) {
    const std::string name = e.path().filename().string();
    if (name.starts_with("pkg-") && name.ends_with(".payload.json"))
      paths.push_back(e.path());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

std::string ReadFile(const std::filesystem::path& path) {
  std::stringstream text;
  text << std::ifstream(path, std::ios::binary).rdbuf();
  return text.str();
}

int RunMeasure(const std::filesystem::path& fixtures) {
  const std::vector<std::filesystem::path> paths = FixturePaths(fixtures);
  std::vector<double> json, gz, plain, dict, dict3, vs_gz, vs_json;
  for (const auto& path : paths) {
    auto pkg = ParseDeployedPackage(ReadFile(path));
    if (!pkg.ok()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(),
                   pkg.status().ToString().c_str());
      return 1;
    }
    const std::string canonical = EncodeDeployedPackage(*pkg);
    auto without =
        compact::Encode(*pkg, {.level = 19, .use_dictionary = false});
    auto with = compact::Encode(*pkg, {.level = 19, .use_dictionary = true});
    auto with3 = compact::Encode(*pkg, {.level = 3, .use_dictionary = true});
    if (!without.ok() || !with.ok() || !with3.ok()) {
      std::fprintf(stderr, "%s: encode failed\n", path.c_str());
      return 1;
    }
    json.push_back(canonical.size());
    gz.push_back(GzipSize(canonical));
    plain.push_back(without->size());
    dict.push_back(with->size());
    dict3.push_back(with3->size());
    vs_gz.push_back(dict.back() / gz.back());
    vs_json.push_back(dict.back() / json.back());
    std::printf("%8.0f %7.0f %7.0f %7.0f %7.0f  %s\n", json.back(), gz.back(),
                plain.back(), dict.back(), dict3.back(),
                path.lexically_relative(fixtures / "legacy").c_str());
  }
  std::printf(
      "%8s %7s %7s %7s %7s  <- json, gzip -9, compact/19, compact+dict/19, "
      "compact+dict/3\n",
      "", "", "", "", "");
  std::printf(
      "median over %zu packages: json %.0f, gzip %.0f, compact %.0f, "
      "compact+dict %.0f "
      "(level 3: %.0f)\n",
      paths.size(), Median(json), Median(gz), Median(plain), Median(dict),
      Median(dict3));
  std::printf("median ratio compact+dict/gzip %.3f, compact+dict/json %.3f\n",
              Median(vs_gz), Median(vs_json));
  std::printf("\nlevel  median bytes with dict  (without)\n");
  for (int level : {-5, -1, 1, 2, 3, 6, 9, 12, 15, 19, 22}) {
    std::vector<double> with, without;
    for (const auto& path : paths) {
      auto pkg = ParseDeployedPackage(ReadFile(path));
      with.push_back(
          compact::Encode(*pkg, {.level = level, .use_dictionary = true})
              ->size());
      without.push_back(
          compact::Encode(*pkg, {.level = level, .use_dictionary = false})
              ->size());
    }
    std::printf("%5d  %21.0f  %9.0f\n", level, Median(with), Median(without));
  }
  return 0;
}



// A dictionary whose content is chosen, not searched for: `content`, its end
// kept when too long, with zstd's header and entropy tables for `level`
// fitted to `samples`.
std::string ContentDictionary(const std::string& content,
                              const std::vector<std::string>& samples,
                              std::size_t size, int level) {
  const Concatenated all(samples);
  std::string dict(size, '\0');
  const std::size_t room = size - std::min<std::size_t>(size, 16384);
  const std::string_view kept =
      content.size() <= room
          ? std::string_view(content)
          : std::string_view(content).substr(content.size() - room);
  ZDICT_params_t params{};
  params.compressionLevel = level;
  const std::size_t n = ZDICT_finalizeDictionary(
      dict.data(), dict.size(), kept.data(), kept.size(), all.bytes.data(),
      all.sizes.data(), static_cast<unsigned>(all.sizes.size()), params);
  if (ZDICT_isError(n)) {
    std::fprintf(stderr, "ZDICT_finalizeDictionary: %s\n",
                 ZDICT_getErrorName(n));
    return {};
  }
  dict.resize(n);
  return dict;
}


// The shipped kind of dictionary: 32 KiB trained on the synthetic set (names,
// paths and structure common to Zarf packages), then real state chosen
// greedily, newest first, each sample only when the state chosen so far does
// not already predict it well; the total is capped at `size`.
std::string BuildDictionary(const std::vector<std::string>& synthetic,
                            const std::vector<std::string>& state,
                            std::size_t size) {
  const std::string trained = Train(synthetic, 32768);
  std::vector<std::string> all = synthetic;
  all.insert(all.end(), state.begin(), state.end());
  std::string content;
  const std::size_t room = size - 16384 - trained.size();
  for (auto it = state.rbegin(); it != state.rend(); ++it) {
    if (it->size() > room / 4) continue;  // one sample never crowds out others
    const std::size_t cost =
        content.empty() ? it->size() : CompactSize(*it, content, 19);
    if (cost * 10 < it->size()) continue;  // already predicted
    if (content.size() + it->size() > room) break;
    content = *it + content;  // newer state nearer the end, at short offsets
  }
  return ContentDictionary(trained + content, all, size, 19);
}

// Era number of a fixture path (".../legacy/e07-v0.30.0-v0.35.0/..."), or 0.
int EraOf(const std::filesystem::path& path) {
  const std::string era = path.parent_path().filename().string();
  if (era.size() < 3 || era[0] != 'e') return 0;
  return std::atoi(era.c_str() + 1);
}

struct FixtureSample {
  int era = 0;
  std::string proto;      // what the codec compresses
  std::size_t json = 0;   // Go-exact JSON bytes
  std::size_t gzip = 0;   // gzip -9 of that JSON
};

std::vector<FixtureSample> FixtureSamples(const std::filesystem::path& dir) {
  std::vector<FixtureSample> out;
  for (const auto& path : FixturePaths(dir)) {
    auto pkg = ParseDeployedPackage(ReadFile(path));
    if (!pkg.ok()) continue;
    const std::string canonical = EncodeDeployedPackage(*pkg);
    out.push_back({EraOf(path), ProtoBytes(*pkg), canonical.size(),
                   GzipSize(canonical)});
  }
  return out;
}

// A dictionary built as the shipped one is (BuildDictionary) from the
// synthetic set and the fixtures `in_train` picks, measured on the fixtures it
// leaves out and on the held-out synthetic set: what it does for state it has
// not seen.
void HeldOutFold(const char* label, const std::vector<std::string>& synthetic,
                 const std::vector<std::string>& held_synthetic,
                 const std::vector<FixtureSample>& fixtures,
                 const std::function<bool(int era)>& in_train,
                 std::size_t size) {
  std::vector<std::string> state;
  for (const auto& f : fixtures)
    if (in_train(f.era)) state.push_back(f.proto);
  const std::string dict = BuildDictionary(synthetic, state, size);
  std::vector<double> vs_json, vs_gzip, bytes, synth;
  for (const auto& f : fixtures) {
    if (in_train(f.era)) continue;
    const double n = static_cast<double>(CompactSize(f.proto, dict, 19));
    bytes.push_back(n);
    vs_json.push_back(n / static_cast<double>(f.json));
    vs_gzip.push_back(n / static_cast<double>(f.gzip));
  }
  for (const auto& p : held_synthetic)
    synth.push_back(static_cast<double>(CompactSize(p, dict, 19)));
  std::printf("%-30s %6zu %4zu %7.0f %7.3f %7.3f %9.0f\n", label, dict.size(),
              bytes.size(), Median(bytes), Median(vs_json), Median(vs_gzip),
              Median(synth));
}

int RunCrossValidate(const std::filesystem::path& dir, std::size_t size) {
  const std::vector<std::string> synthetic = Samples(false);
  const std::vector<std::string> held_synthetic = Samples(true);
  const std::vector<FixtureSample> fixtures = FixtureSamples(dir);
  std::printf("level 19; medians over the held-out fixtures (bytes, per-package "
              "ratios to JSON and gzip -9) and the held-out synthetic set\n");
  std::printf("%-30s %6s %4s %7s %7s %7s %9s\n", "state in the dictionary",
              "dict", "pkgs", "bytes", "/json", "/gzip", "synthetic");
  HeldOutFold("none (synthetic only)", synthetic, held_synthetic, fixtures,
              [](int) { return false; }, size);
  HeldOutFold("odd eras, tested on even", synthetic, held_synthetic, fixtures,
              [](int era) { return era % 2 == 1; }, size);
  HeldOutFold("even eras, tested on odd", synthetic, held_synthetic, fixtures,
              [](int era) { return era % 2 == 0; }, size);
  HeldOutFold("e01-e11, tested on e12-e22", synthetic, held_synthetic,
              fixtures, [](int era) { return era <= 11; }, size);
  HeldOutFold("e01-e16, tested on e17-e22", synthetic, held_synthetic,
              fixtures, [](int era) { return era <= 16; }, size);
  return 0;
}

// The shipped dictionary: BuildDictionary over the synthetic set and every
// package fixture in DIR, oldest era first.
int RunTrain(const std::string& out_path, std::size_t size,
             const std::filesystem::path& fixtures) {
  const std::vector<std::string> synthetic = Samples(false);
  std::vector<std::string> state;
  for (auto& f : FixtureSamples(fixtures)) state.push_back(std::move(f.proto));
  const std::string dict = BuildDictionary(synthetic, state, size);
  if (dict.empty()) return 1;
  std::ofstream(out_path, std::ios::binary).write(dict.data(), dict.size());
  std::printf("samples: %zu synthetic, %zu fixtures; wrote %s: %zu bytes, "
              "dictionary id %u\n",
              synthetic.size(), state.size(), out_path.c_str(), dict.size(),
              ZDICT_getDictID(dict.data(), dict.size()));
  return 0;
}

}  // namespace
}  // namespace zs

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  std::string out, fixtures;
  std::size_t size = 98304;
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--out="))
      out = arg.substr(6);
    else if (arg.starts_with("--fixtures="))
      fixtures = arg.substr(11);
    else if (arg.starts_with("--size="))
      size = std::stoul(std::string(arg.substr(7)));
  }
  if (mode == "train" && !out.empty() && !fixtures.empty())
    return zs::RunTrain(out, size, fixtures);
  if (mode == "crossval" && !fixtures.empty())
    return zs::RunCrossValidate(fixtures, size);
  if (mode == "measure" && !fixtures.empty()) return zs::RunMeasure(fixtures);
  std::fprintf(stderr,
               "usage: %s train --out=FILE --fixtures=DIR [--size=BYTES]\n"
               "       %s crossval --fixtures=DIR [--size=BYTES]\n"
               "       %s measure --fixtures=DIR\n",
               argv[0], argv[0], argv[0]);
  return 2;
}
