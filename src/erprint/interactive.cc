#include "erprint/interactive.h"

#include <editline/readline.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>

#include "erprint/commands.h"

namespace erkit::erprint {
namespace {

// Completion: command names for the first word; libedit's file names after it.
char* command_generator(const char* text, int state) {
  static std::vector<std::string> names;
  static size_t index;
  if (state == 0) {
    names = command_names();
    index = 0;
  }
  const size_t len = std::strlen(text);
  while (index < names.size()) {
    const std::string& n = names[index++];
    if (n.compare(0, len, text) == 0) return strdup(n.c_str());
  }
  return nullptr;
}

char** complete(const char* text, int start, int) {
  // Only the first word of the line is a command.
  bool first = true;
  for (int i = 0; i < start; ++i)
    if (rl_line_buffer[i] != ' ' && rl_line_buffer[i] != '\t') first = false;
  if (!first) return nullptr;
  rl_attempted_completion_over = 1;
  return rl_completion_matches(text, command_generator);
}

std::string history_path() {
  const char* home = std::getenv("HOME");
  return home && *home ? std::string(home) + "/.er_print_history" : "";
}

std::optional<std::string> read_line_tty(const char* prompt) {
  char* l = readline(prompt);
  if (!l) return std::nullopt;
  std::string s(l);
  std::free(l);
  return s;
}

}  // namespace

bool run_interactive(Session& s) {
  const bool tty = isatty(0);
  InputMode saved = s.input;
  s.input = tty ? InputMode::Interactive : InputMode::Script;
  const std::string hist = tty ? history_path() : "";
  if (tty) {
    rl_readline_name = "er_print";
    rl_attempted_completion_function = complete;
    using_history();
    if (!hist.empty()) read_history(hist.c_str());
    s.ask = [](const std::string& prompt) { return read_line_tty(prompt.c_str()); };
  }
  bool ok = true, eof = false;
  std::string pending, line;
  while (true) {
    std::optional<std::string> physical;
    if (tty) {
      physical = read_line_tty(pending.empty() ? "(er_print) " : "> ");
    } else {
      std::string l;
      if (std::getline(std::cin, l)) physical = l;
    }
    if (!physical) {  // Ctrl-D / end of input
      eof = true;
      break;
    }
    if (!assemble_line(pending, *physical, &line)) continue;
    if (tty && line.find_first_not_of(" \t") != std::string::npos) add_history(line.c_str());
    CommandResult r = execute(s, line);
    if (!r.ok && !tty) ok = false;
    if (r.quit) break;
  }
  if (!pending.empty()) ok &= execute(s, pending).ok || tty;
  if (tty) {
    if (eof) fmt::print("\n");  // end the prompt line Ctrl-D left open
    if (!hist.empty()) write_history(hist.c_str());
    s.ask = nullptr;
  }
  s.input = saved;
  return ok;
}

}  // namespace erkit::erprint
