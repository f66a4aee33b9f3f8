/* eagain.so: a regular file that answers EAGAIN to every read, as a link to
 * /proc/kmsg does while the kernel has nothing new (and only root may read that
 * one). tests/collect/test_bounds.py preloads it into the collector (LD_PRELOAD):
 * read() of a file whose name ends in ".eagain" fails with EAGAIN, every other read
 * is libc's. Host only; built by the test with the system compiler. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SUFFIX ".eagain"

static int answers_eagain(int fd)
{
    char link[64], name[4096];
    ssize_t n;

    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    n = readlink(link, name, sizeof name - 1);
    if (n < (ssize_t)strlen(SUFFIX))
        return 0;
    name[n] = '\0';
    return strcmp(name + n - strlen(SUFFIX), SUFFIX) == 0;
}

static ssize_t libc_read(int fd, void *buf, size_t count)
{
    static ssize_t (*real)(int, void *, size_t);

    if (!real)
        real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
    return real(fd, buf, count);
}

ssize_t read(int fd, void *buf, size_t count)
{
    if (answers_eagain(fd)) {
        errno = EAGAIN;
        return -1;
    }
    return libc_read(fd, buf, count);
}

/* The same read under _FORTIFY_SOURCE. */
ssize_t __read_chk(int fd, void *buf, size_t count, size_t buflen)
{
    (void)buflen;
    return read(fd, buf, count);
}
