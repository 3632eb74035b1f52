// The Collect window's back end (docs/analyzer.md, "Collect"): builds a `collect` command line
// from the form's fields, runs it without a shell (posix_spawn with an argv array), keeps its
// output, and sends the target the pause/resume (-y) and sample (-l) signals.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace erkit::analyzer {

// The form: each field empty = collect's default (the option is left out).
struct CollectRequest {
  std::string target;                // program path (required)
  std::vector<std::string> args;     // its arguments, each one argv word
  std::string clock;                 // -p off|on|lo|hi|<value>[m|u]
  std::string hwc;                   // -h counter[,interval][,counter...]
  std::string sync;                  // -s on|off|calibrate|all|<ms>
  std::string heap;                  // -H on|off
  std::string io;                    // -i on|off
  std::string samples;               // -S on|off|<seconds>
  std::string descendants;           // -F off|on|all
  std::string name;                  // -o <name>.er ("" = the next free test.N.er)
  std::string java;                  // -j on|off
  std::string java_args;             // -J "JVM arguments" (one word: collect splits it)
  std::string group;                 // -g <name>.erg (a plain file name of the run's directory)
  std::string archive;               // -A on|off|copy
  bool signals = true;               // -y SIGUSR1,r -l SIGUSR2 (the Pause/Resume and Sample buttons)
};

// The pause/resume and sample signals the window's buttons send.
inline constexpr const char* kPauseSignal = "SIGUSR1";
inline constexpr const char* kSampleSignal = "SIGUSR2";

// The experiment name `-o` gets: req.name when set (".er" appended when missing), else the next
// test.N.er not present in dir. "" with *error when the name is not a plain file name.
std::string experiment_name(const CollectRequest& req, const std::string& dir, std::string* error);

// argv of the collect run (argv[0] = "collect"), every option checked against collect's own
// grammar of values; false with *error naming the bad field.
bool collect_command(const CollectRequest& req, const std::string& dir, std::vector<std::string>* argv,
                     std::string* error);

// The command as a shell would need it typed (Preview Command): words quoted where needed.
std::string shell_quote_command(const std::vector<std::string>& argv);

class CollectRunner {
 public:
  CollectRunner() = default;
  ~CollectRunner();
  CollectRunner(const CollectRunner&) = delete;
  CollectRunner& operator=(const CollectRunner&) = delete;

  // Runs `program` with argv (argv[0] only names it) in dir, stdout and stderr captured. One run
  // at a time: false with *error while one is running or when it cannot start.
  bool start(const std::string& program, const std::vector<std::string>& argv, const std::string& dir,
             const std::string& experiment, std::string* error);

  struct Status {
    bool started = false, running = false;
    int exit_code = -1;    // when it ended by exit
    int term_signal = 0;   // when a signal ended it
    pid_t pid = 0;         // collect's pid
    std::string output;    // from the offset asked for
    size_t output_end = 0; // offset of the next byte
    std::string experiment;  // the experiment path it records (dir/name)
    std::vector<std::string> argv;
  };
  Status status(size_t from_offset);

  // Sends the target (collect's child) `sig`: "pause" / "resume" the -y signal, "sample" the -l
  // one. False with *error when nothing runs or the target is not (yet) there.
  bool signal(const std::string& what, std::string* error);

 private:
  void reader(int fd);
  pid_t target_pid();
  std::mutex mu_;
  std::thread thread_;
  Status st_;
};

}  // namespace erkit::analyzer
