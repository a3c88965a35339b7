/*
 * The floor for any libxml2-based export reader: libxml2's push parser with SAX2 callbacks
 * that only count elements, fed 256 KiB chunks from read(2), as healthport feeds it.
 * Nothing can parse the XML faster through libxml2; healthport's time is reported as a
 * ratio to this program's, measured in the same run.
 *
 *   count_elements FILE   prints the number of elements
 */
#include <fcntl.h>
#include <libxml/parser.h>
#include <libxml/SAX2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long elements = 0;

static void start(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                  int nb_namespaces, const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
                  const xmlChar **attributes) {
    (void)ctx; (void)localname; (void)prefix; (void)uri; (void)nb_namespaces; (void)namespaces;
    (void)nb_attributes; (void)nb_defaulted; (void)attributes;
    elements++;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: count_elements FILE\n"); return 64; }
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) { perror(argv[1]); return 66; }
    xmlSAXHandler handler;
    memset(&handler, 0, sizeof handler);
    handler.initialized = XML_SAX2_MAGIC;
    handler.startElementNs = start;
    xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(&handler, NULL, NULL, 0, argv[1]);
    xmlCtxtUseOptions(ctxt, XML_PARSE_NONET);
    static char buffer[256 * 1024];
    ssize_t n;
    while ((n = read(fd, buffer, sizeof buffer)) > 0) {
        if (xmlParseChunk(ctxt, buffer, (int)n, 0) != 0) { fprintf(stderr, "parse error\n"); return 65; }
    }
    xmlParseChunk(ctxt, NULL, 0, 1);
    xmlFreeParserCtxt(ctxt);
    close(fd);
    printf("%ld\n", elements);
    return 0;
}
