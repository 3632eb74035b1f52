// er_print's command table: names, aliases, argument counts, help, unique-prefix lookup with
// "did you mean" suggestions, the command-line tokenizer (double quotes, comments), and the
// runners for one line, a script and a stream of lines.
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
  // >= 0: after this many ordinary words, the rest of the line is one argument taken as
  // written (filter and index expressions, whose own double quotes must survive). A rest
  // wholly enclosed in double quotes loses them (and \" inside becomes ").
  int raw_after = -1;
};

const std::vector<Command>& command_table();
// Exact name, alias, or unique prefix. nullptr with *error describing why.
const Command* find_command(const std::string& name, std::string* error);
// Command names and aliases, for completion.
std::vector<std::string> command_names();

struct Word {
  std::string text;
  size_t begin = 0, end = 0;  // in the line, including quotes
};
// Splits a command line into words, honouring double quotes; '#' starting a word begins a
// comment.
std::vector<Word> split_words(const std::string& line, std::string* error);
std::vector<std::string> split_command_line(const std::string& line, std::string* error);

// Runs one command line; errors are returned, not printed. A memory-object type name works
// as a command (memobj <type>).
CommandResult run_command_line(Session& s, const std::string& line);
// Runs one line and reports an error (stderr; also as a JSON object in JSON mode).
CommandResult execute(Session& s, const std::string& line);

// Joins physical lines into command lines: a trailing backslash continues a line, and a
// double-quoted argument may span lines. Linear in the input: each physical line is scanned
// once and appended (issue 14: 100 000 continued lines rescanned the whole line each time).
class LineAssembler {
 public:
  // Returns true when *complete holds a full command line.
  bool add(const std::string& physical, std::string* complete);
  // The unfinished line (input ended inside a continuation or a quoted argument).
  const std::string& pending() const { return pending_; }

 private:
  std::string pending_;
  bool quoted_ = false;  // inside a double-quoted argument at the end of pending_
};

// Runs every command of a script; `quit` ends the script. Returns false if a command failed.
bool run_script(Session& s, const std::string& text, InputMode mode);
bool run_script_file(Session& s, const std::string& path, std::string* error);

}  // namespace erkit::erprint
