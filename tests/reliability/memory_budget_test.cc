// The one memory budget (base/memory_budget.h) holds for the binary: each
// bomb is generated here, every reader of it runs under an address-space
// limit (`ulimit -v`), and each must refuse it with an error naming the
// input and the budget, exit 1, print nothing on stdout, and peak under
// 64 MiB + 8 x the input's size (getrusage of the child). A resource limit
// of the child processes, not a timing.
#include <gtest/gtest.h>
#include <xxhash.h>
#include <zstd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "base/memory_budget.h"
#include "engine/internal/log_format.h"
#include "tests/run_binary.h"
#include "tests/test_dir.h"
#include "tests/test_util.h"

namespace zs::testing {
namespace {

namespace fs = std::filesystem;

constexpr rlim_t kAddressSpaceLimit = rlim_t{1} << 30;  // ulimit -v 1048576

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

void Write(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

std::string Base64(std::string_view in) {
  static constexpr char kDigits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) |
                       (static_cast<unsigned char>(in[i + 1]) << 8) |
                       static_cast<unsigned char>(in[i + 2]);
    for (int k = 18; k >= 0; k -= 6) out += kDigits[(v >> k) & 63];
  }
  if (i < in.size()) {
    unsigned v = static_cast<unsigned char>(in[i]) << 16;
    if (i + 1 < in.size()) v |= static_cast<unsigned char>(in[i + 1]) << 8;
    out += kDigits[(v >> 18) & 63];
    out += kDigits[(v >> 12) & 63];
    out += i + 1 < in.size() ? kDigits[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

// A YAML document whose aliases repeat one 64 KiB scalar 5,000 times: 84 KB
// that would build 320 MB.
std::string YamlAliasBomb() {
  std::string text = "apiVersion: v1\nkind: Secret\nmetadata: {name: zarf-package-a}\nx: &a " +
                     std::string(64 << 10, 'x') + "\ndata: [";
  for (int i = 0; i < 5000; ++i) text += i ? ",*a" : "*a";
  return text + "]\n";
}

// Five million empty JSON objects one after another: 10 MB, a document each.
std::string JsonStreamBomb() {
  std::string text;
  text.reserve(10u << 20);
  for (int i = 0; i < 5000000; ++i) text += "{}";
  return text;
}

// A compact package Secret just under 1 MiB: 6.15M empty components (the
// two bytes 32 00 each) and then 900 KB of random bytes in an unknown field,
// which keep the envelope large, compressed by zstd.
std::string CompactComponentsBomb() {
  std::string proto;
  for (int i = 0; i < 6150000; ++i) proto += std::string("\x32\x00", 2);
  std::mt19937_64 rng(7);
  std::string noise(900000, '\0');
  for (char& c : noise) c = static_cast<char>(rng());
  proto += "\xfa\x7f";  // field 2047, length-delimited: unknown to the schema
  for (std::size_t n = noise.size(); n != 0; n >>= 7) {
    proto += static_cast<char>((n & 0x7f) | (n >> 7 ? 0x80 : 0));
  }
  proto += noise;
  std::string frame(ZSTD_compressBound(proto.size()), '\0');
  frame.resize(ZSTD_compress(frame.data(), frame.size(), proto.data(), proto.size(), 3));
  std::string envelope = "\x89ZSC";
  envelope += '\x01';  // version
  envelope += '\x01';  // zstd
  auto put = [&](std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) envelope += static_cast<char>((v >> (8 * i)) & 0xff);
  };
  put(0, 4);  // no dictionary
  put(proto.size(), 4);
  put(XXH64(frame.data(), frame.size(), 0), 8);
  envelope += frame;
  return R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"zarf-package-bomb",)"
         R"("namespace":"zarf","labels":{"package-deploy-info":"bomb"},)"
         R"("annotations":{"zarf-state.dev/codec":"compact/v1"}},"type":"Opaque",)"
         R"("data":{"data-compact":")" +
         Base64(envelope) + "\"}}\n";
}

// A log whose one chunk says its payload decompresses to 4 GiB - 1, with a
// valid checksum (94 bytes of chunk).
std::string LogRawLengthBomb() {
  std::string chunk = engine::internal::EncodeChunk(0, "p", "", 1, 0, "");
  chunk[16] = chunk[17] = chunk[18] = chunk[19] = '\xff';  // raw_size
  const std::size_t meta = 2;  // "p\0"
  const std::size_t payload = chunk.size() - engine::internal::kChunkPrefixSize - meta -
                              engine::internal::kChunkTrailerSize;
  XXH64_state_t* st = XXH64_createState();
  XXH64_reset(st, 0);
  XXH64_update(st, chunk.data(), 32);
  XXH64_update(st, chunk.data() + engine::internal::kChunkPrefixSize, meta + payload);
  const std::uint64_t sum = XXH64_digest(st);
  XXH64_freeState(st);
  for (int i = 0; i < 8; ++i) chunk[32 + i] = static_cast<char>((sum >> (8 * i)) & 0xff);
  return engine::internal::FileHeader() + chunk;
}

// A log of one chunk of 30 MB of zero bytes: 15M empty entries of an
// unknown tag, from a file of a few KB.
std::string LogUnknownEntriesBomb() {
  return engine::internal::FileHeader() +
         engine::internal::EncodeChunk(0, "p", "", 1, 0, std::string(30u << 20, '\0'));
}

struct Bomb {
  std::string file;
  std::string (*make)();
  // Each command's arguments; "{}" is the bomb's path, "{dir}" a path in a
  // fresh directory (the cache, the page).
  std::vector<std::vector<std::string>> commands;
};

std::vector<Bomb> Bombs() {
  const std::vector<std::vector<std::string>> readers = {
      {"inspect", "-f", "{}"}, {"status", "-f", "{}"}, {"size", "-f", "{}"},
      {"migrate", "-f", "{}"}, {"report", "-f", "{}", "--out", "{dir}"},
      {"ingest", "--db", "{dir}", "-f", "{}"}};
  std::vector<std::vector<std::string>> yaml_readers = readers;
  yaml_readers.push_back({"config", "digest", "-f", "{}"});
  yaml_readers.push_back({"replay", "-f", "{}"});
  const std::vector<std::vector<std::string>> log_readers = {
      {"replay", "--log", "{}", "--dump"}, {"replay", "--log", "{}", "--package", "p"}};
  return {
      {"alias.yaml", YamlAliasBomb, yaml_readers},
      {"stream.json", JsonStreamBomb, readers},
      {"compact.secret.json", CompactComponentsBomb, readers},
      {"raw-length.log", LogRawLengthBomb, log_readers},
      {"unknown-entries.log", LogUnknownEntriesBomb, log_readers},
  };
}

TEST(MemoryBudgetBinaryTest, EveryReaderRefusesEveryBombWithinTheBudget) {
  const fs::path dir = FreshTestDir("memory-budget");
  for (const Bomb& bomb : Bombs()) {
    const fs::path path = dir / bomb.file;
    Write(path, bomb.make());
    const std::uintmax_t size = fs::file_size(path);
    const long bound_kib = static_cast<long>((64u << 20) + 8 * size) / 1024;
    for (std::vector<std::string> args : bomb.commands) {
      const fs::path work = dir / "work";
      fs::create_directories(work);
      std::string line;
      for (std::string& a : args) {
        if (a == "{}") a = path.string();
        if (a == "{dir}") a = (work / "target").string();
        line += " " + a;
      }
      ChildSetup child;
      child.stdout_path = (work / "out").string();
      // AddressSanitizer reserves terabytes of address space at start: under
      // it the budget alone is checked, without ulimit -v.
      child.address_space_limit = kSanitized ? 0 : kAddressSpaceLimit;
      const RunResult r = RunLimited(ZS_BINARY_PATH, args, child, work);
      const std::string out = ReadFile(work / "out");
      SCOPED_TRACE(line);
      EXPECT_EQ(r.signal, 0) << r.err.substr(0, 400);
      EXPECT_EQ(r.exit_code, 1) << r.err.substr(0, 400);
      // migrate and size report each object's failure in their table,
      // report writes its page whatever it could not read and says where;
      // the others print nothing.
      const bool reports = args[0] == "migrate" || args[0] == "size" || args[0] == "report";
      const std::string said = reports ? r.err + out : r.err;
      EXPECT_NE(said.find(std::string(kOverMemoryBudget)), std::string::npos)
          << said.substr(0, 400);
      // The input by its path, or (migrate's table) the Secret by its name.
      EXPECT_TRUE(said.find(path.string()) != std::string::npos ||
                  said.find("zarf/zarf-package-bomb") != std::string::npos)
          << said.substr(0, 400);
      if (!reports) {
        EXPECT_TRUE(out.empty()) << out.substr(0, 200);
      }
      if (!kSanitized) {
        EXPECT_LT(r.max_rss_kib, bound_kib) << size << "-byte input";
      }
      fs::remove_all(work);
    }
  }
  fs::remove_all(dir);
}

// The densest legal scalars: a package payload whose definition holds 500k
// numbers (2 bytes each, 1 MB, as many as the budget lets through); as
// the bare payload, as a Secret and as a List of one Secret.
std::vector<std::pair<std::string, std::string>> DenseScalarInputs() {
  std::string payload = R"({"name":"n","data":{"kind":"ZarfPackageConfig","values":[0)";
  payload.reserve(1u << 20);
  for (int i = 1; i < 500000; ++i) payload += ",0";
  payload += R"(]},"cliVersion":"v0.84.0","generation":1})";
  const std::string secret =
      R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"zarf-package-n",)"
      R"("namespace":"zarf","labels":{"package-deploy-info":"n"}},"type":"Opaque",)"
      R"("data":{"data":")" + Base64(payload) + "\"}}";
  return {{"dense.payload.json", payload},
          {"dense.secret.json", secret},
          {"dense.list.json", R"({"apiVersion":"v1","kind":"List","items":[)" + secret + "]}"}};
}

