// erkit-gen-tables: text generated at build time from the tables the tools themselves use.
//   erkit-gen-tables completion TOOL...   the bash completion script for erkit. Its word lists
//       come from er_print's command table (erprint/commands.h), the metric catalog
//       (metricspec/catalog.h) and collect's option table (collect/options.h); the other TOOLs
//       are completed from their own --help. Installed under share/bash-completion/completions/.
//   erkit-gen-tables erprint-commands     the COMMANDS section of er_print(1), as markdown of
//       the man-page subset (docgen/manpage.h), from the command table.
#include <fmt/format.h>

#include <set>
#include <string>
#include <vector>

#include "catalog.h"
#include "collect/options.h"
#include "erprint/commands.h"

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

// Markdown text that the man-page subset takes literally.
std::string md_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '*' || c == '`' || c == '[' || c == ']' || c == '\\' || c == '_') out += '\\';
    out += c;
  }
  return out;
}

int erprint_commands() {
  using namespace erkit;
  fmt::print("## Commands\n\n"
             "Generated from er_print's command table (the list `er_print -help` prints). Each command\n"
             "may be abbreviated to a unique prefix; on the command line it is written with a leading `-`.\n\n");
  for (const auto& c : erprint::command_table()) {
    std::string name = "`" + c.name + "`";
    for (const auto& a : c.aliases) name += ", `" + a + "`";
    std::string help = md_escape(c.help);
    if (!help.empty() && help.back() != '.') help += '.';
    fmt::print("- {}{}:\n  {}\n", name, c.args_help.empty() ? "" : " " + md_escape(c.args_help), help);
  }
  return 0;
}

int completion(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "erprint-commands" && argc == 2) return erprint_commands();
  if (mode == "completion") return completion(argc - 1, argv + 1);
  fmt::print(stderr, "Usage: erkit-gen-tables completion TOOL... | erprint-commands\n");
  return 2;
}

namespace {

int completion(int argc, char** argv) {
  using namespace erkit;
  std::vector<std::string> commands = erprint::command_names();
  std::vector<std::string> options = {"-", "-script", "-V", "-json", "--help", "--version", "--"};
  for (const auto& c : commands) options.push_back("-" + c);

  std::vector<std::string> metrics = {"name", "size", "address"}, counters;
  for (const auto& m : metricspec::known_metrics()) {
    for (const char* flavor : {"e.", "i.", "a.", "e%", "i%", "ei.", "ei%"}) metrics.push_back(flavor + std::string(m.name));
    if (m.hwc) counters.push_back(std::string(m.name));
  }
  // The commands whose arguments are metric lists or sort keys.
  std::vector<std::string> metric_commands;
  for (const char* name : {"metrics", "sort", "dmetrics", "dsort", "cmetrics", "csort"}) {
    std::string error;
    if (const erprint::Command* c = erprint::find_command(name, &error); c && c->name == name)
      metric_commands.push_back("-" + c->name);
  }

  std::string value_cases;
  std::vector<std::string> value_options;
  for (const auto& v : collect::options_with_values()) {
    std::string opt = fmt::format("-{}", v.letter);
    value_options.push_back(opt);
    std::string words = v.letter == 'h' ? "$_erkit_counter_names" : join(v.words);
    if (v.letter == 'o' || v.letter == 'd' || v.letter == 'O' || v.letter == 'g')
      value_cases += fmt::format("    {}) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n", opt);
    else if (!words.empty())
      value_cases += fmt::format("    {}) COMPREPLY=($(compgen -W \"{}\" -- \"$cur\")) ;;\n", opt, words);
    else
      value_cases += fmt::format("    {}) COMPREPLY=() ;;\n", opt);
  }
  std::vector<std::string> tools(argv + 1, argv + argc);

  fmt::print(R"(# bash completion for erkit: collect, er_print and the other tools.
# Generated at build time by erkit-gen-tables from er_print's command table, the metric
# catalog and collect's option table; do not edit.

_erkit_er_print_options="{0}"
_erkit_metric_keywords="{1}"
_erkit_counter_names="{2}"
_erkit_collect_options="{3}"
_erkit_collect_value_options=" {4} "

# Experiments: directories (an experiment is one) and .erg groups.
_erkit_experiments() {{
  COMPREPLY=($(compgen -d -- "$1") $(compgen -f -X '!*.erg' -- "$1"))
}}

_erkit_er_print() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}} i
  # Metric lists (-metrics e.user:i.user): bash splits them at ':'; complete the last keyword.
  [[ $cur == : ]] && cur=
  for ((i = COMP_CWORD - 1; i > 0; i--)); do
    [[ ${{COMP_WORDS[i]}} == : || ${{COMP_WORDS[i+1]}} == : ]] || break
  done
  case " {5} " in
    *" ${{COMP_WORDS[i]}} "*)
      if ((i == COMP_CWORD - 1)) || [[ $prev == : || ${{COMP_WORDS[COMP_CWORD]}} == : ]]; then
        COMPREPLY=($(compgen -W "$_erkit_metric_keywords" -- "$cur"))
        return
      fi ;;
  esac
  case $prev in
    -script|-outfile|-appendfile) COMPREPLY=($(compgen -f -- "$cur")); return ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$_erkit_er_print_options" -- "$cur"))
  else
    _erkit_experiments "$cur"
  fi
}}

_erkit_collect() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}} i w
  # Once the target program is named, the rest belongs to it.
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${{COMP_WORDS[i]}}
    if [[ $w == -- ]]; then ((i++)); break; fi
    [[ $w == -* ]] || break
    [[ $_erkit_collect_value_options == *" $w "* ]] && ((i++))
  done
  if ((i < COMP_CWORD)); then
    if declare -F _command_offset >/dev/null; then _command_offset $i; else COMPREPLY=($(compgen -f -- "$cur")); fi
    return
  fi
  case $prev in
{6}  esac
  [[ $_erkit_collect_value_options == *" $prev "* ]] && return
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$_erkit_collect_options" -- "$cur"))
  else
    COMPREPLY=($(compgen -c -- "$cur") $(compgen -f -- "$cur"))
  fi
}}

# The other tools: their options as their own --help lists them, then files.
_erkit_generic() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}}
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$("$1" --help 2>/dev/null | awk '/^ +-/ {{ for (i = 1; i <= NF; i++) {{
        t = $i; sub(/,$/, "", t); if (t ~ /^-/) print t; else break }} }}') --help --version" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}}

complete -F _erkit_er_print er_print
complete -F _erkit_collect collect
)",
             join(options), join(metrics), join(counters), join(collect::option_names()), join(value_options),
             join(metric_commands), value_cases);
  if (!tools.empty()) fmt::print("complete -F _erkit_generic {}\n", join(tools));
  return 0;
}

}  // namespace
