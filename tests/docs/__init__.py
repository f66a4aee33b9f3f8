"""The pages checked against what apmoff does (`make test`'s docs steps) and the
blocks of them written from the build and from real runs (`make docs`)."""
