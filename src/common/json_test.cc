#include "common/json.h"

#include <gtest/gtest.h>

namespace erkit::json {
namespace {

TEST(Json, BuildsAndDumpsInInsertionOrder) {
  Value v = Value::object();
  v.set("b", 1).set("a", "x\"y\n").set("n", nullptr).set("t", true).set("d", 0.5);
  v.set("arr", Value::array().push(1).push(Value::object().set("k", -7)));
  v.set("b", 2);  // replaces in place
  EXPECT_EQ(v.dump(), R"({"b":2,"a":"x\"y\n","n":null,"t":true,"d":0.5,"arr":[1,{"k":-7}]})");
  EXPECT_EQ(Value::object().dump(), "{}");
  EXPECT_EQ(Value::array().dump(2), "[]");
  EXPECT_EQ(Value::object().set("a", Value::array().push(1)).dump(2), "{\n  \"a\": [\n    1\n  ]\n}");
}

// dump_to() writes what dump() returns; raw documents are written as they are.
TEST(Json, DumpToMatchesDump) {
  Value v = Value::object();
  v.set("a", Value::array().push(1).push(2.5).push("s\"q")).set("raw", Value::raw(R"({"x":[1,2]})"));
  v.set("o", Value::object().set("k", Value::array())).set("n", nullptr);
  std::string pieces;
  v.dump_to([&](std::string_view p) { pieces += p; });
  EXPECT_EQ(pieces, v.dump());
  EXPECT_EQ(pieces, R"({"a":[1,2.5,"s\"q"],"raw":{"x":[1,2]},"o":{"k":[]},"n":null})");
}

TEST(Json, ControlCharactersAndNonFiniteNumbers) {
  EXPECT_EQ(escape(std::string("a\x01" "b\tc", 5)), "\"a\\u0001b\\tc\"");
  EXPECT_EQ(Value(1.0 / 0.0).dump(), "null");
  EXPECT_EQ(Value(int64_t(INT64_MIN)).dump(), "-9223372036854775808");
}

TEST(Json, ParsesWhatItWrites) {
  Value v = Value::object();
  v.set("s", "tab\there \"q\" \\ é").set("i", int64_t(1) << 60).set("neg", -3).set("f", 1.25);
  v.set("a", Value::array().push(Value::array()).push(Value::object()).push(false));
  Value back;
  std::string err;
  ASSERT_TRUE(parse(v.dump(), &back, &err)) << err;
  EXPECT_EQ(back.dump(), v.dump());
  ASSERT_TRUE(parse(v.dump(2), &back, &err)) << err;
  EXPECT_EQ(back.dump(), v.dump());
  EXPECT_EQ(back["i"].as_int(), int64_t(1) << 60);
  EXPECT_EQ(back["a"][2].kind(), Value::Kind::Bool);
  EXPECT_TRUE(back["missing"].is_null());
  EXPECT_TRUE(back["a"][9].is_null());
}

TEST(Json, RejectsBadText) {
  Value v;
  std::string err;
  for (const char* bad : {"", "{", "[1,]", "{\"a\" 1}", "\"open", "[1] x", "tru", "{1:2}"})
    EXPECT_FALSE(parse(bad, &v, &err)) << bad;
  std::string deep(500, '[');
  EXPECT_FALSE(parse(deep, &v, &err));
  EXPECT_NE(err.find("nested too deeply"), std::string::npos) << err;
}

// Escapes as GCC's optimisation records write them (the commentary's parser, json_lite, was
// merged into this one in issue 18; its cases are kept here).
TEST(Json, DecodesUnicodeEscapesAsUtf8) {
  Value v;
  std::string err;
  ASSERT_TRUE(parse(R"([1, {"a": "x\ny\u00e9", "b": [true, null, -2.5e1]}, []])", &v, &err)) << err;
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[1]["a"].as_string(), "x\ny\xc3\xa9");
  EXPECT_EQ(v[1]["b"][2].as_double(), -25);
  ASSERT_TRUE(parse(R"("\u20ac \ud83d\ude00 \u0041")", &v, &err)) << err;
  EXPECT_EQ(v.as_string(), "\xe2\x82\xac \xf0\x9f\x98\x80 A");  // 3 bytes, a surrogate pair as 4, 1
  for (const char* bad : {R"("\u00")", R"("\u00zz")", R"("\ud83d\u12")"}) {
    EXPECT_FALSE(parse(bad, &v, &err)) << bad;
    EXPECT_NE(err.find("bad \\u escape"), std::string::npos) << err;
  }
  EXPECT_FALSE(parse("[1, 2", &v, &err));
  EXPECT_NE(err.find("offset"), std::string::npos) << err;
}

}  // namespace
}  // namespace erkit::json
