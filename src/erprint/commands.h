// er_print's command table: names, aliases, argument counts, help, and unique-prefix lookup
// with "did you mean" suggestions for unknown commands.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "erprint/session.h"

namespace erkit::erprint {

struct CommandResult {
  bool ok = true;
  bool quit = false;
  std::string error;
};

struct Command {
  std::string name;
  std::vector<std::string> aliases;
  int min_args = 0, max_args = 0;
  std::string args_help, help;
  std::function<CommandResult(Session&, const std::vector<std::string>&)> run;
};

const std::vector<Command>& command_table();
// Exact name, alias, or unique prefix. nullptr with *error describing why.
const Command* find_command(const std::string& name, std::string* error);
// Splits a command line into words, honouring double quotes.
std::vector<std::string> split_command_line(const std::string& line, std::string* error);
// Runs one command line; errors are returned, not printed.
CommandResult run_command_line(Session& s, const std::string& line);

}  // namespace erkit::erprint
