#include "compact/gzip.h"

#include <zlib.h>

namespace zs {

Result<std::string> Gzip(std::string_view bytes, int level) {
  z_stream zs{};
  // 15 window bits + 16: write a gzip header and trailer, not zlib's.
  if (deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return Status::IOError("gzip: deflateInit2 failed");
  }
  std::string out(deflateBound(&zs, static_cast<uLong>(bytes.size())) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = static_cast<uInt>(bytes.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&zs, Z_FINISH);
  const auto written = zs.total_out;
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) return Status::IOError("gzip: deflate did not finish");
  out.resize(written);
  return out;
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