// Inside the budget, a reader holds one tree at a time: the input's (a
// Secret, a List, a bare payload) is released before the package is decoded
// from its bytes, and `size` and `report` release the package before zstd
// takes its tables for the compact figure. Peak under 64 MiB + 8 x the input.
TEST(MemoryBudgetBinaryTest, TheDensestLegalScalarsStayUnderTheBudgetInEveryForm) {
  if (kSanitized) GTEST_SKIP() << "AddressSanitizer's shadow memory is not the program's";
  const fs::path dir = FreshTestDir("dense-scalars");
  for (const auto& [file, text] : DenseScalarInputs()) {
    const fs::path path = dir / file;
    Write(path, text);
    const long bound_kib = static_cast<long>((64u << 20) + 8 * fs::file_size(path)) / 1024;
    const std::string page = (dir / "page.html").string();
    for (const std::vector<std::string>& command :
         {std::vector<std::string>{"inspect"}, {"size"}, {"report", "--out", page}}) {
      std::vector<std::string> args = command;
      args.insert(args.end(), {"-f", path.string()});
      const RunResult r = RunBinary(ZS_BINARY_PATH, args, dir);
      SCOPED_TRACE(command[0] + " -f " + file);
      EXPECT_EQ(r.exit_code, 0) << r.err.substr(0, 400);
      if (command[0] == "report") {
        // The page, with the package's JSON size.
        EXPECT_NE(ReadFile(page).find("1,000,097"), std::string::npos);
        fs::remove(page);
      } else {
        // Its row: package n, 1,000,097 bytes as JSON.
        EXPECT_NE(r.out.find("\nn "), std::string::npos) << r.out.substr(0, 400);
        EXPECT_NE(r.out.find(" 1000097 "), std::string::npos) << r.out.substr(0, 400);
      }
      EXPECT_LT(r.max_rss_kib, bound_kib) << fs::file_size(path) << "-byte input";
    }
  }
  fs::remove_all(dir);
}

