// All rndn.* settings, defined in one place (guc.cpp).
#pragma once

namespace rndn::exec {

struct Settings {
    bool enabled = true;  // rndn.enabled
};

extern Settings g_settings;

// Define every rndn.* GUC; called once from _PG_init.
void DefineSettings();

}  // namespace rndn::exec
