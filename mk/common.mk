FUZZ_COMPS_common_status_fuzz := common
