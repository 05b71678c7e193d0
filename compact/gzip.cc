#include "compact/gzip.h"

#include <zlib.h>

namespace zs {

namespace {

// A deflate stream per thread, reset between calls: its window and hash
// tables (about 256 KiB at the default memory level) are allocated and
// faulted in once, not once per call. Re-made when the level changes.
class ThreadDeflater {
 public:
  ~ThreadDeflater() {
    if (ready_) deflateEnd(&zs_);
  }

  z_stream* For(int level) {
    if (ready_ && level_ == level && deflateReset(&zs_) == Z_OK) return &zs_;
    if (ready_) deflateEnd(&zs_);
    zs_ = z_stream{};
    // 15 window bits + 16: write a gzip header and trailer, not zlib's.
    ready_ = deflateInit2(&zs_, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK;
    level_ = level;
    return ready_ ? &zs_ : nullptr;
  }

 private:
  z_stream zs_{};
  int level_ = 0;
  bool ready_ = false;
};

// This thread's deflate stream, reset for `level`; nullptr if zlib fails.
z_stream* ThreadStream(int level) {
  thread_local ThreadDeflater deflater;
  return deflater.For(level);
}

}  // namespace

Result<std::string> Gzip(std::string_view bytes, int level) {
  z_stream* zs = ThreadStream(level);
  if (zs == nullptr) return Status::IOError("gzip: deflateInit2 failed");
  std::string out(deflateBound(zs, static_cast<uLong>(bytes.size())) + 32, '\0');
  zs->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs->avail_in = static_cast<uInt>(bytes.size());
  zs->next_out = reinterpret_cast<Bytef*>(out.data());
  zs->avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(zs, Z_FINISH);
  const auto written = zs->total_out;
  if (rc != Z_STREAM_END) return Status::IOError("gzip: deflate did not finish");
  out.resize(written);
  return out;
}

Result<std::size_t> GzipSize(std::string_view bytes, int level) {
  z_stream* zs = ThreadStream(level);
  if (zs == nullptr) return Status::IOError("gzip: deflateInit2 failed");
  zs->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs->avail_in = static_cast<uInt>(bytes.size());
  char buf[1 << 14];
  int rc = Z_OK;
  while (rc == Z_OK) {
    zs->next_out = reinterpret_cast<Bytef*>(buf);
    zs->avail_out = sizeof buf;
    rc = deflate(zs, Z_FINISH);
  }
  if (rc != Z_STREAM_END) return Status::IOError("gzip: deflate did not finish");
  return static_cast<std::size_t>(zs->total_out);
}

Result<std::string> Gunzip(std::string_view bytes) {
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 16) != Z_OK) return Status::IOError("gzip: inflateInit2 failed");
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = static_cast<uInt>(bytes.size());
  std::string out;
  char buf[1 << 16];
  int rc = Z_OK;
  while (rc == Z_OK) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) break;
    out.append(buf, sizeof buf - zs.avail_out);
    if (out.size() > (std::size_t{256} << 20)) {
      inflateEnd(&zs);
      return Status::Corruption("gzip: output larger than 256 MiB");
    }
  }
  inflateEnd(&zs);
  if (rc != Z_STREAM_END) return Status::Corruption("gzip: malformed or truncated input");
  return out;
}

}  // namespace zs
