#include "tools/common.h"

#include <CLI/CLI.hpp>

#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>

#include "codec/json_reader.h"
#include "codec/yaml.h"

namespace zs::tools {

ReadLimits& MutableReadLimits() {
  static ReadLimits limits;
  return limits;
}

void RegisterLimitFlags(CLI::App* app) {
  ReadLimits& limits = MutableReadLimits();
  app->add_option(std::string(kMaxObjectSizeFlag), limits.max_bytes,
                  "Largest input file or document read, in bytes (default 268435456)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40));
  app->add_option(std::string(kMaxDepthFlag), limits.max_depth,
                  "Deepest JSON/YAML nesting accepted (default 512, at most 1024)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1024}));
  app->fallthrough();
}

Status WithLimitHint(Status status) {
  if (status.code() != Status::Code::kInvalidArgument) return status;
  const std::string m(status.message());
  if (m.find("(raise it with") != std::string::npos) return status;
  if (m.find("exceeds the limit of") != std::string::npos) {
    return Status::InvalidArgument(m + " (raise it with --max-object-size)");
  }
  if (m.find("nesting deeper than") != std::string::npos) {
    return Status::InvalidArgument(m + " (raise it with --max-depth, at most 1024)");
  }
  return status;
}

Result<std::string> ReadFileOrStdin(const std::string& path) {
  const std::size_t max_bytes = CurrentReadLimits().max_bytes;
  std::string out;
  std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    return Status::IOError(path + ": " + std::strerror(errno));
  }
  struct stat st {};
  if (f != stdin && ::fstat(::fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
    if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
      std::fclose(f);
      return Status::InvalidArgument(path + ": input of " + std::to_string(st.st_size) +
                                     " bytes exceeds the limit of " + std::to_string(max_bytes) +
                                     " bytes (raise it with --max-object-size)");
    }
    // No regrowth copies; the spare 64 bytes let the JSON parser work in
    // place (ReadLimits::readable_padding).
    out.reserve(static_cast<std::size_t>(st.st_size) + 64);
  }
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
    out.append(buf, n);
    if (out.size() > max_bytes) {
      if (f != stdin) std::fclose(f);
      return Status::InvalidArgument((path == "-" ? std::string("<stdin>") : path) +
                                     ": input exceeds the limit of " + std::to_string(max_bytes) +
                                     " bytes (raise it with --max-object-size)");
    }
  }
  const bool failed = std::ferror(f) != 0;
  if (f != stdin) std::fclose(f);
  if (failed) return Status::IOError(path + ": read error");
  return out;
}

Result<json::Value> ReadDocument(const std::string& path) {
  ZS_ASSIGN_OR_RETURN(std::string text, ReadFileOrStdin(path));
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && (text[first] == '{' || text[first] == '[')) {
    json::ParseOptions options;
    options.max_bytes = CurrentReadLimits().max_bytes;
    options.max_depth = CurrentReadLimits().max_depth;
    auto v = json::ParseJson(text, options);
    if (!v.ok()) return WithLimitHint(v.status().WithContext(path));
    return v;
  }
  auto docs = yaml::ParseDocuments(text, CurrentReadLimits().max_depth);
  if (!docs.ok()) return WithLimitHint(docs.status().WithContext(path));
  if (docs->size() != 1) {
    return Status::InvalidArgument(path + ": expected one document, found " +
                                   std::to_string(docs->size()));
  }
  return std::move((*docs)[0]);
}

bool ForEachObject(const std::vector<std::string>& files, std::ostream& err,
                   const std::function<Status(const InputObject&)>& visit) {
  bool failed = false;
  const std::vector<std::string> stdin_only{"-"};
  for (const std::string& file : files.empty() ? stdin_only : files) {
    auto text = ReadFileOrStdin(file);
    auto input = text.ok() ? ReadInput(*text, file == "-" ? "<stdin>" : file, CurrentReadLimits())
                           : Result<Input>(text.status());
    if (!input.ok()) input = WithLimitHint(input.status());
    if (!input.ok()) {
      err << "error: " << input.status().message() << "\n";
      failed = true;
      continue;
    }
    for (const InputObject& in : input->objects) {
      Status s = in.error.ok() ? visit(in) : in.error;
      if (!s.ok()) {
        err << "error: " << (in.error.ok() ? in.label + ": " : std::string()) << s.message() << "\n";
        failed = true;
      }
    }
  }
  return failed;
}

Result<Timestamp> ParseNow(const std::string& now) {
  if (now.empty()) return Timestamp::Now();
  auto t = ParseRfc3339(now);
  if (!t.ok()) return t.status().WithContext("--now");
  return t;
}

Result<std::unique_ptr<engine::Cache>> OpenCacheReadOnly(const std::string& dir) {
  engine::CacheOptions options;
  options.create_if_missing = false;
  options.read_only = true;
  return engine::OpenCache(dir, options);
}

bool IsCredentialKey(std::string_view key) {
  std::string lower(key);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower.find("password") != std::string::npos ||
         lower.find("secret") != std::string::npos ||
         lower.find("token") != std::string::npos || lower == "key" ||
         lower.ends_with("privatekey");
}

void RedactCredentials(json::Value* value) {
  if (value->is_array()) {
    for (json::Value& item : value->array()) RedactCredentials(&item);
    return;
  }
  if (!value->is_object()) return;
  for (json::Member& m : value->object()) {
    if (IsCredentialKey(m.first) && m.second.is_string() && !m.second.as_string().empty()) {
      m.second = json::Value::String("[REDACTED]");
    } else {
      RedactCredentials(&m.second);
    }
  }
}

}  // namespace zs::tools
