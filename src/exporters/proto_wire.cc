#include "exporters/proto_wire.h"

#include <zlib.h>

namespace erkit::exporters {

void ProtoWriter::append_varint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(char((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(char(v));
}

void ProtoWriter::uint64_field(uint32_t field, uint64_t v) {
  if (v == 0) return;
  tag(field, 0);
  append_varint(&buf_, v);
}

void ProtoWriter::int64_field(uint32_t field, int64_t v) { uint64_field(field, uint64_t(v)); }

void ProtoWriter::bytes_field(uint32_t field, std::string_view bytes) {
  tag(field, 2);
  append_varint(&buf_, bytes.size());
  buf_.append(bytes);
}

void ProtoWriter::packed_uint64(uint32_t field, const std::vector<uint64_t>& v) {
  if (v.empty()) return;
  std::string body;
  for (uint64_t x : v) append_varint(&body, x);
  bytes_field(field, body);
}

void ProtoWriter::packed_int64(uint32_t field, const std::vector<int64_t>& v) {
  if (v.empty()) return;
  std::string body;
  for (int64_t x : v) append_varint(&body, uint64_t(x));
  bytes_field(field, body);
}

bool gzip_compress(std::string_view in, std::string* out, std::string* error) {
  z_stream zs{};
  // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    *error = "zlib: deflateInit2 failed";
    return false;
  }
  out->resize(deflateBound(&zs, uLong(in.size())) + 32);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = uInt(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out->data());
  zs.avail_out = uInt(out->size());
  int rc = deflate(&zs, Z_FINISH);
  out->resize(zs.total_out);
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) {
    *error = "zlib: deflate did not finish";
    return false;
  }
  return true;
}

bool gzip_decompress(std::string_view in, std::string* out, std::string* error) {
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 32) != Z_OK) {  // +32: accept gzip or zlib headers
    *error = "zlib: inflateInit2 failed";
    return false;
  }
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = uInt(in.size());
  out->clear();
  char buf[65536];
  int rc;
  do {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      *error = zs.msg ? zs.msg : "zlib: corrupt data";
      inflateEnd(&zs);
      return false;
    }
    out->append(buf, sizeof buf - zs.avail_out);
  } while (rc != Z_STREAM_END && (zs.avail_in > 0 || zs.avail_out == 0));
  inflateEnd(&zs);
  if (rc != Z_STREAM_END) {
    *error = "gzip data is truncated";
    return false;
  }
  return true;
}

}  // namespace erkit::exporters
