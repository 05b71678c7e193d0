// The bodies of the libFuzzer targets (fuzz/README.md), as plain functions so
// that the fuzzers (fuzz_main.cc, built with clang -fsanitize=fuzzer) and the
// regression test that replays their findings (tests/fuzz/regression_test.cc,
// built with the normal compiler) run exactly the same code.
//
// Each body takes arbitrary bytes, feeds them to the code under test and
// checks the properties that must hold for every input. It returns "" when
// they all hold, else a description of the broken property; the fuzzer
// aborts on a non-empty answer, the regression test fails. Crashes,
// sanitizer reports and escaping exceptions are findings by themselves.
//
// Thread safety: every body is reentrant.
#ifndef ZARF_STATE_FUZZ_TARGETS_H_
#define ZARF_STATE_FUZZ_TARGETS_H_

#include <span>
#include <string>
#include <string_view>

namespace zs::fuzz {

// json::ParseJson under each duplicate-key policy and a depth limit taken
// from the input's length; what parses must write back (compact and indented)
// to the same tree, and canonicalize without crashing.
std::string JsonReader(std::string_view data);

// ReadInput on JSON or YAML text; every usable object must be measurable,
// its payload decodable or refused, and it must read back unchanged after
// WriteObject as JSON and (without duplicate keys) as YAML.
std::string SecretReader(std::string_view data);

// compact::Decode of the bytes as they are and with the header's checksum
// recomputed (so the fuzzer gets past it); what decodes must re-encode and
// decode to the same package. Input that is a JSON package is encoded first.
std::string CompactDecode(std::string_view data);

// DeployConfig / RemoveConfig decoding from JSON or YAML, Go-exact marshal,
// digest and canonical digest; marshal must be a fixed point.
std::string ConfigDigest(std::string_view data);

// DecodePackagePayload (JSON or compact) then EncodeDeployedPackage: the
// encoding must decode again and re-encode byte for byte, and the format
// detector (migrate::DetectPackageFormat) must give the same answer.
std::string PackageDecode(std::string_view data);

// MarshalZarfPackage of a JSON or YAML definition: refusals are
// InvalidArgument with a message; what it writes parses, writes back
// unchanged, and marshals again to the same bytes with no key dropped.
std::string ZarfPackageMarshal(std::string_view data);

// The record log reader (engine/file_event_log.h) on the bytes as a file,
// and on them framed as the entries of one chunk with a valid checksum:
// Check either errors with a message or names every damaged region with
// its length and reason; each package it lists reads, or errors, and its
// tail never holds more records than its history.
std::string LogReader(std::string_view data);

struct Target {
  std::string_view name;  // the fuzzer binary is fuzz_<name>
  std::string (*run)(std::string_view data);
};

// Every target, for the regression test.
std::span<const Target> AllTargets();

}  // namespace zs::fuzz

#endif  // ZARF_STATE_FUZZ_TARGETS_H_
