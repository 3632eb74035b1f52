// End-to-end: archives of load objects (seed-spec §5.5, §11): identities recorded at the end
// of collection, copies with -A copy / er_archive -A, the copy used when the program changed
// or disappeared, a warning when it changed and there is no copy.
#include <sys/stat.h>

#include "collect_fixture.h"
#include "reader/load_object_archives.h"

namespace erkit::e2e {
namespace {

namespace fs = std::filesystem;

class CollectArchive : public CollectTest {
 protected:
  void SetUp() override {
    CollectTest::SetUp();
    // A private copy of the program, so the test may change or remove it.
    fs::copy_file(family(), path("app"));
  }
  RunResult er_archive(const std::string& args) { return run("cd " + dir_ + " && " + bin("er_archive") + " " + args); }
  std::vector<reader::ArchiveEntry> entries(const std::string& exp) {
    return reader::read_archives(path(exp) + "/archives");
  }
  const reader::ArchiveEntry* entry_for(const std::vector<reader::ArchiveEntry>& v, const std::string& p) {
    for (const auto& e : v)
      if (e.path == p) return &e;
    return nullptr;
  }
  std::string build_id_by_readelf(const std::string& file) {
    auto r = run("readelf -n " + file + " | sed -n 's/.*Build ID: *//p'");
    std::string id = r.out;
    while (!id.empty() && (id.back() == '\n' || id.back() == ' ')) id.pop_back();
    return id;
  }
};

TEST_F(CollectArchive, IdentitiesAreRecordedAtTheEnd) {
  ASSERT_EQ(collect("./app burn:20").status, 0);
  auto v = entries("test.1.er");
  const auto* app = entry_for(v, path("app"));
  ASSERT_TRUE(app) << "no archive entry for the program";
  struct stat st;
  ASSERT_EQ(stat(path("app").c_str(), &st), 0);
  EXPECT_EQ(app->size, uint64_t(st.st_size));
  EXPECT_EQ(app->mtime_ns, int64_t(st.st_mtim.tv_sec) * 1000000000ll + st.st_mtim.tv_nsec);
  std::string bid = build_id_by_readelf(path("app"));
  ASSERT_FALSE(bid.empty());
  EXPECT_EQ(app->build_id, bid);
  EXPECT_EQ(app->file_build_id, bid);
  EXPECT_TRUE(app->checksum.empty()) << "a build-id names the content: no need to read the file";
  EXPECT_TRUE(app->copy.empty());
  EXPECT_TRUE(app->warnings.empty());
  bool has_libc = false;
  for (const auto& e : v) has_libc |= e.path.find("libc.so") != std::string::npos;
  EXPECT_TRUE(has_libc);
  // -A off: no archives, not even lazily on open.
  ASSERT_EQ(collect("-A off ./app burn:20").status, 0);
  EXPECT_FALSE(exists("test.2.er/archives"));
  ASSERT_EQ(er_print("-functions test.2.er").status, 0);
  EXPECT_FALSE(exists("test.2.er/archives"));
}

// Without a build-id, the content is named by a checksum of the whole file.
TEST_F(CollectArchive, AProgramWithoutBuildIdIsChecksummed) {
  auto strip = run("objcopy --remove-section=.note.gnu.build-id " + path("app") + " " + path("nobid"));
  ASSERT_EQ(strip.status, 0) << strip.err;
  ASSERT_TRUE(build_id_by_readelf(path("nobid")).empty());
  ASSERT_EQ(collect("./nobid burn:20").status, 0);
  auto v = entries("test.1.er");
  const auto* e = entry_for(v, path("nobid"));
  ASSERT_TRUE(e) << "no archive entry for the program";
  EXPECT_TRUE(e->build_id.empty() && e->file_build_id.empty());
  EXPECT_EQ(e->checksum.rfind("fnv64:", 0), 0u) << e->checksum;
  EXPECT_EQ(e->checksum.size(), 6u + 16u) << e->checksum;
}

TEST_F(CollectArchive, TheCopyIsReadWhenTheProgramChangedOrVanished) {
  ASSERT_EQ(collect("-A copy ./app burn:200").status, 0);
  auto archived = entries("test.1.er");
  const auto* app = entry_for(archived, path("app"));
  ASSERT_TRUE(app && !app->copy.empty());
  EXPECT_TRUE(exists("test.1.er/archives/" + app->copy));
  // Replaced by another program (other build-id): functions still come from the copy.
  fs::copy_file(program("work_ratio"), path("app"), fs::copy_options::overwrite_existing);
  auto p = er_print("-functions test.1.er");
  ASSERT_EQ(p.status, 0) << p.err;
  EXPECT_NEAR(seconds_of(user_seconds("test.1.er"), "burn_main"), 0.2, 0.05) << p.out;
  EXPECT_NE((p.out + p.err).find("using its archived copy"), std::string::npos) << p.out << p.err;
  // Removed: likewise.
  fs::remove(path("app"));
  EXPECT_NEAR(seconds_of(user_seconds("test.1.er"), "burn_main"), 0.2, 0.05);
}

TEST_F(CollectArchive, AChangedProgramWithoutACopyIsWarnedAbout) {
  ASSERT_EQ(collect("./app burn:100").status, 0);
  fs::copy_file(program("work_ratio"), path("app"), fs::copy_options::overwrite_existing);
  auto p = er_print("-functions test.1.er");
  ASSERT_EQ(p.status, 0) << p.err;
  std::string all = p.out + p.err;
  EXPECT_NE(all.find("changed since it was recorded"), std::string::npos) << all;
  EXPECT_NE(all.find("no archived copy"), std::string::npos) << all;
}

TEST_F(CollectArchive, ErArchiveOptions) {
  ASSERT_EQ(collect("-A off ./app burn:20").status, 0);
  auto v = er_archive("-V");
  EXPECT_EQ(v.status, 0);
  EXPECT_NE(v.out.find("er_archive"), std::string::npos);
  EXPECT_EQ(er_archive("").status, 2);
  EXPECT_EQ(er_archive("-Z test.1.er").status, 2);
  auto bad = er_archive("nonexistent.er");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("not an experiment"), std::string::npos);

  ASSERT_EQ(er_archive("test.1.er").status, 0);
  auto archived = entries("test.1.er");
  const auto* app = entry_for(archived, path("app"));
  ASSERT_TRUE(app);
  EXPECT_TRUE(app->copy.empty());
  // -A adds the copies to existing archives.
  ASSERT_EQ(er_archive("-A test.1.er").status, 0);
  archived = entries("test.1.er");
  app = entry_for(archived, path("app"));
  ASSERT_TRUE(app);
  EXPECT_FALSE(app->copy.empty());
  // Without -F an existing archive is kept; -F rewrites it. -q keeps warnings off stderr but
  // in the archive.
  fs::remove(path("app"));
  auto kept = er_archive("test.1.er");
  EXPECT_EQ(kept.status, 0);
  EXPECT_TRUE(kept.err.empty()) << kept.err;
  auto quiet = er_archive("-qF test.1.er");
  EXPECT_EQ(quiet.status, 0);
  EXPECT_TRUE(quiet.err.empty()) << quiet.err;
  archived = entries("test.1.er");
  app = entry_for(archived, path("app"));
  ASSERT_TRUE(app);
  ASSERT_FALSE(app->warnings.empty());
  EXPECT_NE(app->warnings[0].find("missing"), std::string::npos);
  auto loud = er_archive("-F test.1.er");
  EXPECT_NE(loud.err.find("missing"), std::string::npos) << loud.err;
}

}  // namespace
}  // namespace erkit::e2e
