#include "reader/run_as_owner.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace erkit::reader {

bool owner_of(const std::string& path, Owner* out) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0) return false;
  out->uid = st.st_uid;
  out->gid = st.st_gid;
  return true;
}

bool needs_owner_rights(const Owner& owner) { return geteuid() == 0 && owner.uid != 0; }

bool run_as_owner(const Owner& owner, const std::function<std::string()>& work, std::string* result,
                  std::string* error) {
  // Everything that may allocate or read the password database is done before fork.
  std::vector<gid_t> groups{owner.gid};
  if (const passwd* pw = getpwuid(owner.uid)) {
    int n = 64;
    groups.resize(size_t(n));
    if (getgrouplist(pw->pw_name, owner.gid, groups.data(), &n) < 0) {
      groups.resize(size_t(n));
      if (getgrouplist(pw->pw_name, owner.gid, groups.data(), &n) < 0) {
        n = 1;
        groups[0] = owner.gid;
      }
    }
    groups.resize(size_t(n));
  }
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) {
    *error = fmt::format("cannot create a pipe: {}", std::strerror(errno));
    return false;
  }
  fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    *error = fmt::format("cannot fork: {}", std::strerror(errno));
    close(p[0]);
    close(p[1]);
    return false;
  }
  if (pid == 0) {
    close(p[0]);
    // Groups first (needs root), then the group, then the user; each checked.
    if (setgroups(groups.size(), groups.data()) != 0 || setresgid(owner.gid, owner.gid, owner.gid) != 0 ||
        setresuid(owner.uid, owner.uid, owner.uid) != 0 || geteuid() != owner.uid || setuid(0) == 0)
      _exit(3);
    std::string out = work();
    const char* d = out.data();
    size_t left = out.size();
    while (left > 0) {
      ssize_t n = write(p[1], d, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) _exit(4);
      d += n;
      left -= size_t(n);
    }
    _exit(0);
  }
  close(p[1]);
  result->clear();
  char buf[65536];
  ssize_t n;
  while ((n = read(p[0], buf, sizeof buf)) != 0) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    result->append(buf, size_t(n));
  }
  close(p[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    *error = WIFEXITED(status) && WEXITSTATUS(status) == 3
                 ? fmt::format("cannot take the rights of the experiment's owner (uid {}, gid {})", owner.uid, owner.gid)
                 : "the process working with the experiment owner's rights failed";
    return false;
  }
  return true;
}

}  // namespace erkit::reader
