// A synthetic, realistic Zarf DeployedPackage payload for benchmarks.
//
// The text has the shape Zarf stores in a package Secret's `data` key (see
// the legacy fixture pkg-realistic-init-failed.payload.json): name, digest,
// data (a ZarfPackage: kind, metadata, build, components, constants,
// variables), cliVersion, generation, deployedComponents with their installed
// charts and connect strings, connectStrings and packageConnectivity. It is
// written the way Go's `json.Marshal` writes it: compact, members in struct
// field order, map keys sorted, `<` `>` `&` as `\u003c` `\u003e` `\u0026`,
// non-ASCII text raw. So a raw-order, raw-number write of the parsed text
// reproduces it byte for byte.
//
// Thread safety: MakeSamplePackageJson is pure and reentrant.
#ifndef ZARF_STATE_BENCH_CODEC_SAMPLE_PACKAGE_H_
#define ZARF_STATE_BENCH_CODEC_SAMPLE_PACKAGE_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace zs::bench {

// Returns a DeployedPackage JSON text of at least `target_bytes` bytes (it
// grows one component at a time, so it overshoots by less than one component
// and its deployed entry, a few KiB). The same (target_bytes, seed) always
// gives the same bytes, on every platform (tools/seeded_rng.h).
std::string MakeSamplePackageJson(std::size_t target_bytes, unsigned seed);

// The ~1 MiB sample every codec benchmark measures.
inline constexpr std::size_t kSampleBytes = std::size_t{1} << 20;
inline constexpr unsigned kSampleSeed = 20260821;

// The file `relative` under $ZS_TEST_DATA (tests/data). On failure returns ""
// and sets `*error` to why ("ZS_TEST_DATA is not set", "cannot read PATH"),
// which a benchmark passes to SkipWithError.
std::string ReadTestData(std::string_view relative, std::string* error);

}  // namespace zs::bench

#endif  // ZARF_STATE_BENCH_CODEC_SAMPLE_PACKAGE_H_
