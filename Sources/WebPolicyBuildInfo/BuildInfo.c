#include "WebPolicyBuildInfo.h"

// Package.swift defines it from `WEBPOLICY_BUILD_COMMIT` or the checkout's HEAD. C, because a
// Swift target's settings can define a flag but not give it a value.
#ifndef WEBPOLICY_BUILD_COMMIT
#define WEBPOLICY_BUILD_COMMIT ""
#endif

const char *webpolicy_build_commit(void) { return WEBPOLICY_BUILD_COMMIT; }
