// Doing work on another user's experiment with that user's rights, not root's: root running
// er_archive (or er_print archiving on first open) on an experiment someone handed it must not
// copy into it what only root may read, nor create files through links the owner planted.
#pragma once
#include <sys/types.h>

#include <functional>
#include <string>

namespace erkit::reader {

struct Owner {
  uid_t uid = 0;
  gid_t gid = 0;
};

// The owner of a file or directory (lstat); false if it cannot be examined.
bool owner_of(const std::string& path, Owner* out);

// True when `work` must run as `owner` rather than as this process: we are root (effective uid
// 0) and the owner is someone else.
bool needs_owner_rights(const Owner& owner);

// Runs `work` in a child process with the owner's user, group and supplementary groups (from
// the password database; only the primary group if the user is unknown), and returns what
// `work` returned. False, with `error` set, if the child could not start or drop its rights;
// nothing of `work` runs with root's rights in that case.
bool run_as_owner(const Owner& owner, const std::function<std::string()>& work, std::string* result,
                  std::string* error);

}  // namespace erkit::reader
