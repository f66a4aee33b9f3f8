/* The loader's version, the project's (the file VERSION), written at build time into
 * build/loader/version.c. */
#ifndef APMOFF_LOADER_VERSION_H
#define APMOFF_LOADER_VERSION_H

extern const char loader_version[];

#endif
