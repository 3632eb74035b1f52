#include "docgen/manpage.h"

#include <fmt/format.h>

#include <cctype>
#include <regex>
#include <sstream>
#include <vector>

namespace erkit::docgen {
namespace {

// One character of text as roff: backslash escaped; a minus sign kept as one (\-) in code and
// where it starts a word (an option), a hyphen elsewhere.
void put_char(std::string& out, char c, char prev, bool code) {
  if (c == '\\') out += "\\e";
  else if (c == '-' && (code || prev == 0 || prev == ' ' || prev == '(' || prev == '[' || prev == '|' ||
                        prev == '=' || prev == ',' || prev == '-' || prev == '/'))
    out += "\\-";
  else out += c;
}

// A roff text line must not start with a control character.
std::string text_line(std::string s) {
  if (!s.empty() && (s[0] == '.' || s[0] == '\'')) s = "\\&" + s;
  return s;
}

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string quote_arg(const std::string& s) {
  std::string q;
  for (char c : s) q += c == '"' ? std::string("\\(dq") : std::string(1, c);
  return "\"" + q + "\"";
}

struct Renderer {
  std::string out, error;
  std::vector<std::string> para;  // lines of the open paragraph or list item
  enum class Block { None, Para, Item } block = Block::None;

  void flush() {
    if (!para.empty()) {
      std::string joined;
      for (const auto& l : para) joined += (joined.empty() ? "" : " ") + trim(l);
      std::string r = inline_to_roff(joined);
      if (block == Block::Para) out += ".PP\n";
      out += text_line(r) + "\n";
    }
    para.clear();
    block = Block::None;
  }
};

}  // namespace

std::string inline_to_roff(const std::string& t) {
  std::string out;
  char prev = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (c == '\\' && i + 1 < t.size() && std::ispunct(static_cast<unsigned char>(t[i + 1]))) {
      put_char(out, t[++i], prev, false);
      prev = t[i];
      continue;
    }
    if (c == '`') {
      size_t e = t.find('`', i + 1);
      if (e != std::string::npos) {
        out += "\\fB";
        for (size_t k = i + 1; k < e; ++k) put_char(out, t[k], 0, true);
        out += "\\fR";
        i = e;
        prev = '`';
        continue;
      }
    }
    if (c == '*') {
      bool strong = i + 1 < t.size() && t[i + 1] == '*';
      const char* mark = strong ? "**" : "*";
      size_t e = t.find(mark, i + (strong ? 2 : 1));
      if (e != std::string::npos && e > i + (strong ? 2 : 1)) {
        std::string inner = t.substr(i + (strong ? 2 : 1), e - i - (strong ? 2 : 1));
        out += (strong ? "\\fB" : "\\fI") + inline_to_roff(inner) + "\\fR";
        i = e + (strong ? 1 : 0);
        prev = '*';
        continue;
      }
    }
    if (c == '[') {
      size_t mid = t.find("](", i);
      size_t e = mid == std::string::npos ? mid : t.find(')', mid);
      if (e != std::string::npos && t.find('[', i + 1) > mid) {
        out += inline_to_roff(t.substr(i + 1, mid - i - 1));
        i = e;
        prev = ')';
        continue;
      }
    }
    put_char(out, c, prev, false);
    prev = c;
  }
  return out;
}

ManPage markdown_to_man(const std::string& markdown, const std::string& version) {
  using Block = Renderer::Block;
  ManPage page;
  std::istringstream in(markdown);
  std::string line;
  int n = 0;
  Renderer r;
  bool code = false, after_blank_in_item = false;
  auto fail = [&](const std::string& why) {
    page.error = fmt::format("line {}: {}", n, why);
    return page;
  };
  static const std::regex title(R"(^# ([A-Za-z0-9_.+-]+)\(([1-8][a-z]*)\) -- (.+)$)");
  while (std::getline(in, line)) {
    ++n;
    if (n == 1) {
      std::smatch m;
      if (!std::regex_match(line, m, title)) return fail("the first line must be '# name(section) -- summary'");
      page.name = m[1];
      page.section = m[2];
      page.summary = m[3];
      std::string upper;
      for (char c : page.name) upper += char(std::toupper(static_cast<unsigned char>(c)));
      r.out += fmt::format(".TH {} {} \"\" {} \"erkit Manual\"\n", quote_arg(upper), page.section,
                           quote_arg("erkit " + version));
      r.out += ".SH NAME\n" + text_line(inline_to_roff(page.name) + " \\- " + inline_to_roff(page.summary)) + "\n";
      continue;
    }
    if (starts_with(line, "```")) {
      r.flush();
      r.out += code ? ".fi\n.RE\n" : ".PP\n.RS 4\n.nf\n";
      code = !code;
      continue;
    }
    if (code) {
      std::string l;
      for (char c : line) put_char(l, c, 0, true);
      r.out += l.empty() ? "\\&\n" : text_line(l) + "\n";
      continue;
    }
    if (line.find('\t') != std::string::npos) return fail("tab character (use spaces)");
    if (trim(line).empty()) {
      if (r.block == Block::Item) after_blank_in_item = true;
      else r.flush();
      continue;
    }
    if (starts_with(line, "## ") || starts_with(line, "### ")) {
      r.flush();
      after_blank_in_item = false;
      bool sub = line[2] == '#';
      std::string h = trim(line.substr(sub ? 4 : 3));
      if (!sub)
        for (auto& c : h) c = char(std::toupper(static_cast<unsigned char>(c)));
      r.out += fmt::format("{} {}\n", sub ? ".SS" : ".SH", quote_arg(inline_to_roff(h)));
      continue;
    }
    if (starts_with(line, "#") || starts_with(line, "|") || starts_with(line, "<") || starts_with(line, ">") ||
        starts_with(line, "* ") || (std::isdigit(static_cast<unsigned char>(line[0])) && line.find(". ") < 4))
      return fail("construct outside the man-page subset (headings ## and ###, paragraphs, ``` code, '- ' lists)");
    if (starts_with(line, "- ")) {
      r.flush();
      after_blank_in_item = false;
      std::string item = trim(line.substr(2));
      r.block = Block::Item;
      if (item.size() > 1 && item.back() == ':') {
        r.out += ".TP\n" + text_line(inline_to_roff(item.substr(0, item.size() - 1))) + "\n";
      } else {
        r.out += ".IP \\(bu 2\n";
        r.para.push_back(item);
      }
      continue;
    }
    if (r.block == Block::Item && starts_with(line, "  ")) {
      if (after_blank_in_item) {  // a further paragraph of the same item
        r.flush();
        r.block = Block::Item;
        r.out += ".IP\n";
        after_blank_in_item = false;
      }
      r.para.push_back(line);
      continue;
    }
    if (r.block == Block::Item) {
      if (!after_blank_in_item) return fail("text right after a list item must be indented by two spaces");
      r.flush();
    }
    after_blank_in_item = false;
    if (line[0] == ' ') return fail("indented text outside a list item");
    if (r.block == Block::None) r.block = Block::Para;
    r.para.push_back(line);
  }
  if (code) return fail("unclosed ``` code block");
  if (n == 0) return fail("empty page");
  r.flush();
  page.roff = std::move(r.out);
  return page;
}

}  // namespace erkit::docgen