// replay --dump reads the whole log before it prints: good records followed
// by a chunk over the memory budget print nothing, not the records before it.
TEST(MemoryBudgetBinaryTest, DumpPrintsNothingWhenALaterChunkIsOverTheBudget) {
  const fs::path dir = FreshTestDir("dump-late-bomb");
  const fs::path secret = dir / "secret.json";
  const fs::path log = dir / "events.log";
  fs::copy_file(DataDir() / "legacy/e22-v0.80.0-v0.84.0/pkg-small-dos-games.secret.json", secret);
  const RunResult recorded = RunBinary(
      ZS_BINARY_PATH,
      {"record", "deploy", "-f", secret.string(), "--log", log.string(), "--package",
       (DataDir() / "samples/dos-games.yaml").string()},
      dir);
  ASSERT_EQ(recorded.exit_code, 0) << recorded.err;
  const RunResult good = RunBinary(ZS_BINARY_PATH, {"replay", "--log", log.string(), "--dump"}, dir);
  ASSERT_EQ(good.exit_code, 0) << good.err;
  ASSERT_FALSE(good.out.empty());

  std::ofstream(log, std::ios::binary | std::ios::app)
      << engine::internal::EncodeChunk(0, "p", "", 3, 0, std::string(30u << 20, '\0'));
  const RunResult r = RunBinary(ZS_BINARY_PATH, {"replay", "--log", log.string(), "--dump"}, dir);
  EXPECT_EQ(r.exit_code, 1) << r.err.substr(0, 400);
  EXPECT_EQ(r.out, "") << "the records before the chunk that failed";
  EXPECT_NE(r.err.find("memory budget"), std::string::npos) << r.err.substr(0, 400);
  fs::remove_all(dir);
}

