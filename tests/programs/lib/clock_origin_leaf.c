/* The library clock_origin_runpath / clock_origin_rpath load through $ORIGIN. */
int origin_leaf_value(void) { return 42; }
