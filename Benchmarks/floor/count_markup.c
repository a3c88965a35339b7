/*
 * The byte floor: what reading the file and finding every '<' costs, with memchr (which the C
 * library vectorizes), fed 256 KiB chunks from read(2) as healthport reads them. No parser can
 * read export.xml faster than it can find its markup; healthport's scanner is reported as a
 * ratio to this program's time too, measured in the same run (Benchmarks/run.sh).
 *
 *   count_markup FILE   prints the number of '<'
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: count_markup FILE\n"); return 64; }
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) { perror(argv[1]); return 66; }
    static char buffer[256 * 1024];
    long count = 0;
    ssize_t n;
    while ((n = read(fd, buffer, sizeof buffer)) > 0) {
        const char *p = buffer, *end = buffer + n;
        while ((p = memchr(p, '<', (size_t)(end - p))) != NULL) {
            count++;
            p++;
        }
    }
    close(fd);
    printf("%ld\n", count);
    return 0;
}
