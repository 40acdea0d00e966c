// The cron expression of `@schedule(cron=...)`: five fields (minute hour day-of-month month
// day-of-week), each `*`, a value, a range or a list of them with an optional `/step`; month and
// day-of-week names (JAN, MON) in any case. Used by the @schedule check in decorators.cc. The
// fields' bounds and names are robfig/cron's, from compiler/rules/cron.h (validate's CronWorkflow
// check reads them too); the grammar, a subset of robfig's, and the words are the flow language's.
#ifndef FLOWC_GRAPH_CRON_H_
#define FLOWC_GRAPH_CRON_H_

#include <string>
#include <string_view>

namespace flowc::graph {

struct CronError {
  std::string why;   // follows "cron expression '...' " in a diagnostic; "" when valid
  std::string help;  // how to write it instead
};

// What is wrong with `cron` as a five-field expression, if anything.
CronError CheckCron(std::string_view cron);

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_CRON_H_
