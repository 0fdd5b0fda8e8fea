#ifndef WEBPOLICY_BUILD_INFO_H
#define WEBPOLICY_BUILD_INFO_H

/// The git commit this binary was built from, as Package.swift read it when SwiftPM evaluated
/// the manifest: 40 hex digits, "-dirty" appended when the tree had uncommitted changes; empty
/// when the sources were not a git checkout.
const char *webpolicy_build_commit(void);

#endif
