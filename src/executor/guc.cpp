extern "C" {
#include "postgres.h"

#include "utils/guc.h"
}

#include "executor/guc.h"

namespace rndn::exec {

Settings g_settings;

void DefineSettings() {
    DefineCustomBoolVariable("rndn.enabled", "Run eligible queries through rndn.",
                             "When off, every query runs on PostgreSQL's own plan.", &g_settings.enabled, true,
                             PGC_USERSET, 0, nullptr, nullptr, nullptr);
    MarkGUCPrefixReserved("rndn");
}

}  // namespace rndn::exec
