// erkit-gen-manpage VERSION page.md output-file [more.md...]: one man page from its markdown
// (manpage.h), with generated sections (more.md, e.g. er_print's command list) appended. Run by
// the build for every docs/man/*.md.
#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "docgen/manpage.h"

int main(int argc, char** argv) {
  if (argc < 4) {
    fmt::print(stderr, "Usage: erkit-gen-manpage VERSION page.md output-file [more.md...]\n");
    return 2;
  }
  std::string page_text, extra;
  for (int i = 2; i < argc; ++i) {
    if (i == 3) continue;
    std::ifstream in(argv[i]);
    if (!in) {
      fmt::print(stderr, "erkit-gen-manpage: cannot read '{}'\n", argv[i]);
      return 1;
    }
    std::stringstream s;
    s << in.rdbuf();
    (i == 2 ? page_text : extra) += (i > 4 ? "\n" : "") + s.str();
  }
  // Generated sections go before SEE ALSO, which stays last.
  std::stringstream text;
  size_t see_also = page_text.find("\n## See also\n");
  if (extra.empty()) text << page_text;
  else if (see_also == std::string::npos) text << page_text << "\n" << extra;
  else text << page_text.substr(0, see_also + 1) << extra << "\n" << page_text.substr(see_also + 1);
  erkit::docgen::ManPage page = erkit::docgen::markdown_to_man(text.str(), argv[1]);
  if (!page.error.empty()) {
    fmt::print(stderr, "{}:{}\n", argv[2], page.error.substr(5));  // "file:N: why" as compilers write it
    return 1;
  }
  std::ofstream out(argv[3]);
  out << page.roff;
  if (!out.flush()) {
    fmt::print(stderr, "erkit-gen-manpage: cannot write '{}'\n", argv[3]);
    return 1;
  }
  return 0;
}