// RocksDB starts threads when the cache opens. Within 256-340 MiB of
// address space the commands work (malloc arenas capped); below, starting a
// thread fails, and they say so instead of aborting.
TEST(MemoryBudgetBinaryTest, CacheCommandsUnderATightAddressSpaceLimitFailCleanly) {
  if (kSanitized) GTEST_SKIP() << "AddressSanitizer reserves more address space than the limits";
  const fs::path dir = FreshTestDir("cache-ulimit");
  const fs::path input = dir / "secret.json";
  Write(input, R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"zarf-package-a",)"
               R"("namespace":"zarf","labels":{"package-deploy-info":"a"}},"type":"Opaque",)"
               R"("data":{"data":")" +
                   Base64(R"({"name":"a","data":{"kind":"ZarfPackageConfig","metadata":)"
                          R"({"name":"a"}},"cliVersion":"v0.84.0","generation":1,)"
                          R"("deployedComponents":[]})") +
                   "\"}}\n");
  for (const rlim_t mib : {120, 256, 300, 340}) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"ingest", "--db", (dir / "db").string(), "-f", input.string()},
          {"query", "--db", (dir / "db").string(), "status"}}) {
      ChildSetup child;
      child.address_space_limit = mib << 20;
      const RunResult r = RunLimited(ZS_BINARY_PATH, args, child, dir);
      SCOPED_TRACE(args[0] + " under ulimit -v " + std::to_string(mib << 10));
      EXPECT_EQ(r.signal, 0) << r.err.substr(0, 400);
      if (mib >= 256) {
        EXPECT_EQ(r.exit_code, 0) << r.err.substr(0, 400);
      }
      if (r.exit_code != 0) {
        EXPECT_EQ(r.exit_code, 1) << r.err.substr(0, 400);
        // An ingest that could not start leaves no cache behind (it is made
        // aside and renamed into place whole): a query then finds none.
        EXPECT_TRUE(r.err.find("out of memory or threads") != std::string::npos ||
                    (args[0] == "query" && r.err.find(": does not exist; create it with") !=
                                               std::string::npos))
            << r.err.substr(0, 400);
        if (args[0] == "ingest" && !fs::exists(dir / "db" / "CURRENT")) {
          EXPECT_FALSE(fs::exists(dir / "db")) << "a half-made cache";
        }
      }
    }
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace zs::testing
