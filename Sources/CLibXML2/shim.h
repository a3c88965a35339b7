#ifndef HEALTHPORT_CLIBXML2_SHIM_H
#define HEALTHPORT_CLIBXML2_SHIM_H
// Debian's libxml2 is built with ICU, and its encoding.h then includes <unicode/ucnv.h>, whose
// UErrorCode clashes with the one Foundation's own ICU module declares ("… is not present in
// definition of 'enum UErrorCode'"). healthport never uses libxml2's ICU converters (exports are
// UTF-8), so hide them: only xmlCharEncodingHandler's ICU fields depend on this, and healthport
// only ever holds that struct by pointer.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#endif
