// The view mode (er_print `viewmode`, seed-spec §6.9–6.10): how Java and OpenMP programs' stacks
// are shown. User: the program's logical structure; expert: the same with the runtime's own
// pieces (outlined functions, interpreted vs compiled) kept apart; machine: stacks as measured.
#pragma once
#include <cstdint>
#include <string>

namespace erkit::model {

enum class ViewMode : uint8_t { kUser, kExpert, kMachine };
// "user", "expert", "machine"; false for anything else.
bool parse_view_mode(const std::string& s, ViewMode* m);
const char* view_mode_name(ViewMode m);

}  // namespace erkit::model
