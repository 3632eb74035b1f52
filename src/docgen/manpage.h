// Man pages from the markdown of docs/man/ (one source for docs/ and `man`): a small
// markdown subset rendered to man(7) roff. The subset (docs/man/README.md):
//   # name(section) -- summary          first line: the page's title and NAME line
//   ## HEADING / ### Subheading         .SH / .SS
//   paragraphs                          .PP, lines joined
//   ```fenced code```                   literal block, indented
//   - term:  + lines indented by two    .TP (an option, a command): term, then its text
//   - text                              bullet
//   `code` **bold** *italic* [text](url)   inline; a link keeps its text
// Anything else (tables, HTML, numbered lists, deeper headings) is refused with its line
// number, so a page never renders differently from what its markdown shows.
#pragma once
#include <string>

namespace erkit::docgen {

struct ManPage {
  std::string name, section, summary;
  std::string roff;  // the whole page
  std::string error;  // non-empty: "line N: why"
};

// `version` goes into the page footer ("erkit 0.1.0").
ManPage markdown_to_man(const std::string& markdown, const std::string& version);

// Inline markdown to roff (escapes backslashes, leading dots, minus signs of options).
std::string inline_to_roff(const std::string& text);

}  // namespace erkit::docgen
