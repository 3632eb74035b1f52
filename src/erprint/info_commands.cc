#include "erprint/info_commands.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <cstdlib>

#include "erprint/command_groups.h"
#include "views/experiment_views.h"
#include "views/rank_views.h"

namespace erkit::erprint {
namespace {

// exp_id | all | nothing: the experiments (0-based) a command covers.
bool parse_experiments(Session& s, const std::string& cmd, const std::vector<std::string>& a,
                       std::vector<uint32_t>* out, bool* all, std::string* error) {
  const uint32_t n = uint32_t(s.profile().experiments().size());
  *all = !a.empty() && a[0] == "all";
  if (a.empty() || *all) {
    for (uint32_t x = 0; x < n; ++x) out->push_back(x);
    return true;
  }
  char* end = nullptr;
  long id = std::strtol(a[0].c_str(), &end, 10);
  if (a[0].empty() || *end || id < 1 || id > long(n)) {
    *error = fmt::format("{}: '{}' is not an experiment ID (1-{} or all; see experiment_list)", cmd, a[0], n);
    return false;
  }
  out->push_back(uint32_t(id - 1));
  return true;
}

CommandResult selection_list(Session& s, const std::string& cmd, selection::Target t) {
  auto& p = s.profile();
  if (s.format == OutputFormat::Json)
    return emit_report(s, cmd, "", views::selection_list_json(p, s.selections(), t));
  return emit_text(s, cmd, views::render_selection_list(p, s.selections(), t));
}

}  // namespace

void add_info_commands(std::vector<Command>& t) {
  t.push_back({"header", {}, 0, 1, "[exp_id|all]", "Describe each experiment (settings, target, how it ended)",
               [](Session& s, const auto& a) {
                 std::vector<uint32_t> xs;
                 bool all;
                 std::string error;
                 if (!parse_experiments(s, "header", a, &xs, &all, &error)) return command_error(error);
                 std::string text;
                 json::Value list = json::Value::array();
                 for (size_t i = 0; i < xs.size(); ++i) {
                   if (i) text += "------------------------------------------------------------\n";
                   text += views::render_header(s.profile(), xs[i]);
                   if (s.format == OutputFormat::Json) list.push(views::header_json(s.profile(), xs[i]));
                 }
                 return emit_report(s, "header", text, json::Value::object().set("experiments", std::move(list)));
               }});
  t.push_back({"experiment_list", {"exp_list"}, 0, 0, "", "List the loaded experiments with their IDs and PIDs",
               [](Session& s, const auto&) {
                 auto& p = s.profile();
                 return emit_report(s, "experiment_list", views::render_experiment_list(p, s.selections()),
                                    views::experiment_list_json(p, s.selections()));
               }});
  t.push_back({"rank_list", {}, 0, 0, "",
               "List the MPI ranks: MPI time against time outside MPI, sends, receives, bytes",
               [](Session& s, const auto&) {
                 auto& p = s.profile();
                 return emit_report(s, "rank_list", views::render_rank_list(p, s.selections()),
                                    views::rank_list_json(p, s.selections()));
               }});
  t.push_back({"sample_list", {}, 0, 0, "", "List the selected samples of each experiment",
               [](Session& s, const auto&) { return selection_list(s, "sample_list", selection::Target::Samples); }});
  t.push_back({"thread_list", {}, 0, 0, "", "List the selected threads",
               [](Session& s, const auto&) { return selection_list(s, "thread_list", selection::Target::Threads); }});
  t.push_back({"lwp_list", {}, 0, 0, "", "List the selected LWPs (kernel thread ids)",
               [](Session& s, const auto&) { return selection_list(s, "lwp_list", selection::Target::Lwps); }});
  t.push_back({"cpu_list", {}, 0, 0, "", "List the selected CPUs",
               [](Session& s, const auto&) { return selection_list(s, "cpu_list", selection::Target::Cpus); }});
  t.push_back({"overview", {}, 0, 1, "[exp_id|all]", "Show the sample data of each selected sample",
               [](Session& s, const auto& a) {
                 std::vector<uint32_t> xs;
                 bool all;
                 std::string error;
                 if (!parse_experiments(s, "overview", a, &xs, &all, &error)) return command_error(error);
                 auto& p = s.profile();
                 if (s.format == OutputFormat::Json)
                   return emit_report(s, "overview", "", views::overview_json(p, s.selections(), xs));
                 return emit_text(s, "overview", views::render_overview(p, s.selections(), xs));
               }});
  t.push_back({"statistics", {}, 0, 1, "[exp_id|all]", "Show execution statistics summed over the selected samples",
               [](Session& s, const auto& a) {
                 std::vector<uint32_t> xs;
                 bool all;
                 std::string error;
                 if (!parse_experiments(s, "statistics", a, &xs, &all, &error)) return command_error(error);
                 auto& p = s.profile();
                 bool each = all && xs.size() > 1;
                 if (s.format == OutputFormat::Json)
                   return emit_report(s, "statistics", "", views::statistics_json(p, s.selections(), xs, each));
                 return emit_text(s, "statistics", views::render_statistics(p, s.selections(), xs, each));
               }});
  t.push_back({"objects", {}, 0, 0, "", "List the load objects with problems met reading them",
               [](Session& s, const auto&) {
                 auto& p = s.profile();
                 return emit_report(s, "objects", views::render_objects(p, s.limit), views::objects_json(p, s.limit));
               }});
  t.push_back({"procstats", {}, 0, 0, "", "Show statistics of er_print's own processing",
               [](Session& s, const auto&) {
                 auto& p = s.profile();
                 size_t events = 0, stacks = 0;
                 for (const auto& e : p.experiments()) {
                   events += e.clock.size() + e.heap.size() + e.sync.size() + e.io.size();
                   stacks += e.stacks.size();
                 }
                 struct rusage ru {};
                 getrusage(RUSAGE_SELF, &ru);
                 double cpu = double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                              double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
                 const size_t aggs = p.aggregates().size();
                 std::string text = fmt::format(
                     "Experiments loaded:              {}\n"
                     "Events read:                     {}\n"
                     "Distinct stacks recorded:        {}\n"
                     "Distinct stacks after filtering: {}\n"
                     "Functions:                       {}\n"
                     "Load objects:                    {}\n"
                     "Distinct PCs symbolised:         {}\n"
                     "Commands processed:              {}\n"
                     "Time loading experiments:        {:.3f} s\n"
                     "CPU time used by er_print:       {:.3f} s\n"
                     "Maximum resident set:            {} KB\n",
                     p.experiments().size(), events, stacks, aggs, p.functions().size(),
                     p.functions().object_count() - 1, p.resolver().pcs().size(), s.stats.commands,
                     s.stats.load_seconds, cpu, ru.ru_maxrss);
                 return emit_report(s, "procstats", text,
                                    json::Value::object()
                                        .set("experiments", p.experiments().size())
                                        .set("events", events)
                                        .set("stacks", stacks)
                                        .set("aggregates", aggs)
                                        .set("functions", p.functions().size())
                                        .set("load_objects", p.functions().object_count() - 1)
                                        .set("pcs", p.resolver().pcs().size())
                                        .set("commands", s.stats.commands)
                                        .set("load_seconds", s.stats.load_seconds)
                                        .set("cpu_seconds", cpu)
                                        .set("maxrss_kb", long(ru.ru_maxrss)));
               }});
}

}  // namespace erkit::erprint
