#include "docgen/manpage.h"

#include <gtest/gtest.h>

namespace erkit::docgen {
namespace {

TEST(ManPage, TitleSectionsParagraphsAndOptions) {
  ManPage p = markdown_to_man(
      "# er_demo(1) -- show a demo\n"
      "\n"
      "## Synopsis\n"
      "\n"
      "`er_demo` [*options*] *file*\n"
      "\n"
      "## Options\n"
      "\n"
      "- `-p` *interval*:\n"
      "  Clock profiling,\n"
      "  every *interval*.\n"
      "\n"
      "  A second paragraph.\n"
      "- a bullet\n"
      "\n"
      "### See also\n"
      "\n"
      "[collect(1)](collect.1.md), a well-known tool; .dot first\n",
      "0.1.0");
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.name, "er_demo");
  EXPECT_EQ(p.section, "1");
  EXPECT_EQ(p.roff,
            ".TH \"ER_DEMO\" 1 \"\" \"erkit 0.1.0\" \"erkit Manual\"\n"
            ".SH NAME\n"
            "er_demo \\- show a demo\n"
            ".SH \"SYNOPSIS\"\n"
            ".PP\n"
            "\\fBer_demo\\fR [\\fIoptions\\fR] \\fIfile\\fR\n"
            ".SH \"OPTIONS\"\n"
            ".TP\n"
            "\\fB\\-p\\fR \\fIinterval\\fR\n"
            "Clock profiling, every \\fIinterval\\fR.\n"
            ".IP\n"
            "A second paragraph.\n"
            ".IP \\(bu 2\n"
            "a bullet\n"
            ".SS \"See also\"\n"
            ".PP\n"
            "collect(1), a well-known tool; .dot first\n");
}

TEST(ManPage, CodeBlocksAreLiteral) {
  ManPage p = markdown_to_man("# x(3) -- y\n\n```\n.start -p C:\\dir\n\n```\n", "1");
  ASSERT_EQ(p.error, "");
  EXPECT_NE(p.roff.find(".nf\n\\&.start \\-p C:\\edir\n\\&\n.fi\n"), std::string::npos) << p.roff;
}

TEST(ManPage, InlineEscapes) {
  EXPECT_EQ(inline_to_roff("multi-threaded -p a\\b"), "multi-threaded \\-p a\\eb");
  EXPECT_EQ(inline_to_roff("**bold** and *it* and 2*3"), "\\fBbold\\fR and \\fIit\\fR and 2*3");
  EXPECT_EQ(inline_to_roff(".starts"), ".starts");  // text_line() protects whole lines
}

TEST(ManPage, RefusesWhatItCannotRender) {
  EXPECT_EQ(markdown_to_man("collect(1)\n", "1").error, "line 1: the first line must be '# name(section) -- summary'");
  EXPECT_EQ(markdown_to_man("# x(1) -- y\n| a | b |\n", "1").error.substr(0, 7), "line 2:");
  EXPECT_EQ(markdown_to_man("# x(1) -- y\n<b>html</b>\n", "1").error.substr(0, 7), "line 2:");
  EXPECT_EQ(markdown_to_man("# x(1) -- y\n```\ncode\n", "1").error, "line 3: unclosed ``` code block");
  EXPECT_EQ(markdown_to_man("# x(1) -- y\n- term:\nnot indented\n", "1").error,
            "line 3: text right after a list item must be indented by two spaces");
}

}  // namespace
}  // namespace erkit::docgen
