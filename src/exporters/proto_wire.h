// A minimal protocol-buffers wire-format encoder (varints, length-delimited fields, packed
// repeated integers): enough to write pprof's profile.proto without libprotobuf.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace erkit::exporters {

class ProtoWriter {
 public:
  // Scalar fields at their proto3 default (0, false) are omitted, as protobuf encoders do.
  void uint64_field(uint32_t field, uint64_t v);
  void int64_field(uint32_t field, int64_t v);  // int64 (not sint64): negatives take 10 bytes
  void bool_field(uint32_t field, bool v) { uint64_field(field, v ? 1 : 0); }
  // Length-delimited fields are always written (a repeated string may be empty).
  void bytes_field(uint32_t field, std::string_view bytes);
  void message_field(uint32_t field, const ProtoWriter& m) { bytes_field(field, m.data()); }
  void packed_uint64(uint32_t field, const std::vector<uint64_t>& v);
  void packed_int64(uint32_t field, const std::vector<int64_t>& v);

  const std::string& data() const { return buf_; }
  void clear() { buf_.clear(); }

  static void append_varint(std::string* out, uint64_t v);

 private:
  void tag(uint32_t field, uint32_t wire_type) { append_varint(&buf_, (uint64_t(field) << 3) | wire_type); }
  std::string buf_;
};

// gzip (RFC 1952) compression with zlib. Returns false with *error set on failure.
bool gzip_compress(std::string_view in, std::string* out, std::string* error);
// The inverse, for tests and for reading gzip input.
bool gzip_decompress(std::string_view in, std::string* out, std::string* error);

}  // namespace erkit::exporters
