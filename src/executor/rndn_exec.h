// rndn::exec — the PostgreSQL executor side of rndn: the "rndn" CustomScan (columnar loader,
// device, tuple output, EXPLAIN).  Included by src/planner_hook and module.cpp only.
#pragma once

extern "C" {
struct CustomScanMethods;
}

namespace rndn::exec {

// The plan-node methods of Custom Scan (rndn); registered once from _PG_init.
const CustomScanMethods *ScanMethods();
void RegisterScanMethods();

}  // namespace rndn::exec
