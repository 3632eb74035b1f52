// End-to-end I/O tracing (collect -i on): bytes and call counts exact per file, per opened file
// and per call stack, against tests/programs/trace_io.c.
#include "trace_util.h"

namespace erkit::e2e {
namespace {

using IoTrace = TraceTest;

// Columns of the ioactivity/iodetail tables after the time.
struct IoRow {
  long read_bytes = -1, reads = -1, write_bytes = -1, writes = -1, other = -1, errors = -1;
};
IoRow io_row(const std::map<std::string, FunctionRow>& rows, const std::string& name) {
  auto it = rows.find(name);
  if (it == rows.end() || it->second.values.size() < 7) return {};
  const auto& v = it->second.values;
  return {long(v[1]), long(v[2]), long(v[3]), long(v[4]), long(v[5]), long(v[6])};
}

TEST_F(IoTrace, ExactBytesPerFile) {
  auto c = collect("-i on " + program("trace_io"));
  ASSERT_EQ(c.status, 0) << c.err;
  auto p = er_print("-ioactivity test.1.er");
  ASSERT_EQ(p.status, 0) << p.err;
  auto rows = parse_function_list(p.out);
  IoRow a = io_row(rows, "io_a.dat");
  EXPECT_EQ(a.write_bytes, 3900) << p.out;
  EXPECT_EQ(a.writes, 6);
  EXPECT_EQ(a.read_bytes, 4000);
  EXPECT_EQ(a.reads, 11);
  EXPECT_EQ(a.other, 7);
  EXPECT_EQ(a.errors, 0);
  IoRow b = io_row(rows, "io_b.txt");
  EXPECT_EQ(b.write_bytes, 159) << p.out;
  EXPECT_EQ(b.writes, 20);
  EXPECT_EQ(b.read_bytes, 159);
  EXPECT_EQ(b.reads, 16);
  EXPECT_EQ(b.other, 4);
  IoRow out = io_row(rows, "<stdout>");
  EXPECT_EQ(out.write_bytes, 8 + 2) << p.out;
  EXPECT_EQ(out.writes, 2);
  // The pipe: both ends are named by the kernel "pipe:[inode]".
  bool pipe = false;
  for (const auto& [name, row] : rows) {
    if (name.rfind("pipe:[", 0) != 0) continue;
    pipe = true;
    IoRow r = io_row(rows, name);
    EXPECT_EQ(r.write_bytes, 1234);
    EXPECT_EQ(r.read_bytes, 1234);
    EXPECT_EQ(r.other, 3);
  }
  EXPECT_TRUE(pipe) << p.out;
  IoRow total = io_row(rows, "<Total>");
  EXPECT_EQ(total.write_bytes, 3900 + 159 + 10 + 1234);
  EXPECT_EQ(total.read_bytes, 4000 + 159 + 1234);
}

TEST_F(IoTrace, EachOpenIsItsOwnVirtualDescriptor) {
  ASSERT_EQ(collect("-i on " + program("trace_io")).status, 0);
  auto p = er_print("-iodetail test.1.er");
  ASSERT_EQ(p.status, 0) << p.err;
  // io_a.dat was opened twice: once written (with its dup), once read.
  int opens = 0;
  long written = 0, read = 0;
  for (const auto& [name, row] : parse_function_list(p.out)) {
    if (name.rfind("io_a.dat (IOVFD=", 0) != 0) continue;
    ++opens;
    written += long(row.values[3]);
    read += long(row.values[1]);
  }
  EXPECT_EQ(opens, 2) << p.out;
  EXPECT_EQ(written, 3900);
  EXPECT_EQ(read, 4000);
}

TEST_F(IoTrace, BytesPerCallStack) {
  ASSERT_EQ(collect("-i on " + program("trace_io")).status, 0);
  auto p = er_print("-iocallstack test.1.er");
  ASSERT_EQ(p.status, 0) << p.err;
  // Stack blocks: "Stack #n, I/O Time = t (secs.), Read Bytes = r, Reads = n, Write Bytes = w,
  // Writes = m, Other I/O = o", then frames.
  struct Block {
    long rb, reads, wb, writes;
    std::vector<std::string> frames;
  };
  std::vector<Block> blocks;
  std::istringstream in(p.out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Stack #", 0) == 0) {
      Block b{};
      double t;
      int n;
      std::sscanf(line.c_str(), "Stack #%d, I/O Time = %lf (secs.), Read Bytes = %ld, Reads = %ld, Write Bytes = %ld, Writes = %ld",
                  &n, &t, &b.rb, &b.reads, &b.wb, &b.writes);
      blocks.push_back(b);
    } else if (line.rfind("    ", 0) == 0 && !blocks.empty()) {
      std::string f = line.substr(4);
      blocks.back().frames.push_back(f.substr(0, f.find(" + 0x")));
    }
  }
  auto find = [&](const std::string& leaf, const std::string& caller) -> const Block* {
    for (const auto& b : blocks)
      if (b.frames.size() > 1 && b.frames[0] == leaf && b.frames[1] == caller) return &b;
    return nullptr;
  };
  const Block* w = find("write", "write_a");
  ASSERT_NE(w, nullptr) << p.out;
  EXPECT_EQ(w->writes, 3);
  EXPECT_EQ(w->wb, 3000);
  const Block* rd = find("read", "read_a");
  ASSERT_NE(rd, nullptr) << p.out;
  EXPECT_EQ(rd->reads, 9);  // eight 512-byte chunks (the last 216) and the empty read at EOF
  EXPECT_EQ(rd->rb, 3800);
  const Block* fg = find("fgets", "read_b");
  ASSERT_NE(fg, nullptr) << p.out;
  EXPECT_EQ(fg->reads, 16);
  EXPECT_EQ(fg->rb, 159);
  const Block* fp = find("fprintf", "write_b");
  ASSERT_NE(fp, nullptr) << p.out;
  EXPECT_EQ(fp->writes, 4);
  EXPECT_EQ(fp->wb, 24);
  const Block* pw = find("pwrite", "vector_and_positional");
  if (!pw) pw = find("pwrite64", "vector_and_positional");
  ASSERT_NE(pw, nullptr) << p.out;
  EXPECT_EQ(pw->wb, 500);
}

TEST_F(IoTrace, StatisticsAndMetrics) {
  ASSERT_EQ(collect("-i on " + program("trace_io")).status, 0);
  auto s = er_print("-iostat test.1.er");
  ASSERT_EQ(s.status, 0) << s.err;
  // Write Statistics come first: 29 calls; then Read Statistics: 28 calls.
  EXPECT_EQ(stat_value(s.out, "Total calls"), 29) << s.out;
  EXPECT_EQ(stat_value(s.out, "Largest write bytes"), 1234) << s.out;
  EXPECT_EQ(stat_value(s.out, "Largest read bytes"), 1234) << s.out;
  auto f = er_print("-metrics e.ioreadbytes:e.iowritebytes:i.ioreadbytes -functions test.1.er");
  auto rows = parse_function_list(f.out);
  const FunctionRow* w = find_row(rows, "write");
  ASSERT_NE(w, nullptr) << f.out;
  EXPECT_EQ(w->values[1], 3000 + 100 + 1234);  // write_a, through_dup, the pipe
  ASSERT_TRUE(rows.count("read_b")) << f.out;
  EXPECT_EQ(rows["read_b"].values[2], 159);
}

TEST_F(IoTrace, ReportsRefuseExperimentsWithoutIoData) {
  ASSERT_EQ(collect(program("trace_io")).status, 0);
  auto p = er_print("-ioactivity test.1.er");
  EXPECT_NE(p.status, 0);
  EXPECT_NE(p.err.find("no I/O trace data"), std::string::npos) << p.err;
}

}  // namespace
}  // namespace erkit::e2e
