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

// Issue 13: libedit binds M-x (ESC x) in emacs mode and ':' in vi command mode to ed-command,
// which reads a line and hands it to libedit's own command parser (el_parse); an unbalanced
// quote there crashed er_print (SIGSEGV in el_wparse on the keys ESC x " Enter). User input
// must never reach that parser: both keys are unbound after ~/.editrc has been read (which
// may switch to vi mode and would reset the maps), so they only beep.
void disarm_libedit_commands() {
  rl_initialize();
  rl_parse_and_bind("bind M-x ed-unassigned");    // the current map (emacs, or vi insert)
  rl_parse_and_bind("bind -a : ed-unassigned");   // vi command mode
  rl_parse_and_bind("bind -a M-x ed-unassigned");
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
    disarm_libedit_commands();
    using_history();
    if (!hist.empty()) read_history(hist.c_str());
    s.ask = [](const std::string& prompt) { return read_line_tty(prompt.c_str()); };
  }
  bool ok = true, eof = false;
  LineAssembler lines;
  std::string line;
  while (true) {
    std::optional<std::string> physical;
    if (tty) {
      physical = read_line_tty(lines.pending().empty() ? "(er_print) " : "> ");
    } else {
      std::string l;
      if (std::getline(std::cin, l)) physical = l;
    }
    if (!physical) {  // Ctrl-D / end of input
      eof = true;
      break;
    }
    if (!lines.add(*physical, &line)) continue;
    if (tty && line.find_first_not_of(" \t") != std::string::npos) add_history(line.c_str());
    CommandResult r = execute(s, line);
    if (!r.ok && !tty) ok = false;
    if (r.quit) break;
  }
  if (!lines.pending().empty()) ok &= execute(s, lines.pending()).ok || tty;
  if (tty) {
    if (eof) fmt::print("\n");  // end the prompt line Ctrl-D left open
    if (!hist.empty()) write_history(hist.c_str());
    s.ask = nullptr;
  }
  s.input = saved;
  return ok;
}

}  // namespace erkit::erprint
