#ifndef APP_VERSION_H
#define APP_VERSION_H

/* Written by the build (Makefile: build/version.c) from scripts/version.sh: the release
 * number of the file VERSION, and the commit's first 12 hex digits, with "-dirty" when
 * the tree differed from it. A report sent in names both. */
extern const char apmoff_version[];
extern const char apmoff_commit[];

#endif
